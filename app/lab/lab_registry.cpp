// The list of lab experiments, in the order the articles introduce them, then the tree's memory orders and
// the viewer's splat.
#include "app/lab/lab_registry.h"

#include "app/lab/lab_splat.h"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_tree_order.h"

namespace coalesce::lab {

namespace {

using Rows = std::vector<LabRow>;

std::string printf_text(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char text[160];
  std::snprintf(text, sizeof text, format, a, b, c, d);
  return text;
}

const LabRow* row_named(const Rows& rows, std::string_view variant) {
  for (const LabRow& row : rows)
    if (row.variant == variant) return &row;
  return nullptr;
}

// The last row whose variant starts with `prefix`: the largest size where a variant runs at two sizes.
const LabRow* last_row_starting(const Rows& rows, std::string_view prefix) {
  const LabRow* found = nullptr;
  for (const LabRow& row : rows)
    if (row.variant.compare(0, prefix.size(), prefix) == 0) found = &row;
  return found;
}

bool timed(const LabRow* row) {
  return row != nullptr && row->time_ms > 0 && row->gbps > 0;
}

std::string measured_copy(const Rows& rows) {
  const LabRow* memcpy_row = row_named(rows, "cudaMemcpy D2D");
  const LabRow* kernel = row_named(rows, "coalesced kernel");
  if (!timed(memcpy_row) || !timed(kernel)) return "";
  return printf_text("the coalesced kernel reached %.0f%% of cudaMemcpy (%.0f of %.0f GB/s)",
                     100.0 * kernel->gbps / memcpy_row->gbps, kernel->gbps, memcpy_row->gbps);
}

std::string measured_strided(const Rows& rows) {
  std::string reached, model;
  for (int stride : {2, 4, 8, 16}) {
    const LabRow* row = row_named(rows, "stride " + std::to_string(stride));
    if (!timed(row) || row->pct_copy < 0) return "";
    reached += printf_text(stride == 2 ? "%.0f" : ", %.0f", row->pct_copy);
    model += printf_text(stride == 2 ? "%.0f" : ", %.0f", 200.0 / (stride + 1));
  }
  return "stride 2, 4, 8, 16 reached " + reached + "% of copy (2/(stride+1): " + model + "%)";
}

std::string measured_offset(const Rows& rows) {
  const LabRow* aligned = row_named(rows, "read offset 0 floats");
  if (!timed(aligned)) return "";
  double worst = 0;
  for (int offset : {1, 2, 4}) {
    const LabRow* row = row_named(rows, "read offset " + std::to_string(offset) + " floats");
    if (!timed(row)) return "";
    worst = std::max(worst, row->time_ms / aligned->time_ms - 1.0);
  }
  return printf_text("reading 1, 2 or 4 floats off alignment was at most %.1f%% slower than aligned",
                     100.0 * worst);
}

std::string measured_vecadd(const Rows& rows) {
  const LabRow* coalesced = row_named(rows, "coalesced");
  const LabRow* swapped = row_named(rows, "pairs swapped");
  const LabRow* shifted = row_named(rows, "lane 0 shifted a warp");
  if (!timed(coalesced) || !timed(swapped) || !timed(shifted)) return "";
  return printf_text(
      "swapped pairs ran at %.1f%% of the coalesced GB/s, one lane shifted out of its warp at %.1f%%",
      100.0 * swapped->gbps / coalesced->gbps, 100.0 * shifted->gbps / coalesced->gbps);
}

std::string measured_float4(const Rows& rows) {
  const LabRow* scalar = row_named(rows, "scalar float");
  const LabRow* vector = row_named(rows, "float4");
  if (!timed(scalar) || !timed(vector)) return "";
  return printf_text("float4 ran %.2fx the scalar copy, %.0f%% of cudaMemcpy", vector->gbps / scalar->gbps,
                     vector->pct_copy);
}

std::string measured_fp64_vectors(const Rows& rows) {
  const LabRow* vector = row_named(rows, "double4_32a, 1 per thread");
  const LabRow* pair = row_named(rows, "2 x double2 per thread");
  const LabRow* scalar = row_named(rows, "4 x double per thread, coalesced");
  if (!timed(vector) || !timed(pair) || !timed(scalar)) return "";
  return printf_text("double4_32a, 2 x double2 and 4 x double reached %.0f, %.0f and %.0f%% of copy "
                     "(double4_32a / 2 x double2: %.2fx)",
                     vector->pct_copy, pair->pct_copy, scalar->pct_copy, vector->gbps / pair->gbps) +
         "; this binary's double4_32a: " + vector->note;
}

std::string measured_gridstride(const Rows& rows) {
  const LabRow* one = row_named(rows, "one thread per element");
  const LabRow* loop = row_named(rows, "grid-stride, resident grid");
  if (!timed(one) || !timed(loop)) return "";
  return printf_text("the grid-stride loop ran %.2fx one thread per element", loop->gbps / one->gbps);
}

std::string measured_particles(const Rows& rows) {
  // By prefix: in fp64 (lab --precision fp64) the variants end in ", fp64".
  const LabRow* aos_x = last_row_starting(rows, "AoS x only");
  const LabRow* soa_x = last_row_starting(rows, "SoA x only");
  const LabRow* aos_all = last_row_starting(rows, "AoS all fields");
  const LabRow* soa_all = last_row_starting(rows, "SoA all fields");
  if (!timed(aos_x) || !timed(soa_x) || !timed(aos_all) || !timed(soa_all)) return "";
  return printf_text("x alone ran %.1fx slower in AoS than in SoA; all fields, read once per record, %.1fx",
                     aos_x->time_ms / soa_x->time_ms, aos_all->time_ms / soa_all->time_ms);
}

std::string measured_transpose(const Rows& rows) {
  const LabRow* sgeam = last_row_starting(rows, "cublasSgeam");
  if (!timed(sgeam)) return "";
  const std::string size = sgeam->variant.substr(std::string_view("cublasSgeam").size());  // " 8192^2"
  const LabRow* no_pad = row_named(rows, "tiled 32x32, no pad" + size);
  const LabRow* pad = row_named(rows, "tiled 32x32 +pad" + size);
  const LabRow* copy = row_named(rows, "copy (same bytes)" + size);
  const LabRow* best = nullptr;
  for (const LabRow& row : rows) {
    const bool this_size = row.variant.size() > size.size() &&
                           row.variant.compare(row.variant.size() - size.size(), size.size(), size) == 0;
    if (this_size && &row != sgeam && &row != copy && (best == nullptr || row.gbps > best->gbps)) best = &row;
  }
  if (!timed(no_pad) || !timed(pad) || !timed(copy) || !timed(best)) return "";
  return "at" + size + ": " +
         printf_text(
             "padding sped the 32x32 tile up %.2fx; our fastest kernel reached %.0f%% of a same-size "
             "copy and %.0f%% of cublasSgeam",
             no_pad->time_ms / pad->time_ms, 100.0 * best->gbps / copy->gbps,
             100.0 * best->gbps / sgeam->gbps);
}

std::string measured_banks(const Rows& rows) {
  const LabRow* one = row_named(rows, "1-way (stride 1)");
  const LabRow* two = row_named(rows, "2-way (stride 2)");
  const LabRow* all = row_named(rows, "32-way (stride 32)");
  const LabRow* padded = row_named(rows, "stride 32 +1 pad (33)");
  if (!timed(one) || !timed(two) || !timed(all) || !timed(padded)) return "";
  return printf_text("2-way took x%.2f the 1-way time and 32-way x%.1f; one pad word brought it to x%.2f",
                     two->time_ms / one->time_ms, all->time_ms / one->time_ms,
                     padded->time_ms / one->time_ms);
}

std::string measured_ldg(const Rows& rows) {
  double low = 0, high = 0;
  for (const char* path : {"plain loads", "const __restrict__", "__ldg()"}) {
    const LabRow* row = row_named(rows, std::string("5-point stencil, ") + path);
    if (!timed(row)) return "";
    low = low == 0 ? row->gbps : std::min(low, row->gbps);
    high = std::max(high, row->gbps);
  }
  return printf_text("plain, const __restrict__ and __ldg() loads ran within %.1f%% of each other",
                     100.0 * (high / low - 1.0));
}

std::string measured_constant(const Rows& rows) {
  const LabRow* broadcast = row_named(rows, "16-term polynomial, __constant__, same index (broadcast)");
  const LabRow* divergent = row_named(rows, "16-term polynomial, __constant__, per-lane index");
  if (!timed(broadcast) || !timed(divergent)) return "";
  return printf_text("16 addresses per warp ran %.1fx slower than the broadcast",
                     divergent->time_ms / broadcast->time_ms);
}

double load_sectors_per_request(const LabRow& row) {
  const RowCounters& c = row.counters.values;
  return c.global_load_requests > 0 ? c.global_load_sectors / c.global_load_requests : 0;
}

std::string measured_tree_order(const Rows& rows) {
  const auto row = [&](Layout layout, SourceOrder sources, TargetOrder targets) {
    return row_named(rows, tree_order_variant({layout, sources, targets}));
  };
  const LabRow* curve = row(Layout::Float4, SourceOrder::Curve, TargetOrder::Curve);
  const LabRow* shuffled = row(Layout::Float4, SourceOrder::Shuffled, TargetOrder::Curve);
  const LabRow* particle = row(Layout::Float4, SourceOrder::Curve, TargetOrder::Particle);
  if (!timed(curve) || !timed(shuffled) || !timed(particle)) return "";
  std::string out = printf_text(
      "float4 sources stored in random order took x%.2f the curve-ordered walk's time "
      "for the same pulls",
      shuffled->time_ms / curve->time_ms);
  if (curve->counters.available && shuffled->counters.available)
    out += printf_text(" (%.1f vs %.1f global-load sectors per request)", load_sectors_per_request(*shuffled),
                       load_sectors_per_request(*curve));
  const LabRow* aos_curve = row(Layout::AoS, SourceOrder::Curve, TargetOrder::Curve);
  const LabRow* aos_shuffled = row(Layout::AoS, SourceOrder::Shuffled, TargetOrder::Curve);
  if (timed(aos_curve) && timed(aos_shuffled))
    out += printf_text(", AoS x%.2f", aos_shuffled->time_ms / aos_curve->time_ms);
  return out + printf_text(
                   "; target groups in particle order loaded x%.0f the list bytes (their boxes are wide) "
                   "and took x%.1f the time",
                   particle->bytes / curve->bytes, particle->time_ms / curve->time_ms);
}

// The articles' experiments, then those only some builds have (the splat needs the viewer's kernel).
std::vector<LabExperiment> followed_by(std::vector<LabExperiment> first,
                                       const std::vector<LabExperiment>& more) {
  first.insert(first.end(), more.begin(), more.end());
  return first;
}

}  // namespace

// The lessons carry no figures of any particular GPU: those of this run come from its rows, the measured
// H100 and H200 runs are in docs/lab.md.
const std::vector<LabExperiment>& lab_experiments() {
  static const std::vector<LabExperiment> articles = {
      {"copy", "coalesced copy vs cudaMemcpy", "2 x N x 4 B",
       "coalesced is not enough: one float per thread can keep too few bytes in flight to reach cudaMemcpy",
       "art. 004 (H100): coalesced copy 2395 GB/s, 71% of the 3352 GB/s peak; art. 000: scalar ~60% of peak",
       measured_copy, run_copy_experiment},
      {"strided", "strided copy, stride 1..32", "useful: 2 x (N/stride) x 4 B",
       "GB/s counts useful bytes only; DRAM still moves whole sectors, so the useful GB/s falls about as "
       "2/(stride+1) of copy",
       "art. 004 (H100): stride 2, 4, 8 at 1873, 1242, 693 GB/s, 78, 52, 29% of its 2395 GB/s copy",
       measured_strided, run_strided_experiment},
      {"offset", "copy reading at a misaligned offset", "2 x (N-32) x 4 B",
       "a misaligned warp touches one more sector than an aligned one, and L2 serves much of it",
       "art. 001: 5 sectors per request instead of 4; art. 002: misalignment splits one access into several "
       "transactions",
       measured_offset, run_offset_experiment},
      {"vecadd", "vector add, swapped and shifted lanes (art. 001)", "3 x N x 4 B",
       "coalescing is about which sectors a warp touches, not which lane reads which word",
       "art. 001: 4 sectors per request coalesced or with pairs swapped, 5 with lane 0 shifted (no GB/s "
       "quoted)",
       measured_vecadd, run_vecadd_experiment},
      {"float4", "scalar vs float4 copy", "2 x N x 4 B",
       "16-byte accesses put 4x the bytes in flight per load",
       "art. 000: float4 1.5-2x over scalar, ~90% of peak", measured_float4, run_float4_experiment},
      {"fp64-vectors", "double4_32a vs 2 x double2 vs 4 x double copy", "2 x V x 32 B (V = N/8)",
       "double4_32a is one 32-byte vector, but sm_90 has no 256-bit load: there it compiles to the same two "
       "128-bit loads as two double2, while sm_100 and sm_120 load it with one 256-bit instruction (each "
       "row's "
       "note says which code this GPU runs; scripts/lab-sass shows the SASS)",
       "art. 002: 16-byte vector loads (float4, int4) need an aligned base; art. 000: float4 1.5-2x over "
       "scalar (fp32); neither names a 32-byte type",
       measured_fp64_vectors, run_fp64_vectors_experiment},
      {"gridstride", "grid-stride loop vs one thread per element", "2 x N x 4 B",
       "a resident grid that loops saves block launch and retirement, but still has one 4-byte load in "
       "flight per thread",
       "art. 000: 1.2-1.5x", measured_gridstride, run_gridstride_experiment},
      {"particles", "AoS vs SoA particle update (art. 003)", "3 or 9 x N x 4 B",
       "AoS drags every record (28 bytes in fp32, 56 in fp64) through DRAM, even when the update uses one "
       "field of it",
       "art. 003 (A100, 16-byte struct): SoA 1840 vs AoS 410 GB/s, 4.5x", measured_particles,
       run_particles_experiment},
      {"transpose", "matrix transpose vs cublasSgeam and copy", "2 x side^2 x 4 B",
       "tiling makes both sides coalesced, padding removes the 32-way column conflicts, and more loads in "
       "flight per thread do the rest",
       "art. 003 (A100, 4096^2): naive 380, tiled 920, tiled +pad 1590, cuBLAS geam 1710 GB/s; art. 004 "
       "(H100, 2048^2): 456, 1102, 2113 GB/s",
       measured_transpose, run_transpose_experiment},
      {"banks", "shared-memory bank conflicts, 1..32-way and padded", "threads x iterations x 4 B (shared)",
       "a k-way conflict costs k shared-memory wavefronts; one pad word per row removes it",
       "art. 003: an N-way conflict is N serialized cycles, +1 padding removes it", measured_banks,
       run_banks_experiment},
      {"ldg", "plain vs const __restrict__ vs __ldg loads", "2 x N x 4 B",
       "where plain global loads are already cached in L1, the read-only path has little left to add",
       "art. 002: use __ldg for read-only data (no figure)", measured_ldg, run_ldg_experiment},
      {"constant", "constant-memory broadcast vs global vs divergent", "2 x N x 4 B",
       "constant memory is fast only when a warp reads one address",
       "art. 002: the constant cache broadcasts one address per warp (no figure)", measured_constant,
       run_constant_experiment},
      {"tree-order", "tree walk: sources in curve vs random order; targets in curve vs particle order",
       kTreeOrderFormula,
       "an irregular walk still coalesces when its data follow the curve: a leaf's bodies sit side by side, "
       "so "
       "a warp's body loads share sectors, and stored at random the same pulls scatter; groups of curve "
       "neighbours have small boxes, groups of arbitrary particles open far more of the tree",
       "art. 001: 4 sectors per request for a coalesced warp, 5 with one lane shifted; art. 002: scattered "
       "access fetches whole sectors for a few useful bytes (neither quotes a tree figure)",
       measured_tree_order, run_tree_order_experiment},
  };
  static const std::vector<LabExperiment> experiments = followed_by(articles, splat_experiments());
  return experiments;
}

const LabExperiment* find_lab_experiment(std::string_view name) {
  for (const LabExperiment& e : lab_experiments())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace coalesce::lab
