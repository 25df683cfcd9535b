// load_gadget_hdf5 / decode_gadget_hdf5: the file read here, decoded by libhdf5 in a child process, and the
// outcome sent back length-prefixed: a tag, then the contents (flags, time, units, texts, then the counted
// records and IDs) or the error's line. The parent trusts no length or value it receives.
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>

#include "sim/gadget_hdf5.h"
#include "sim/gadget_hdf5_child.h"
#include "sim/hdf5_superblock.h"
#include "sim/input_file.h"
#include "sim/limits.h"
#include "sim/record_checks.h"

namespace coalesce {

namespace {

constexpr std::size_t kFileChunkBytes = std::size_t{1} << 26;
constexpr std::size_t kChunkRecords = std::size_t{1} << 16;
constexpr std::size_t kMaxUnitText = 256;

// What the child sends first: the contents, or which kind of exception ended the decoding.
enum class Tag : std::uint64_t { Contents = 0x47414447, UsageError, RuntimeFailure, OtherError };
constexpr std::uint64_t kHeldDoubles = 1, kIdsFromFile = 2, kHasUnits = 4, kKnownFlags = 7;

std::string bounded(std::string text) {
  if (text.size() > gadget::kMaxSentText) text.resize(gadget::kMaxSentText);
  return text;
}

void send_contents(const ChildWriter& w, const StateContents& c) {
  w.u64(static_cast<std::uint64_t>(Tag::Contents));
  w.u64((c.held_doubles ? kHeldDoubles : 0) | (c.ids_from_file ? kIdsFromFile : 0) |
        (c.units ? kHasUnits : 0));
  w.f64(c.time);
  if (c.units) {
    w.f64(c.units->length_in_cm);
    w.f64(c.units->mass_in_g);
    w.text(c.units->length_text.substr(0, kMaxUnitText));
    w.text(c.units->mass_text.substr(0, kMaxUnitText));
  }
  w.text(bounded(c.ignored));
  w.text(bounded(c.converted));
  w.u64(c.records.size());
  w.bytes(c.records.data(), c.records.size() * sizeof(ParticleF64));
  w.u64(c.ids.size());
  w.bytes(c.ids.data(), c.ids.size() * sizeof(std::uint64_t));
}

// `count` records from the child into `records`, each checked as every reader checks its own (finite
// values, masses in kMassRange); reserve takes only addresses: resident memory grows as the bytes arrive.
void receive_records(ChildReader& r, std::uint64_t count, bool held_doubles,
                     std::vector<ParticleF64>& records) {
  records.reserve(count);
  while (records.size() < count) {
    const std::size_t first = records.size();
    records.resize(first + std::min<std::size_t>(kChunkRecords, count - first));
    r.bytes(records.data() + first, (records.size() - first) * sizeof(ParticleF64));
    for (std::size_t i = first; i < records.size(); ++i) {
      const std::string problem = record_problem(records[i], i, !held_doubles);
      if (!problem.empty()) throw ChildStreamError(problem);
    }
  }
}

double positive_unit(ChildReader& r, const char* what) {
  const double v = r.f64();
  if (!(std::isfinite(v) && v > 0)) throw ChildStreamError(std::string(what) + " " + exact_text(v));
  return v;
}

StateContents receive_contents(ChildReader& r) {
  StateContents c;
  const std::uint64_t flags = r.u64();
  if (flags & ~kKnownFlags) throw ChildStreamError("unknown flags " + std::to_string(flags));
  c.held_doubles = flags & kHeldDoubles;
  c.ids_from_file = flags & kIdsFromFile;
  c.time = r.f64();
  if (!std::isfinite(c.time)) throw ChildStreamError("a time of " + exact_text(c.time));
  if (flags & kHasUnits) {
    PhysicalUnits units;
    units.length_in_cm = positive_unit(r, "a length unit of");
    units.mass_in_g = positive_unit(r, "a mass unit of");
    units.length_text = r.text(kMaxUnitText, "a length unit text of length");
    units.mass_text = r.text(kMaxUnitText, "a mass unit text of length");
    c.units = units;
  }
  c.ignored = r.text(gadget::kMaxSentText, "an ignored phrase of length");
  c.converted = r.text(gadget::kMaxSentText, "a converted phrase of length");
  const std::uint64_t count = r.count(static_cast<std::uint64_t>(kMaxParticles), "a record count of");
  if (count == 0) throw ChildStreamError("no records");
  receive_records(r, count, c.held_doubles, c.records);
  const std::uint64_t ids = r.count(count, "an ID count of");
  if (ids != count)
    throw ChildStreamError(std::to_string(ids) + " IDs for " + std::to_string(count) + " records");
  c.ids.resize(ids);
  r.bytes(c.ids.data(), ids * sizeof(std::uint64_t));
  return c;
}

struct Outcome {
  Tag tag = Tag::OtherError;
  StateContents contents;
  std::string message;
};

Outcome receive_outcome(const std::string& name, ChildReader& r) {
  Outcome outcome;
  const std::uint64_t tag = r.u64();
  if (tag < static_cast<std::uint64_t>(Tag::Contents) || tag > static_cast<std::uint64_t>(Tag::OtherError))
    throw ChildStreamError("an unknown tag " + std::to_string(tag));
  outcome.tag = static_cast<Tag>(tag);
  if (outcome.tag == Tag::Contents) {
    outcome.contents = receive_contents(r);
    return outcome;
  }
  outcome.message = r.text(gadget::kMaxSentText, "a message of length");
  if (outcome.tag != Tag::OtherError && outcome.message.rfind(name + ": ", 0) != 0)
    throw ChildStreamError("a message not about the file");
  return outcome;
}

// The file's bytes up to its HDF5 data's end (hdf5_data_end): padding past it is never read.
std::string read_hdf5_data(const std::string& path) {
  const InputFile file("", path);
  file.require_known_size();
  if (file.size() == 0) return {};  // decode_here says it is empty
  const std::uint64_t end = hdf5_data_end(
      path, [&](std::uint64_t offset, void* out, std::size_t bytes) { file.read_at(offset, out, bytes); },
      file.size());
  if (end > kMaxGadgetFileBytes)
    throw Hdf5Error(path + ": holds " + std::to_string(end) + " bytes of HDF5 data; expected at most " +
                    std::to_string(kMaxGadgetFileBytes) + " (is it the right file?)");
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(end));
  } catch (const std::bad_alloc&) {
    throw RuntimeFailure(path + ": out of host memory reading its " + std::to_string(end >> 20) +
                         " MiB; free memory, or load a smaller snapshot");
  }
  for (std::uint64_t offset = 0; offset < bytes.size(); offset += kFileChunkBytes)
    file.read_at(offset, bytes.data() + offset,
                 std::min<std::size_t>(kFileChunkBytes, bytes.size() - offset));
  return bytes;
}

// `bytes` cut to their HDF5 data's end, as read_hdf5_data reads a file.
std::string cut_to_hdf5_data(const std::string& name, std::string bytes) {
  if (bytes.empty()) return bytes;
  const std::uint64_t end = hdf5_data_end(
      name,
      [&](std::uint64_t offset, void* out, std::size_t n) {
        std::memcpy(out, bytes.data() + offset, n);  // hdf5_data_end reads only within the size it is given
      },
      bytes.size());
  bytes.resize(static_cast<std::size_t>(end));
  return bytes;
}

StateContents decode_hdf5_data(const std::string& name, std::string bytes) {
  const auto child = [&](ChildWriter& writer) {
    gadget::send_outcome(writer, [&] { return gadget::decode_here(name, std::move(bytes)); });
  };
  // The child has its own copy of the bytes (copy-on-write): the parent's can go before the records come.
  return gadget::decode_in_child(name, child, [&] { std::string().swap(bytes); });
}

}  // namespace

namespace gadget {

void send_outcome(const ChildWriter& writer, const std::function<StateContents()>& decode) {
  std::optional<StateContents> contents;
  Tag failure = Tag::OtherError;
  std::string message;
  try {
    contents = decode();
  } catch (const UsageError& e) {
    failure = Tag::UsageError, message = e.what();
  } catch (const RuntimeFailure& e) {
    failure = Tag::RuntimeFailure, message = e.what();
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "an exception that is not a std::exception";
  }
  if (contents) return send_contents(writer, *contents);
  writer.u64(static_cast<std::uint64_t>(failure));
  writer.text(bounded(message));
}

StateContents decode_in_child(const std::string& name, const std::function<void(ChildWriter&)>& child,
                              const std::function<void()>& forked) {
  Outcome outcome;
  try {
    run_in_child(child, [&](ChildReader& reader) {
      if (forked) forked();
      try {
        outcome = receive_outcome(name, reader);
      } catch (const std::bad_alloc&) {
        throw RuntimeFailure(name +
                             ": out of host memory receiving its particles; free memory, or load a "
                             "snapshot with fewer particles");
      }
    });
  } catch (const ChildNotStarted& e) {
    throw RuntimeFailure(name + ": cannot start the process that decodes it (" + e.what() +
                         "); free memory or close other programs, and try again");
  } catch (const ChildFailed& e) {
    if (e.signal() == SIGKILL)
      throw RuntimeFailure(name +
                           ": the process decoding it with libhdf5 was killed by SIGKILL (as the "
                           "system's out-of-memory killer does); free memory, or load a smaller snapshot");
    throw Hdf5Error(name + ": libhdf5 failed while decoding the file (the decoding process " + e.what() +
                    "); the file is damaged or not a GADGET snapshot libhdf5 can read");
  }
  switch (outcome.tag) {
    case Tag::Contents:
      outcome.contents.name = name;
      outcome.contents.format = "gadget-hdf5";
      return std::move(outcome.contents);
    case Tag::UsageError:
      throw Hdf5Error(outcome.message);
    case Tag::RuntimeFailure:
      throw RuntimeFailure(outcome.message);
    case Tag::OtherError:
      break;
  }
  throw std::logic_error(outcome.message);
}

}  // namespace gadget

StateContents decode_gadget_hdf5(const std::string& name, std::string bytes) {
  return decode_hdf5_data(name, cut_to_hdf5_data(name, std::move(bytes)));
}

StateContents load_gadget_hdf5(const std::string& path) {
  return decode_hdf5_data(path, read_hdf5_data(path));
}

}  // namespace coalesce
