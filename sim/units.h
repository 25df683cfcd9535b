// Physical units of a scene. The simulation runs in N-body units with G = 1: a scene states its length and
// mass units, and the velocity and time units follow from G (docs/scenes.md).
#pragma once

#include <cmath>
#include <string>

namespace coalesce {

// The gravitational constant in cgs (CODATA 2018), the one physical constant the units derive from.
constexpr double kGravityCgs = 6.67430e-8;  // cm^3 g^-1 s^-2
constexpr double kKpcInCm = 3.0856775814913673e21;
constexpr double kSolarMassInG = 1.98841e33;  // IAU 2015 nominal GM_sun / G
constexpr double kKmInCm = 1e5;

struct PhysicalUnits {
  double length_in_cm = 0.0;  // one N-body length unit
  double mass_in_g = 0.0;     // one N-body mass unit
  std::string length_text;    // as the scene wrote it ("1 kpc"), for messages and files
  std::string mass_text;      // "1e10 Msun"

  // G = 1: v = sqrt(G M / L), t = L / v.
  double velocity_in_cm_per_s() const { return std::sqrt(kGravityCgs * mass_in_g / length_in_cm); }
  double time_in_s() const { return length_in_cm / velocity_in_cm_per_s(); }
};

}  // namespace coalesce
