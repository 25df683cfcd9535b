// run_viewer for builds without the viewer (COALESCE_WITH_VIEWER=OFF): a clear usage error instead.
#ifndef COALESCE_HAVE_VIEWER

#include "app/commands.h"
#include "sim/errors.h"

namespace coalesce {

int run_viewer(const Options&) {
  throw UsageError(
      "this build has no viewer (configured with COALESCE_WITH_VIEWER=OFF): use --steps N, bench or lab, "
      "or rebuild with the viewer");
}

}  // namespace coalesce

#endif
