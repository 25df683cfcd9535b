// A random-access byte source for the state readers: a file (InputFile), or memory for the fuzzers and tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace coalesce {

// `read(offset, destination, bytes)` copies exactly that many bytes of a source whose size the caller knows,
// or throws the source's error.
using ReadAt = std::function<void(std::uint64_t offset, void* destination, std::size_t bytes)>;

}  // namespace coalesce
