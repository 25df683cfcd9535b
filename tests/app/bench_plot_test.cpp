// bench --plot: a synthetic run with a random number of rows drawn as SVG (one class="bar" per row) and,
// where the build has Dear ImGui, as PNG (decodes, the SVG's size, not blank, one bar per row on a
// scanline through the bars); a run with no rows and unwritable outputs are refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>

#include "app/bench/bench_plot.h"
#include "tests/app/bench_json_fixture.h"
#include "tests/app/run_process.h"
#include "tests/app/usage_error.h"
#include "tests/support/temp_dir.h"

#ifdef COALESCE_TEST_PNG
#include "tests/support/picture.h"
#endif

namespace coalesce {
namespace {

using testing::SyntheticRun;
using testing::TestRng;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

int svg_attribute(const std::string& svg, const std::string& pattern) {
  std::smatch match;
  if (!std::regex_search(svg, match, std::regex(pattern))) return -1;
  return std::stoi(match[1]);
}

SyntheticRun random_run(TestRng& rng) {
  SyntheticRun run;
  run.rows = testing::random_rows(rng, rng.uniform_int(1, 60));
  return run;
}

TEST(BenchPlot, SvgHasOneBarPerRow) {
  TestRng rng;
  testing::TempDir dir;
  const SyntheticRun run = random_run(rng);
  testing::write_run(dir.file("run.json"), run);
  const auto result =
      testing::run_coalesce({"bench", "--plot", dir.file("plot.svg"), "--from", dir.file("run.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string svg = testing::read_file(dir.file("plot.svg"));
  EXPECT_EQ(count(svg, "class=\"bar\""), static_cast<int>(run.rows.size()));
  std::set<int> drawn;
  const std::regex row(R"re(data-row="(\d+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), row); it != std::sregex_iterator(); ++it)
    drawn.insert(std::stoi((*it)[1]));
  EXPECT_EQ(drawn.size(), run.rows.size());  // every row once
  EXPECT_EQ(*drawn.rbegin(), static_cast<int>(run.rows.size()) - 1);
  EXPECT_NE(svg.find(run.gpu), std::string::npos);  // the title names the GPU
}

#ifdef COALESCE_TEST_PNG
using testing::Picture;

Rgb colour_at(const Picture& picture, int x, int y) {
  const unsigned char* p = picture.at(x, y);
  return {p[0], p[1], p[2]};
}

bool layout_colour(Rgb c) {
  for (const LayoutInfo& info : kLayoutTable)
    if (c == Rgb::hex(info.colour)) return true;
  return false;
}

TEST(BenchPlot, PngDecodesAtTheSvgSizeWithOneBarPerRow) {
  TestRng rng;
  testing::TempDir dir;
  const SyntheticRun run = random_run(rng);
  testing::write_run(dir.file("run.json"), run);
  for (const char* name : {"plot.png", "plot.svg"}) {
    const auto result =
        testing::run_coalesce({"bench", "--plot", dir.file(name), "--from", dir.file("run.json")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
  }
  const std::string svg = testing::read_file(dir.file("plot.svg"));
  const Picture png = testing::load_picture(dir.file("plot.png"));
  ASSERT_FALSE(png.rgba.empty()) << "the PNG does not decode";
  EXPECT_EQ(png.width, svg_attribute(svg, R"re(<svg[^>]* width="(\d+)")re"));
  EXPECT_EQ(png.height, svg_attribute(svg, R"re(<svg[^>]* height="(\d+)")re"));

  std::set<std::tuple<int, int, int>> colours;
  int bar_pixels = 0;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0; x < png.width; ++x) {
      const Rgb c = colour_at(png, x, y);
      colours.insert({c.r, c.g, c.b});
      bar_pixels += layout_colour(c);
    }
  EXPECT_GE(colours.size(), 5u) << "the plot looks blank";
  EXPECT_GT(bar_pixels, 0);
  // Every bar starts at the same x (the SVG says where): down the column just inside it, each run of
  // layout-coloured pixels is one bar.
  const int bars_x = svg_attribute(svg, R"re(class="bar"[^>]* x="(\d+)")re");
  ASSERT_GE(bars_x, 0);
  int runs = 0;
  bool inside = false;
  for (int y = 0; y < png.height; ++y) {
    const bool bar = layout_colour(colour_at(png, bars_x + 1, y));
    runs += bar && !inside;
    inside = bar;
  }
  EXPECT_EQ(runs, static_cast<int>(run.rows.size()));
}
#endif

TEST(BenchPlot, RunsTheBenchPlotsItAndStillPrintsTheTableAndJson) {
  testing::TempDir dir;
  const auto result = testing::run_coalesce({"bench", "--backend", "cpu", "--solver", "attractors",
                                             "--particles", "256", "--repeats", "1", "--no-counters",
                                             "--json", dir.file("run.json"), "--plot", dir.file("run.svg")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("median ms"), std::string::npos);  // the table
  const auto json = nlohmann::json::parse(testing::read_file(dir.file("run.json")));
  EXPECT_EQ(count(testing::read_file(dir.file("run.svg")), "class=\"bar\""),
            static_cast<int>(json["rows"].size()));
  // The ceiling is named for what it is, drawn from the run and from its file alike.
  const std::string ceiling = "CPU memory copy, " + std::to_string(json["device"]["cpu"]["threads"].get<int>()) + " thread";
  const auto again = testing::run_coalesce({"bench", "--plot", dir.file("again.svg"), "--from", dir.file("run.json")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  for (const char* file : {"run.svg", "again.svg"}) {
    const std::string svg = testing::read_file(dir.file(file));
    EXPECT_NE(svg.find(ceiling), std::string::npos) << file;
    EXPECT_EQ(svg.find("device-to-device"), std::string::npos) << file;
  }
}

TEST(BenchPlot, RefusesARunWithNoRowsAndBadOutputs) {
  TestRng rng;
  testing::TempDir dir;
  SyntheticRun empty;
  testing::write_run(dir.file("empty.json"), empty);
  auto result =
      testing::run_coalesce({"bench", "--plot", dir.file("p.svg"), "--from", dir.file("empty.json")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err_lines().size(), 1u) << result.err;
  EXPECT_NE(result.err.find("no rows"), std::string::npos) << result.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("p.svg")));

  testing::write_run(dir.file("run.json"), random_run(rng));
  std::filesystem::create_directory(dir.file("folder.svg"));
  ASSERT_EQ(::symlink("/dev/null", dir.file("device.svg").c_str()), 0);
  for (const std::string& out : {dir.file("folder.svg"), dir.file("device.svg")}) {
    result = testing::run_coalesce({"bench", "--plot", out, "--from", dir.file("run.json")});
    EXPECT_EQ(result.exit_code, 2) << out;
    EXPECT_EQ(result.err_lines().size(), 1u) << result.err;
    EXPECT_NE(result.err.find("--plot"), std::string::npos) << result.err;
  }
  EXPECT_NE(testing::usage_error({"bench", "--plot", "out.jpg"}).find(".png or .svg"), std::string::npos);
  EXPECT_NE(testing::usage_error({"bench", "--from", "run.json"}).find("needs --plot"), std::string::npos);
  EXPECT_NE(testing::usage_error({"bench", "--plot", "p.png", "--from", "r.json", "--repeats", "3"})
                .find("--from runs nothing"),
            std::string::npos);
  EXPECT_EQ(testing::usage_error({"bench", "--plot", "P.PNG", "--from", "r.json"}), "");
}

}  // namespace
}  // namespace coalesce

namespace coalesce {
namespace {

// A hostile saved run: numbers no GPU reaches (which once turned the chart's scale and its tick loop
// infinite), booleans of the wrong type. Each is one line and exit 2, or a plot, within seconds.
TEST(BenchPlot, HostileNumbersAndTypesAreOneLineNeverAHang) {
  testing::TestRng rng;
  testing::TempDir dir;
  testing::SyntheticRun run;
  run.rows = testing::random_rows(rng, rng.uniform_int(2, 12));
  nlohmann::json document = testing::run_json(run);
  struct Case {
    std::string field;
    nlohmann::json value;
    bool refused;
  };
  const std::vector<Case> cases = {{"percent_of_copy", 1e300, true}, {"interactions_per_second", 1.7e308, true},
                                   {"gbps", 1e12, true},             {"samples", 1e30, true},
                                   {"noisy", "yes", false}};
  for (const Case& c : cases) {
    nlohmann::json hostile = document;
    hostile["rows"][0][c.field] = c.value;
    hostile["device"]["gpu"] = 1;  // not a boolean: read as false, never an exception
    testing::write_text(dir.file("hostile.json"), hostile.dump());
    const auto result = testing::run_coalesce(
        {"bench", "--plot", dir.file("plot.svg"), "--from", dir.file("hostile.json")}, 30);
    SCOPED_TRACE(c.field + " = " + c.value.dump());
    if (c.refused) {
      EXPECT_EQ(result.exit_code, 2) << result.err;
      EXPECT_EQ(result.err_lines().size(), 1u) << result.err;
      EXPECT_NE(result.err.find(c.field), std::string::npos) << result.err;
    } else {
      EXPECT_EQ(result.exit_code, 0) << result.err;
    }
  }
}

}  // namespace
}  // namespace coalesce
