// run_viewer for builds without the viewer (COALESCE_WITH_VIEWER=OFF; app/cli/CMakeLists.txt picks this file
// or the viewer's): a clear usage error instead.
#include "app/cli/commands.h"
#include "sim/errors.h"

namespace coalesce {

int run_viewer(const Options&) {
  throw UsageError(
      "this build has no viewer (configured with COALESCE_WITH_VIEWER=OFF): use --steps N, bench or lab, "
      "or rebuild with the viewer");
}

}  // namespace coalesce
