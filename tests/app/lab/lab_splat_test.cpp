// The lab's splat experiment: its scenes and view on the host (no device), and a run at --size 256 on a
// device: both scenes, every variant in order, each row checked (the clipped launch dark, every variant's
// picture the scalar one's), its bytes the formula's, its note a ratio, and its JSON row as the table's.
// What it measures is not asserted: times belong to `coalesce lab --only splat`, not to a test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "app/lab/lab_registry.h"
#include "app/lab/lab_report.h"
#include "app/lab/lab_runner.h"
#include "app/lab/lab_splat_scene.h"
#include "sim/sprite_light.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::lab {
namespace {

// The projected diameter of a particle at the camera's target, as the splat kernel computes it.
float pixels_at_centre(const SplatParams& p) {
  return p.point_size * p.projection[5] * 0.5f * static_cast<float>(p.height) / -p.view[14];
}

TEST(LabSplatScene, ScalesWithTheSideAndDrawsAsTheViewer) {
  EXPECT_EQ(splat_particles(8192), 1 << 24);  // the default --size: the viewer's 16.8M
  EXPECT_EQ(splat_particles(256), 16384);
  EXPECT_EQ(splat_particles(16384), 1 << 26);
  const SplatParams large = splat_view(1 << 24);
  EXPECT_EQ(large.width, 1130);
  EXPECT_EQ(large.height, 900);
  EXPECT_EQ(large.particles, 1 << 24);
  EXPECT_EQ(large.stride, 1);
  // At 16.8M the viewer draws one flat pixel per particle; at 16384, Gaussian sprites: the lab's small
  // runs take the kernel's other path.
  EXPECT_LT(pixels_at_centre(large), kFlatPointPixels);
  EXPECT_GT(pixels_at_centre(splat_view(16384)), kFlatPointPixels);
}

TEST(LabSplatScene, ScenesFollowTheSeedAndStayInTheirShapes) {
  testing::TestRng rng;
  const std::uint32_t seed = static_cast<std::uint32_t>(rng.engine()());
  const int n = rng.uniform_int(1, 5000);
  const std::vector<Float4> disk = splat_disk(n, seed);
  const std::vector<Float4> cube = splat_cube(n, seed);
  ASSERT_EQ(disk.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(cube.size(), static_cast<std::size_t>(n));
  for (const Float4& q : disk) {
    EXPECT_LE(std::abs(q.z), 0.03f);
    EXPECT_LT(std::hypot(q.x, q.y), 4.0f);  // -0.5 ln(0.001) = 3.45
    EXPECT_GT(q.w, 0.0f);
    EXPECT_TRUE(std::isfinite(q.w));
  }
  for (const Float4& q : cube)
    for (const float c : {q.x, q.y, q.z}) EXPECT_TRUE(c >= -1.0f && c <= 1.0f) << c;
  EXPECT_EQ(splat_disk(n, seed)[static_cast<std::size_t>(n - 1)].x, disk.back().x) << "same seed, same disk";
  const std::vector<Float4> other = splat_cube(n, seed + 1);
  int same = 0;
  for (int i = 0; i < n; ++i)
    same += other[static_cast<std::size_t>(i)].x == cube[static_cast<std::size_t>(i)].x;
  EXPECT_LT(same, n) << "another seed, another cube";
}

TEST(LabSplat, EveryVariantOnBothScenesIsCheckedAtASmallSize) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  LabSettings settings;
  settings.side = 256;
  settings.repeats = 3;
  settings.seed = static_cast<std::uint32_t>(rng.engine()());
  const LabExperiment* splat = find_lab_experiment("splat");
  ASSERT_NE(splat, nullptr);
  const LabRun run = run_experiments(settings, {splat});
  const std::vector<std::string> variants = {"disk, all clipped (read + project)",
                                             "disk, scalar atomics",
                                             "disk, vector atomics",
                                             "disk, warp-aggregated atomics",
                                             "cube, all clipped (read + project)",
                                             "cube, scalar atomics",
                                             "cube, vector atomics",
                                             "cube, warp-aggregated atomics"};
  ASSERT_EQ(run.rows.size(), variants.size());
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const LabRow& row = run.rows[i];
    EXPECT_EQ(row.experiment, "splat");
    EXPECT_EQ(row.variant, variants[i]);
    EXPECT_TRUE(row.check_ok) << row.variant << " (seed " << settings.seed << ")";
    EXPECT_GT(row.time_ms, 0.0) << row.variant;
    EXPECT_DOUBLE_EQ(row.bytes, 16.0 * splat_particles(settings.side)) << "one 16-byte record per particle";
    EXPECT_EQ(row.byte_formula, splat->byte_formula);
    // The scalar row is the others' reference; every other row's note is its time against one of them.
    EXPECT_EQ(row.note.empty(), row.variant.find("scalar") != std::string::npos) << row.note;
    EXPECT_TRUE(row.note.empty() || row.note.rfind("x", 0) == 0) << row.note;
  }
  const std::string lesson = lab_lesson(*splat, run.rows);
  EXPECT_NE(lesson.find("On this GPU: on the disk"), std::string::npos) << lesson;
  EXPECT_NE(lesson.find("; on the cube"), std::string::npos) << lesson;

  const nlohmann::json doc = nlohmann::json::parse(coalesce::lab_json(run, {splat}));
  ASSERT_EQ(doc["experiments"].size(), 1u);
  EXPECT_EQ(doc["experiments"][0]["name"], "splat");
  EXPECT_EQ(doc["experiments"][0]["lesson"], lesson);
  ASSERT_EQ(doc["rows"].size(), variants.size());
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const nlohmann::json& row = doc["rows"][i];
    EXPECT_EQ(row["variant"], variants[i]);
    EXPECT_EQ(row["check_ok"], true);
    EXPECT_EQ(row["note"], run.rows[i].note);
    EXPECT_GT(row["time_ms"].get<double>(), 0.0);
  }
}

}  // namespace
}  // namespace coalesce::lab
