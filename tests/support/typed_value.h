// Parameters as a user types them, for the tests that hold fp64 runs to the typed values: decimals that no
// float holds, so a run that rounded them to float steps measurably differently.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "tests/support/test_random.h"

namespace coalesce::testing {

// 10^u for u uniform in [lo_exponent, hi_exponent].
inline double log_uniform(TestRng& rng, double lo_exponent, double hi_exponent) {
  return std::pow(10.0, std::uniform_real_distribution<double>(lo_exponent, hi_exponent)(rng.engine()));
}

inline double random_sign(TestRng& rng) {
  return rng.uniform_int(0, 1) ? 1.0 : -1.0;
}

struct TypedValue {
  std::string text;  // "0.003141593"
  double value;      // what the text says, as a double
};

// Seven significant digits, log-uniform in [lo, hi], at least 1e-8 (relative) from the nearest float.
inline TypedValue typed_value(TestRng& rng, double lo, double hi) {
  for (;;) {
    char text[32];
    std::snprintf(text, sizeof text, "%.7g", log_uniform(rng, std::log10(lo), std::log10(hi)));
    const double value = std::strtod(text, nullptr);
    if (value >= lo && value <= hi &&
        std::fabs(static_cast<double>(static_cast<float>(value)) - value) > 1e-8 * value)
      return {text, value};
  }
}

}  // namespace coalesce::testing
