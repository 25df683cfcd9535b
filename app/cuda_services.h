// The app's one door to CUDA: cuda_services_cuda.cpp in a build with the CUDA backend, else
// cuda_services_none.cpp (app/CMakeLists.txt picks one, as render/ picks interop_buffer*.cpp), so no other
// app file asks whether the build has CUDA.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/lab/lab_runner.h"  // plain C++: the lab's settings, experiments and results
#include "sim/backend.h"

namespace coalesce {

// Usable CUDA devices; 0 with `why` (when not null) set to the cause and the fix.
int count_cuda_devices(std::string* why);

// The CUDA backend on device 0, after printing its device memory estimate to stderr. Throws RuntimeFailure
// when N does not fit (the message gives the bytes needed and free). Only when count_cuda_devices() > 0.
std::unique_ptr<Backend> make_cuda_backend(int particles, Layout layout);

// Free memory of device 0 in bytes; 0 when unknown.
std::size_t cuda_free_memory();

// The lab's experiments in registry order; empty in a build without CUDA, which has no lab to run.
const std::vector<lab::LabExperiment>& lab_experiment_list();

// Runs `experiments` on device 0 (the device probe, the copy ceiling, then each one) and dates the run.
lab::LabRun run_lab_experiments(const lab::LabSettings& settings,
                                const std::vector<const lab::LabExperiment*>& experiments,
                                const lab::LabProgress& progress = {});

}  // namespace coalesce
