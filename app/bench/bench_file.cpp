// Reads a saved bench run back (see bench_file.h); the checks follow docs/bench-json.md's schema.
#include "app/bench/bench_file.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

#include "app/services/json_input.h"
#include "app/services/report_schemas.h"
#include "sim/errors.h"
#include "sim/limits.h"
#include "sim/printable.h"
#include "sim/memory_ceiling.h"

namespace coalesce {
namespace {

using nlohmann::json;

constexpr const char* kBenchFix = "give a file written by coalesce bench --json";

// One reader's context: every error names the option, the file and the fix.
struct Reader {
  JsonSource source;

  [[noreturn]] void fail(const std::string& problem) const { source.fail(problem); }

  const json& field(const json& object, const char* key, const std::string& where) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(where + " has no '" + key + "'");
    return *it;
  }
  std::string text(const json& object, const char* key, const std::string& where) const {
    const json& value = field(object, key, where);
    if (!value.is_string()) fail(where + "'s '" + key + "' is not a string");
    return value.get<std::string>();
  }
  double number(const json& object, const char* key, const std::string& where) const {
    const json& value = field(object, key, where);
    if (!value.is_number() || !std::isfinite(value.get<double>()))
      fail(where + "'s '" + key + "' is not a finite number");
    return value.get<double>();
  }
  double non_negative(const json& object, const char* key, const std::string& where) const {
    const double value = number(object, key, where);
    if (value < 0) fail(where + "'s '" + key + "' is negative");
    return value;
  }
  std::optional<double> optional_number(const json& object, const char* key) const {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number() || !std::isfinite(it->get<double>())) return std::nullopt;
    return it->get<double>();
  }
  // A number the file may leave out, read only within [lo, hi] (a count, a clock), else `fallback`.
  double optional_bounded(const json& object, const char* key, double lo, double hi, double fallback) const {
    const std::optional<double> value = optional_number(object, key);
    return value && *value >= lo && *value <= hi ? *value : fallback;
  }
  bool optional_flag(const json& object, const char* key) const {
    const auto it = object.find(key);
    return it != object.end() && it->is_boolean() && it->get<bool>();
  }
  // At most `hi`: a hostile file must not turn a chart's scale (and its tick loop) into infinity.
  double bounded(const json& object, const char* key, const std::string& where, double hi) const {
    const double value = non_negative(object, key, where);
    if (value > hi) fail(where + "'s '" + key + "' is " + number_text(value) + ", beyond any GPU's");
    return value;
  }
  std::string optional_text(const json& object, const char* key) const {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
  }
};

BenchRow read_row(const Reader& reader, const json& value, std::size_t index) {
  const std::string where = "rows[" + std::to_string(index) + "]";
  if (!value.is_object()) reader.fail(where + " is not an object");
  BenchRow row{};
  const std::string solver = reader.text(value, "solver", where);
  const auto parsed_solver = parse_solver_family(solver);
  if (!parsed_solver)
    reader.fail(where + "'s solver '" + excerpt(solver) + "' is not " + solver_family_words());
  row.solver = *parsed_solver;
  const double particles = reader.number(value, "particles", where);
  if (particles < 1 || particles > kMaxParticles || particles != std::floor(particles))
    reader.fail(where + "'s particles is not a count from 1 to " + std::to_string(kMaxParticles));
  row.particles = static_cast<int>(particles);
  const std::string layout = reader.text(value, "layout", where);
  const auto parsed_layout = parse_layout(layout);
  if (!parsed_layout)
    reader.fail(where + "'s layout '" + excerpt(layout) + "' is not one of " + std::string(kLayoutNames));
  row.layout = *parsed_layout;
  // Runs before the precision axis have no "precision": they were fp32.
  row.precision = Precision::Fp32;
  if (value.contains("precision")) {
    const std::string precision = reader.text(value, "precision", where);
    const auto parsed_precision = parse_precision(precision);
    if (!parsed_precision)
      reader.fail(where + "'s precision '" + excerpt(precision) + "' is not one of " +
                  std::string(kPrecisionChoices));
    row.precision = *parsed_precision;
  }
  row.kernel = reader.text(value, "kernel", where);
  if (row.kernel.empty()) reader.fail(where + "'s kernel is empty");
  row.variant = reader.text(value, "variant", where);
  row.samples = static_cast<int>(reader.bounded(value, "samples", where, 1e9));
  row.median_ms = reader.number(value, "median_ms", where);
  if (row.median_ms <= 0) reader.fail(where + "'s median_ms is not above 0");
  row.min_ms = reader.non_negative(value, "min_ms", where);
  row.max_ms = reader.non_negative(value, "max_ms", where);
  row.cv_percent = reader.non_negative(value, "cv_percent", where);
  // Bounds far beyond any device (1 PB/s, 1e18 interactions/s), so plausible runs of future GPUs pass.
  row.gbps = reader.bounded(value, "gbps", where, 1e6);
  row.percent_of_copy = reader.bounded(value, "percent_of_copy", where, 1e4);
  row.interactions_per_second = reader.bounded(value, "interactions_per_second", where, 1e18);
  row.bytes = reader.optional_number(value, "bytes").value_or(0.0);
  row.interactions = reader.optional_number(value, "interactions").value_or(0.0);
  row.noisy = reader.optional_flag(value, "noisy");
  row.scratch_bytes = reader.optional_bounded(value, "scratch_bytes", 0, row.bytes, 0.0);
  // The row's ceiling, a name of the table only; runs before the ceilings (or a name this build does not
  // know) were compared with the copy.
  if (!headline_is_interactions(row)) {
    const std::string ceiling = reader.optional_text(value, "ceiling");
    const auto known = std::find_if(kCeilingTable.begin(), kCeilingTable.end(),
                                    [&](const CeilingInfo& c) { return c.name == ceiling; });
    const std::optional<double> percent = reader.optional_number(value, "percent_of_ceiling");
    const bool read = known != kCeilingTable.end() && percent && *percent >= 0 && *percent <= 1e4;
    row.ceiling = std::string(read ? known->name : ceiling_info(Ceiling::Copy).name);
    row.percent_of_ceiling = read ? *percent : row.percent_of_copy;
  }
  // A tree row's settings, read back so that --compare matches rows of the same theta only; its counts and
  // error are measurements of that run, not read back.
  if (const auto tree = value.find("tree"); tree != value.end() && tree->is_object()) {
    const std::optional<double> theta = reader.optional_number(*tree, "theta");
    if (theta && kThetaRange.contains(*theta)) {
      row.tree = TreeBench{};
      row.tree->report.settings.theta = *theta;
    }
  }
  row.counters.reason = "not read back from the JSON";
  return row;
}

// The blocks and fields read below; everything else in a file is parsed and dropped as it is read.
bool is_read(const JsonPath& path) {
  static const std::vector<std::string> top = {"schema", "device",  "backend", "command_line",
                                               "date_utc", "method", "clocks",  "rows"};
  if (path.size() == 1) return std::find(top.begin(), top.end(), path[0]) != top.end();
  // Each row and its fields (numbers and strings), and of its tree block the theta (--compare's key).
  if (path[0] == "rows") return path.size() <= 3 || (path.size() == 4 && path[2] == "tree" && path[3] == "theta");
  return path.size() == 2;                          // device, method and clocks: their fields
}

}  // namespace

bool headline_is_interactions(const BenchRow& row) {
  return row.kernel == "forces" && method_info(row.solver).compute_bound;
}

double headline_value(const BenchRow& row) {
  return headline_is_interactions(row) ? row.interactions_per_second : row.gbps;
}

namespace {

// The run in the file `parse` reads with the filter it is given (from disk, or bytes in memory).
SavedBench read_bench(const Reader& reader, const std::function<json(const JsonFilter&)>& parse) {
  SavedBench saved;
  // Each row becomes a BenchRow as it ends, so no row's JSON is kept; a row's problem is reported after
  // the schema's (keys come sorted, "rows" before "schema"), so another program's file is named as such.
  std::optional<UsageError> row_problem;
  const auto take_row = [&](const JsonPath& at, nlohmann::json& value) {
    if (at.size() != 2 || at[0] != "rows") return false;
    if (row_problem) return true;
    try {
      saved.run.rows.push_back(read_row(reader, value, saved.run.rows.size()));
    } catch (const UsageError& e) {
      row_problem = e;
    }
    return true;
  };
  const json document = parse({is_read, take_row});
  if (!document.is_object()) reader.fail("is JSON but not an object");
  const auto schema = document.find("schema");
  if (schema == document.end() || !schema->is_string())
    reader.fail("has no schema; expected \"" + std::string(kBenchSchema) + "\"");
  if (*schema == kBenchRanksSchema)
    reader.source.fail("is a run over MPI ranks (" + std::string(kBenchRanksSchema) +
                           ", written by coalesce bench under mpirun): its rows are step times across ranks, "
                           "without the per-kernel samples that --compare and --plot read",
                       "give runs written by coalesce bench --json in one process, without mpirun");
  refuse_newer_schema(reader.source, schema->get<std::string>(), kBenchSchema);
  if (*schema != kBenchSchema)
    reader.fail("has schema '" + excerpt(schema->get<std::string>()) + "'; expected \"" + std::string(kBenchSchema) +
                "\"");
  const json& rows = reader.field(document, "rows", "the file");  // empty: its rows were taken as they ended
  if (!rows.is_array()) reader.fail("'rows' is not an array");
  if (row_problem) throw *row_problem;

  saved.path = reader.source.path;
  BenchResult& run = saved.run;
  const json& device = reader.field(document, "device", "the file");
  if (!device.is_object()) reader.fail("'device' is not an object");
  run.device.name = reader.text(device, "name", "device");
  run.device.copy_peak_gbps = reader.non_negative(device, "copy_peak_gbps", "device");
  run.device.driver = reader.optional_text(device, "driver");
  run.device.gpu = reader.optional_flag(device, "gpu");
  // A clock the file leaves out or writes as null (or 0, as files before null did) is unknown.
  const auto khz = [&](const char* key) -> std::optional<int> {
    const double value = reader.optional_bounded(device, key, 0, 1e9, 0);
    return value > 0 ? std::optional<int>(static_cast<int>(value)) : std::nullopt;
  };
  run.device.sm_clock_khz = khz("sm_clock_khz");
  run.device.memory_clock_khz = khz("memory_clock_khz");
  run.device.multiprocessors = static_cast<int>(reader.optional_bounded(device, "multiprocessors", 0, 1e7, 0));
  run.backend_name = reader.optional_text(document, "backend");
  run.command_line = reader.optional_text(document, "command_line");
  run.date_utc = reader.optional_text(document, "date_utc");
  run.plan.repeats = 0;
  if (const auto method = document.find("method"); method != document.end() && method->is_object())
    run.plan.repeats = static_cast<int>(reader.optional_bounded(*method, "repeats", 0, 1e9, 0));
  if (const auto clocks = document.find("clocks");
      clocks != document.end() && clocks->is_object() && reader.optional_flag(*clocks, "measured")) {
    saved.sm_mhz = reader.optional_number(*clocks, "sm_mhz");
    saved.memory_mhz = reader.optional_number(*clocks, "memory_mhz");
  }
  return saved;
}

}  // namespace

SavedBench read_bench_json(std::string_view flag, const std::string& path) {
  const Reader reader{{flag, path, kBenchFix}};
  return read_bench(reader, [&](const JsonFilter& filter) {
    return read_json_input(reader.source, kMaxBenchJsonBytes, filter);
  });
}

SavedBench parse_bench_json(std::string_view flag, const std::string& name, std::string_view bytes) {
  const Reader reader{{flag, name, kBenchFix}};
  return read_bench(reader, [&](const JsonFilter& filter) { return parse_json_input(reader.source, bytes, filter); });
}

}  // namespace coalesce
