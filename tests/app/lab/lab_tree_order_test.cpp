// The lab's tree-order experiment: its rows and names on the host (no device), and a run at --size 256 on a
// device: every case in order, each row checked (error within the tree tests' bound, a shuffled row its
// curve twin's bits), the shuffled rows' bytes their twins' (the same pulls), the particle-order rows' more,
// and the lesson and JSON made from the rows. What it measures is not asserted: times belong to
// `coalesce lab --only tree-order`, not to a test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "app/lab/lab_registry.h"
#include "app/lab/lab_report.h"
#include "app/lab/lab_runner.h"
#include "kernels/lab/lab_tree_order.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::lab {
namespace {

TEST(LabTreeOrder, CasesAreDistinctAndCoverTheLesson) {
  EXPECT_EQ(tree_order_bodies(8192), 1 << 20);  // the default --size: 1M galaxies
  EXPECT_EQ(tree_order_bodies(256), 1024);
  std::set<std::string> names;
  for (const TreeOrderCase& c : tree_order_cases()) EXPECT_TRUE(names.insert(tree_order_variant(c)).second);
  for (const char* needed :
       {"float4, sources curve, targets curve", "float4, sources shuffled, targets curve",
        "float4, sources curve, targets particle"})
    EXPECT_EQ(names.count(needed), 1u) << needed;
  const LabExperiment* e = find_lab_experiment("tree-order");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->byte_formula, kTreeOrderFormula);
}

TEST(LabTreeOrder, EveryCaseIsCheckedAtASmallSize) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  LabSettings settings;
  settings.side = 256;
  settings.repeats = 3;
  settings.seed = static_cast<std::uint32_t>(rng.engine()());
  SCOPED_TRACE("seed " + std::to_string(settings.seed));
  const LabExperiment* e = find_lab_experiment("tree-order");
  ASSERT_NE(e, nullptr);
  const LabRun run = run_experiments(settings, {e});
  const std::vector<TreeOrderCase>& cases = tree_order_cases();
  ASSERT_EQ(run.rows.size(), cases.size());
  // The row of the same layout with the given orders.
  const auto row_of = [&](Layout layout, SourceOrder sources, TargetOrder targets) -> const LabRow* {
    for (std::size_t i = 0; i < cases.size(); ++i)
      if (cases[i].layout == layout && cases[i].sources == sources && cases[i].targets == targets)
        return &run.rows[i];
    return nullptr;
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const LabRow& row = run.rows[i];
    const TreeOrderCase& c = cases[i];
    EXPECT_EQ(row.experiment, "tree-order");
    EXPECT_EQ(row.variant, tree_order_variant(c));
    EXPECT_TRUE(row.check_ok) << row.variant << ": " << row.note;
    EXPECT_GT(row.time_ms, 0.0) << row.variant;
    EXPECT_GT(row.bytes, 0.0) << row.variant;
    EXPECT_GT(row.gbps, 0.0) << row.variant;
    EXPECT_EQ(row.byte_formula, e->byte_formula);
    EXPECT_EQ(row.note.find(" pulls a target ("), row.note.find_first_not_of("0123456789")) << row.note;
    const LabRow* baseline = row_of(c.layout, SourceOrder::Curve, TargetOrder::Curve);
    ASSERT_NE(baseline, nullptr) << "every layout has its curve walk";
    EXPECT_EQ(row.note.find("the curve walk's time") != std::string::npos, &row != baseline) << row.note;
    const LabRow* twin = row_of(c.layout, SourceOrder::Curve, c.targets);
    ASSERT_NE(twin, nullptr) << row.variant;
    EXPECT_DOUBLE_EQ(row.bytes, twin->bytes) << "the same walk in another memory order: " << row.variant;
    if (c.targets == TargetOrder::Particle) {
      EXPECT_GT(row.bytes, baseline->bytes) << "wide boxes pull more";
    }
  }
  const std::string lesson = lab_lesson(*e, run.rows);
  EXPECT_NE(lesson.find("On this GPU: float4 sources stored in random order took x"), std::string::npos)
      << lesson;
  EXPECT_NE(lesson.find("; target groups in particle order loaded x"), std::string::npos) << lesson;

  const nlohmann::json doc = nlohmann::json::parse(coalesce::lab_json(run, {e}));
  ASSERT_EQ(doc["experiments"].size(), 1u);
  EXPECT_EQ(doc["experiments"][0]["name"], "tree-order");
  EXPECT_EQ(doc["experiments"][0]["lesson"], lesson);
  ASSERT_EQ(doc["rows"].size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(doc["rows"][i]["variant"], run.rows[i].variant);
    EXPECT_EQ(doc["rows"][i]["check_ok"], true);
    EXPECT_EQ(doc["rows"][i]["note"], run.rows[i].note);
  }
}

}  // namespace
}  // namespace coalesce::lab
