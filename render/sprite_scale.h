// The rule that keeps the particle pass's fragment count bounded as N grows: sprites shrink as
// 1/sqrt(N) beyond a reference N and carry proportionally more light, so the image keeps its brightness
// while the GPU shades about the same number of fragments. The per-vertex rule (drawn_sprite) and its
// constants are in sim/sprite_light.h, shared with the CUDA splat; particles.vert gets them as uniforms.
#pragma once

#include "sim/sprite_light.h"

namespace coalesce {

// Up to this N sprites keep their full size (about 4 px across at the default camera, ~17 fragments
// each); beyond it, N x sprite area stays at this N's value (about 17M fragments at 1600 x 900).
constexpr double kSpriteReferenceParticles = 1048576.0;
// The largest sprite at full size, in pixels; shrinks with the sprite so close-ups stay bounded too.
constexpr float kMaxSpritePixels = 64.0f;

struct SpriteScale {
  float size = 1.0f;       // factor on the world-space sprite diameter
  float intensity = 1.0f;  // factor on the per-particle light (1 / size^2: the same light per particle)
};

SpriteScale sprite_scale(double particles);

// Fragment shader invocations of one sprite (its square, before the Gaussian's discard).
double sprite_fragments(const DrawnSprite& sprite);

}  // namespace coalesce
