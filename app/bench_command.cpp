// Placeholder for the bench command until its issue lands.
#include <cstdio>

#include "app/commands.h"

namespace coalesce {

int run_bench(const Options&) {
  std::fprintf(stderr, "coalesce: the bench command is not built yet\n");
  return 1;
}

}  // namespace coalesce
