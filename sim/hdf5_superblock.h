// Where an HDF5 file's data end, from its superblock (versions 0 to 3, those libhdf5 1.10 reads), so the
// GADGET reader holds no byte past them: a snapshot of 10 particles padded to 3 GB is read to its data's
// end, and one whose superblock claims more than the file has is refused before anything else is read.
#pragma once

#include <cstdint>
#include <string>

#include "sim/read_at.h"

namespace coalesce {

// How many leading bytes of a `size`-byte file hold its HDF5 data: the superblock's end-of-file address,
// taken as libhdf5 takes it (relative to where the superblock is found: byte 0, 512, 1024, ...). Reads
// at most a few hundred bytes through `read`. Throws Hdf5Error naming `name` when no superblock is found,
// when it is of an unknown version or cut short, or when the data it claims end past `size`.
std::uint64_t hdf5_data_end(const std::string& name, const ReadAt& read, std::uint64_t size);

}  // namespace coalesce
