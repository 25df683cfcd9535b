// The schema names of the JSON files coalesce writes beside a screenshot and a clip, which it reads back
// (--camera-from, the sidecar check), and of bench's ranks run: "NAME/MAJOR", where a new MAJOR means older
// readers must refuse it.
#pragma once

#include <string_view>

namespace coalesce {

inline constexpr std::string_view kScreenshotSchemaPrefix = "coalesce-screenshot/";
inline constexpr std::string_view kScreenshotSchema = "coalesce-screenshot/3";
inline constexpr std::string_view kClipSchemaPrefix = "coalesce-clip/";
inline constexpr std::string_view kClipSchema = "coalesce-clip/1";
// bench under mpirun with several ranks (docs/bench-json.md, "Ranks"); --compare and --from refuse it by
// name.
// --snapshot-every's DIR/index.json (docs/formats.md, "Snapshot series").
inline constexpr std::string_view kSnapshotsSchema = "coalesce-snapshots/1";
inline constexpr std::string_view kBenchRanksSchema = "coalesce-bench-ranks/1";

}  // namespace coalesce
