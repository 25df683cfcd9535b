// Sprite size and light versus N.
#include "render/sprite_scale.h"

#include <algorithm>
#include <cmath>

namespace coalesce {

SpriteScale sprite_scale(double particles) {
  if (!(particles > kSpriteReferenceParticles)) return {};
  const double size = std::sqrt(kSpriteReferenceParticles / particles);
  return {static_cast<float>(size), static_cast<float>(1.0 / (size * size))};
}

double sprite_fragments(const DrawnSprite& sprite) {
  return static_cast<double>(sprite.point_size) * sprite.point_size;
}

}  // namespace coalesce
