// The CUDA splat kernel against a CPU reference written from GL's point rules (vertex clipping, pixel
// centres inside the point's square, exp(-4 r^2) on the disc), in double precision with glm's matrices,
// on fresh random particles, cameras, sizes and draw strides, for every atomics variant. Their times are
// the lab's: `coalesce lab --only splat`. Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "kernels/device_buffer.h"
#include "render/orbit_camera.h"
#include "render/splat_kernel.h"
#include "sim/sprite_light.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

// A pixel's light from the reference: `lo` counts only the contributions whose pixel, clipping and
// sprite-size decisions are clear; `hi` adds those within kTie of a decision's boundary, which float
// rounding on the GPU may decide either way.
// The GPU's float window coordinates are taken as exact to kTie pixels: a Gaussian weight is bounded by
// its values kTie nearer and farther from the centre. `terms` counts each pixel's contributions, for the
// fp32 summation bound.
struct Bounds {
  std::vector<glm::dvec3> lo, hi;
  std::vector<int> terms;
};
constexpr double kTie = 2e-3;  // pixels (and relative, for the clip and the 2 px rule)

void add(Bounds& b, int pixel, const glm::dvec3& lo, const glm::dvec3& hi, bool tie) {
  b.hi[static_cast<size_t>(pixel)] += hi;
  if (!tie) b.lo[static_cast<size_t>(pixel)] += lo;
  ++b.terms[static_cast<size_t>(pixel)];
}

Bounds reference_splat(const std::vector<Float4>& packed, const SplatParams& p) {
  const size_t pixels_total = static_cast<size_t>(p.width) * p.height;
  Bounds b{std::vector<glm::dvec3>(pixels_total), std::vector<glm::dvec3>(pixels_total),
           std::vector<int>(pixels_total)};
  const glm::dmat4 view = glm::dmat4(glm::make_mat4(p.view));
  const glm::dmat4 projection = glm::dmat4(glm::make_mat4(p.projection));
  for (size_t i = 0; i < packed.size(); i += static_cast<size_t>(p.stride)) {
    const Float4 q = packed[i];
    const glm::dvec4 v = view * glm::dvec4(q.x, q.y, q.z, 1.0);
    const glm::dvec4 c = projection * v;
    const double bound = std::max({std::abs(c.x), std::abs(c.y), std::abs(c.z)});
    if (!(c.w > 0.0) || bound > c.w * (1.0 + kTie)) continue;
    bool tie = bound > c.w * (1.0 - kTie);
    const double xw = (c.x / c.w * 0.5 + 0.5) * p.width;
    const double yw = (c.y / c.w * 0.5 + 0.5) * p.height;
    const double pixels = p.point_size * projection[1][1] * 0.5 * p.height / std::max(-v.z, 1e-3);
    const Rgb rgb = colour_map(q.w * p.speed_scale);
    const glm::dvec3 colour(rgb.r, rgb.g, rgb.b);
    // Within kTie of 2 px either rule may be the GPU's: both go into `hi`, neither into `lo`.
    const bool threshold_tie = std::abs(pixels - kFlatPointPixels) < kTie * kFlatPointPixels;
    if (pixels < kFlatPointPixels || threshold_tie) {
      // A 1-pixel point lights the pixel containing (xw, yw); within kTie of a pixel edge, either side.
      const glm::dvec3 light = colour * (p.intensity * kGaussianFill * pixels * pixels);
      const int x0 = static_cast<int>(std::floor(xw - kTie)), x1 = static_cast<int>(std::floor(xw + kTie));
      const int y0 = static_cast<int>(std::floor(yw - kTie)), y1 = static_cast<int>(std::floor(yw + kTie));
      const bool edge = x0 != x1 || y0 != y1;
      for (int py = std::max(0, y0); py <= std::min(p.height - 1, y1); ++py)
        for (int px = std::max(0, x0); px <= std::min(p.width - 1, x1); ++px)
          add(b, py * p.width + px, light, light, tie || edge || threshold_tie);
    }
    if (pixels < kFlatPointPixels && !threshold_tie) continue;
    const double size =
        std::min<double>(std::max(pixels, static_cast<double>(kFlatPointPixels)), p.max_pixels);
    for (int y = std::max(0, static_cast<int>(yw - size));
         y < std::min(p.height, static_cast<int>(yw + size) + 1); ++y) {
      for (int x = std::max(0, static_cast<int>(xw - size));
           x < std::min(p.width, static_cast<int>(xw + size) + 1); ++x) {
        // GL: the fragment exists when its centre is inside the point's square; particles.frag keeps
        // gl_PointCoord's disc r <= 1 and weighs it by exp(-4 r^2).
        const double dx = (x + 0.5 - xw) / (0.5 * size), dy = (y + 0.5 - yw) / (0.5 * size);
        const double r2 = dx * dx + dy * dy;
        const double edge_x = std::abs(std::abs(x + 0.5 - xw) - 0.5 * size);
        const double edge_y = std::abs(std::abs(y + 0.5 - yw) - 0.5 * size);
        const bool edge = edge_x < kTie || edge_y < kTie || std::abs(r2 - 1.0) < 4 * kTie / size;
        if (std::abs(x + 0.5 - xw) > 0.5 * size + kTie || std::abs(y + 0.5 - yw) > 0.5 * size + kTie ||
            r2 > 1.0 + 4 * kTie / size)
          continue;
        const double r = std::sqrt(r2), unit = kTie / (0.5 * size);
        const double far = r + unit, near = std::max(0.0, r - unit);
        add(b, y * p.width + x, colour * (p.intensity * std::exp(-4.0 * far * far)),
            colour * (p.intensity * std::exp(-4.0 * near * near)), tie || edge || threshold_tie);
      }
    }
  }
  return b;
}

std::vector<Float4> random_cloud(TestRng& rng, int n, float spread) {
  std::vector<Float4> v(static_cast<size_t>(n));
  for (Float4& q : v)
    q = {rng.uniform(-spread, spread), rng.uniform(-spread, spread), rng.uniform(-spread, spread),
         rng.uniform(0.0f, 2.0f)};
  return v;
}

SplatParams random_params(TestRng& rng, int particles) {
  OrbitCamera camera(1.0f);
  camera.rotate(rng.uniform(-400.0f, 400.0f), rng.uniform(-200.0f, 200.0f));
  camera.zoom(rng.uniform(-3.0f, 3.0f));
  SplatParams p;
  p.width = rng.uniform_int(64, 400);
  p.height = rng.uniform_int(48, 300);
  const glm::mat4 view = camera.view();
  const glm::mat4 projection = camera.projection(static_cast<float>(p.width) / p.height);
  std::copy(glm::value_ptr(view), glm::value_ptr(view) + 16, p.view);
  std::copy(glm::value_ptr(projection), glm::value_ptr(projection) + 16, p.projection);
  p.particles = particles;
  p.stride = rng.uniform_int(1, 4);
  // From well under 2 px (flat) to several pixels (Gaussian, some clamped at max_pixels).
  p.point_size = std::exp(rng.uniform(std::log(0.002f), std::log(0.2f)));
  p.speed_scale = rng.uniform(0.3f, 1.5f);
  p.intensity = rng.uniform(0.1f, 2.0f);
  p.max_pixels = rng.uniform(3.0f, 24.0f);
  return p;
}

std::vector<Float4> gpu_splat(const std::vector<Float4>& packed, const SplatParams& p, SplatAtomics atomics) {
  DeviceBuffer<Float4> in(packed.size());
  DeviceBuffer<Float4> light(static_cast<size_t>(p.width) * p.height);
  COALESCE_CUDA_CHECK(cudaMemcpy(in.data(), packed.data(), in.bytes(), cudaMemcpyHostToDevice));
  COALESCE_CUDA_CHECK(cudaMemset(light.data(), 0, light.bytes()));
  launch_splat(in.data(), p, light.data(), atomics, nullptr);
  std::vector<Float4> out(light.size());
  COALESCE_CUDA_CHECK(cudaMemcpy(out.data(), light.data(), light.bytes(), cudaMemcpyDeviceToHost));
  return out;
}

// fp32 atomics add a pixel's terms in any order: the sum is within (terms x 2^-24) of the exact one,
// relative (the recursive-summation bound); 1e-5 relative covers each term's own float arithmetic (the
// colour map, the projection's scale), 1e-6 absolute the almost-dark pixels.
constexpr double kTermRelative = 1e-5;
constexpr double kAbsolute = 1e-6;

void expect_within(const std::vector<Float4>& gpu, const Bounds& ref, const char* what) {
  int bad = 0;
  double total_ref = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    const double g[3] = {gpu[i].x, gpu[i].y, gpu[i].z};
    total_ref += ref.lo[i].x + ref.lo[i].y + ref.lo[i].z;
    const double relative = kTermRelative + ref.terms[i] * std::ldexp(1.0, -24);
    for (int c = 0; c < 3; ++c) {
      const double lo = ref.lo[i][c] * (1 - relative) - kAbsolute;
      const double hi = ref.hi[i][c] * (1 + relative) + kAbsolute;
      if ((g[c] < lo || g[c] > hi) && bad++ < 5)
        ADD_FAILURE() << what << ": pixel " << i << " channel " << c << " = " << g[c] << ", reference ["
                      << ref.lo[i][c] << ", " << ref.hi[i][c] << "]";
    }
    EXPECT_EQ(gpu[i].w, 0.0f) << what << ": the w lane is unused";
  }
  EXPECT_EQ(bad, 0) << what << ": pixels outside the reference (" << gpu.size() << " pixels)";
  EXPECT_GT(total_ref, 0.0) << what << ": the random scene put no light on screen";
}

constexpr SplatAtomics kAllAtomics[] = {SplatAtomics::Scalar, SplatAtomics::Vector,
                                        SplatAtomics::WarpAggregated};

TEST(SplatKernel, MatchesTheCpuReferenceOnRandomScenes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int trial = 0; trial < size_or_quick(12, 2); ++trial) {
    const int n = rng.uniform_int(1, size_or_quick(200000, 5000));
    const std::vector<Float4> packed = random_cloud(rng, n, rng.uniform(0.3f, 2.0f));
    const SplatParams p = random_params(rng, n);
    const Bounds ref = reference_splat(packed, p);
    for (SplatAtomics a : kAllAtomics) {
      SCOPED_TRACE(::testing::Message()
                   << "trial " << trial << ", N " << n << ", " << to_string(a) << ", " << p.width << " x "
                   << p.height << ", stride " << p.stride << ", size " << p.point_size);
      expect_within(gpu_splat(packed, p, a), ref, to_string(a));
    }
  }
}

// Many particles on a few pixels: the contended case that the warp-aggregated variant exists for.
TEST(SplatKernel, MatchesTheReferenceWhenParticlesPileUp) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = size_or_quick(300000, 8000);
  const std::vector<Float4> packed = random_cloud(rng, n, 0.003f);  // a few pixels across at the centre
  SplatParams p = random_params(rng, n);
  p.point_size = 0.001f;  // flat
  p.stride = 1;
  const Bounds ref = reference_splat(packed, p);
  for (SplatAtomics a : kAllAtomics) expect_within(gpu_splat(packed, p, a), ref, to_string(a));
}

TEST(SplatKernel, EmptyAndOffscreenInputsAddNothing) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  SplatParams p = random_params(rng, 0);
  for (const Float4& q : gpu_splat({{0, 0, 0, 1}}, p, SplatAtomics::Vector)) EXPECT_EQ(q.x + q.y + q.z, 0.0f);
  std::vector<Float4> behind = random_cloud(rng, 1000, 1.0f);
  p = random_params(rng, 1000);
  const glm::vec3 eye = glm::inverse(glm::make_mat4(p.view))[3];
  for (Float4& q : behind) {  // everything far behind the camera
    q.x = eye.x * 50.0f;
    q.y = eye.y * 50.0f;
    q.z = eye.z * 50.0f;
  }
  for (const Float4& q : gpu_splat(behind, p, SplatAtomics::Vector)) EXPECT_EQ(q.x + q.y + q.z, 0.0f);
}

}  // namespace
}  // namespace coalesce::testing
