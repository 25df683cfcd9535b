// quantity_in_cgs and physical_units: the texts of scene units, read strictly (no locale, no trailing junk).
#include "sim/unit_text.h"

#include <charconv>
#include <cmath>
#include <iterator>

namespace coalesce {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

bool positive_finite(double v) {
  return std::isfinite(v) && v > 0.0;
}

std::string words(const UnitSpelling* begin, const UnitSpelling* end, const char* example) {
  std::string out = "a positive number and a unit, one of ";
  for (const UnitSpelling* u = begin; u != end; ++u) {
    out += u->name;
    out += u + 1 == end ? "" : u + 2 == end ? " or " : ", ";
  }
  return out + " (\"" + example + "\")";
}

// "1e10\tMsun" -> "1e10 Msun": the number and the unit as they parsed, one space between, for the index and
// the files' attributes.
std::string canonical(std::string_view text) {
  text = trimmed(text);
  std::size_t blank = text.find_first_of(" \t");
  if (blank == std::string_view::npos) return std::string(text);
  return std::string(text.substr(0, blank)) + " " + std::string(trimmed(text.substr(blank)));
}

}  // namespace

std::optional<double> quantity_in_cgs(std::string_view text, const UnitSpelling* begin,
                                      const UnitSpelling* end) {
  text = trimmed(text);
  double number = 0.0;
  const auto [rest, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || !positive_finite(number)) return std::nullopt;
  const std::string_view unit = trimmed(text.substr(static_cast<std::size_t>(rest - text.data())));
  for (const UnitSpelling* u = begin; u != end; ++u) {
    if (unit != u->name) continue;
    const double value = number * u->in_cgs;
    return positive_finite(value) ? std::optional<double>(value) : std::nullopt;
  }
  return std::nullopt;
}

std::string length_words() {
  return words(std::begin(kLengthUnits), std::end(kLengthUnits), "1 kpc");
}

std::string mass_words() {
  return words(std::begin(kMassUnits), std::end(kMassUnits), "1e10 Msun");
}

std::optional<PhysicalUnits> physical_units(std::string_view length, std::string_view mass) {
  const std::optional<double> cm = length_in_cm(length), g = mass_in_g(mass);
  if (!cm || !g) return std::nullopt;
  PhysicalUnits units{*cm, *g, canonical(length), canonical(mass)};
  if (!positive_finite(units.velocity_in_cm_per_s()) || !positive_finite(units.time_in_s()))
    return std::nullopt;
  return units;
}

}  // namespace coalesce
