// Placeholder for the lab command until its issue lands.
#include <cstdio>

#include "app/commands.h"

namespace coalesce {

int run_lab(const Options&) {
  std::fprintf(stderr, "coalesce: the lab command is not built yet\n");
  return 1;
}

}  // namespace coalesce
