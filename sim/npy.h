// NumPy .npy files of the state: N x 7 little-endian float32 (x, y, z, vx, vy, vz, mass), C order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/particle.h"

namespace coalesce {

// One line naming the file, what is wrong and what is expected. A bad state file is bad input (exit 2).
class NpyError : public UsageError {
 public:
  using UsageError::UsageError;
};

// The largest header accepted: NumPy itself writes 128 bytes for this shape and refuses to read more than
// 10,000 by default.
constexpr std::uint32_t kMaxNpyHeaderBytes = 65536;

// The file NumPy writes for `particles`: a version 1.0 header padded to 64 bytes, then the records. Written
// through write_output, so a failure leaves the previous file as it was.
void save_npy(const OutputFile& file, const std::vector<Particle>& particles);

// Reads versions 1.0, 2.0 and 3.0 from a regular file (InputFile). Validates magic, header, dtype '<f4',
// C order, shape (N, 7) with 0 < N <= kMaxParticles and the file size against the shape before reading
// the data, then that every value is finite and every mass in kMassRange.
std::vector<Particle> load_npy(const std::string& path);

// The same decoder over any bytes: `read(offset, destination, bytes)` copies exactly that many bytes of a
// file of `size` bytes (the fuzzer and the tests feed it memory). `name` starts every message.
using ReadAt = std::function<void(std::uint64_t offset, void* destination, std::size_t bytes)>;
std::vector<Particle> decode_npy(const std::string& name, std::uint64_t size, const ReadAt& read);

}  // namespace coalesce
