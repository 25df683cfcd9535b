// Unit texts (sim/unit_text.h) and the presets' physical units: values in cgs, the derived velocity and time
// units under G = 1, and that each preset's choice describes the physical system it claims to.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "sim/scene.h"
#include "sim/unit_text.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

// A random positive number and each unit spelling read as that number times the unit, spaces or not.
TEST(Units, EachSpellingReadsAsItsValue) {
  testing::TestRng rng;
  const std::string number = std::to_string(rng.uniform(0.001f, 1000.0f));
  const double value = std::stod(number);
  struct Case {
    const char* unit;
    double cgs;
  };
  // The definitions, written here independently of the table: 1 pc = 1e-3 kpc, 1 au (IAU 2012), SI prefixes.
  for (const Case c : {Case{"pc", 3.0856775814913673e18}, Case{"kpc", 3.0856775814913673e21},
                       Case{"Mpc", 3.0856775814913673e24}, Case{"au", 1.495978707e13}, Case{"km", 1e5},
                       Case{"m", 1e2}, Case{"cm", 1.0}}) {
    for (const std::string& text :
         {number + " " + c.unit, " " + number + c.unit + " ", number + "\t" + c.unit}) {
      ASSERT_TRUE(length_in_cm(text).has_value()) << text;
      EXPECT_DOUBLE_EQ(*length_in_cm(text), value * c.cgs) << text;
      EXPECT_FALSE(mass_in_g(text).has_value()) << text;
    }
  }
  for (const Case c : {Case{"Msun", 1.98841e33}, Case{"kg", 1e3}, Case{"g", 1.0}}) {
    const std::string text = number + " " + c.unit;
    ASSERT_TRUE(mass_in_g(text).has_value()) << text;
    EXPECT_DOUBLE_EQ(*mass_in_g(text), value * c.cgs) << text;
    EXPECT_FALSE(length_in_cm(text).has_value()) << text;
  }
}

// The texts a file and the snapshot index carry are the number and the unit, one space apart, whatever
// blanks the scene put around and between them.
TEST(Units, TextsAreKeptWithOneSpace) {
  testing::TestRng rng;
  const std::string blanks[] = {" ", "\t", " \t ", "\t\t"};
  const auto blank = [&] { return blanks[rng.uniform_int(0, 3)]; };
  const std::optional<PhysicalUnits> units =
      physical_units(blank() + "10" + blank() + "kpc" + blank(), "1e11" + blank() + "Msun");
  ASSERT_TRUE(units);
  EXPECT_EQ(units->length_text, "10 kpc");
  EXPECT_EQ(units->mass_text, "1e11 Msun");
}

TEST(Units, MalformedTextsAreRefused) {
  for (const char* text : {"", "kpc", "1", "1 KPC", "1 kpc kpc", "0 kpc", "-1 kpc", "inf kpc", "nan kpc",
                           "1e400 cm", "1,5 kpc", "+1 kpc", "0x10 kpc", "1 kpc\n", "1 lightyear"})
    EXPECT_FALSE(length_in_cm(text).has_value()) << '"' << text << '"';
  EXPECT_FALSE(mass_in_g("1e300 Msun").has_value());                 // finite number, infinite in grams
  EXPECT_FALSE(physical_units("1e-300 cm", "1e300 g").has_value());  // G M / L overflows
}

// G = 1: v = sqrt(G M / L) and t = L / v, from the parsed values.
TEST(Units, VelocityAndTimeFollowFromG) {
  testing::TestRng rng;
  const double length = rng.uniform(0.01f, 100.0f), mass = rng.uniform(0.01f, 100.0f);
  const auto units = physical_units(std::to_string(length) + " kpc", std::to_string(mass) + "e10 Msun");
  ASSERT_TRUE(units.has_value());
  const double l = std::stod(std::to_string(length)) * kKpcInCm;
  const double m = std::stod(std::to_string(mass) + "e10") * kSolarMassInG;
  const double v = std::sqrt(kGravityCgs * m / l);
  EXPECT_DOUBLE_EQ(units->velocity_in_cm_per_s(), v);
  EXPECT_DOUBLE_EQ(units->time_in_s(), l / v);
  EXPECT_NEAR(units->velocity_in_cm_per_s() * units->time_in_s(), l, 1e-12 * l);
}

// The galaxies preset's velocity unit is sqrt(G M / L) for its own length and mass, and equals that of
// 1 kpc and 1e10 Msun (the usual galactic N-body units, ~207 km/s): the preset keeps their M / L at ten times
// the length, so its disks are galaxy-sized.
TEST(Units, GalaxiesVelocityUnitIsTheGalacticOne) {
  const Scene s = preset_scene("galaxies");
  ASSERT_TRUE(s.units.has_value());
  const double expected = std::sqrt(kGravityCgs * 1e11 * kSolarMassInG / (10 * kKpcInCm));
  EXPECT_NEAR(s.units->velocity_in_cm_per_s(), expected, 1e-12 * expected);
  const auto kpc = physical_units("1 kpc", "1e10 Msun");
  ASSERT_TRUE(kpc.has_value());
  EXPECT_NEAR(kpc->velocity_in_cm_per_s(), std::sqrt(kGravityCgs * 1e10 * kSolarMassInG / kKpcInCm),
              1e-12 * expected);
  EXPECT_NEAR(s.units->velocity_in_cm_per_s(), kpc->velocity_in_cm_per_s(), 1e-12 * expected);
}

// Each self-gravitating preset's units put it among the systems it models: the median speed of its initial
// state's particles (central masses left out), in km/s, in the range such systems have (swirl, a toy force,
// has none). The ranges are wide, but a speed unit off by 10 (a length unit off by 100 or a mass unit off by
// 1e4) leaves each: the medians are ~10, ~350, ~4.5 and ~1.6 km/s.
TEST(Units, PresetsAreTheSystemsTheyModel) {
  testing::TestRng rng;
  struct Expectation {
    const char* preset;
    double min_km_s, max_km_s;
    const char* what;
  };
  for (const Expectation e :
       {Expectation{"plummer", 3, 30, "globular cluster stars"},
        Expectation{"galaxies", 100, 500, "disk galaxy rotation (point-mass centres speed inner orbits)"},
        Expectation{"disk", 1, 15, "orbits at tens of au around a Sun"},
        Expectation{"cube", 0.3, 5, "a cold cloud of a star cluster's mass"}}) {
    Scene s = preset_scene(e.preset);
    ASSERT_TRUE(s.units.has_value()) << e.preset;
    s.particles = 2001;
    s.seed = rng.engine()();
    std::vector<double> speeds;
    for (const Particle& p : generate_initial_state(s))
      if (p.mass < 2 * s.total_mass / s.particles)
        speeds.push_back(std::sqrt(double(p.vx) * p.vx + double(p.vy) * p.vy + double(p.vz) * p.vz));
    std::nth_element(speeds.begin(), speeds.begin() + speeds.size() / 2, speeds.end());
    const double median_km_s = speeds[speeds.size() / 2] * s.units->velocity_in_cm_per_s() / kKmInCm;
    EXPECT_GT(median_km_s, e.min_km_s) << e.preset << ": " << e.what;
    EXPECT_LT(median_km_s, e.max_km_s) << e.preset << ": " << e.what;
  }
  EXPECT_FALSE(preset_scene("swirl").units.has_value());
}

}  // namespace
}  // namespace coalesce
