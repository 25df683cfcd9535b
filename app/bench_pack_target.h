// Where the bench's pack launches write: a device buffer on the CUDA backend (as the viewer's mapped GL
// buffer would be), host memory on the CPU backend.
#pragma once

#include <memory>

#include "sim/backend.h"

namespace coalesce {

class BenchPackTarget {
 public:
  virtual ~BenchPackTarget() = default;
  virtual float* data() = 0;
  virtual MemorySpace space() const = 0;
};

std::unique_ptr<BenchPackTarget> make_bench_pack_target(Backend& backend);

}  // namespace coalesce
