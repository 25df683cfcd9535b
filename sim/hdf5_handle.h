// Owners of libhdf5's hid_t handles, one type per kind of object, each closed by its own H5*close, so no
// path out of a reader or writer (an exception included) leaves an HDF5 object open.
#pragma once

#include <hdf5.h>

#include <utility>

namespace coalesce {

// Move-only; an invalid (negative) id owns nothing. A close that fails in a destructor is ignored: the
// handle was valid when made, and there is nothing left to tell the user.
template <herr_t (*Close)(hid_t)>
class Hdf5Handle {
 public:
  Hdf5Handle() = default;
  explicit Hdf5Handle(hid_t id) : m_id(id) {}
  ~Hdf5Handle() { reset(); }
  Hdf5Handle(Hdf5Handle&& other) noexcept : m_id(std::exchange(other.m_id, H5I_INVALID_HID)) {}
  Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
    if (this != &other) {
      reset();
      m_id = std::exchange(other.m_id, H5I_INVALID_HID);
    }
    return *this;
  }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;

  hid_t get() const { return m_id; }
  bool valid() const { return m_id >= 0; }
  explicit operator bool() const { return valid(); }
  void reset() {
    if (m_id >= 0) Close(m_id);
    m_id = H5I_INVALID_HID;
  }

 private:
  hid_t m_id = H5I_INVALID_HID;
};

using Hdf5File = Hdf5Handle<H5Fclose>;
using Hdf5Group = Hdf5Handle<H5Gclose>;
using Hdf5Dataset = Hdf5Handle<H5Dclose>;
using Hdf5Dataspace = Hdf5Handle<H5Sclose>;
using Hdf5Attribute = Hdf5Handle<H5Aclose>;
using Hdf5PropertyList = Hdf5Handle<H5Pclose>;
using Hdf5Datatype = Hdf5Handle<H5Tclose>;

}  // namespace coalesce
