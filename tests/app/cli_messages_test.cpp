// Error lines stay one short readable line, and suggestions and texts say what is true (issue 30 §5),
// through the real executable on fresh random inputs: the exit code, the line, and the bytes of the files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/cli_table.h"
#include "tests/app/bench_json_fixture.h"
#include "tests/app/run_process.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/npy_writer.h"
#include "tests/support/scratch_files.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

constexpr int kQuick = 30;             // seconds: every refusal here takes milliseconds
constexpr std::size_t kMaxLine = 300;  // an error line a person reads at a glance

// One line on stderr: exit `code`, "coalesce: " once, printable, at most kMaxLine, holding every needle.
void expect_one_readable_line(const ProcessResult& r, int code, const std::vector<std::string>& needles) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  const std::string& line = lines[0];
  EXPECT_EQ(line.rfind("coalesce: ", 0), 0u) << line;
  EXPECT_EQ(line.find("coalesce: coalesce"), std::string::npos) << line;
  EXPECT_LE(line.size(), kMaxLine) << line;
  EXPECT_TRUE(std::none_of(line.begin(), line.end(), [](char c) { return c >= 0 && c < 0x20; })) << line;
  for (const std::string& needle : needles) EXPECT_NE(line.find(needle), std::string::npos) << line;
}

std::string random_letters(TestRng& rng, int lo, int hi) {
  std::string text(static_cast<std::size_t>(rng.uniform_int(lo, hi)), 'a');
  for (char& c : text) c = static_cast<char>('a' + rng.uniform_int(0, 25));
  return text;
}

// A --load-state run that must be refused before it starts: the --save-state file keeps its bytes and the
// folder gains nothing.
struct LoadRun {
  TempDir dir;
  std::string state = dir.file("in.npy"), saved = dir.file("out.npy"), old;
  explicit LoadRun(TestRng& rng) : old(random_bytes(rng, rng.uniform_int(1, 4096))) {
    std::ofstream(saved, std::ios::binary) << old;
  }
  ProcessResult run() const {
    return run_coalesce({"--backend", "cpu", "--steps", "1", "--load-state", state, "--save-state", saved},
                        kQuick);
  }
  void expect_untouched() const {
    EXPECT_EQ(read_file(saved), old);
    EXPECT_EQ(other_files(dir, {"in.npy", "out.npy"}), std::vector<std::string>{});
  }
};

TEST(CliMessages, NulInAnNpyDtypeIsShownEscapedAndTheLineGoesOn) {
  TestRng rng;
  LoadRun load(rng);
  const std::string before = random_letters(rng, 1, 5), after = random_letters(rng, 1, 5);
  const int n = rng.uniform_int(1, 64);
  write_npy(load.state, before + std::string(1, '\0') + after, "(" + std::to_string(n) + ", 7)",
            std::vector<char>(static_cast<std::size_t>(n) * 28));
  expect_one_readable_line(load.run(), 2,
                  {"dtype is '" + before + "\\x00" + after + "'", "expected float32 or float64"});
  load.expect_untouched();
}

TEST(CliMessages, AShapeOfThousandsOfDimensionsStaysOneShortLine) {
  TestRng rng;
  LoadRun load(rng);
  const int dimensions = rng.uniform_int(1000, 6000);
  std::string shape = "(";
  for (int i = 0; i < dimensions; ++i) shape += std::to_string(rng.uniform_int(1, 9)) + ", ";
  write_npy(load.state, "<f4", shape + ")", {});
  expect_one_readable_line(load.run(), 2,
                  {"shape is (", std::to_string(dimensions) + " dimensions", "expected (N, 7)"});
  load.expect_untouched();
}

// 'shape': (N,), 'shape': (7,) once read as the one shape (N, 7) and loaded; every key given twice is
// refused.
TEST(CliMessages, AKeyGivenTwiceInAnNpyHeaderIsRefusedNotJoined) {
  TestRng rng;
  const int n = rng.uniform_int(1, 64);
  const std::string payload = std::string(static_cast<std::size_t>(n) * 28, '\0');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"shape",
       "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ",), 'shape': (7,), }"},
      {"descr",
       "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ", 7)}"},
      {"fortran_order", "{'fortran_order': False, 'descr': '<f4', 'fortran_order': False, 'shape': (" +
                            std::to_string(n) + ", 7)}"}};
  for (const auto& [key, dict] : cases) {
    LoadRun load(rng);
    write_npy_file(load.state, dict, payload);
    expect_one_readable_line(load.run(), 2, {"'" + key + "' is given twice"});
    load.expect_untouched();
  }
}

// A JSON string may hold "\u0000": the NUL is shown as \x00 with what follows it, and a long string in part.
TEST(CliMessages, NulAndLengthInAJsonStringAreShownShortAndEscaped) {
  TestRng rng;
  TempDir dir;
  const std::string tail = random_letters(rng, 1, 8);
  for (const std::string& schema :
       {"coalesce-bench/2" + std::string(1, '\0') + tail, random_letters(rng, 2000, 100000)}) {
    SyntheticRun run;
    run.rows = random_rows(rng, rng.uniform_int(1, 8));
    nlohmann::json bad = run_json(run);
    bad["schema"] = schema;
    write_text(dir.file("a.json"), bad.dump());
    write_run(dir.file("b.json"), run);
    const ProcessResult r =
        run_coalesce({"bench", "--compare", dir.file("a.json"), dir.file("b.json")}, kQuick);
    expect_one_readable_line(r, 2, {"has schema '", "expected \"coalesce-bench/2\""});
    const std::string shown = schema.size() < 100 ? "coalesce-bench/2\\x00" + tail + "'"
                                                  : "... (" + std::to_string(schema.size()) + " bytes)'";
    EXPECT_NE(r.err.find(shown), std::string::npos) << r.err;
  }
  std::ofstream(dir.file("shot.json"))
      << nlohmann::json{{"schema", tail + std::string(1, '\0') + tail}}.dump();
  expect_one_readable_line(
      run_coalesce({"--headless", "--frames", "1", "--camera-from", dir.file("shot.json")}, kQuick), 2,
      {"(schema '" + tail + "\\x00" + tail + "')"});
}

TEST(CliMessages, AHugeNumberIsWrittenInAFewDigits) {
  TestRng rng;
  TempDir dir;
  SyntheticRun run;
  run.rows = random_rows(rng, rng.uniform_int(1, 8));
  write_run(dir.file("b.json"), run);
  nlohmann::json bad = run_json(run);
  const double huge = rng.uniform(1.0f, 9.9f) * std::pow(10.0, rng.uniform_int(300, 307));
  bad["rows"][0]["gbps"] = huge;
  write_text(dir.file("a.json"), bad.dump());
  const ProcessResult r =
      run_coalesce({"bench", "--compare", dir.file("a.json"), dir.file("b.json")}, kQuick);
  expect_one_readable_line(r, 2, {"rows[0]'s 'gbps' is ", "e+30", "beyond any GPU's"});
  std::size_t digits = 0, longest = 0;  // %f wrote 309 of them
  for (char c : r.err) {
    digits = std::isdigit(static_cast<unsigned char>(c)) ? digits + 1 : 0;
    longest = std::max(longest, digits);
  }
  EXPECT_LE(longest, 17u) << r.err;
}

// A value given in another case or with a letter missing: `fixed` ("fp32") -> "Fp32" or "fp2".
std::string misspelt(TestRng& rng, const std::string& fixed) {
  if (fixed.size() >= 4 && rng.uniform_int(0, 1)) {
    const auto at = static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(fixed.size()) - 1));
    return fixed.substr(0, at) + fixed.substr(at + 1);
  }
  std::string text = fixed;
  while (text == fixed)
    for (char& c : text)
      if (std::isalpha(static_cast<unsigned char>(c)) && rng.uniform_int(0, 1))
        c = static_cast<char>(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c)
                                                                          : std::toupper(c));
  return text;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> items;
  std::string item;
  for (std::istringstream in(text); std::getline(in, item, by);) items.push_back(item);
  return items;
}

// The SIMD targets this CPU runs, as --version lists them ("runs here: avx2, sse4, scalar;").
std::vector<std::string> targets_run_here() {
  const std::string out = run_coalesce({"--version"}, kQuick).out;
  const std::size_t start = out.find("runs here: ") + 11, end = out.find(';', start);
  std::vector<std::string> names;
  for (std::string name : split(out.substr(start, end - start), ',')) {
    name.erase(0, name.find_first_not_of(' '));
    names.push_back(name);
  }
  return names;
}

// Every option whose value is a choice ("a|b|c" in the table) suggests the choice meant, not an example.
TEST(CliMessages, SuggestionsAreTheNearestChoice) {
  TestRng rng;
  const std::vector<std::string> here = targets_run_here();
  int options = 0;
  for (const cli::OptionSpec* spec = cli::option_table_begin(); spec != cli::option_table_end(); ++spec) {
    // Choices are lower-case words ("cuda|cpu"); "NAME|FILE" names what to give.
    const std::string_view value = spec->value;
    const bool is_choice = value.find('|') != std::string_view::npos &&
                           std::none_of(value.begin(), value.end(), [](char c) { return std::isupper(c); });
    if (!is_choice || !(spec->scopes & cli::kViewer)) continue;
    ++options;
    const std::string flag(spec->name);
    const std::vector<std::string> choices = split(std::string(spec->value), '|');
    const std::string meant = choices[static_cast<std::size_t>(rng.uniform_int(0, int(choices.size()) - 1))];
    const std::string given = misspelt(rng, meant);
    const ProcessResult r = run_coalesce({flag, given}, kQuick);
    const bool runs =
        flag != "--cpu-target" || meant == "best" || std::find(here.begin(), here.end(), meant) != here.end();
    expect_one_readable_line(
        r, 2, {"got '" + given + "'", runs ? "(try " + flag + " " + meant + ")" : meant + " is nearest"});
    // Nothing near: the choices alone, no guess.
    const ProcessResult far = run_coalesce({flag, "qzqzxwxwqzqz"}, kQuick);
    expect_one_readable_line(far, 2, {"must be one of " + std::string(spec->value)});
    EXPECT_EQ(far.err.find("(try"), std::string::npos) << far.err;
  }
  EXPECT_GE(options,
            8);  // --backend, --layout, --precision, --cpu-target, --forces, --solver, --draw, --pack
}

// bench takes lists: the fix is the whole list with the misspelt item replaced.
TEST(CliMessages, ListSuggestionsFixTheItemInTheList) {
  TestRng rng;
  for (const auto& [flag, choices] :
       {std::pair<std::string, std::string>{"--layouts", "aos|soa|float4"}, {"--precision", "fp32|fp64"}}) {
    std::vector<std::string> items = split(choices, '|');
    std::shuffle(items.begin(), items.end(), rng.engine());
    items.resize(static_cast<std::size_t>(rng.uniform_int(1, int(items.size()))));
    const std::size_t bad = static_cast<std::size_t>(rng.uniform_int(0, int(items.size()) - 1));
    std::string fixed, given;
    for (std::size_t i = 0; i < items.size(); ++i) {
      fixed += (i ? "," : "") + items[i];
      given += (i ? "," : "") + (i == bad ? misspelt(rng, items[i]) : items[i]);
    }
    expect_one_readable_line(run_coalesce({"bench", flag, given, "--json", "-"}, kQuick), 2,
                    {"(try " + flag + " " + fixed + ")"});
  }
}

}  // namespace
}  // namespace coalesce::testing
