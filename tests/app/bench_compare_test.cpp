// bench --compare: the verdict rule on rows placed just inside and just outside their noise band, B/A,
// rows in one run only, the notes on how the runs differ, the JSON, and every bad input refused in one line.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "app/bench/bench_compare.h"
#include "tests/app/bench_json_fixture.h"
#include "tests/app/run_process.h"
#include "tests/app/usage_error.h"
#include "tests/support/temp_dir.h"

namespace coalesce {
namespace {

using testing::SyntheticRow;
using testing::SyntheticRun;
using testing::TestRng;

// The band as docs/bench-json.md states it, written out here rather than taken from the code under test.
double documented_band(double cv_a, double cv_b) {
  return std::max(2.0, 3.0 * std::sqrt(cv_a * cv_a + cv_b * cv_b));
}

// Under 1 us between the medians, a difference is jitter between processes (docs/bench-json.md).
bool beyond_microsecond_floor(double median_a_ms, double median_b_ms) {
  return 1000.0 * std::fabs(median_a_ms - median_b_ms) > 1.0;
}

BenchRow timed_row(double median_ms, double min_ms, double max_ms, double cv_percent) {
  BenchRow r{};
  r.median_ms = median_ms;
  r.min_ms = min_ms;
  r.max_ms = max_ms;
  r.cv_percent = cv_percent;
  return r;
}

std::string key_text(const SyntheticRow& r) {
  // Synthetic rows carry no "precision": they read as fp32, the precision of runs before the axis.
  return r.solver + " " + std::to_string(r.particles) + " " + r.layout + " fp32 " + r.kernel +
         (r.variant.empty() ? "" : " " + r.variant);
}

// Two runs over shared rows, each placed at 0.8 or 1.2 band widths from B/A = 1, either way; plus rows
// found in one run only. `expected` maps each shared row to its verdict by construction.
struct Pair {
  SyntheticRun a, b;
  std::map<std::string, std::string> expected;  // key_text -> verdict
  std::map<std::string, double> ratio;          // key_text -> B/A
  std::vector<std::string> only_a, only_b;
};

Pair random_pair(TestRng& rng) {
  Pair p;
  const int shared = rng.uniform_int(4, 30);
  const int only_a = rng.uniform_int(0, 3);
  const int only_b = rng.uniform_int(0, 3);
  std::vector<SyntheticRow> rows = testing::random_rows(rng, shared + only_a + only_b);
  for (int i = 0; i < shared; ++i) {
    SyntheticRow ra = rows[static_cast<std::size_t>(i)];
    SyntheticRow rb = ra;
    rb.cv_percent = rng.uniform(0.0f, 4.0f);
    const double band = documented_band(ra.cv_percent, rb.cv_percent);
    const bool outside = rng.uniform_int(0, 1) == 1;
    const double sign = rng.uniform_int(0, 1) ? 1.0 : -1.0;
    const double ratio = 1.0 + sign * (outside ? 1.2 : 0.8) * band / 100.0;
    rb.median_ms = ra.median_ms / ratio;  // B's throughput / A's = A's time / B's
    const bool counts = outside && beyond_microsecond_floor(ra.median_ms, rb.median_ms);
    p.expected[key_text(ra)] = !counts ? "same" : sign > 0 ? "faster" : "slower";
    p.ratio[key_text(ra)] = ratio;
    p.a.rows.push_back(ra);
    p.b.rows.push_back(rb);
  }
  for (int i = shared; i < shared + only_a; ++i) {
    p.a.rows.push_back(rows[static_cast<std::size_t>(i)]);
    p.only_a.push_back(key_text(rows[static_cast<std::size_t>(i)]));
  }
  for (int i = shared + only_a; i < shared + only_a + only_b; ++i) {
    p.b.rows.push_back(rows[static_cast<std::size_t>(i)]);
    p.only_b.push_back(key_text(rows[static_cast<std::size_t>(i)]));
  }
  std::shuffle(p.b.rows.begin(), p.b.rows.end(), rng.engine());  // matching must not rely on order
  return p;
}

Comparison compare_files(const testing::TempDir& dir, const Pair& p) {
  testing::write_run(dir.file("a.json"), p.a);
  testing::write_run(dir.file("b.json"), p.b);
  return compare_runs(read_bench_json("--compare", dir.file("a.json")),
                      read_bench_json("--compare", dir.file("b.json")));
}

std::string row_key(const BenchRow& r) {
  return std::string(method_info(r.solver).solver_name) + " " + std::to_string(r.particles) + " " +
         std::string(to_string(r.layout)) + " " + std::string(to_string(r.precision)) + " " + r.kernel +
         (r.variant.empty() ? "" : " " + r.variant);
}

TEST(BenchCompare, RowsInsideTheBandAreTheSameAndOutsideFasterOrSlower) {
  TestRng rng;
  testing::TempDir dir;
  const Pair p = random_pair(rng);
  const Comparison c = compare_files(dir, p);
  ASSERT_EQ(c.rows.size(), p.expected.size());
  for (const ComparedRow& row : c.rows) {
    const std::string key = row_key(row.a);
    SCOPED_TRACE(key);
    ASSERT_EQ(p.expected.count(key), 1u);
    EXPECT_STREQ(to_string(row.verdict), p.expected.at(key).c_str());
    EXPECT_NEAR(row.ratio, p.ratio.at(key), 1e-9 * p.ratio.at(key));
    EXPECT_NEAR(row.band_percent, documented_band(row.a.cv_percent, row.b.cv_percent), 1e-9);
    // The headline throughputs say the same: interactions/s for all-pairs forces, GB/s otherwise.
    EXPECT_NEAR(headline_value(row.b) / headline_value(row.a), row.ratio, 1e-9 * row.ratio);
  }
  std::vector<std::string> only_a, only_b;
  for (const BenchRow& r : c.only_in_a) only_a.push_back(row_key(r));
  for (const BenchRow& r : c.only_in_b) only_b.push_back(row_key(r));
  std::sort(only_a.begin(), only_a.end());
  std::sort(only_b.begin(), only_b.end());
  std::vector<std::string> want_a = p.only_a, want_b = p.only_b;
  std::sort(want_a.begin(), want_a.end());
  std::sort(want_b.begin(), want_b.end());
  EXPECT_EQ(only_a, want_a);
  EXPECT_EQ(only_b, want_b);
  EXPECT_TRUE(c.notes.empty()) << c.notes.front();  // same GPU, driver, backend, ceiling, repeats
}

TEST(BenchCompare, TheFloorHoldsWhenBothRunsAreQuiet) {
  // With cv 0 in both runs (every sample equal, so the ranges are apart), only the floor separates drift
  // from change. A 1 ms call: 2% is 20 us, far beyond the microsecond floor.
  TestRng rng;
  const double t = rng.uniform(1.0f, 50.0f);
  const auto verdict = [&](double ratio) {
    const double tb = t / ratio;
    return compare_verdict(timed_row(t, t, t, 0), timed_row(tb, tb, tb, 0));
  };
  EXPECT_EQ(verdict(1.0 + 0.019), Verdict::Same) << "t = " << t << " ms";
  EXPECT_EQ(verdict(1.0 + 0.021), Verdict::Faster);
  EXPECT_EQ(verdict(1.0 - 0.021), Verdict::Slower);
  EXPECT_DOUBLE_EQ(noise_band_percent(0, 0), kCompareFloorPercent);
}

TEST(BenchCompare, CallsOfAMicrosecondOrTwoNeedMoreThanTheMicrosecondFloor) {
  // A 1.5-4 us call 30-45% slower with every sample apart: a change only beyond 1 us of difference. The
  // same ratio on a call 1000 times longer is always a change.
  TestRng rng;
  for (int trial = 0; trial < 100; ++trial) {
    const double t = rng.uniform(0.0015f, 0.004f), ratio = 1.0 / rng.uniform(1.3f, 1.45f);
    const double tb = t / ratio;
    SCOPED_TRACE("t = " + std::to_string(t) + " ms, B/A = " + std::to_string(ratio));
    const Verdict verdict = compare_verdict(timed_row(t, t, t, 0.1), timed_row(tb, tb, tb, 0.1));
    EXPECT_EQ(verdict, beyond_microsecond_floor(t, tb) ? Verdict::Slower : Verdict::Same);
    EXPECT_EQ(compare_verdict(timed_row(t * 1000, t * 1000, t * 1000, 0.1),
                              timed_row(tb * 1000, tb * 1000, tb * 1000, 0.1)),
              Verdict::Slower);
  }
}

TEST(BenchCompare, SampleRangesApartCountBeyondAWideSpread) {
  // Outliers make cv large (band about 60%), yet every sample of B is slower than every sample of A: a
  // change. The same medians with overlapping ranges stay within the spread: the same.
  TestRng rng;
  const double t = rng.uniform(0.05f, 1.0f), cv = rng.uniform(13.0f, 15.0f);
  const double tb = t * rng.uniform(1.6f, 1.8f);  // 38-44% lower throughput, inside 3 x sqrt(2) x cv
  const BenchRow a = timed_row(t, 0.9 * t, 1.5 * t, cv);
  const BenchRow b_apart = timed_row(tb, 1.55 * t, 2.4 * t, cv);
  const BenchRow b_overlapping = timed_row(tb, 1.2 * t, 2.4 * t, cv);
  ASSERT_GT(noise_band_percent(cv, cv), 100.0 * std::fabs(t / tb - 1.0)) << "the test's premise";
  EXPECT_TRUE(sample_ranges_apart(a, b_apart));
  EXPECT_EQ(compare_verdict(a, b_apart), Verdict::Slower);
  EXPECT_FALSE(sample_ranges_apart(a, b_overlapping));
  EXPECT_EQ(compare_verdict(a, b_overlapping), Verdict::Same);
}

TEST(BenchCompare, CpuRowsChangeOnlyWhenMedianAndFastestSampleBothMovePastTheFloor) {
  // Rows of a shared 2-core CPU: a row moves when its median and its fastest sample both move by more than
  // 2.5x the same way and by more than 100 us; what the cores' other users add to some samples never counts.
  TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const double t = rng.uniform(0.2f, 50.0f);  // ms: every difference below is far past 100 us
    const double lo = t * rng.uniform(0.6f, 0.99f), hi = t * rng.uniform(1.01f, 3.0f);
    const BenchRow a = timed_row(t, lo, hi, rng.uniform(0.0f, 60.0f));
    const auto scaled = [&](double median_by, double min_by) {
      return timed_row(t * median_by, lo * min_by, hi * median_by, rng.uniform(0.0f, 60.0f));
    };
    const double floor = 1.0 + kCompareCpuFloorPercent / 100.0;  // 2.5x
    const double inside = rng.uniform(1.0f, static_cast<float>(floor) - 0.01f),
                 beyond = rng.uniform(static_cast<float>(floor) + 0.02f, 6.0f);
    SCOPED_TRACE("t " + std::to_string(t) + " ms, inside " + std::to_string(inside) + ", beyond " +
                 std::to_string(beyond));
    EXPECT_EQ(compare_verdict(a, scaled(3.0, 3.0), true), Verdict::Slower);
    EXPECT_EQ(compare_verdict(a, scaled(1.0 / 3, 1.0 / 3), true), Verdict::Faster);
    EXPECT_EQ(compare_verdict(a, scaled(1.8, 1.8), true), Verdict::Same) << "identical runs on CI moved 1.8x";
    EXPECT_EQ(compare_verdict(a, scaled(beyond, beyond), true), Verdict::Slower);
    EXPECT_EQ(compare_verdict(a, scaled(1 / beyond, 1 / beyond), true), Verdict::Faster);
    EXPECT_EQ(compare_verdict(a, scaled(inside, inside), true), Verdict::Same);
    EXPECT_EQ(compare_verdict(a, scaled(1 / inside, 1 / inside), true), Verdict::Same);
    // The median moved but the fastest sample did not: the same code, disturbed more often.
    EXPECT_EQ(compare_verdict(a, scaled(beyond, inside), true), Verdict::Same);
    EXPECT_EQ(compare_verdict(a, scaled(beyond, 1 / inside), true), Verdict::Same);
  }
  // Calls of a few tens of microseconds: a pool's wake-up on a busy core, 7 vs 50 us, is not a change.
  const double t = rng.uniform(0.005f, 0.02f);
  EXPECT_EQ(compare_verdict(timed_row(t, t, t, 1), timed_row(t * 4, t * 4, t * 4, 1), true), Verdict::Same);
  EXPECT_EQ(compare_verdict(timed_row(t, t, t, 1), timed_row(t * 4, t * 4, t * 4, 1), false), Verdict::Slower);
}

// Each difference between the runs gets its note, and only that one.
TEST(BenchCompare, NotesNameEachDifferenceAndNothingElse) {
  TestRng rng;
  testing::TempDir dir;
  Pair p = random_pair(rng);
  p.a.clocks_measured = p.b.clocks_measured = true;
  const auto notes_with = [&](auto change) {
    Pair q = p;
    change(q.b);
    return compare_files(dir, q).notes;
  };
  EXPECT_TRUE(notes_with([](SyntheticRun&) {}).empty());
  const auto expect_one = [](const std::vector<std::string>& notes, const std::string& word) {
    ASSERT_EQ(notes.size(), 1u) << (notes.empty() ? "" : notes[0]);
    EXPECT_NE(notes[0].find(word), std::string::npos) << notes[0];
  };
  expect_one(notes_with([](SyntheticRun& r) { r.driver = "575.2"; }), "drivers");
  expect_one(notes_with([](SyntheticRun& r) { r.repeats = 5; }), "repeats");
  expect_one(notes_with([](SyntheticRun& r) { r.backend_kind = "cpu"; }), "backends");
  expect_one(notes_with([](SyntheticRun& r) { r.copy_peak_gbps *= 0.9; }), "copy ceilings");
  expect_one(notes_with([](SyntheticRun& r) { r.gpu = "Other GPU 141GB"; }), "GPUs");
  expect_one(notes_with([](SyntheticRun& r) { r.sm_mhz *= 0.9; }), "SM clocks");
  expect_one(notes_with([](SyntheticRun& r) { r.memory_mhz *= 1.1; }), "memory clocks");
  expect_one(notes_with([](SyntheticRun& r) { r.clocks_measured = false; }), "measured in A only");
  // Within the 2% floor: drift, not a difference worth a note.
  EXPECT_TRUE(notes_with([](SyntheticRun& r) {
                r.copy_peak_gbps *= 1.01;
                r.sm_mhz *= 0.99;
              }).empty());
}

// The real executable: the table's summary, the --json output and its agreement with the table.
TEST(BenchCompareCli, PrintsASummaryAndWritesJsonThatAgrees) {
  TestRng rng;
  testing::TempDir dir;
  const Pair p = random_pair(rng);
  testing::write_run(dir.file("a.json"), p.a);
  testing::write_run(dir.file("b.json"), p.b);
  const auto result = testing::run_coalesce(
      {"bench", "--compare", dir.file("a.json"), dir.file("b.json"), "--json", dir.file("cmp.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  int faster = 0, slower = 0, same = 0;
  for (const auto& [key, verdict] : p.expected)
    (verdict == "faster" ? faster : verdict == "slower" ? slower : same)++;
  const std::string summary = "summary: " + std::to_string(faster) + " faster, " + std::to_string(slower) +
                              " slower, " + std::to_string(same) + " same, " +
                              std::to_string(p.only_a.size()) + " only in A, " +
                              std::to_string(p.only_b.size()) + " only in B";
  EXPECT_NE(result.out.find(summary), std::string::npos) << result.out;
  for (const std::string& key : p.only_a)
    EXPECT_NE(result.out.find("only in A: " + key), std::string::npos) << key;
  for (const std::string& key : p.only_b)
    EXPECT_NE(result.out.find("only in B: " + key), std::string::npos) << key;

  const auto json = nlohmann::json::parse(testing::read_file(dir.file("cmp.json")));
  EXPECT_EQ(json["schema"], "coalesce-bench-compare/1");
  EXPECT_EQ(json["inputs"]["a"]["path"], dir.file("a.json"));
  EXPECT_EQ(json["rule"]["floor_percent"], kCompareFloorPercent);
  ASSERT_EQ(json["rows"].size(), p.expected.size());
  for (const auto& row : json["rows"]) {
    std::string key = row["solver"].get<std::string>() + " " + std::to_string(row["particles"].get<int>()) +
                      " " + row["layout"].get<std::string>() + " " + row["precision"].get<std::string>() + " " +
                      row["kernel"].get<std::string>();
    if (!row["variant"].get<std::string>().empty()) key += " " + row["variant"].get<std::string>();
    SCOPED_TRACE(key);
    ASSERT_EQ(p.expected.count(key), 1u);
    EXPECT_EQ(row["verdict"], p.expected.at(key));
    EXPECT_NEAR(row["ratio"].get<double>(), p.ratio.at(key), 1e-9 * p.ratio.at(key));
    EXPECT_NEAR(row["b"]["value"].get<double>() / row["a"]["value"].get<double>(), p.ratio.at(key),
                1e-9 * p.ratio.at(key));
    EXPECT_NEAR(row["band_percent"].get<double>(),
                documented_band(row["a"]["cv_percent"].get<double>(), row["b"]["cv_percent"].get<double>()),
                1e-9);
  }
  EXPECT_EQ(json["only_in_a"].size(), p.only_a.size());
  EXPECT_EQ(json["only_in_b"].size(), p.only_b.size());
  EXPECT_EQ(json["summary"]["faster"], faster);
  EXPECT_EQ(json["summary"]["slower"], slower);
  EXPECT_EQ(json["summary"]["same"], same);
  EXPECT_TRUE(json["notes"].empty());
}

// Bad inputs: exit 2 and one line on stderr that names the file and what is wrong.
void expect_refused(const std::vector<std::string>& args, const std::string& words) {
  const auto result = testing::run_coalesce(args);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  ASSERT_EQ(result.err_lines().size(), 1u) << result.err;
  EXPECT_NE(result.err.find(words), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(BenchCompareCli, BadInputsAreOneLineAndExit2) {
  TestRng rng;
  testing::TempDir dir;
  const Pair p = random_pair(rng);
  const std::string good = dir.file("good.json");
  testing::write_run(good, p.a);
  const std::string missing = dir.file("missing.json");
  expect_refused({"bench", "--compare", good, missing}, missing);
  const std::string fifo = dir.file("fifo.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
  expect_refused({"bench", "--compare", fifo, good}, fifo);
  const std::string text = dir.file("text.json");
  testing::write_text(text, "coalesce bench\n" + std::to_string(rng.uniform_int(0, 1000)));
  expect_refused({"bench", "--compare", good, text}, "'" + text + "': is not JSON");
  const std::string other = dir.file("lab.json");
  nlohmann::json lab = testing::run_json(p.a);
  lab["schema"] = "coalesce-lab/1";
  testing::write_text(other, lab.dump());
  expect_refused({"bench", "--compare", other, good}, "expected \"coalesce-bench/2\"");
  // A row without one of the fields compare reads, chosen at random.
  const char* fields[] = {"solver",     "particles", "layout",
                          "kernel",     "variant",   "median_ms",
                          "cv_percent", "gbps",      "interactions_per_second"};
  const std::string field = fields[rng.uniform_int(0, 8)];
  nlohmann::json broken = testing::run_json(p.a);
  const int row = rng.uniform_int(0, static_cast<int>(broken["rows"].size()) - 1);
  broken["rows"][static_cast<std::size_t>(row)].erase(field);
  const std::string holey = dir.file("holey.json");
  testing::write_text(holey, broken.dump());
  expect_refused({"bench", "--compare", good, holey},
                 "rows[" + std::to_string(row) + "] has no '" + field + "'");
  expect_refused({"bench", "--compare", good},
                 "--compare needs two values, A.json B.json (try --compare a.json b.json)");
  // --json over one of the runs it reads would replace it.
  const std::string before = testing::read_file(good);
  expect_refused({"bench", "--compare", good, good, "--json", good}, "which this run reads");
  EXPECT_EQ(testing::read_file(good), before);
}

TEST(BenchCompareCli, ParserWantsTwoFilesAndNoRunFlags) {
  using testing::usage_error;
  const std::string two = "--compare needs two values, A.json B.json (try --compare a.json b.json)";
  EXPECT_EQ(usage_error({"bench", "--compare", "a.json"}), two);
  EXPECT_EQ(usage_error({"bench", "--compare", "a.json", "--json", "c.json"}), two);
  // --opt=value glues the first of several values on, as for every flag (issue 41).
  EXPECT_EQ(usage_error({"bench", "--compare=a.json", "b.json"}), "");
  EXPECT_EQ(usage_error({"bench", "--compare=a.json"}), two);
  EXPECT_EQ(usage_error({"bench", "--compare=", "a.json", "b.json"}), two);
  EXPECT_EQ(usage_error({"bench", "--compare", "a.json", "b.json"}), "");
  EXPECT_EQ(usage_error({"bench", "--compare", "a.json", "b.json", "--json", "-"}), "");
  for (const std::vector<std::string>& run_flag : {testing::Args{"--particles", "1024"},
                                                   {"--layouts", "aos"},
                                                   {"--solver", "all-pairs"},
                                                   {"--repeats", "3"},
                                                   {"--backend", "cpu"},
                                                   {"--no-counters"},
                                                   {"--counters"}}) {
    testing::Args args{"bench", "--compare", "a.json", "b.json"};
    args.insert(args.end(), run_flag.begin(), run_flag.end());
    EXPECT_NE(usage_error(args).find("--compare runs nothing"), std::string::npos) << run_flag[0];
  }
  EXPECT_NE(usage_error({"lab", "--compare", "a.json", "b.json"}).find("belongs to coalesce bench"),
            std::string::npos);
  EXPECT_NE(usage_error({"--compare", "a.json", "b.json"}).find("belongs to coalesce bench"),
            std::string::npos);
  EXPECT_NE(
      usage_error({"bench", "--compare", "a.json", "b.json", "--plot", "p.png"}).find("--plot draws one run"),
      std::string::npos);
}

// An fp32 run against an fp64 run: each row meets its other-precision twin (the same solver, N, layout,
// kernel and variant), B/A is the time ratio, and a note says the rows were matched across precisions.
// Within one file of both precisions, rows stay apart by precision.
// A tree row is measured at its theta (its speed and its error both depend on it): read back from the file,
// rows of two thetas are never matched as the same row, and rows of the same theta are.
TEST(BenchCompare, TreeRowsMatchOnlyAtTheSameTheta) {
  TestRng rng;
  testing::TempDir dir;
  testing::SyntheticRun a, b;
  testing::SyntheticRow row;
  row.solver = "tree";
  row.particles = 1024 << rng.uniform_int(4, 10);
  row.layout = std::string(to_string(testing::random_layout(rng)));
  row.kernel = "forces";
  row.median_ms = rng.uniform(1.0f, 100.0f);
  a.rows.push_back(row);
  b.rows.push_back(row);
  const double theta_a = rng.uniform_int(1, 99) / 100.0;
  const double theta_b =
      rng.uniform_int(0, 1) ? theta_a : std::min(1.0, theta_a + rng.uniform_int(1, 20) / 100.0);
  nlohmann::json ja = testing::run_json(a), jb = testing::run_json(b);
  ja["rows"][0]["tree"] = {{"theta", theta_a}};
  jb["rows"][0]["tree"] = {{"theta", theta_b}};
  testing::write_text(dir.file("a.json"), ja.dump());
  testing::write_text(dir.file("b.json"), jb.dump());
  const Comparison c = compare_runs(read_bench_json("--compare", dir.file("a.json")),
                                    read_bench_json("--compare", dir.file("b.json")));
  SCOPED_TRACE("theta " + std::to_string(theta_a) + " vs " + std::to_string(theta_b));
  if (theta_a == theta_b) {
    EXPECT_EQ(c.rows.size(), 1u);
    EXPECT_TRUE(c.only_in_a.empty() && c.only_in_b.empty());
  } else {
    EXPECT_TRUE(c.rows.empty());
    ASSERT_EQ(c.only_in_a.size(), 1u);
    ASSERT_EQ(c.only_in_b.size(), 1u);
  }
}

TEST(BenchCompare, RunsOfTwoPrecisionsAreMatchedAcrossThem) {
  TestRng rng;
  SavedBench a, b;
  a.path = "a.json";
  b.path = "b.json";
  a.run.device.gpu = b.run.device.gpu = true;
  const int rows = rng.uniform_int(1, 6);
  for (int i = 0; i < rows; ++i) {
    BenchRow row{};
    row.solver = ForceMethod::Attractors;
    row.particles = 1024 * (i + 1);
    row.layout = testing::random_layout(rng);
    row.kernel = "integrate";
    row.samples = 20;
    row.median_ms = row.min_ms = row.max_ms = rng.uniform(0.1f, 1.0f);
    row.precision = Precision::Fp32;
    a.run.rows.push_back(row);
    row.precision = Precision::Fp64;
    row.median_ms = row.min_ms = row.max_ms = 2 * a.run.rows.back().median_ms;
    b.run.rows.push_back(row);
  }
  const Comparison across = compare_runs(a, b);
  ASSERT_EQ(across.rows.size(), static_cast<std::size_t>(rows));
  EXPECT_TRUE(across.only_in_a.empty() && across.only_in_b.empty());
  for (const ComparedRow& r : across.rows) {
    EXPECT_EQ(r.a.precision, Precision::Fp32);
    EXPECT_EQ(r.b.precision, Precision::Fp64);
    EXPECT_NEAR(r.ratio, 0.5, 1e-6);
  }
  bool noted = false;
  for (const std::string& note : across.notes) noted = noted || note.find("across precisions") != std::string::npos;
  EXPECT_TRUE(noted);

  SavedBench both = a;
  both.run.rows.insert(both.run.rows.end(), b.run.rows.begin(), b.run.rows.end());
  const Comparison within = compare_runs(both, both);
  EXPECT_EQ(within.rows.size(), static_cast<std::size_t>(2 * rows));
  for (const ComparedRow& r : within.rows) EXPECT_EQ(r.a.precision, r.b.precision);
}

}  // namespace
}  // namespace coalesce
