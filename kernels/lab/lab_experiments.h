// The experiments' run functions (one per registry entry) and the copy ceiling; the registry lists them.
#pragma once

#include <vector>

#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

// Device-to-device cudaMemcpy of settings.elements() floats, bytes read + written, in GB/s.
double measure_copy_ceiling(const LabSettings& settings);

std::vector<LabRow> run_copy_experiment(const LabContext& context);
std::vector<LabRow> run_strided_experiment(const LabContext& context);
std::vector<LabRow> run_offset_experiment(const LabContext& context);
std::vector<LabRow> run_vecadd_experiment(const LabContext& context);
std::vector<LabRow> run_float4_experiment(const LabContext& context);
std::vector<LabRow> run_fp64_vectors_experiment(const LabContext& context);
std::vector<LabRow> run_gridstride_experiment(const LabContext& context);
std::vector<LabRow> run_particles_experiment(const LabContext& context);
std::vector<LabRow> run_transpose_experiment(const LabContext& context);
std::vector<LabRow> run_banks_experiment(const LabContext& context);
std::vector<LabRow> run_ldg_experiment(const LabContext& context);
std::vector<LabRow> run_constant_experiment(const LabContext& context);
std::vector<LabRow> run_tree_order_experiment(const LabContext& context);

}  // namespace coalesce::lab
