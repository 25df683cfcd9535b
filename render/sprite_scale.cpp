// Sprite size and light versus N, and the per-vertex size rule mirrored from shaders/particles.vert.
#include "render/sprite_scale.h"

#include <algorithm>
#include <cmath>

namespace coalesce {

SpriteScale sprite_scale(double particles) {
  if (!(particles > kSpriteReferenceParticles)) return {};
  const double size = std::sqrt(kSpriteReferenceParticles / particles);
  return {static_cast<float>(size), static_cast<float>(1.0 / (size * size))};
}

DrawnSprite drawn_sprite(float projected_pixels, float max_pixels) {
  const float pixels = std::max(projected_pixels, 0.0f);
  if (pixels < kFlatPointPixels) {
    // One fragment carries the light the Gaussian would have spread over pixels^2 x kGaussianFill.
    return {1.0f, kGaussianFill * pixels * pixels, true};
  }
  // Clamped at the top: the sprite keeps its per-pixel light (close particles must not flare).
  return {std::min(pixels, max_pixels), 1.0f, false};
}

double sprite_fragments(const DrawnSprite& sprite) {
  return static_cast<double>(sprite.point_size) * sprite.point_size;
}

}  // namespace coalesce
