// A float as command-line text that parses back to the same float: std::to_string keeps six decimals,
// which moves a value like 0.0208845 by more than a relative 1e-5.
#pragma once

#include <cstdio>
#include <string>

namespace coalesce::testing {

inline std::string float_text(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(value));  // 9 digits: every float round-trips
  return buffer;
}

}  // namespace coalesce::testing
