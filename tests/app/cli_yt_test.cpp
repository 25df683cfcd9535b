// yt opens a galaxies snapshot series the way docs/formats.md ("Opening coalesce HDF5 in yt") tells users
// to, and returns positions, velocities, masses, IDs and the time in physical units: the values coalesce
// wrote, times the units its index.json states. The python block of that section is what runs, so the
// documented call is the tested one. Skips, saying so, where python3 with yt is missing (scripts/install-deps
// installs python3-yt).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/state_file.h"
#include "sim/units.h"
#include "tests/app/run_process.h"
#include "tests/support/python.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr const char* kDocs = COALESCE_SOURCE_DIR "/docs/formats.md";
constexpr const char* kSection = "### Opening coalesce HDF5 in yt";

// The first ```python block after `heading` in the markdown file, "" where there is none.
std::string python_block_after(const std::string& path, const std::string& heading) {
  std::ifstream in(path);
  std::string line, block;
  bool in_section = false, in_block = false;
  while (std::getline(in, line)) {
    if (!in_section) {
      in_section = line == heading;
    } else if (!in_block) {
      if (line.rfind("#", 0) == 0) return "";  // the next heading: the section has no block
      in_block = line == "```python";
    } else {
      if (line == "```") return block;
      block += line + "\n";
    }
  }
  return "";
}

// Appended to the documented block, which defines load_coalesce(path). argv: the snapshot, then the prefix
// of the files written: .ids (yt's ParticleIDs as it returns them, raw), .dtype (their dtype), .positions
// (kpc), .velocities (km/s), .masses (Msun), all raw '<f8' in yt's order; .scalars: the time in Myr and in
// s, yt's kpc in cm, Msun in g and Myr in s, whether it took the file as cosmological, its h; .frontend.
constexpr const char* kCheckScript = R"(
import sys
import numpy as np
path, out = sys.argv[1], sys.argv[2]
ds = load_coalesce(path)
ad = ds.all_data()
ids = ad["PartType1", "ParticleIDs"]
open(out + ".dtype", "w").write(str(ids.dtype))
open(out + ".ids", "wb").write(ids.d.tobytes())
open(out + ".frontend", "w").write(type(ds).__name__)
def save(name, values):
    open(out + "." + name, "wb").write(np.asarray(values, dtype="<f8").tobytes())
save("positions", ad["PartType1", "Coordinates"].to("kpc").d)
save("velocities", ad["PartType1", "Velocities"].to("km/s").d)
save("masses", ad["PartType1", "Masses"].to("Msun").d)
save("scalars", [ds.current_time.to("Myr").d, ds.current_time.to("s").d, ds.quan(1, "kpc").to("cm").d,
                 ds.quan(1, "Msun").to("g").d, ds.quan(1, "Myr").to("s").d, ds.cosmological_simulation,
                 ds.hubble_constant])
)";

// Within float32 rounding of the expected value (yt computes in float64; the file holds floats or doubles).
bool within_fp32(double got, double want) {
  return std::abs(got - want) <= 0x1p-24 * std::abs(want);
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CliYt, YtReadsAGalaxiesSeriesInThePhysicalUnitsCoalesceStates) {
  const std::string python = python_with("import yt, h5py, numpy");
  if (python.empty())
    GTEST_SKIP() << "skipped: python3 with yt not found (scripts/install-deps installs python3-yt)";
  const std::string block = python_block_after(kDocs, kSection);
  ASSERT_NE(block.find("def load_coalesce(path):"), std::string::npos)
      << kDocs << " has no ```python block defining load_coalesce(path) under \"" << kSection << "\"";

  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1000, 3000);
  const int every = rng.uniform_int(1, 3);
  const int count = rng.uniform_int(1, 3);
  const std::string precision = rng.uniform_int(0, 1) ? "fp64" : "fp32";
  const std::string seed = std::to_string(rng.engine()());
  const std::string series = dir.file("snaps");
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--scene", "galaxies", "--particles", std::to_string(n), "--seed",
                    seed, "--precision", precision, "--steps", std::to_string(every * count),
                    "--snapshot-every", std::to_string(every), series, "--format", "hdf5"});
  SCOPED_TRACE("galaxies, n=" + std::to_string(n) + ", seed=" + seed + ", " + precision + ", every " +
               std::to_string(every) + ", " + std::to_string(count) + " snapshots");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;

  std::ifstream index_file(series + "/index.json");
  const nlohmann::json index = nlohmann::json::parse(index_file);
  const nlohmann::json& units = index.at("run").at("units");
  ASSERT_TRUE(units.is_object()) << "galaxies states units: " << index.dump(2);
  const double length_in_cm = units.at("length_in_cm"), mass_in_g = units.at("mass_in_g");
  const double velocity_in_cm_per_s = units.at("velocity_in_cm_per_s"), time_in_s = units.at("time_in_s");
  const nlohmann::json& rows = index.at("snapshots");
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(count)) << index.dump(2);
  const nlohmann::json& row = rows[static_cast<std::size_t>(rng.uniform_int(0, count - 1))];
  const std::string file = series + "/" + row.at("file").get<std::string>();
  SCOPED_TRACE(file);

  // What coalesce wrote, through its own reader (no yt, no h5py).
  const LoadedState loaded = load_state_file(file, StateFormat::GadgetHdf5, Precision::Fp64);
  const std::vector<ParticleF64>& records = loaded.contents.records;
  ASSERT_EQ(records.size(), static_cast<std::size_t>(n));
  ASSERT_TRUE(loaded.contents.converted.empty()) << loaded.contents.converted;
  std::map<std::uint64_t, std::size_t> record_of_id;
  for (std::size_t i = 0; i < records.size(); ++i) record_of_id[loaded.contents.ids[i]] = i;

  const std::string out = dir.file("yt");
  ASSERT_NO_FATAL_FAILURE(run_python(python, block + kCheckScript, {file, out}));
  EXPECT_EQ(text_of(out + ".frontend"), "GadgetHDF5Dataset");
  const std::vector<double> scalars = values_in_file<double>(out + ".scalars");
  ASSERT_EQ(scalars.size(), 7u);
  const double yt_kpc_in_cm = scalars[2], yt_msun_in_g = scalars[3], yt_myr_in_s = scalars[4];
  EXPECT_EQ(scalars[5], 0.0) << "yt took the file as cosmological (comoving units, factors of h)";
  EXPECT_EQ(scalars[6], 1.0) << "yt's h";
  // docs/formats.md's numbers for how yt's constants differ from sim/units.h's.
  EXPECT_NEAR(yt_kpc_in_cm / kKpcInCm, 1.0, 1e-9);
  EXPECT_NEAR(yt_msun_in_g / kSolarMassInG, 1.0, 3e-6);
  EXPECT_EQ(yt_myr_in_s, 1e6 * 365.25 * 86400);

  const double time = row.at("time");
  EXPECT_TRUE(within_fp32(scalars[1], time * time_in_s))
      << "yt's time " << scalars[1] << " s, coalesce's " << time << " x " << time_in_s << " s";
  EXPECT_TRUE(within_fp32(scalars[0], time * time_in_s / yt_myr_in_s))
      << "yt's time " << scalars[0] << " Myr";

  // IDs: float64, as docs/formats.md says, each one of the file's, each once; the other fields by ID.
  ASSERT_EQ(text_of(out + ".dtype"), "float64");
  const std::vector<double> ids = values_in_file<double>(out + ".ids");
  const std::vector<double> positions = values_in_file<double>(out + ".positions");
  const std::vector<double> velocities = values_in_file<double>(out + ".velocities");
  const std::vector<double> masses = values_in_file<double>(out + ".masses");
  ASSERT_EQ(ids.size(), records.size());
  ASSERT_EQ(positions.size(), 3 * records.size());
  ASSERT_EQ(velocities.size(), 3 * records.size());
  ASSERT_EQ(masses.size(), records.size());
  std::vector<bool> seen(records.size(), false);
  int failures = 0;
  for (std::size_t i = 0; i < ids.size() && failures < 10; ++i) {
    const bool whole = ids[i] >= 0 && ids[i] < 0x1p64 && ids[i] == std::floor(ids[i]);
    const auto found = whole ? record_of_id.find(static_cast<std::uint64_t>(ids[i])) : record_of_id.end();
    if (found == record_of_id.end() || seen[found->second]) {
      ADD_FAILURE() << "yt's row " << i << " has ParticleID " << ids[i]
                    << ": not one of the file's, or twice";
      ++failures;
      continue;
    }
    seen[found->second] = true;
    const ParticleF64& p = records[found->second];
    const double want[7] = {p.x * length_in_cm / yt_kpc_in_cm,     p.y * length_in_cm / yt_kpc_in_cm,
                            p.z * length_in_cm / yt_kpc_in_cm,     p.vx * velocity_in_cm_per_s / kKmInCm,
                            p.vy * velocity_in_cm_per_s / kKmInCm, p.vz * velocity_in_cm_per_s / kKmInCm,
                            p.mass * mass_in_g / yt_msun_in_g};
    const double got[7] = {positions[3 * i],  positions[3 * i + 1],  positions[3 * i + 2],
                           velocities[3 * i], velocities[3 * i + 1], velocities[3 * i + 2],
                           masses[i]};
    static constexpr const char* kNames[7] = {"x (kpc)",   "y (kpc)",   "z (kpc)",    "vx (km/s)",
                                              "vy (km/s)", "vz (km/s)", "mass (Msun)"};
    for (int k = 0; k < 7; ++k)
      if (!within_fp32(got[k], want[k])) {
        ADD_FAILURE() << "ID " << ids[i] << " " << kNames[k] << ": yt " << got[k] << ", coalesce's "
                      << want[k];
        ++failures;
      }
  }
}

}  // namespace
}  // namespace coalesce::testing
