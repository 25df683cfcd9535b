// app/services/cuda_services.h without CUDA: no devices, so the app takes the CPU backend and says why.
#include "app/services/cuda_services.h"

#include <stdexcept>

#include "sim/errors.h"

namespace coalesce {

namespace {
const char* const kNoCuda = "this build has no CUDA support: rebuild it with the CUDA toolkit installed";
}  // namespace

int count_cuda_devices(std::string* why) {
  if (why != nullptr) *why = kNoCuda;
  return 0;
}

std::unique_ptr<Backend> make_cuda_backend(int, Layout, Precision, MemoryEstimate, int) {
  throw std::logic_error("make_cuda_backend: called although count_cuda_devices() is 0");
}

std::size_t cuda_free_memory() {
  return 0;
}

}  // namespace coalesce
