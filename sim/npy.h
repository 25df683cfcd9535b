// NumPy .npy files of the state: N x 7 (x, y, z, vx, vy, vz, mass), float32 or float64, either byte order,
// C or Fortran order on reading; '<f4' or '<f8' in C order on writing, as numpy.save writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/particle.h"
#include "sim/precision.h"
#include "sim/read_at.h"
#include "sim/state_contents.h"

namespace coalesce {

// One line naming the file, what is wrong and what is expected. A bad state file is bad input (exit 2).
class NpyError : public UsageError {
 public:
  using UsageError::UsageError;
};

// The largest header accepted: NumPy itself writes 128 bytes for this shape and refuses to read more than
// 10,000 by default.
constexpr std::uint32_t kMaxNpyHeaderBytes = 65536;

// The file NumPy writes for `particles`: a version 1.0 header padded to 64 bytes, then the records, '<f4'
// for float records and '<f8' for double ones. Written through write_output, so a failure leaves the
// previous file as it was.
void save_npy(const OutputFile& file, const std::vector<Particle>& particles);
void save_npy(const OutputFile& file, const std::vector<ParticleF64>& particles);
// The same bytes, unwritten: the header, then the records borrowed where they lie.
EncodedFile encode_npy(const std::vector<Particle>& particles);
EncodedFile encode_npy(const std::vector<ParticleF64>& particles);

enum class NpyScalar { Float32, Float64 };

// What a state file held before it was converted to records.
struct NpySource {
  NpyScalar scalar = NpyScalar::Float32;
  bool byte_swapped = false;   // '>' (big-endian): each value's bytes were reversed on this little-endian host
  bool fortran_order = false;  // stored column by column: reordered to one record per row
  std::string descr() const;   // as the header spelled it: '<f4', '>f4', '<f8' or '>f8'
};

// A state as read: every value as a double (exact for a float32 file), and what the file held.
struct NpyState {
  std::string name;  // the file, as every message about it starts
  NpySource source;
  std::vector<ParticleF64> records;
  std::size_t inexact_in_fp32 = 0;  // values a float cannot hold exactly: always 0 for a float32 file
};

// Reads versions 1.0, 2.0 and 3.0 from a regular file (InputFile). Validates magic, header, dtype ('<f4',
// '>f4', '<f8' or '>f8'; NumPy never writes '=' or '|' for them), fortran_order, shape (N, 7) with
// 0 < N <= kMaxParticles and the file size against the shape before reading the data, then reads it in
// bounded chunks and checks that every value is finite and every mass in kMassRange. Throws NpyError (or
// the input reader's UsageError) in one line naming the file.
NpyState load_npy_state(const std::string& path);

// The records in precision P's scalar. Fp64: the records. Fp32 from a float32 file: its values, bitwise.
// Fp32 from a float64 file: each value rounded to the nearest float (state.inexact_in_fp32 of them change);
// throws NpyError naming the particle and field when one is beyond the float range. (For Fp64 the app may
// as well move state.records out.)
template <Precision P>
std::vector<ParticleRecord<RealFor<P>>> npy_records(const NpyState& state);
template <>
std::vector<Particle> npy_records<Precision::Fp32>(const NpyState& state);
template <>
std::vector<ParticleF64> npy_records<Precision::Fp64>(const NpyState& state);

// One line saying what npy_records<target> converts (byte order, Fortran order, float64 rounded to float32
// with how many values changed, float32 widened to float64), starting with the file's name; "" when the
// file holds exactly the records (a '<f4' C-order file in fp32, '<f8' in fp64).
std::string npy_notice(const NpyState& state, Precision target);

// load_npy_state then npy_records<Fp32>: for callers that step in float only. Converts silently; callers
// that tell the user use the two calls and npy_notice.
std::vector<Particle> load_npy(const std::string& path);

// The same decoder over any bytes of a file of `size` bytes (the fuzzer and the tests feed it memory).
// `name` starts every message.
NpyState decode_npy_state(const std::string& name, std::uint64_t size, const ReadAt& read);
// decode_npy_state then npy_records<Fp32>.
std::vector<Particle> decode_npy(const std::string& name, std::uint64_t size, const ReadAt& read);

}  // namespace coalesce
