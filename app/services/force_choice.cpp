#include "app/services/force_choice.h"

#include <cstdio>
#include <string>

#include "sim/auto_choice.h"
#include "sim/errors.h"

namespace coalesce {

namespace {

std::string named(ForceMethod method) {
  return "forces " + std::string(method_info(method).forces_name);
}

std::string describe(const MeasuredForceMethod& measured, const Backend& backend) {
  if (!measured.unmeasured.empty())
    return named(measured.chosen) + " (auto: " + measured.unmeasured + "; --forces names a scheme)";
  std::string rates;
  for (const MethodRate& r : measured.rates) {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3g", r.interactions_per_second);
    rates += (rates.empty() ? "" : ", ") + std::string(method_info(r.method).forces_name) + " " + rate;
  }
  return named(measured.chosen) + " (auto: " + rates +
         " interactions/s measured at N = " + std::to_string(backend.particle_count()) + ", " +
         std::string(to_string(backend.precision())) + " " + std::string(to_string(backend.layout())) + ")";
}

// --forces names a row of the pair-gravity family; the family itself was checked by the caller.
ForceMethod asked_row(ForceMethod family, ForceMethod asked) {
  if (!same_family(family, asked))
    throw UsageError("--forces " + std::string(method_info(asked).forces_name) + " is not a row of the " +
                     std::string(method_info(family).solver_name) + " solver");
  return asked;
}

}  // namespace

std::string forces_without_all_pairs(const std::string& run, const std::string& fix) {
  return "--forces picks the all-pairs scheme, but " + run +
         " runs only the attractors solver, which has none (" + fix + ")";
}

ForceChoice sliced_forces(ForceMethod family, std::optional<ForceMethod> asked) {
  const ForceMethod first = family_of(family);
  if (!has_forces_choice(first)) return {first, {}};
  if (asked && !method_info(asked_row(first, *asked)).rank_slices)
    throw UsageError("--forces " + std::string(method_info(*asked).forces_name) +
                     " evaluates each pair once for both bodies, which ranks holding slices cannot; under "
                     "mpirun use --forces " +
                     std::string(method_info(first).forces_name) + " or auto");
  if (asked) return {*asked, named(*asked)};
  // Auto measures nothing here: the first row is the one that slices, and the others are why.
  std::string why;
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (same_family(row.method, first) && !row.rank_slices)
      why += (why.empty() ? "" : ", ") + std::string("a ") + std::string(row.forces_name) + " pair";
  return {first, named(first) +
                     (why.empty() ? " (auto: the first row)" : " (auto: " + why + " would span two ranks)")};
}

ForceChoice choose_forces(Backend& backend, ForceMethod family, const SimParams& params, double time,
                          std::optional<ForceMethod> asked, const AutoLimits& limits) {
  const ForceMethod first = family_of(family);
  if (!has_forces_choice(first)) {
    backend.set_force_method(first);
    return {first, {}};
  }
  if (asked) {
    backend.set_force_method(asked_row(first, *asked));
    return {*asked, named(*asked)};
  }
  const MeasuredForceMethod measured = measure_force_methods(backend, first, params, time, limits);
  return {measured.chosen, describe(measured, backend)};
}

}  // namespace coalesce
