// Placeholder for the steps command until its issue lands.
#include <cstdio>

#include "app/commands.h"

namespace coalesce {

int run_steps(const Options&) {
  std::fprintf(stderr, "coalesce: the steps command is not built yet\n");
  return 1;
}

}  // namespace coalesce
