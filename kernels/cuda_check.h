// CUDA error checks: COALESCE_CUDA_CHECK throws (expression, file, line, CUDA's message);
// COALESCE_CUDA_CHECK_PRINT only logs, for destructors and other places that must not throw.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace coalesce::detail {

inline std::string cuda_error_message(cudaError_t error, const char* expression, const char* file, int line) {
  return std::string("CUDA error: ") + expression + " failed at " + file + ":" + std::to_string(line) + ": " +
         cudaGetErrorString(error);
}

inline void cuda_check(cudaError_t error, const char* expression, const char* file, int line) {
  if (error != cudaSuccess) throw std::runtime_error(cuda_error_message(error, expression, file, line));
}

inline void cuda_check_print(cudaError_t error, const char* expression, const char* file, int line) {
  if (error != cudaSuccess)
    std::fprintf(stderr, "%s\n", cuda_error_message(error, expression, file, line).c_str());
}

}  // namespace coalesce::detail

// Never compiled out: a failed CUDA call in a release build must still say where it failed.
#define COALESCE_CUDA_CHECK(expr) ::coalesce::detail::cuda_check((expr), #expr, __FILE__, __LINE__)
#define COALESCE_CUDA_CHECK_PRINT(expr) \
  ::coalesce::detail::cuda_check_print((expr), #expr, __FILE__, __LINE__)
