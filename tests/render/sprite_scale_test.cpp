// The sprite rule that bounds the particle pass's fragments: size falls as 1/sqrt(N) beyond the
// reference N, light per particle stays the same, and tiny sprites become one flat pixel.
#include <gtest/gtest.h>

#include <cmath>

#include "render/sprite_scale.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

// Default camera: 4.07 px across at 0.012 R world size, 3.2 R away, 45 degrees, 900 px high.
constexpr float kFullSizePixels = 4.07f;

TEST(SpriteScale, FullSizeUpToTheReferenceN) {
  TestRng rng;
  for (int i = 0; i < 200; ++i) {
    const double n = rng.uniform_int(1, static_cast<int>(kSpriteReferenceParticles));
    const SpriteScale s = sprite_scale(n);
    EXPECT_EQ(s.size, 1.0f) << "N = " << n << " seed " << rng.seed();
    EXPECT_EQ(s.intensity, 1.0f) << "N = " << n;
  }
}

TEST(SpriteScale, FragmentsStayBoundedAndLightIsKept) {
  TestRng rng;
  for (int i = 0; i < 500; ++i) {
    // Up to 64M particles, drawn log-uniformly so every decade is covered.
    const double n = std::exp(rng.uniform(std::log(1.0f), std::log(6.7e7f)));
    const SpriteScale s = sprite_scale(n);
    ASSERT_GT(s.size, 0.0f);
    EXPECT_LE(s.size, 1.0f);
    // N x sprite area never exceeds the reference N's (within float rounding).
    EXPECT_LE(n * s.size * s.size, kSpriteReferenceParticles * (1.0 + 1e-5)) << "N = " << n;
    // Light per particle is unchanged: intensity x area = 1.
    EXPECT_NEAR(s.intensity * s.size * s.size, 1.0, 1e-5) << "N = " << n;
    // Larger N never gets larger sprites.
    const double m = n * (1.0 + rng.uniform(0.0f, 3.0f));
    EXPECT_LE(sprite_scale(m).size, s.size) << "N = " << n << " vs " << m;
  }
}

TEST(SpriteScale, DrawnSpriteConservesLightAndHasAtLeastOnePixel) {
  TestRng rng;
  for (int i = 0; i < 500; ++i) {
    const float projected = rng.uniform(0.0f, 100.0f);
    const float max_pixels = rng.uniform(8.0f, 64.0f);
    const DrawnSprite d = drawn_sprite(projected, max_pixels);
    EXPECT_GE(d.point_size, 1.0f);
    EXPECT_LE(d.point_size, std::max(1.0f, max_pixels));
    EXPECT_EQ(d.flat, projected < kFlatPointPixels) << projected;
    // Light delivered: one flat pixel x light, or the Gaussian's fill of the sprite square x light.
    const double delivered =
        d.flat ? d.light : static_cast<double>(kGaussianFill) * d.point_size * d.point_size * d.light;
    const double wanted = static_cast<double>(kGaussianFill) * projected * projected;
    if (projected <= max_pixels) {
      EXPECT_NEAR(delivered, wanted, 1e-4 * std::max(1.0, wanted)) << "projected " << projected;
    } else {
      EXPECT_LT(delivered, wanted) << "sprites clamped at the top keep their per-pixel light";
    }
  }
}

TEST(SpriteScale, SixteenMillionParticlesCostOneFragmentEach) {
  // The estimate quoted in docs/viewer.md: about 17 fragments per particle before, 1 after.
  const double n = 16777216.0;
  const double before = sprite_fragments(drawn_sprite(kFullSizePixels, kMaxSpritePixels));
  const double after =
      sprite_fragments(drawn_sprite(kFullSizePixels * sprite_scale(n).size, kMaxSpritePixels));
  EXPECT_NEAR(before, 16.6, 0.1);
  EXPECT_EQ(after, 1.0);
  EXPECT_LT(n * after, n * before / 16.0);
}

}  // namespace
}  // namespace coalesce::testing
