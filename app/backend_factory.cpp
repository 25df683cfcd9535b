// Placeholder until the CPU and CUDA backends land.
#include "app/backend_factory.h"

#include "app/errors.h"

namespace coalesce {

BackendSelection make_backend(BackendChoice, int, Layout) { throw RuntimeFailure("no backend is built yet"); }

}  // namespace coalesce
