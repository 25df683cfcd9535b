// Which format a state file is in, and reading and writing each (see state_file.h).
#include "sim/state_file.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "sim/errors.h"
#include "sim/gadget_hdf5.h"
#include "sim/input_file.h"
#include "sim/npy.h"
#include "sim/path_parts.h"
#include "sim/printable.h"
#include "sim/state_records.h"
#include "sim/tipsy.h"

namespace coalesce {

namespace {

struct FormatRow {
  StateFormat format;
  std::string_view name;       // --format's spelling
  std::string_view extension;  // what names the format, and what a snapshot series writes
  std::string_view alias;      // another extension that names it, or ""
  bool holds_doubles;
};

constexpr FormatRow kFormats[] = {
    {StateFormat::Npy, "npy", ".npy", "", true},
    {StateFormat::Tipsy, "tipsy", ".tipsy", "", false},  // float32 particles (the header's time is a double)
    {StateFormat::TipsyNative, "tipsy-native", ".tipsy", "", false},
    {StateFormat::GadgetHdf5, "hdf5", ".hdf5", ".h5", true},
};

const FormatRow& row_of(StateFormat format) {
  return *std::find_if(std::begin(kFormats), std::end(kFormats),
                       [&](const FormatRow& row) { return row.format == format; });
}

constexpr char kHdf5Signature[] = "\x89HDF\r\n\x1a\n";
constexpr char kNpyMagic[] = "\x93NUMPY";

// The format the first bytes name, for a file whose extension says nothing.
std::optional<StateFormat> sniffed_format(std::string_view flag, const std::string& path) {
  const InputFile file(flag, path);
  file.require_known_size();  // a /proc file: the one honest line, not "cannot tell the format"
  char head[8] = {};
  const std::size_t got = file.read_some(0, head, sizeof head);
  if (got >= 8 && std::memcmp(head, kHdf5Signature, 8) == 0) return StateFormat::GadgetHdf5;
  if (got >= 6 && std::memcmp(head, kNpyMagic, 6) == 0) return StateFormat::Npy;
  return std::nullopt;
}

template <class Real>
std::vector<EncodedFile> encode_records(const OutputFile& file, StateFormat format,
                                        const std::vector<ParticleRecord<Real>>& records,
                                        const StateExtras& extras) {
  switch (format) {
    case StateFormat::Npy:
      return {encode_npy(records)};
    case StateFormat::Tipsy:
      return encode_tipsy(file, records, extras, TipsyByteOrder::Standard);
    case StateFormat::TipsyNative:
      return encode_tipsy(file, records, extras, TipsyByteOrder::Native);
    case StateFormat::GadgetHdf5:
      return {encode_gadget_hdf5(file, records, extras)};
  }
  throw std::logic_error("encode_records: a StateFormat without a row");
}

StateContents npy_contents(NpyState&& state) {
  StateContents contents;
  contents.name = std::move(state.name);
  contents.format = "npy";
  contents.held_doubles = state.source.scalar == NpyScalar::Float64;
  contents.records = std::move(state.records);
  contents.ids = ids_or_sequence(nullptr, contents.records.size());
  return contents;
}

std::string notice_of(const StateContents& contents, Precision target) {
  std::vector<std::string> parts;
  if (contents.held_doubles && target == Precision::Fp32) {
    const std::size_t changed = count_rounded_to_float(contents.records);
    parts.push_back("float64 rounded to float32 for fp32 (" + std::to_string(changed) + " of " +
                    std::to_string(contents.records.size() * kFieldsPerParticle) + " values changed)");
  }
  if (!contents.held_doubles && target == Precision::Fp64)
    parts.push_back("float32 widened to float64 for fp64 (exact)");
  if (!contents.converted.empty()) parts.push_back(contents.converted);
  if (!contents.ignored.empty()) parts.push_back(contents.ignored + " ignored");
  if (parts.empty()) return {};
  std::string line = contents.name + " (" + contents.format + "): ";
  for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : "") + parts[i];
  return line;
}

}  // namespace

std::string_view format_name(StateFormat format) {
  return row_of(format).name;
}
std::string_view format_extension(StateFormat format) {
  return row_of(format).extension;
}
bool format_holds_doubles(StateFormat format) {
  return row_of(format).holds_doubles;
}

std::optional<StateFormat> parse_state_format(std::string_view name) {
  for (const FormatRow& row : kFormats)
    if (row.name == name) return row.format;
  return std::nullopt;
}

std::optional<StateFormat> format_of_extension(const std::string& path) {
  const std::string extension = lowercase_extension(path);
  if (extension.empty()) return std::nullopt;
  for (const FormatRow& row : kFormats)  // the first row of an extension: Tipsy's is the standard byte order
    if (row.extension == extension || row.alias == extension) return row.format;
  return std::nullopt;
}

StateFormat output_format(std::string_view flag, const std::string& path, std::optional<StateFormat> given) {
  const std::optional<StateFormat> named = format_of_extension(path);
  if (!named) return given.value_or(StateFormat::Npy);
  if (!given || *given == *named) return *named;
  if (*named == StateFormat::Tipsy && *given == StateFormat::TipsyNative) return *given;  // the byte order
  throw UsageError(std::string(flag) + " " + excerpt(path) + " names a " + std::string(format_name(*named)) +
                   " file, but --format says " + std::string(format_name(*given)) +
                   " (drop --format, or give the path the extension of the format you want)");
}

StateFormat input_format(std::string_view flag, const std::string& path, std::optional<StateFormat> given) {
  if (const auto named = format_of_extension(path)) return *named;
  if (given) return *given;
  if (const auto sniffed = sniffed_format(flag, path)) return *sniffed;
  throw UsageError(
      std::string(flag) + " " + excerpt(path) +
      ": cannot tell the format from the name or the first bytes (name it .npy, .tipsy, .hdf5 or "
      ".h5, or give --format " +
      std::string(kStateFormatChoices) + ")");
}

std::vector<std::string> companion_paths(const std::string& path, StateFormat format) {
  if (format == StateFormat::Tipsy || format == StateFormat::TipsyNative) return {tipsy_ids_path(path)};
  return {};
}

LoadedState load_state_file(const std::string& path, StateFormat format, Precision target) {
  LoadedState loaded;
  switch (format) {
    case StateFormat::Npy: {
      NpyState state = load_npy_state(path);
      loaded.notice = npy_notice(state, target);  // its byte and column orders too
      loaded.contents = npy_contents(std::move(state));
      return loaded;
    }
    case StateFormat::Tipsy:
    case StateFormat::TipsyNative:
      loaded.contents = load_tipsy(path);  // either byte order, whichever the header shows
      break;
    case StateFormat::GadgetHdf5:
      loaded.contents = load_gadget_hdf5(path);
      break;
  }
  loaded.notice = notice_of(loaded.contents, target);
  return loaded;
}

template <>
std::vector<Particle> records_for<Precision::Fp32>(const StateContents& contents) {
  return records_in_precision<Precision::Fp32, UsageError>(contents.name, contents.records,
                                                           contents.held_doubles);
}

template <>
std::vector<ParticleF64> records_for<Precision::Fp64>(const StateContents& contents) {
  return records_in_precision<Precision::Fp64, UsageError>(contents.name, contents.records,
                                                           contents.held_doubles);
}

std::vector<EncodedFile> encode_state_file(const OutputFile& file, StateFormat format,
                                           const std::vector<Particle>& records, const StateExtras& extras) {
  return encode_records(file, format, records, extras);
}

std::vector<EncodedFile> encode_state_file(const OutputFile& file, StateFormat format,
                                           const std::vector<ParticleF64>& records,
                                           const StateExtras& extras) {
  return encode_records(file, format, records, extras);
}

void save_state_file(const OutputFile& file, StateFormat format, const std::vector<Particle>& records,
                     const StateExtras& extras) {
  write_encoded(file, encode_records(file, format, records, extras));
}

void save_state_file(const OutputFile& file, StateFormat format, const std::vector<ParticleF64>& records,
                     const StateExtras& extras) {
  write_encoded(file, encode_records(file, format, records, extras));
}

}  // namespace coalesce
