// A state as a file holds it, in any of the formats (.npy, Tipsy, GADGET HDF5; docs/formats.md), and what a
// writer needs beside the records: particle IDs, the time and the scene's physical units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/encoded_file.h"
#include "sim/particle.h"
#include "sim/units.h"

namespace coalesce {

// Read: every value as a double (exact for a float file), with what the file said beside them.
struct StateContents {
  std::string name;           // the file, as every message about it starts
  std::string format;         // "npy", "tipsy", "tipsy-native", "gadget-hdf5": for messages
  bool held_doubles = false;  // the file stored float64 values (an fp32 run rounds them)
  std::vector<ParticleF64> records;
  std::vector<std::uint64_t> ids;      // one per record: the file's IDs, or 0..N-1 where it carried none
  bool ids_from_file = false;          // false: ids were numbered 0..N-1 here
  double time = 0.0;                   // the file's simulation time (0 where it has no place for one)
  std::optional<PhysicalUnits> units;  // where the file records them (HDF5 attributes)
  std::string ignored;  // what the file held that a state has no place for, as a noun phrase; "" when nothing
  std::string converted;  // what the reader changed to fit the run's G = 1 units, "" when nothing
};

// Written: the records in the run's precision, with their IDs and the time and units of the run.
struct StateExtras {
  const std::vector<std::uint64_t>* ids = nullptr;  // null or empty: 0..N-1
  double time = 0.0;
  std::optional<PhysicalUnits> units;
  std::optional<double> softening;  // the run's eps, for formats with a per-particle eps (Tipsy)
  const std::vector<double>* potential = nullptr;  // one per record where known (Tipsy's phi), else unknown
};

// IDs for `count` records: `ids` when it has one per record, else 0..count-1.
inline std::vector<std::uint64_t> ids_or_sequence(const std::vector<std::uint64_t>* ids, std::size_t count) {
  if (ids && ids->size() == count) return *ids;
  std::vector<std::uint64_t> sequence(count);
  for (std::size_t i = 0; i < count; ++i) sequence[i] = i;
  return sequence;
}

}  // namespace coalesce
