// In-memory HDF5 files through libhdf5's core driver: the read side hands libhdf5 our buffer through file
// image callbacks that never copy it; the write side has no backing store and gives its image back.
#include "sim/hdf5_image.h"

#include <H5PLpublic.h>

#include <cstdio>
#include <utility>

#include "sim/printable.h"

namespace coalesce {

namespace {

// The buffer lent to libhdf5: every "allocation" of the image's size is this buffer, every copy onto
// itself is nothing, and nothing is freed (Hdf5MemoryFile owns it). Read-only files never resize it.
using LentImage = Hdf5MemoryFile::Lent;

void* lend(std::size_t size, H5FD_file_image_op_t, void* udata) {
  auto* image = static_cast<LentImage*>(udata);
  return size == image->size ? image->data : nullptr;
}
void* copy_onto_itself(void* dest, const void* src, std::size_t, H5FD_file_image_op_t, void*) {
  return dest == src ? dest : nullptr;
}
void* refuse_resize(void*, std::size_t, H5FD_file_image_op_t, void*) {
  return nullptr;
}
herr_t keep(void*, H5FD_file_image_op_t, void*) {
  return 0;
}
void* same_udata(void* udata) {
  return udata;
}
herr_t keep_udata(void*) {
  return 0;
}

// A name no file can have ("/dev/null" is no directory), so the core driver's check that an image's name
// is not an existing file opens nothing, and unique among open files (libhdf5 takes two open files of one
// name for the same file).
std::string unopenable_name(hid_t fapl, const void* buffer) {
  char name[96];
  std::snprintf(name, sizeof name, "/dev/null/coalesce-hdf5-image-%lld-%p", static_cast<long long>(fapl),
                buffer);
  return name;
}

herr_t innermost(unsigned, const H5E_error2_t* error, void* out) {
  auto* reason = static_cast<std::string*>(out);
  if (reason->empty() && error->desc) *reason = error->desc;
  return 0;
}

}  // namespace

void quiet_hdf5() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  H5PLset_loading_state(0);
}

std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &reason);
  H5Eclear2(H5E_DEFAULT);
  return excerpt(reason, 80);  // libhdf5's text can quote addresses and sizes at length
}

Hdf5MemoryFile::Hdf5MemoryFile(std::string bytes)
    : m_bytes(std::move(bytes)), m_lent{m_bytes.data(), m_bytes.size()} {  // read-only: never written to
  if (m_bytes.empty()) return;
  const Hdf5PropertyList fapl(H5Pcreate(H5P_FILE_ACCESS));
  if (!fapl || H5Pset_fapl_core(fapl.get(), 1 << 16, false) < 0) return;
  H5FD_file_image_callbacks_t callbacks = {lend,       copy_onto_itself, refuse_resize, keep,
                                           same_udata, keep_udata,       &m_lent};
  if (H5Pset_file_image_callbacks(fapl.get(), &callbacks) < 0 ||
      H5Pset_file_image(fapl.get(), m_lent.data, m_lent.size) < 0)
    return;
  m_file = Hdf5File(H5Fopen(unopenable_name(fapl.get(), m_lent.data).c_str(), H5F_ACC_RDONLY, fapl.get()));
  if (!m_file) m_failure = hdf5_reason();  // before the next call into libhdf5 clears it
}

Hdf5File create_hdf5_image(std::size_t step_bytes) {
  const Hdf5PropertyList fapl(H5Pcreate(H5P_FILE_ACCESS));
  if (!fapl || H5Pset_fapl_core(fapl.get(), step_bytes, false) < 0) return Hdf5File();
  return Hdf5File(
      H5Fcreate(unopenable_name(fapl.get(), &fapl).c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()));
}

std::string hdf5_image_bytes(hid_t file) {
  if (H5Fflush(file, H5F_SCOPE_LOCAL) < 0) return {};
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size <= 0) return {};
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (H5Fget_file_image(file, bytes.data(), bytes.size()) != size) return {};
  return bytes;
}

long open_hdf5_objects() {
  return static_cast<long>(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL));
}

}  // namespace coalesce
