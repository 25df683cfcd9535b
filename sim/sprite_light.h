// The light one particle adds to the picture, written once for every path that draws it: the colour map,
// the flat-sprite rule and their constants. Host-device, so the CUDA splat kernel, the CPU mirror in
// render/sprite_scale and the tests use this code, and the GL shader receives the same numbers as uniforms.
#pragma once

#include "sim/common.h"

namespace coalesce {

// Sprites narrower than this are drawn as single flat pixels: a Gaussian over 1-3 pixels is invisible.
constexpr float kFlatPointPixels = 2.0f;
// The Gaussian exp(-4 r^2) over the unit disk, as a fraction of the sprite's square: pi (1 - e^-4) / 16.
constexpr float kGaussianFill = 0.19277f;

// Deep blue -> violet -> orange -> pale yellow: slow particles cool, fast ones hot. Stop i sits at `at`
// of the map; between stops the colour is linear. A switch, not an array: device code cannot index a
// host constexpr array at run time.
constexpr int kColourStops = 4;
struct ColourStop {
  float at, r, g, b;
};
HOST_DEVICE constexpr ColourStop colour_stop(int i) {
  switch (i) {
    case 0:
      return {0.0f, 0.10f, 0.18f, 0.60f};
    case 1:
      return {0.33f, 0.45f, 0.25f, 0.85f};
    case 2:
      return {0.66f, 1.00f, 0.45f, 0.20f};
    default:
      return {1.0f, 1.00f, 0.90f, 0.60f};
  }
}

struct Rgb {
  float r, g, b;
};

// The colour map at t (clamped to [0, 1]), as particles.vert's colour_map computes it.
HOST_DEVICE inline Rgb colour_map(float t) {
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  int i = 0;
  while (i < kColourStops - 2 && t >= colour_stop(i + 1).at) ++i;
  const ColourStop a = colour_stop(i);
  const ColourStop b = colour_stop(i + 1);
  const float f = (t - a.at) / (b.at - a.at);
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

// What a particle of a projected diameter (pixels) is drawn as: the point size, the factor on its light,
// and whether it is one flat pixel; a particle contributes kGaussianFill x projected^2 in total, drawn as a
// Gaussian sprite or as one flat pixel (sprites clamped at max_pixels keep their per-pixel light).
struct DrawnSprite {
  float point_size = 1.0f;
  float light = 1.0f;
  bool flat = false;  // one pixel, no Gaussian
};

HOST_DEVICE inline DrawnSprite drawn_sprite(float projected_pixels, float max_pixels) {
  const float pixels = projected_pixels > 0.0f ? projected_pixels : 0.0f;
  // One fragment carries the light the Gaussian would have spread over pixels^2 x kGaussianFill.
  if (pixels < kFlatPointPixels) return {1.0f, kGaussianFill * pixels * pixels, true};
  // Clamped at the top: the sprite keeps its per-pixel light (close particles must not flare).
  return {pixels < max_pixels ? pixels : max_pixels, 1.0f, false};
}

}  // namespace coalesce
