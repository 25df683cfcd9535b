// The rule that keeps the particle pass's fragment count bounded as N grows: sprites shrink as
// 1/sqrt(N) beyond a reference N and carry proportionally more light, so the image keeps its brightness
// while the GPU shades about the same number of fragments. Pure functions, mirrored by particles.vert.
#pragma once

namespace coalesce {

// Up to this N sprites keep their full size (about 4 px across at the default camera, ~17 fragments
// each); beyond it, N x sprite area stays at this N's value (about 17M fragments at 1600 x 900).
constexpr double kSpriteReferenceParticles = 1048576.0;
// The largest sprite at full size, in pixels; shrinks with the sprite so close-ups stay bounded too.
constexpr float kMaxSpritePixels = 64.0f;
// Sprites narrower than this are drawn as single flat pixels: a Gaussian over 1-3 pixels is invisible.
constexpr float kFlatPointPixels = 2.0f;
// The Gaussian exp(-4 r^2) over the unit disk, as a fraction of the sprite's square: pi (1 - e^-4) / 16.
constexpr float kGaussianFill = 0.19277f;

struct SpriteScale {
  float size = 1.0f;       // factor on the world-space sprite diameter
  float intensity = 1.0f;  // factor on the per-particle light (1 / size^2: the same light per particle)
};

SpriteScale sprite_scale(double particles);

// What particles.vert does with a projected diameter (pixels): the point size it draws and the factor
// on its light, so that a particle contributes kGaussianFill x projected^2 in total, drawn as a
// Gaussian sprite or as one flat pixel (sprites clamped at max_pixels keep their per-pixel light).
struct DrawnSprite {
  float point_size = 1.0f;
  float light = 1.0f;
  bool flat = false;  // one pixel, no Gaussian
};
DrawnSprite drawn_sprite(float projected_pixels, float max_pixels);

// Fragment shader invocations of one sprite (its square, before the Gaussian's discard).
double sprite_fragments(const DrawnSprite& sprite);

}  // namespace coalesce
