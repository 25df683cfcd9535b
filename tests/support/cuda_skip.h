// The one way a GPU test skips without a device ("skipped: no CUDA device"), and the smaller sizes the
// GPU tests take under compute-sanitizer. cuda_available() is cuda_skip_cuda.cpp (the device probe of
// kernels/) or cuda_skip_none.cpp (tests/CMakeLists.txt picks one), so it works in builds without CUDA and
// the kernel tests need nothing from app/.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace coalesce::testing {

// Whether a usable CUDA device is there; asked once.
bool cuda_available();

// COALESCE_SANITIZER_QUICK=1 (set by scripts/gpu-session) shrinks every size, so compute-sanitizer runs
// finish in minutes.
inline bool sanitizer_quick() {
  const char* env = std::getenv("COALESCE_SANITIZER_QUICK");
  return env != nullptr && std::strcmp(env, "0") != 0;
}

// `full` normally, `quick` under COALESCE_SANITIZER_QUICK.
inline int size_or_quick(int full, int quick) {
  return sanitizer_quick() ? quick : full;
}

}  // namespace coalesce::testing

#define COALESCE_REQUIRE_CUDA()                                                            \
  do {                                                                                     \
    if (!::coalesce::testing::cuda_available()) GTEST_SKIP() << "skipped: no CUDA device"; \
  } while (0)
