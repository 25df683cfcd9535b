// The range of every value a user can set, written once: the command line, scene files, .npy states and
// the panel check against these, and --help and every error quote them through describe().
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/tree_settings.h"

namespace coalesce {

// Largest N (28 B each: 3.8 GB of state, the most a 4 GB-indexed record array holds with room to spare).
constexpr int kMaxParticles = 1 << 27;  // 134,217,728

// A closed range of values stored as floats. The bounds are floats too, so a value typed as "1e-6" (a
// double, checked when parsed) and the float it is stored as (checked again later) agree.
struct FloatRange {
  float lo;
  float hi;
  // Judged as the float it will be stored as: "1e12" (999999995904 as a float) is inside [0, 1e12], and a
  // value that underflows to 0 is outside (0, ...]. False for NaN, infinities and beyond the float range.
  bool contains(double v) const {
    if (!(std::fabs(v) <= static_cast<double>(FLT_MAX))) return false;
    const float f = static_cast<float>(v);
    return f >= lo && f <= hi;
  }
};

// A closed range of values kept as doubles (the physics parameters and masses): judged as the value given,
// so 1e12 + 20000 is outside [0, 1e12]. False for NaN and infinities.
struct DoubleRange {
  double lo;
  double hi;
  bool contains(double v) const { return v >= lo && v <= hi; }
};

// The self term of all-pairs is m * eps^-3 * 0: eps >= 1e-6 and masses <= 1e12 keep m * eps^-3 <= 1e30, a
// finite float, so no choice inside these ranges turns the first step into NaN (1e-45 did).
constexpr DoubleRange kTimeStepRange{1e-9, 1e3};
constexpr DoubleRange kSofteningRange{1e-6, 1e3};
constexpr DoubleRange kMassRange{0.0, 1e12};          // a particle's, an attractor's or a central mass
constexpr DoubleRange kThetaRange{0.0, kMaxTheta};    // --theta (sim/tree_settings.h); 0 opens every node
constexpr FloatRange kTotalMassRange{1e-12f, 1e12f};  // of a scene's particles (the initial state is float)
constexpr FloatRange kLengthRange{1e-6f, 1e6f};       // a scene's scale
constexpr DoubleRange kCoordinateRange{-1e6, 1e6};    // attractor centres, angular speeds and phases
constexpr DoubleRange kOrbitRadiusRange{0.0, 1e6};
// A state's positions, per precision: any two differ by at most twice this, a finite number, so no pair's
// difference overflows (beyond it the scalar loop's d * m / r^3 is inf * 0 as well).
constexpr DoubleRange kPositionRangeFp32{-1e38, 1e38};
constexpr DoubleRange kPositionRangeFp64{-1e307, 1e307};
// The viewer's camera (--camera, the orbit camera's clamps): pitch short of straight up or down, so the
// view's up vector stays valid; distance wide enough for any scene's 100 x radius zoom.
constexpr FloatRange kCameraPitchRange{-88.8f, 88.8f};
constexpr FloatRange kCameraDistanceRange{1e-6f, 1e9f};

// "a number from 1e-06 to 1000": the words every message uses for a range.
std::string describe(const FloatRange& range);
std::string describe(const DoubleRange& range);

// The fewest digits that read back as `v` in its own type: "1000000020000" for 1e12 + 20000, "0.001".
std::string exact_text(double v);
std::string exact_text(float v);

// "an integer from 1 to 134217728".
std::string describe_integers(std::int64_t lo, std::int64_t hi);

}  // namespace coalesce
