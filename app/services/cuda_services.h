// The app's one door to CUDA (the lab's is app/lab/lab_service.h): cuda_services_cuda.cpp in a build with
// the CUDA backend, else cuda_services_none.cpp (app/services/CMakeLists.txt picks one, as render/ picks
// interop_buffer*.cpp), so no other app file asks whether the build has CUDA.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "sim/backend.h"

namespace coalesce {

// Usable CUDA devices; 0 with `why` (when not null) set to the cause and the fix.
int count_cuda_devices(std::string* why);

// Whether make_cuda_backend prints its device memory estimate: the viewer's start-size trials stay quiet.
enum class MemoryEstimate { Print, Quiet };

// The CUDA backend on `device`, after printing its device memory estimate to stderr. Throws RuntimeFailure
// when N does not fit (the message gives the bytes needed and free). Only when count_cuda_devices() > 0.
std::unique_ptr<Backend> make_cuda_backend(int particles, Layout layout, Precision precision = Precision::Fp32,
                                           MemoryEstimate estimate = MemoryEstimate::Print, int device = 0);

// Free memory of device 0 in bytes; 0 when unknown.
std::size_t cuda_free_memory();

}  // namespace coalesce
