// TOML scene files: the shipped examples load, keys override the preset, and every error names FILE:LINE.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/scene.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;

class SceneFile : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    const std::string path = m_dir.file("scene" + std::to_string(m_count++) + ".toml");
    std::ofstream(path) << text;
    return path;
  }

  // Loading `text` fails with exactly one line "FILE:LINE: ..." containing `needle`.
  void expect_error(const std::string& text, int line, const std::string& needle) {
    const std::string path = write(text);
    try {
      load_scene_file(path);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const SceneError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path + ":" + std::to_string(line) + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(needle), std::string::npos) << what;
      EXPECT_NE(what.find("expected"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }

  testing::TestRng m_rng;
  testing::TempDir m_dir;
  int m_count = 0;
};

TEST_F(SceneFile, ShippedExamplesLoadAndMatchTheirPresets) {
  for (const std::string& name : preset_names()) {
    const Scene s = load_scene_file(std::string(COALESCE_SOURCE_DIR) + "/assets/scenes/" + name + ".toml");
    const Scene p = preset_scene(name);
    EXPECT_EQ(s.initial, p.initial) << name;
    EXPECT_EQ(s.method, p.method) << name;
    EXPECT_EQ(s.particles, p.particles) << name;
    EXPECT_EQ(s.params.dt, p.params.dt) << name;
    EXPECT_EQ(s.params.softening, p.params.softening) << name;
    EXPECT_EQ(s.params.attractors.count, p.params.attractors.count) << name;
    ASSERT_EQ(s.units.has_value(), p.units.has_value()) << name;
    if (s.units) {
      EXPECT_EQ(s.units->length_in_cm, p.units->length_in_cm) << name;
      EXPECT_EQ(s.units->mass_in_g, p.units->mass_in_g) << name;
      EXPECT_EQ(s.units->length_text, p.units->length_text) << name;
      EXPECT_EQ(s.units->mass_text, p.units->mass_text) << name;
    }
    for (int k = 0; k < s.params.attractors.count; ++k) {
      EXPECT_NEAR(s.params.attractors.items[k].angular_speed, p.params.attractors.items[k].angular_speed,
                  1e-4);
      EXPECT_NEAR(s.params.attractors.items[k].phase, p.params.attractors.items[k].phase, 1e-4);
    }
  }
}

TEST_F(SceneFile, KeysOverrideThePresetAndOmittedKeysDefaultFromIt) {
  const int n = m_rng.uniform_int(1, 100000);
  const std::string path = write("initial = \"disk\"\nparticles = " + std::to_string(n) +
                                 "\ndt = 1  # integers are numbers too\nseed = 42\n"
                                 "[[attractors]]\ncenter = [1, 2, 3.5]\nmass = 2\norbit_radius = 0.5\n");
  const Scene s = load_scene_file(path);
  const Scene disk = preset_scene("disk");
  EXPECT_EQ(s.initial, InitialConditions::RotatingDisk);
  EXPECT_EQ(s.particles, n);
  EXPECT_EQ(s.params.dt, 1.0f);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.params.softening, disk.params.softening);
  EXPECT_EQ(s.central_mass, disk.central_mass);
  EXPECT_EQ(s.name, fs::path(path).stem().string());
  ASSERT_EQ(s.params.attractors.count, 1);
  EXPECT_EQ(s.params.attractors.items[0].center.z, 3.5f);
  EXPECT_EQ(s.params.attractors.items[0].mass, 2.0f);
  EXPECT_EQ(load_scene_file(write("")).initial, InitialConditions::Plummer);
}

TEST_F(SceneFile, SyntaxErrorsNameFileAndLine) {
  expect_error("particles = 10\ndt = 0.1\nsoftening = = 3\n", 3, "TOML syntax error");
  expect_error("name = \"unterminated\n", 1, "TOML syntax error");
}

TEST_F(SceneFile, TypeAndRangeErrorsNameTheKeysLine) {
  const int pad = m_rng.uniform_int(0, 5);  // the error line moves with the key
  const std::string blank(static_cast<std::size_t>(pad), '\n');
  expect_error(blank + "particles = 0\n", pad + 1,
               "'particles' is 0; expected an integer from 1 to 134217728");
  expect_error(blank + "particles = \"many\"\n", pad + 1, "'particles' must be an integer");
  expect_error("seed = 3\n" + blank + "dt = -0.5\n", pad + 2,
               "'dt' is -0.5; expected a number from 1e-9 to 1000");
  expect_error(blank + "softening = 0\n", pad + 1, "'softening' is 0; expected a number from 1e-6 to 1000");
  expect_error(blank + "solver = \"barnes-hut\"\n", pad + 1, "unknown solver 'barnes-hut'");
  expect_error(blank + "initial = \"galaxy\"\n", pad + 1, "unknown initial 'galaxy'");
  expect_error(blank + "central_mass = -1\n", pad + 1, "'central_mass'");
  expect_error("seed = -1\n", 1, "'seed'");
}

// Values that underflow a float (1e-300 became 0) are refused on their own line, with a range that holds.
TEST_F(SceneFile, UnderflowingValuesAreRefusedOnTheirLineWithTheirRange) {
  const int pad = m_rng.uniform_int(0, 5);
  const std::string blank(static_cast<std::size_t>(pad), '\n');
  const std::string tiny = "1e-" + std::to_string(m_rng.uniform_int(46, 300));
  expect_error("seed = 1\n" + blank + "dt = " + tiny + "\n", pad + 2,
               "'dt' is " + tiny + "; expected a number from 1e-9 to 1000");
  expect_error(blank + "softening = " + tiny + "\n", pad + 1, "expected a number from 1e-6 to 1000");
  expect_error(blank + "scale = " + tiny + "\n", pad + 1, "expected a number from 1e-6 to 1e6");
  expect_error(blank + "total_mass = " + tiny + "\n", pad + 1, "expected a number from 1e-12 to 1e12");
  expect_error(blank + "total_mass = 1e300\n", pad + 1, "expected a number from 1e-12 to 1e12");
}

// The ends of a range are inside it, as the message says, though 1e12 is not exact as a float.
TEST_F(SceneFile, RangeEndsAreAccepted) {
  const Scene s =
      load_scene_file(write("dt = 1e-9\nsoftening = 1e-6\ntotal_mass = 1e12\ncentral_mass = 1e12\n"
                            "scale = 1e6\n"));
  EXPECT_EQ(s.total_mass, 1e12f);
  EXPECT_EQ(s.central_mass, 1e12f);
  EXPECT_EQ(s.params.softening, 1e-6);  // as typed: dt and softening are doubles
  EXPECT_EQ(s.params.dt, 1e-9);
}

TEST_F(SceneFile, UnknownKeysAreErrorsNamingTheKey) {
  expect_error("particles = 10\nparticle = 20\n", 2, "unknown key 'particle'");
  expect_error("[[attractors]]\nmass = 1\nradius = 2\n", 3, "unknown key 'attractors[1].radius'");
}

TEST_F(SceneFile, AttractorErrors) {
  expect_error("[[attractors]]\ncenter = [1, 2]\n", 2,
               "'attractors[1].center' must be an array of 3 numbers");
  expect_error("[[attractors]]\nmass = -2\n", 2, "'attractors[1].mass'");
  std::string many;
  for (int k = 0; k <= kMaxAttractors; ++k) many += "[[attractors]]\nmass = 1\n";
  expect_error(many, 1, "17 attractors; expected at most 16");
  expect_error("name = \"x\"\nsolver = \"attractors\"\ninitial = \"cube\"\n", 2,
               "the attractors solver has no attractors");
}

// [units] gives a length and a mass as "NUMBER UNIT"; a random number of each unit reads as that many cgs.
TEST_F(SceneFile, UnitsTableSetsLengthAndMass) {
  const double length = m_rng.uniform(0.1f, 100.0f), mass = m_rng.uniform(0.1f, 100.0f);
  const Scene s =
      load_scene_file(write("initial = \"galaxies\"\n[units]\nlength = \"" + std::to_string(length) +
                            " pc\"\nmass = \"" + std::to_string(mass) + "e10 Msun\"\n"));
  ASSERT_TRUE(s.units.has_value());
  EXPECT_DOUBLE_EQ(s.units->length_in_cm, std::stod(std::to_string(length)) * kKpcInCm / 1e3);
  EXPECT_DOUBLE_EQ(s.units->mass_in_g, std::stod(std::to_string(mass) + "e10") * kSolarMassInG);
  EXPECT_EQ(s.units->length_text, std::to_string(length) + " pc");
  // Omitted: the preset's. Empty: none (plain N-body units). Inline tables are tables too.
  EXPECT_EQ(load_scene_file(write("initial = \"galaxies\"\n")).units->length_text,
            preset_scene("galaxies").units->length_text);
  EXPECT_FALSE(load_scene_file(write("initial = \"galaxies\"\n[units]\n")).units.has_value());
  EXPECT_EQ(load_scene_file(write("units = { length = \"3 au\", mass = \"2 kg\" }\n")).units->mass_in_g, 2e3);
}

TEST_F(SceneFile, UnitsErrorsNameTheKeyTheValueAndWhatIsAccepted) {
  const int pad = m_rng.uniform_int(0, 5);
  const std::string blank(static_cast<std::size_t>(pad), '\n');
  expect_error(
      blank + "[units]\nlength = \"1 lightyear\"\nmass = \"1 Msun\"\n", pad + 2,
      "'units.length' is \"1 lightyear\"; expected a positive number and a unit, one of pc, kpc, Mpc, au, "
      "km, m or cm (\"1 kpc\")");
  expect_error(blank + "[units]\nlength = \"1 kpc\"\nmass = \"1e10 Mearth\"\n", pad + 3,
               "'units.mass' is \"1e10 Mearth\"; expected a positive number and a unit, one of Msun, kg or g "
               "(\"1e10 Msun\")");
  expect_error(blank + "[units]\nlength = \"-1 kpc\"\nmass = \"1 g\"\n", pad + 2,
               "'units.length' is \"-1 kpc\"");
  expect_error(blank + "[units]\nlength = \"kpc\"\nmass = \"1 g\"\n", pad + 2, "'units.length' is \"kpc\"");
  expect_error(blank + "[units]\nlength = \"1 kpc\"\nmass = \"nan Msun\"\n", pad + 3,
               "'units.mass' is \"nan Msun\"");
  expect_error(blank + "[units]\nlength = 3\nmass = \"1 g\"\n", pad + 2, "'units.length' must be a string");
  expect_error(blank + "[units]\nlength = \"1 kpc\"\nmass = \"1 g\"\nvelocity = \"1 km/s\"\n", pad + 4,
               "'units.velocity' cannot be given: it follows from G = 1");
  expect_error(blank + "[units]\ntime = \"1 Myr\"\n", pad + 2,
               "'units.time' cannot be given: it follows from G = 1");
  expect_error(blank + "[units]\nlength = \"1 kpc\"\n", pad + 1,
               "[units] has length but no mass; expected both length and mass, or neither");
  expect_error(blank + "[units]\nmass = \"1 kg\"\n", pad + 1, "[units] has mass but no length");
  expect_error(blank + "[units]\nlength = \"1 kpc\"\nmass = \"1 g\"\ncolour = 1\n", pad + 4,
               "unknown key 'units.colour'; expected length and mass");
  expect_error(blank + "units = \"kpc\"\n", pad + 1, "'units' must be a table");
  // Each parses, but G M / L overflows a double: no velocity unit.
  expect_error(blank + "[units]\nlength = \"1e-300 cm\"\nmass = \"1e300 g\"\n", pad + 1,
               "give no finite velocity or time unit under G = 1");
}

TEST_F(SceneFile, MissingFileOrDirectoryIsRefused) {
  const std::string path = m_dir.file("nope.toml");
  try {
    load_scene_file(path);
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": no such file (check the path)");
  }
  try {
    load_scene_file(m_dir.path().string());
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), m_dir.path().string() + " is a directory; give a file path");
  }
}

}  // namespace
}  // namespace coalesce
