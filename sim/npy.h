// NumPy .npy files of the state: N x 7 little-endian float32 (x, y, z, vx, vy, vz, mass), C order.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/particle.h"

namespace coalesce {

// One line naming the file, what is wrong and what is expected.
class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes a version 1.0 file with the header NumPy itself writes, padded to a multiple of 64 bytes.
void save_npy(const std::string& path, const std::vector<Particle>& particles);

// Reads versions 1.0, 2.0 and 3.0. Validates magic, header, dtype '<f4', C order, shape (N, 7) with N > 0,
// the file size, and that every value is finite.
std::vector<Particle> load_npy(const std::string& path);

}  // namespace coalesce
