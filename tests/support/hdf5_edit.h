// Test-side HDF5 files through libhdf5 itself: snapshots made from scratch and valid files changed in one
// place, for the GADGET reader's tests (tests/sim/gadget_hdf5_test.cpp). Any libhdf5 failure fails the test.
// Header-only.
#pragma once

#include <gtest/gtest.h>
#include <hdf5.h>

#include <functional>
#include <string>
#include <vector>

#include "sim/hdf5_handle.h"

namespace coalesce::testing {

// A scalar (count 0) or one-dimensional attribute, replacing one of the same name.
inline void put_attribute(hid_t location, const char* name, hid_t file_type, hid_t memory_type,
                          const void* values, hsize_t count = 0) {
  if (H5Aexists(location, name) > 0) {
    ASSERT_GE(H5Adelete(location, name), 0) << name;
  }
  const Hdf5Dataspace space(count ? H5Screate_simple(1, &count, nullptr) : H5Screate(H5S_SCALAR));
  const Hdf5Attribute attribute(H5Acreate2(location, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_TRUE(attribute.valid()) << name;
  ASSERT_GE(H5Awrite(attribute.get(), memory_type, values), 0) << name;
}

// A dataset of shape `dims`, replacing one of the same name; `values` null leaves it without data.
inline void put_dataset(hid_t location, const char* name, hid_t file_type, hid_t memory_type,
                        const std::vector<hsize_t>& dims, const void* values) {
  if (H5Lexists(location, name, H5P_DEFAULT) > 0) {
    ASSERT_GE(H5Ldelete(location, name, H5P_DEFAULT), 0) << name;
  }
  const Hdf5Dataspace space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  const Hdf5Dataset dataset(
      H5Dcreate2(location, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_TRUE(dataset.valid()) << name;
  if (values) {
    ASSERT_GE(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), 0) << name;
  }
}

inline Hdf5Group open_or_make_group(hid_t file, const char* name) {
  if (H5Lexists(file, name, H5P_DEFAULT) > 0) return Hdf5Group(H5Gopen2(file, name, H5P_DEFAULT));
  return Hdf5Group(H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

// Opens `path` read-write (or creates it), lets `change` edit it, and closes it.
inline void edit_hdf5(const std::string& path, const std::function<void(hid_t file)>& change,
                      bool create = false) {
  const Hdf5File file(create ? H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)
                             : H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_TRUE(file.valid()) << path;
  change(file.get());
}

}  // namespace coalesce::testing
