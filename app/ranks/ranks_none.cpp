// A build without MPI: every run is one process.
#include "app/ranks/ranks.h"

namespace coalesce {

std::unique_ptr<Ranks> start_ranks(int& /*argc*/, char**& /*argv*/) {
  return single_rank();
}

bool mpi_built() {
  return false;
}

}  // namespace coalesce
