// The splat experiment: on a disk and on a cube of side^2 / 4 particles, the same launch with every
// particle clipped (the read and the projection alone), then each atomics variant; every variant's picture
// is checked against the scalar one's, and the clipped launch must light nothing.
#include "app/lab/lab_splat.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "app/lab/lab_splat_scene.h"
#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"
#include "kernels/lab/lab_timing.h"

namespace coalesce::lab {
namespace {

using Picture = std::vector<Float4>;

constexpr const char* kScenes[] = {"disk", "cube"};
constexpr const char* kClipped = "all clipped (read + project)";
const char* const kSplatFormula = "N x 16 B (each packed record read once; the pixels' atomics not counted)";
// fp32 atomics add a pixel's terms in another order each launch: sums of n positive terms agree within
// (n - 1) 2^-24 relative, so 1e-3 holds for up to 16,777 terms a pixel, and about sqrt(n) 2^-24 beyond.
constexpr float kAgreement = 1e-3f;

std::string text(const char* format, double a, double b = 0, double c = 0) {
  char out[320];  // the lesson's sentence is the longest
  std::snprintf(out, sizeof out, format, a, b, c);
  return out;
}

std::string variant_name(const char* scene, SplatAtomics atomics) {
  return std::string(scene) + ", " + to_string(atomics) + " atomics";
}

// One launch on a cleared light buffer, read back.
Picture drawn(const DeviceBuffer<Float4>& packed, const SplatParams& p, DeviceBuffer<Float4>& light,
              SplatAtomics atomics) {
  COALESCE_CUDA_CHECK(cudaMemset(light.data(), 0, light.bytes()));
  launch_splat(packed.data(), p, light.data(), atomics, nullptr);
  Picture picture(light.size());
  COALESCE_CUDA_CHECK(cudaMemcpy(picture.data(), light.data(), light.bytes(), cudaMemcpyDeviceToHost));
  return picture;
}

bool dark(const Picture& picture) {
  return std::all_of(picture.begin(), picture.end(), [](const Float4& q) {
    return q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 0.0f;
  });
}

// Light is a sum of positive terms, so finite and never negative; w is unused; the scene lights something.
bool plausible(const Picture& picture) {
  double total = 0;
  for (const Float4& q : picture) {
    for (const float c : {q.x, q.y, q.z})
      if (!(c >= 0.0f) || !std::isfinite(c)) return false;
    if (q.w != 0.0f) return false;
    total += double(q.x) + q.y + q.z;
  }
  return total > 0;
}

bool agrees(const Picture& picture, const Picture& reference) {
  for (std::size_t i = 0; i < picture.size(); ++i) {
    const float a[] = {picture[i].x, picture[i].y, picture[i].z};
    const float b[] = {reference[i].x, reference[i].y, reference[i].z};
    for (int c = 0; c < 3; ++c)
      if (!(std::fabs(a[c] - b[c]) <= kAgreement * std::max(a[c], b[c]))) return false;
  }
  return true;
}

std::vector<LabRow> scene_rows(const LabContext& context, const char* scene,
                               const std::vector<Float4>& host) {
  const SplatParams p = splat_view(static_cast<int>(host.size()));
  DeviceBuffer<Float4> packed(host.size());
  DeviceBuffer<Float4> light(static_cast<std::size_t>(p.width) * p.height);
  COALESCE_CUDA_CHECK(cudaMemcpy(packed.data(), host.data(), packed.bytes(), cudaMemcpyHostToDevice));
  const double bytes = static_cast<double>(packed.bytes());
  // The timed launches add onto the light of the ones before: the atomics cost the same on any value.
  auto time = [&](const SplatParams& params, SplatAtomics atomics) {
    return timed_row([&] { launch_splat(packed.data(), params, light.data(), atomics, nullptr); }, context);
  };
  SplatParams clipped = p;
  clipped.projection[14] = 1e9f;  // every particle outside the clip volume: no pixel, no atomic
  const bool clipped_ok = dark(drawn(packed, clipped, light, SplatAtomics::Vector));
  const TimedRow clipped_time = time(clipped, SplatAtomics::Vector);
  const Picture scalar = drawn(packed, p, light, SplatAtomics::Scalar);
  const TimedRow scalar_time = time(p, SplatAtomics::Scalar);
  const Picture vector = drawn(packed, p, light, SplatAtomics::Vector);
  const TimedRow vector_time = time(p, SplatAtomics::Vector);
  const Picture warp = drawn(packed, p, light, SplatAtomics::WarpAggregated);
  const TimedRow warp_time = time(p, SplatAtomics::WarpAggregated);
  auto row = [&](std::string variant, const TimedRow& timed, bool ok, std::string note) {
    LabRow r = make_row(context, "splat", std::move(variant), timed, bytes, kSplatFormula, "", ok);
    r.note = std::move(note);
    return r;
  };
  return {
      row(std::string(scene) + ", " + kClipped, clipped_time, clipped_ok,
          text("x%.3f the vector time: the read and projection under every variant",
               clipped_time.ms / vector_time.ms)),
      row(variant_name(scene, SplatAtomics::Scalar), scalar_time, plausible(scalar), ""),
      row(variant_name(scene, SplatAtomics::Vector), vector_time, plausible(vector) && agrees(vector, scalar),
          text("x%.3f the scalar time", vector_time.ms / scalar_time.ms)),
      row(variant_name(scene, SplatAtomics::WarpAggregated), warp_time,
          plausible(warp) && agrees(warp, scalar),
          text("x%.3f the vector time", warp_time.ms / vector_time.ms))};
}

std::vector<LabRow> run_splat_experiment(const LabContext& context) {
  const int particles = splat_particles(context.settings.side);
  std::vector<LabRow> rows = scene_rows(context, kScenes[0], splat_disk(particles, context.settings.seed));
  const std::vector<LabRow> cube =
      scene_rows(context, kScenes[1], splat_cube(particles, context.settings.seed));
  rows.insert(rows.end(), cube.begin(), cube.end());
  return rows;
}

const LabRow* row_named(const std::vector<LabRow>& rows, const std::string& variant) {
  for (const LabRow& row : rows)
    if (row.variant == variant) return &row;
  return nullptr;
}

std::string measured_splat(const std::vector<LabRow>& rows) {
  std::string out;
  for (const char* scene : kScenes) {
    const LabRow* clipped = row_named(rows, std::string(scene) + ", " + kClipped);
    const LabRow* scalar = row_named(rows, variant_name(scene, SplatAtomics::Scalar));
    const LabRow* vector = row_named(rows, variant_name(scene, SplatAtomics::Vector));
    const LabRow* warp = row_named(rows, variant_name(scene, SplatAtomics::WarpAggregated));
    for (const LabRow* row : {clipped, scalar, vector, warp})
      if (row == nullptr || !(row->time_ms > 0)) return "";
    out +=
        (out.empty() ? "on the " : "; on the ") + std::string(scene) +
        text(
            " the vector atomic ran %.2fx as fast as three scalar ones, warp aggregation %.2fx the vector, "
            "and the read and projection alone took %.0f%% of the vector splat's time",
            scalar->time_ms / vector->time_ms, vector->time_ms / warp->time_ms,
            100.0 * clipped->time_ms / vector->time_ms);
  }
  return out;
}

}  // namespace

std::vector<LabExperiment> splat_experiments() {
  return {{"splat", "CUDA splat: scalar vs float4 vs warp-aggregated atomics", kSplatFormula,
           "one float4 atomicAdd per pixel (sm_90 and later) does the work of three scalar ones; summing a "
           "warp's lanes that hit one pixel first pays only where consecutive particles share a pixel",
           "art. 000-004 quote no atomics figure: the splat is the viewer's own kernel (docs/viewer.md)",
           measured_splat, run_splat_experiment}};
}

}  // namespace coalesce::lab
