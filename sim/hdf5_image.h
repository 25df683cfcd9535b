// libhdf5 over files held in memory: a file's bytes opened read-only without a copy, and a new file built
// in memory whose bytes are then written through write_output. libhdf5 never opens a path of ours: a
// full disk or a FIFO cannot reach it (docs/reliability.md, "Hostile GADGET HDF5 files").
#pragma once

#include <cstddef>
#include <string>

#include "sim/hdf5_handle.h"

namespace coalesce {

// Stops libhdf5 printing its error stack to stderr (a setting of the calling thread in the thread-safe
// build) and loading filter plugins from the directories the environment names. Call first in each thread.
void quiet_hdf5();

// The innermost reason on this thread's libhdf5 error stack ("file signature not found"), at most 80
// characters, "" when it is empty; the stack is cleared.
std::string hdf5_reason();

// A file's bytes opened read-only as an HDF5 file, lent to libhdf5 without a copy. Neither copied nor moved:
// libhdf5 holds the address of m_lent while the file is open, and the file closes before the bytes go.
class Hdf5MemoryFile {
 public:
  explicit Hdf5MemoryFile(std::string bytes);  // file() invalid when libhdf5 refuses: failure() says why
  Hdf5MemoryFile(const Hdf5MemoryFile&) = delete;
  Hdf5MemoryFile& operator=(const Hdf5MemoryFile&) = delete;

  hid_t file() const { return m_file.get(); }
  bool is_open() const { return m_file.valid(); }
  const std::string& failure() const { return m_failure; }  // libhdf5's innermost reason, "" when open

  struct Lent {
    void* data;
    std::size_t size;
  };

 private:
  std::string m_bytes;
  Lent m_lent;
  std::string m_failure;
  Hdf5File m_file;  // last: closed first
};

// A new, empty HDF5 file in memory that grows in steps of `step_bytes`; invalid when libhdf5 refuses.
Hdf5File create_hdf5_image(std::size_t step_bytes);

// The bytes of a file made by create_hdf5_image, as they would be on disk (flushed first). Empty with
// hdf5_reason() set when libhdf5 fails.
std::string hdf5_image_bytes(hid_t file);

// The HDF5 objects (files, groups, datasets, named types, attributes) this process has open: 0 between
// loads and saves, or a handle leaked.
long open_hdf5_objects();

}  // namespace coalesce
