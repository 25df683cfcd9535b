// The words for the ranges of limits.h, shared by every message that states one.
#include "sim/limits.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace coalesce {
namespace {

// %g's text without its exponent padding: 1e-06 -> 1e-6, 1e+12 -> 1e12.
std::string short_number_text(std::string text) {
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent[0] == '-';
  if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
  while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
  return text.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
}

std::string short_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return short_number_text(buffer);
}

// An integer below 1e17 as its digits when they are no longer than %g's text: 1000000004950, not
// 1.00000000495e12 (what the user typed); 1e12 stays 1e12.
std::string shorter_with_integer_digits(std::string text, double v) {
  if (!(std::fabs(v) < 1e17) || std::trunc(v) != v) return text;
  char digits[24];
  std::snprintf(digits, sizeof digits, "%.0f", v);
  return std::strlen(digits) <= text.size() ? std::string(digits) : text;
}

template <class T>
std::string fewest_digits(T v) {
  char buffer[40];
  for (int digits = 1;; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, static_cast<double>(v));
    if (digits >= 17 || !std::isfinite(v) || static_cast<T>(std::strtod(buffer, nullptr)) == v)
      return shorter_with_integer_digits(short_number_text(buffer), static_cast<double>(v));
  }
}

std::string range_words(double lo, double hi) {
  return "a number from " + short_number(lo) + " to " + short_number(hi);
}

}  // namespace

std::string exact_text(double v) {
  return fewest_digits(v);
}
std::string exact_text(float v) {
  return fewest_digits(v);
}

std::string describe(const FloatRange& range) {
  return range_words(range.lo, range.hi);
}
std::string describe(const DoubleRange& range) {
  return range_words(range.lo, range.hi);
}

std::string describe_integers(std::int64_t lo, std::int64_t hi) {
  return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace coalesce
