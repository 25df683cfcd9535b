// Bytes each kernel must move and interactions it computes, per layout and solver: one set of formulas
// shared by the CPU and CUDA backends so their GB/s figures mean the same thing. Each formula is a list of
// named per-particle terms, so the number (bytes_moved) and the text the panel and the JSON show
// (ByteFormula::text) come from the same values and cannot disagree.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <string_view>

#include "sim/force_method.h"
#include "sim/kernel_stats.h"
#include "sim/layout.h"
#include "sim/layout_storage.h"
#include "sim/particle.h"

namespace coalesce {

// One input read or output written per particle, e.g. {"", "vel read", 12} or {"float4", "record write", 32}.
struct ByteTerm {
  std::string_view layout;  // set where the term belongs to one layout of several (conversions)
  std::string_view what;
  int bytes;
};

// Bytes per particle as a sum of terms ("ideal" traffic: each input read once, each output written once;
// caches may do better or worse), plus the interaction count it goes with, if any, plus the scratch a
// kernel writes and reads back within a call (the all-pairs schemes' partial sums: their size depends on
// the schedule the backend picked for this device and N, not on N alone).
struct ByteFormula {
  std::array<ByteTerm, 3> terms{};
  int term_count = 0;
  std::string_view interactions;  // "N^2", "N x k", or empty when the kernel computes none
  double scratch_bytes = 0;       // the scratch's size: written once, read back once, so counted twice
  std::string_view scratch_what{};  // "partial sums", "staged source rows"

  constexpr int bytes_per_particle() const {
    int sum = 0;
    for (int t = 0; t < term_count; ++t) sum += terms[static_cast<std::size_t>(t)].bytes;
    return sum;
  }
  constexpr double scratch_moved() const { return 2.0 * scratch_bytes; }
  constexpr double bytes(int n) const {
    return static_cast<double>(n) * bytes_per_particle() + scratch_moved();
  }

  // "N x (16 B pos+mass read + 12 B vel read + 12 B vel write) = 40 N bytes; N^2 interactions", and with
  // scratch "... = 40 N bytes + 2 x 190.32 MB partial sums (written, then read back); N^2 interactions".
  std::string text() const {
    std::string out = "N x (";
    for (int t = 0; t < term_count; ++t) {
      const ByteTerm& term = terms[static_cast<std::size_t>(t)];
      if (t > 0) out += " + ";
      out += std::to_string(term.bytes) + " B ";
      if (!term.layout.empty()) out += std::string(term.layout) + " ";
      out += std::string(term.what);
    }
    out += ") = " + std::to_string(bytes_per_particle()) + " N bytes";
    if (scratch_bytes > 0) {
      char size[48];
      std::snprintf(size, sizeof size, "%.2f MB", scratch_bytes / 1e6);
      out += " + 2 x " + std::string(size) + " " + std::string(scratch_what) + " (written, then read back)";
    }
    if (!interactions.empty()) out += "; " + std::string(interactions) + " interactions";
    return out;
  }
};

// The interactions label of the forces kernel, its method's row's (sim/force_method.h).
constexpr std::string_view interactions_label(KernelKind kind, ForceMethod method) {
  return kind == KernelKind::Forces ? method_info(method).interactions : std::string_view();
}

// A conversion reads the source's whole record and writes the destination's, both in `precision`.
constexpr ByteFormula convert_byte_formula(Layout from, Layout to, Precision precision = Precision::Fp32) {
  return {{{{layout_info(from).name, "record read", layout_bytes(from, precision).record},
            {layout_info(to).name, "record write", layout_bytes(to, precision).record}}},
          2,
          {}};
}

// The formula of one kernel in one layout. Forces, all-pairs: the N^2 re-reads of the other bodies are
// cache/shared-memory traffic and are counted as interactions, not bytes. Convert here is a conversion
// from and to `layout`; for two different layouts use convert_byte_formula.
// Every byte count is sizeof of the view's storage in `precision` (sim/layout_views.h); the pack writes
// floats in every precision (the render buffer).
constexpr ByteFormula kernel_byte_formula(KernelKind kind, Layout layout, ForceMethod method,
                                          Precision precision = Precision::Fp32) {
  const LayoutBytes row = layout_bytes(layout, precision);
  const int v = row.vec3;
  const std::string_view label = interactions_label(kind, method);
  switch (kind) {
    case KernelKind::Forces:
      if (method_info(method).physics == Physics::PairGravity)  // the sources' masses are read too
        return {{{{"", "pos+mass read", row.position_mass}, {"", "vel read", v}, {"", "vel write", v}}},
                3,
                label};
      return {{{{"", "pos read", v}, {"", "vel read", v}, {"", "vel write", v}}}, 3, label};
    case KernelKind::Integrate:
      return {{{{"", "pos read", v}, {"", "vel read", v}, {"", "pos write", v}}}, 3, label};
    case KernelKind::Pack:
      return {{{{"", "pos read", v},
                {"", "vel read", v},
                {"", "x,y,z,speed write", kRenderFloatsPerParticle * static_cast<int>(sizeof(float))}}},
              3,
              label};
    case KernelKind::Convert:
      return convert_byte_formula(layout, layout, precision);
  }
  return {};
}

constexpr double bytes_moved(KernelKind kind, Layout layout, ForceMethod method, int n,
                             Precision precision = Precision::Fp32) {
  return kernel_byte_formula(kind, layout, method, precision).bytes(n);
}

// The forces' formula with the scratch the backend's scheme used in the call: `scratch_bytes` of partial
// sums (either all-pairs scheme on the GPU, the mutual one on the CPU) or of staged source rows (the CPU's
// one-sided SIMD loop), each written once and read back.
constexpr ByteFormula forces_byte_formula(Layout layout, ForceMethod method, Precision precision,
                                          double scratch_bytes, std::string_view scratch_what) {
  ByteFormula f = kernel_byte_formula(KernelKind::Forces, layout, method, precision);
  f.scratch_bytes = scratch_bytes;
  f.scratch_what = scratch_bytes > 0 ? scratch_what : std::string_view();
  return f;
}
inline constexpr std::string_view kPartialSums = "partial sums";
inline constexpr std::string_view kStagedSources = "staged source rows";
inline constexpr std::string_view kSortedSources =
    "curve-sorted source copy";  // the tree's, rebuilt each step

// The tree's sorted copy of {x, y, z, m}, stored in the state's layout: a body's position and mass as the
// force loops load them, for every body.
inline double sorted_copy_bytes(const StateViews& state) {
  return static_cast<double>(layout_bytes(state.layout, state.precision).position_mass) * state.n;
}

constexpr double convert_bytes(Layout from, Layout to, int n, Precision precision = Precision::Fp32) {
  return convert_byte_formula(from, to, precision).bytes(n);
}

// What the Convert row means when the source layout is not at hand (the panel): the records per layout.
inline std::string convert_formula_summary(Precision precision = Precision::Fp32) {
  std::string out = "N x (source record read + destination record write); records:";
  for (const LayoutInfo& row : kLayoutTable)
    out += " " + std::string(row.name) + " " + std::to_string(layout_bytes(row.layout, precision).record) + " B";
  return out;
}

// Interactions of the forces kernel for `targets` bodies of n (sim/force_method.h); 0 for every other kernel.
constexpr double interactions(KernelKind kind, ForceMethod method, int targets, int n, int attractor_count) {
  return kind == KernelKind::Forces ? interactions(method, targets, n, attractor_count) : 0.0;
}
// A whole step's: N^2 for all-pairs, N * k for k attractors.
constexpr double interactions(KernelKind kind, ForceMethod method, int n, int attractor_count) {
  return interactions(kind, method, n, n, attractor_count);
}

}  // namespace coalesce
