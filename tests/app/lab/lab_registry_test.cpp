// Every registered experiment at a small size with a fresh seed: each row passes its own device check and
// reports a positive time; names are unique so --only can address each one.
#include <gtest/gtest.h>

#include <set>

#include "app/lab/lab_registry.h"
#include "app/lab/lab_runner.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

TEST(LabRegistry, NamesAreUniqueAndFindable) {
  std::set<std::string> names;
  for (const LabExperiment& e : lab_experiments()) {
    EXPECT_TRUE(names.insert(e.name).second) << "duplicate experiment name " << e.name;
    EXPECT_EQ(find_lab_experiment(e.name), &e);
    EXPECT_FALSE(e.byte_formula.empty()) << e.name;
  }
  EXPECT_EQ(find_lab_experiment("no-such-experiment"), nullptr);
}

// Before a run a lesson says so and cites its articles; it names no GPU's figures of its own, and nothing
// the user sees cites a document that is not in the repository.
TEST(LabRegistry, LessonsWithoutRowsAskForARunAndCiteTheArticles) {
  for (const LabExperiment& e : lab_experiments()) {
    const std::string lesson = lab_lesson(e, {});
    EXPECT_NE(lesson.find("Run it to measure this GPU"), std::string::npos) << lesson;
    EXPECT_NE(lesson.find("art. 00"), std::string::npos) << lesson;
    EXPECT_EQ(lesson.find("On this GPU"), std::string::npos) << lesson;
    for (const std::string& text : {lesson, e.title, e.byte_formula}) {
      EXPECT_EQ(text.find("SPEC"), std::string::npos) << text;
      EXPECT_EQ(text.find("H200"), std::string::npos) << text;
    }
  }
}

TEST(LabRegistry, EveryExperimentPassesItsCheckAtASmallSize) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  LabSettings settings;
  settings.side = 256;
  settings.repeats = 3;
  settings.seed = static_cast<std::uint32_t>(rng.engine()());
  std::vector<const LabExperiment*> all;
  for (const LabExperiment& e : lab_experiments()) all.push_back(&e);
  const LabRun run = run_experiments(settings, all);
  EXPECT_GT(run.copy_gbps, 0.0);
  // The device block is the one probe's, as the bench and the viewer report it.
  EXPECT_TRUE(run.device.gpu);
  EXPECT_FALSE(run.device.name.empty());
  EXPECT_FALSE(run.device.cuda_runtime.empty());
  EXPECT_GT(run.device.copy_peak_gbps, 0.0);
  EXPECT_GT(run.device.theoretical_peak_gbps.value_or(0.0), 0.0);
  for (const LabExperiment* e : all) {
    int rows = 0;
    for (const LabRow& row : run.rows) rows += row.experiment == e->name ? 1 : 0;
    EXPECT_GT(rows, 0) << e->name << " produced no rows";
  }
  // Every lesson is computed from this run's rows.
  for (const LabExperiment* e : all) {
    const std::string lesson = lab_lesson(*e, run.rows);
    EXPECT_NE(lesson.find("On this GPU: "), std::string::npos) << lesson;
  }
  for (const LabRow& row : run.rows) {
    EXPECT_EQ(row.article.find("SPEC"), std::string::npos) << row.article;
    EXPECT_TRUE(row.check_ok) << row.experiment << " / " << row.variant << " (seed " << settings.seed << ")";
    EXPECT_GT(row.time_ms, 0.0) << row.experiment << " / " << row.variant;
    EXPECT_GT(row.gbps, 0.0) << row.experiment << " / " << row.variant;
  }
}

// lab --precision fp64: the particles run on fp64 records, say so in every variant, pass their check and
// still make a lesson; fp64-vectors is the same in either precision.
TEST(LabRegistry, ParticlesRunInFp64WhenAsked) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  LabSettings settings;
  settings.side = 256;
  settings.repeats = 3;
  settings.seed = static_cast<std::uint32_t>(rng.engine()());
  settings.precision = Precision::Fp64;
  const LabRun run = run_experiments(settings, {find_lab_experiment("particles")});
  ASSERT_EQ(run.rows.size(), 5u);
  for (const LabRow& row : run.rows) {
    EXPECT_NE(row.variant.find(", fp64"), std::string::npos) << row.variant;
    EXPECT_NE(row.byte_formula.find(" x 8 B"), std::string::npos) << row.byte_formula;
    EXPECT_TRUE(row.check_ok) << row.variant << " (seed " << settings.seed << ")";
    // The same bytes as fp32: 9 or 3 values of 8 bytes for N/8 particles.
    const double n = settings.elements() / 8.0;
    EXPECT_TRUE(row.bytes == 9 * 8 * n || row.bytes == 3 * 8 * n) << row.variant << ": " << row.bytes;
  }
  const std::string lesson = lab_lesson(*find_lab_experiment("particles"), run.rows);
  EXPECT_NE(lesson.find("On this GPU: "), std::string::npos) << lesson;
}

// Each fp64-vectors row names the loads of the code the driver loaded for it.
TEST(LabRegistry, Fp64VectorRowsNameTheirLoads) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  LabSettings settings;
  settings.side = 256;
  settings.repeats = 3;
  settings.seed = static_cast<std::uint32_t>(rng.engine()());
  const LabRun run = run_experiments(settings, {find_lab_experiment("fp64-vectors")});
  ASSERT_EQ(run.rows.size(), 3u);
  for (const LabRow& row : run.rows) {
    EXPECT_TRUE(row.check_ok) << row.variant << " (seed " << settings.seed << ")";
    EXPECT_EQ(row.note.rfind("sm_", 0), 0u) << row.note;
    EXPECT_NE(row.note.find("-bit load"), std::string::npos) << row.note;
    EXPECT_DOUBLE_EQ(row.bytes, 2.0 * settings.elements() * 4) << "the bytes of the fp32 arrays";
  }
}

}  // namespace
}  // namespace coalesce::lab
