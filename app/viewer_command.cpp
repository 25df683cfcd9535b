// Placeholder for the viewer command until its issue lands.
#include <cstdio>

#include "app/commands.h"

namespace coalesce {

int run_viewer(const Options&) {
  std::fprintf(stderr, "coalesce: the viewer command is not built yet\n");
  return 1;
}

}  // namespace coalesce
