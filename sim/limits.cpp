// The words for the ranges of limits.h, shared by every message that states one.
#include "sim/limits.h"

#include <cstdio>

namespace coalesce {
namespace {

// %g without its exponent padding: 1e-06 -> 1e-6, 1e+12 -> 1e12.
std::string short_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  std::string text = buffer;
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent[0] == '-';
  if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
  while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
  return text.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
}

}  // namespace

std::string describe(const FloatRange& range) {
  return "a number from " + short_number(range.lo) + " to " + short_number(range.hi);
}

std::string describe_integers(std::int64_t lo, std::int64_t hi) {
  return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace coalesce
