// GADGET-4 / AREPO HDF5 snapshots (.hdf5, .h5; docs/formats.md): a Header group's attributes and one
// PartTypeK group per particle type with Coordinates, Velocities, Masses and ParticleIDs. Read through
// libhdf5 over the file's bytes in memory, in a child process; written as PartType1 in float32 (Particle) or
// float64 (ParticleF64), built in memory and handed to write_output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/particle.h"
#include "sim/state_contents.h"

namespace coalesce {

// One line starting with the file's name, saying what is wrong and what is expected. Bad input: exit 2.
class Hdf5Error : public UsageError {
 public:
  using UsageError::UsageError;
};

// The most HDF5 data read from a file (up to its superblock's end-of-file address: padding past it is never
// read): kMaxParticles particles' four datasets in float64 (64 bytes a particle), twice over, for the gas
// fields and metadata a snapshot carries beside them. The whole of the data is held in memory.
constexpr std::uint64_t kMaxGadgetFileBytes = std::uint64_t{1} << 34;  // 16 GiB

// Reads a single-file snapshot (NumFilesPerSnapshot 1) from a regular file (InputFile) up to its HDF5
// superblock's end-of-file address (sim/hdf5_superblock.h), at most kMaxGadgetFileBytes: every PartTypeK
// group in type order, each gravitating. Checks every dataset's type and shape against NumPart_ThisFile,
// the total against kMaxParticles, and each gzip chunk's inflated size against its declared chunk, before
// reading data; values must be finite and masses in kMassRange. Units come from UnitLength_in_cm and
// UnitMass_in_g (Parameters or Header); where the file's UnitVelocity_in_cm_per_s is not the G = 1 unit they
// imply, velocities and time are converted to it (StateContents::converted says so). Throws Hdf5Error (or the input reader's
// UsageError) in one line naming the file. libhdf5 decodes in a child process (sim/gadget_hdf5_child.h), as
// it reads freed memory on some damaged files: a child that dies is an Hdf5Error too. Memory: the file's
// bytes here until the child starts, then the records as they arrive; the child holds the bytes and its
// own records meanwhile.
StateContents load_gadget_hdf5(const std::string& path);

// The same over a file's bytes in memory (the fuzzer and the tests); `name` starts every message.
StateContents decode_gadget_hdf5(const std::string& name, std::string bytes);

// The snapshot of `particles` as GADGET-4 reads it: PartType1 with float32 or float64 values and uint64 IDs,
// a GADGET-2/AREPO-style Header (MassTable 0: masses are in the dataset) and, where the run's units are
// known, GADGET-4's unit attributes in Parameters. Written through write_output, so a failure leaves the
// previous file as it was; throws RuntimeFailure as it does.
void save_gadget_hdf5(const OutputFile& file, const std::vector<Particle>& particles,
                      const StateExtras& extras);
void save_gadget_hdf5(const OutputFile& file, const std::vector<ParticleF64>& particles,
                      const StateExtras& extras);
// The same bytes, unwritten; `file` names the snapshot in messages.
EncodedFile encode_gadget_hdf5(const OutputFile& file, const std::vector<Particle>& particles,
                               const StateExtras& extras);
EncodedFile encode_gadget_hdf5(const OutputFile& file, const std::vector<ParticleF64>& particles,
                               const StateExtras& extras);

}  // namespace coalesce
