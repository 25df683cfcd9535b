// The splat experiment: the viewer's CUDA splat (render/splat_kernel.h) timed in each atomics variant.
// lab_splat.cpp in a build with the viewer, which has the kernel; lab_splat_no_viewer.cpp (no experiment)
// otherwise. app/lab/CMakeLists.txt picks one, so the registry never asks which build it is in.
#pragma once

#include <vector>

#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

// The splat's registry entry, or none in a build without the viewer.
std::vector<LabExperiment> splat_experiments();

}  // namespace coalesce::lab
