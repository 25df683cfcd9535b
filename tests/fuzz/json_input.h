// What the JSON fuzzer checks on each input, shared with the regression test that replays its corpus
// (tests/app/fuzz_regression_test.cpp), so both hold the three JSON readers to the same promise: the
// --camera-from reader, the bench run reader (--compare, --from) and json_schema_in. Header-only.
#pragma once

#include <optional>
#include <string>

#include "app/bench/bench_file.h"
#include "app/cli/camera_from.h"
#include "app/cli/cli.h"
#include "app/services/json_input.h"
#include "sim/errors.h"
#include "tests/fuzz/error_line.h"

namespace coalesce::fuzz {

// The --camera-from summary stays one line of bounded length whatever the file holds: two paths of at
// most PATH_MAX, each quoted twice, and short reasons.
inline constexpr std::size_t kMaxSummaryBytes = 32 * 1024;

struct JsonOutcome {
  bool camera_from_read = false;  // --camera-from accepted it
  bool bench_read = false;        // --compare and --from accepted it
  std::optional<std::string> schema;
  std::string broken;  // "" when every reader kept its promise, else how one did not
};

// Each reader's promise (app/cli/camera_from.h, app/bench/bench_file.h, app/services/json_input.h): a result,
// or a UsageError whose line names the flag and the file; json_schema_in never throws, and finds the schema
// of any file a reader accepted. Any other exception is not caught here: the fuzzer reports it as a crash,
// GoogleTest as a failure.
inline JsonOutcome check_json_readers(const std::string& bytes) {
  JsonOutcome outcome;
  const auto check_refusal = [&](const UsageError& e, const std::string& prefix) {
    if (std::string(e.what()).rfind(prefix, 0) != 0) outcome.broken = "a refusal not naming " + prefix + ": " + e.what();
    if (outcome.broken.empty()) outcome.broken = error_line_problem(e.what());
  };
  const Options options = parse_arguments({"--headless", "--frames", "1", "--camera-from", "fuzz.json"});
  try {
    const CameraFromResult result = apply_camera_from_bytes(options, bytes);
    outcome.camera_from_read = true;
    const std::string line = describe(result, "fuzz.json");
    if (line.size() > kMaxSummaryBytes) outcome.broken = "a summary of " + std::to_string(line.size()) + " bytes";
  } catch (const UsageError& e) {
    check_refusal(e, "--camera-from 'fuzz.json': ");
  }
  try {
    parse_bench_json("--compare", "fuzz.json", bytes);
    outcome.bench_read = true;
  } catch (const UsageError& e) {
    check_refusal(e, "--compare 'fuzz.json': ");
  }
  outcome.schema = json_schema_in(bytes);
  if ((outcome.camera_from_read || outcome.bench_read) && !outcome.schema)
    outcome.broken = "json_schema_in found no schema in a file a reader accepted";
  return outcome;
}

}  // namespace coalesce::fuzz
