// State files in every format (docs/formats.md): which format a path means, reading any of them into
// StateContents, the records a run of each precision starts from, and writing a state in any of them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/output_file.h"
#include "sim/particle.h"
#include "sim/precision.h"
#include "sim/state_contents.h"

namespace coalesce {

// Standard Tipsy is big-endian (XDR); TipsyNative is the little-endian form NVIDIA's nbody sample reads.
enum class StateFormat { Npy, Tipsy, TipsyNative, GadgetHdf5 };

inline constexpr std::string_view kStateFormatChoices = "npy|tipsy|tipsy-native|hdf5";
std::string_view format_name(StateFormat format);  // as --format spells it
std::optional<StateFormat> parse_state_format(std::string_view name);
// .npy, .tipsy, .hdf5 and .h5; none for any other name.
std::optional<StateFormat> format_of_extension(const std::string& path);
// The extension written for a format's files in a snapshot series (.npy, .tipsy, .hdf5).
std::string_view format_extension(StateFormat format);

// The format of a file written to `path`: its extension's, or `given` (--format) where the extension says
// nothing, else .npy. Throws UsageError naming `flag` when the two disagree (--format tipsy-native only picks
// the byte order of a .tipsy). Reading needs no --format for a known extension.
StateFormat output_format(std::string_view flag, const std::string& path, std::optional<StateFormat> given);
// The format of a file read from `path`: its extension's, else `given`, else what its first bytes say
// (.npy's and HDF5's signatures). Throws UsageError when none of these tells.
StateFormat input_format(std::string_view flag, const std::string& path, std::optional<StateFormat> given);

// Files a save writes beside `path` (Tipsy's .iord of particle IDs); checked with it before a run.
std::vector<std::string> companion_paths(const std::string& path, StateFormat format);

// A file as read, and one line saying what loading it converted for the run's precision (float64 rounded to
// float32, float32 widened, .npy's byte order or column order) and what it held that a state drops,
// starting with the file's name; "" when the file holds exactly the records.
struct LoadedState {
  StateContents contents;
  std::string notice;
};

// Reads `path` as `format` (Tipsy in either byte order), validated as each reader documents. Throws
// UsageError (bad input) or RuntimeFailure, one line starting with the path.
LoadedState load_state_file(const std::string& path, StateFormat format, Precision target);

// The records in precision P's scalar: fp64 takes them as read (double: exact), fp32 rounds doubles to the
// nearest float. Throws UsageError naming the particle and field for a position beyond the precision's range
// or a value beyond float's.
template <Precision P>
std::vector<ParticleRecord<RealFor<P>>> records_for(const StateContents& contents);
template <>
std::vector<Particle> records_for<Precision::Fp32>(const StateContents& contents);
template <>
std::vector<ParticleF64> records_for<Precision::Fp64>(const StateContents& contents);

// Writes `records` with `extras` in `format` atomically (write_output / write_outputs_together).
void save_state_file(const OutputFile& file, StateFormat format, const std::vector<Particle>& records,
                     const StateExtras& extras);
void save_state_file(const OutputFile& file, StateFormat format, const std::vector<ParticleF64>& records,
                     const StateExtras& extras);

// The same files as bytes, unwritten (a snapshot series writes them into its held folder); `file` names
// them in messages.
std::vector<EncodedFile> encode_state_file(const OutputFile& file, StateFormat format,
                                           const std::vector<Particle>& records, const StateExtras& extras);
std::vector<EncodedFile> encode_state_file(const OutputFile& file, StateFormat format,
                                           const std::vector<ParticleF64>& records, const StateExtras& extras);

// Whether `format` stores doubles: an fp64 state saved in one that does not is rounded (and the save says
// so).
bool format_holds_doubles(StateFormat format);

}  // namespace coalesce
