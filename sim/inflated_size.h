// How many bytes a gzip (zlib) stream inflates to, counted without keeping them and without going past a
// bound: the GADGET reader's check on each compressed chunk before libhdf5 inflates it (docs/reliability.md,
// "Hostile GADGET HDF5 files").
#pragma once

#include <cstddef>
#include <cstdint>

namespace coalesce {

// The bytes the zlib stream in `data` inflates to, counting stopped at `limit` + 1: more than `limit`
// means it holds more. A damaged or cut stream counts what it gave before its damage. Memory: 64 KiB.
std::uint64_t inflated_size(const void* data, std::size_t size, std::uint64_t limit);

}  // namespace coalesce
