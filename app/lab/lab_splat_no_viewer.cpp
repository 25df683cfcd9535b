// app/lab/lab_splat.h for builds without the viewer: render/'s splat kernel is not built, so no experiment.
#include "app/lab/lab_splat.h"

namespace coalesce::lab {

std::vector<LabExperiment> splat_experiments() {
  return {};
}

}  // namespace coalesce::lab
