// One number through a printf pattern ("%.3f s"), for the lines --steps, the monitors and the ranks print.
#pragma once

#include <cstdio>
#include <string>

namespace coalesce {

inline std::string number_text(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

}  // namespace coalesce
