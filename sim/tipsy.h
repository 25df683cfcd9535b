// Tipsy state files (docs/formats.md): a 32-byte header, then gas, dark and star particles of float32
// fields, every value big-endian in the standard (XDR) form or little-endian in the native form that
// NVIDIA's nbody sample and Bonsai read; particle IDs in the ASCII auxiliary array PATH.iord beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/particle.h"
#include "sim/read_at.h"
#include "sim/state_contents.h"

namespace coalesce {

// One line naming the file, what is wrong and what is expected. A bad state file is bad input (exit 2).
class TipsyError : public UsageError {
 public:
  using UsageError::UsageError;
};

enum class TipsyByteOrder {
  Standard,  // big-endian (XDR), as Tipsy, PKDGRAV, ChaNGa and pynbody write it
  Native,    // little-endian, as NVIDIA's nbody sample and Bonsai read it
};

constexpr std::uint64_t kTipsyHeaderBytes = 32;  // time, nbodies, ndim, nsph, ndark, nstar, pad
constexpr std::uint64_t kTipsyGasBytes = 48;     // mass, pos[3], vel[3], rho, temp, hsmooth, metals, phi
constexpr std::uint64_t kTipsyDarkBytes = 36;    // mass, pos[3], vel[3], eps, phi
constexpr std::uint64_t kTipsyStarBytes = 44;    // mass, pos[3], vel[3], metals, tform, eps, phi

// "standard (big-endian)" or "native (little-endian)", for messages.
std::string to_string(TipsyByteOrder order);

// Where a Tipsy file's IDs are: "PATH.iord" (ChaNGa's and pynbody's auxiliary array of iOrder), beside the
// regular file PATH names: through a symlink, beside its target, where a save writes them.
inline constexpr char kTipsyIdsSuffix[] = ".iord";
std::string tipsy_ids_path(const std::string& tipsy_path);

// Reads a Tipsy file in either byte order (told apart by ndim == 3) through InputFile: checks the header
// (ndim 3, counts >= 0 adding up to nbodies, 0 < nbodies <= kMaxParticles, time finite) and the file's size
// against the counts before reading any particle, then reads gas, dark and star particles in bounded
// chunks as records (mass, position, velocity), each value finite and each mass in kMassRange. IDs come
// from PATH.iord when it is there (its count must be nbodies), else 0..N-1. `ignored` names the fields a
// state has no place for. Throws TipsyError (or the input reader's UsageError) in one line naming the file.
StateContents load_tipsy(const std::string& path);

// The same decoder over any bytes of a file of `size` bytes, without a .iord (the fuzzer and the tests
// feed it memory). `name` starts every message.
StateContents decode_tipsy(const std::string& name, std::uint64_t size, const ReadAt& read);

// Writes `particles` as dark matter in `order`, with the header time extras.time, each eps the run's
// softening and each phi the potential (NaN, unknown, where either is not given), and PATH.iord with
// extras.ids (0..N-1 when none): both through write_outputs_together, so both are replaced or neither.
// Doubles are rounded to the nearest float (the caller tells the user); a value beyond the float range is
// refused (RuntimeFailure, the previous files untouched). `file` must be a path, not standard output.
void save_tipsy(const OutputFile& file, const std::vector<Particle>& particles, const StateExtras& extras,
                TipsyByteOrder order);
void save_tipsy(const OutputFile& file, const std::vector<ParticleF64>& particles, const StateExtras& extras,
                TipsyByteOrder order);
// The same two files, unwritten: the particles, then the IDs (suffix kTipsyIdsSuffix).
std::vector<EncodedFile> encode_tipsy(const OutputFile& file, const std::vector<Particle>& particles,
                                      const StateExtras& extras, TipsyByteOrder order);
std::vector<EncodedFile> encode_tipsy(const OutputFile& file, const std::vector<ParticleF64>& particles,
                                      const StateExtras& extras, TipsyByteOrder order);

}  // namespace coalesce
