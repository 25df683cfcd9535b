// The JSON files coalesce reads back (--camera-from, bench --compare, bench --plot --from), parsed with
// bounded cost: read through sim/input_file.h (regular files only, at most a stated size), nested at most
// kMaxJsonDepth deep, and built only where the reader asks, so a hostile file costs about its own size in
// memory however it is shaped. Every refusal is one UsageError naming the flag, the file and the fix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace coalesce {

// Far deeper than any file coalesce writes (a clip's frames nest four levels).
inline constexpr int kMaxJsonDepth = 64;
// Values a reader may keep in memory at once; its files keep a few hundred.
inline constexpr std::size_t kMaxKeptJsonValues = 100000;
// The largest JSON coalesce writes: an hour-long clip's per-frame numbers fit.
inline constexpr std::uint64_t kMaxReportJsonBytes = 256ull << 20;

// One reader's file, as its messages name it: "FLAG 'PATH': PROBLEM (FIX)".
struct JsonSource {
  std::string_view flag;  // "--compare"
  std::string path;
  std::string fix;  // "give a file written by coalesce bench --json"

  [[noreturn]] void fail(const std::string& problem) const;
  // With another fix, or none ("") where the problem's own words already give one.
  [[noreturn]] void fail(const std::string& problem, const std::string& fix_of_it) const;
};

// Where a value sits: the keys and array indices from the top ({"settings", "scene"}, {"rows", "12"}).
using JsonPath = std::vector<std::string>;

// What of the file to build. A value is built when its container was and `keep` says yes (the top always
// is); the rest is parsed and dropped at once. `take`, when set, sees each built value as it ends and
// may consume it (return true): the document then holds no copy, as bench rows become BenchRows one by one.
struct JsonFilter {
  std::function<bool(const JsonPath&)> keep;
  std::function<bool(const JsonPath&, nlohmann::json&)> take;
};

// The file's kept values. Refuses a file larger than `max_bytes`, not JSON, deeper than kMaxJsonDepth or
// keeping more than kMaxKeptJsonValues values; `take` may throw its own UsageError.
nlohmann::json read_json_input(const JsonSource& source, std::uint64_t max_bytes, const JsonFilter& filter);

// The same over bytes already in memory (the fuzzer's way in); the messages name source.path.
nlohmann::json parse_json_input(const JsonSource& source, std::string_view bytes, const JsonFilter& filter);

// "coalesce-clip/1" -> {"coalesce-clip/", 1}; none for a string of another form.
struct SchemaVersion {
  std::string family;  // with its trailing '/'
  long major = 0;
};
std::optional<SchemaVersion> parse_schema(std::string_view schema);

// Refuses a file of the same family as `newest` ("coalesce-bench/2") with a higher major: written by a
// newer coalesce, which this one cannot read correctly. Anything else passes, for the reader to judge.
void refuse_newer_schema(const JsonSource& source, const std::string& schema, std::string_view newest);

// The top-level "schema" string of the JSON object in `path`, or none: not a regular readable file, larger
// than any file coalesce writes, malformed before the key, or without it. Reads until that key, in bounded
// memory; never throws. For output checks: is an existing sidecar one coalesce wrote?
std::optional<std::string> json_schema_of(const std::string& path);
// The same over bytes in memory.
std::optional<std::string> json_schema_in(std::string_view bytes);

}  // namespace coalesce
