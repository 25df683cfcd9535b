// The panel's per-frame DRAM note on a GPU, through the real executable (issue 30): at all-pairs sizes the
// forces' partial sums are most of a frame's bytes, so the formula line counts them and the note names them
// with their MB, rather than blaming the draw; the device-memory line at start names them too.
#include <gtest/gtest.h>

#include <string>

#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(PartialSumsNote, AllPairsFramesNameThePartialSumsTheyMove) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  // Partial sums of 50-400 MB a step, past the 50 MB L2, against a few MB of state.
  const int particles = 1024 * rng.uniform_int(64, 192);
  const std::string forces = rng.uniform_int(0, 1) ? "mutual" : "one-sided";
  TempDir dir;
  ViewerArgs args;
  args.backend = "cuda";
  args.scene = "galaxies";
  args.particles = particles;
  args.layout = std::string(to_string(random_layout(rng)));
  args.frames = 120;
  args.screenshot = dir.file("pairs.png");
  args.extra = {"--forces", forces};
  const ProcessResult r = run_process(viewer_command(args), {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  SCOPED_TRACE(forces + ", N = " + std::to_string(particles));
  EXPECT_NE(r.err.find("; all-pairs partial sums at its first step: one-sided "), std::string::npos) << r.err;
  const auto j = load_screenshot_json(dir.file("pairs.json"));
  ASSERT_FALSE(j.is_discarded());
  const auto& forces_json = j.at("kernels").at("forces");
  EXPECT_GT(forces_json.at("scratch_bytes_per_launch").get<double>(), 0.0);
  EXPECT_NE(forces_json.at("byte_formula").get<std::string>().find("partial sums"), std::string::npos)
      << forces_json.dump();
  const auto& hardware = j.at("hardware");
  ASSERT_EQ(hardware.at("available"), true) << hardware.dump();
  int named = 0;
  for (const auto& sample : hardware.at("recent")) {
    if (!sample.at("measured").get<bool>() || sample.at("note").is_null()) continue;
    const double partial = sample.at("partial_sum_megabytes_per_frame").get<double>();
    const double formula = sample.at("formula_megabytes_per_frame").get<double>();
    const double dram = sample.at("dram_megabytes_per_frame").get<double>();
    SCOPED_TRACE(sample.dump());
    EXPECT_GT(partial, 0.5 * formula) << "the partial sums are most of the formula bytes at this N";
    // Written once and read once, twice the L2: at least half of what the formula counts reaches DRAM.
    EXPECT_GT(dram, 0.5 * partial);
    // The note names the largest part, which is the partial sums or what no formula counts, never the state.
    const std::string note = sample.at("note");
    EXPECT_EQ(note.find("the kernels' state"), std::string::npos) << note;
    named += note.find("partial sums") != std::string::npos ? 1 : 0;
  }
  EXPECT_GT(named, 0) << "no sample's note named the partial sums";
}

}  // namespace
}  // namespace coalesce::testing
