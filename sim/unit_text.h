// Lengths and masses written as a number and a unit ("1 kpc", "1e10 Msun"): the spellings a scene's [units]
// table accepts, and their values in cgs. The velocity and time units are never written: G = 1 fixes them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sim/units.h"

namespace coalesce {

struct UnitSpelling {
  const char* name;
  double in_cgs;  // cm or g
};

constexpr double kAuInCm = 1.495978707e13;  // IAU 2012, exact

// Parsec and megaparsec from the kiloparsec: one length fact, scaled.
inline constexpr UnitSpelling kLengthUnits[] = {{"pc", kKpcInCm / 1e3},
                                                {"kpc", kKpcInCm},
                                                {"Mpc", kKpcInCm * 1e3},
                                                {"au", kAuInCm},
                                                {"km", kKmInCm},
                                                {"m", 1e2},
                                                {"cm", 1.0}};
inline constexpr UnitSpelling kMassUnits[] = {{"Msun", kSolarMassInG}, {"kg", 1e3}, {"g", 1.0}};

// "NUMBER UNIT" with a positive finite number and a unit of [begin, end), in cgs (finite and positive);
// nullopt for anything else.
std::optional<double> quantity_in_cgs(std::string_view text, const UnitSpelling* begin,
                                      const UnitSpelling* end);
inline std::optional<double> length_in_cm(std::string_view text) {
  return quantity_in_cgs(text, std::begin(kLengthUnits), std::end(kLengthUnits));
}
inline std::optional<double> mass_in_g(std::string_view text) {
  return quantity_in_cgs(text, std::begin(kMassUnits), std::end(kMassUnits));
}

// What a length or mass text may be, for messages: "a positive number and one of pc, kpc, ... (\"1 kpc\")".
std::string length_words();
std::string mass_words();

// The units of `length` and `mass` texts; nullopt when either does not parse or the derived velocity or time
// unit is not a positive finite number (a mass unit far too small for its length, say).
std::optional<PhysicalUnits> physical_units(std::string_view length, std::string_view mass);

}  // namespace coalesce
