// RunMonitor (see run_monitor.h).
#include "app/services/run_monitor.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "app/services/number_text.h"

namespace coalesce {

namespace {

double length(const Vec3d& v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// A value that went NaN or Inf is not a measurement: null, not a number JSON cannot hold.
nlohmann::json finite_or_null(std::optional<double> value) {
  return value && std::isfinite(*value) ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json vector_json(const Vec3d& v) {
  return nlohmann::json::array({finite_or_null(v.x), finite_or_null(v.y), finite_or_null(v.z)});
}

// Which potential the energy holds: the exact pair sum, the attractors', or the tree's own at its theta.
std::string potential_of(const Diagnostics& d, const Backend& backend) {
  if (d.tree_theta) return "the tree's, theta " + number_text("%g", *d.tree_theta);
  return method_info(backend.force_method()).physics == Physics::PairGravity ? "exact pairs" : "attractors";
}

}  // namespace

MonitorSample RunMonitor::measure(Backend& backend, const SimParams& params, std::uint64_t step,
                                  double time) {
  MonitorSample sample;
  sample.step = step;
  sample.time = time;
  if (backend.diagnostics_affordable()) sample.diagnostics = backend.diagnostics(params, time);
  return sample;
}

std::optional<double> RunMonitor::drift(const MonitorSample& sample) const {
  if (!m_first || !sample.diagnostics) return std::nullopt;
  const double e0 = m_first->total_energy;
  const double change = std::abs(sample.diagnostics->total_energy - e0);
  return e0 != 0.0 ? change / std::abs(e0) : change;
}

std::string RunMonitor::line(const MonitorSample& sample, const Backend& backend) const {
  std::string text = "step " + std::to_string(sample.step) + number_text(" (t %.6g): ", sample.time);
  if (!sample.diagnostics)
    return text + "energy and momenta not computed (N > " +
           std::to_string(backend.max_diagnostics_particles()) + " for this force method)";
  const Diagnostics& d = *sample.diagnostics;
  const std::optional<double> change = drift(sample);
  const std::optional<double> virial = virial_ratio(d);
  text += number_text("energy %.9g", d.total_energy) + (change ? number_text(" (drift %.2e)", *change) : "") +
          number_text(", |P| %.3e", length(d.momentum)) +
          number_text(", |L| %.6g", length(d.angular_momentum)) +
          (virial ? number_text(", 2K/|W| %.4g", *virial) : ", 2K/|W| unknown (W = 0)") + "; potential " +
          potential_of(d, backend);
  return text;
}

nlohmann::json RunMonitor::json(const MonitorSample& sample) const {
  nlohmann::json out = {{"step", sample.step}, {"time", sample.time}};
  if (!sample.diagnostics) {
    for (const char* key : {"energy", "momentum", "angular_momentum", "virial_ratio"}) out[key] = nullptr;
    return out;
  }
  const Diagnostics& d = *sample.diagnostics;
  out["energy"] = {{"total", finite_or_null(d.total_energy)},
                   {"kinetic", finite_or_null(d.kinetic_energy)},
                   {"potential", finite_or_null(d.potential_energy)},
                   {"drift", finite_or_null(drift(sample))},
                   {"tree_theta", d.tree_theta ? nlohmann::json(*d.tree_theta) : nlohmann::json(nullptr)}};
  out["momentum"] = vector_json(d.momentum);
  out["angular_momentum"] = vector_json(d.angular_momentum);
  out["virial_ratio"] = finite_or_null(virial_ratio(d));
  return out;
}

}  // namespace coalesce
