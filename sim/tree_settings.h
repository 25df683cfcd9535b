// What the tree method (issue 32) is asked for and what one of its walks did, shared by the CPU reference
// (sim/cpu_tree.h) and the GPU tree (kernels/tree.h).
#pragma once

#include <array>
#include <string_view>

namespace coalesce {

// --theta's default: the largest measured to keep the 99th-percentile relative acceleration error at or below
// 5e-4 on the Plummer sphere and the galaxies as they start, from 1M to 16M bodies on the GPU (docs/perf.md,
// "The default theta"); 0.25 held it at a few thousand bodies but not on the Plummer sphere at 1M (7.1e-4).
// The most --theta takes: past about 1 a node's own bodies can pull through its multipole.
inline constexpr double kDefaultTheta = 0.18;
// The 99th-percentile relative acceleration error kDefaultTheta is chosen for (the panel colours by it).
inline constexpr double kDefaultThetaErrorGoal = 5e-4;
inline constexpr double kMaxTheta = 1.0;

// Where the GPU tree stores its sorted copy of the sources (issue 32's lesson: coalescing on an irregular
// workload). Curve: along the Morton curve, so a leaf's bodies are adjacent in memory. Shuffled: the same
// entries at a fixed random permutation, read through it: the same tree, pulls and bits, scattered loads.
enum class SourceOrder { Curve, Shuffled };
// Which targets share one walk on the GPU. Curve: consecutive curve positions, a compact box. Particle:
// consecutive state indices, whose box is as wide as the state's order makes it, so the walk opens more.
enum class TargetOrder { Curve, Particle };

inline constexpr std::array<SourceOrder, 2> kSourceOrders = {SourceOrder::Curve, SourceOrder::Shuffled};
inline constexpr std::array<TargetOrder, 2> kTargetOrders = {TargetOrder::Curve, TargetOrder::Particle};

// Names as the lab's rows and the panel print them.
constexpr std::string_view to_string(SourceOrder order) {
  return order == SourceOrder::Curve ? "curve" : "shuffled";
}
constexpr std::string_view to_string(TargetOrder order) {
  return order == TargetOrder::Curve ? "curve" : "particle";
}

// How the tree is built and walked. theta: a node of extent b (an upper bound of the distance from its
// centre of mass to a body in it) is taken as a multipole for a group of targets when the group's box is
// farther than b / theta from that centre; 0 opens every node (the walk is then the direct sum).
struct TreeSettings {
  double theta = kDefaultTheta;
  int leaf_size = 16;   // bodies a node may hold and still be taken body by body when opened (the CPU
                        // solver's: kCpuLeafSize)
  int group_size = 32;  // targets that share one interaction list: a warp's worth (or 64) on the GPU
  // The GPU tree's memory orders (above); the CPU reference ignores both: its copy and groups stay on the
  // curve.
  SourceOrder source_order = SourceOrder::Curve;
  TargetOrder target_order = TargetOrder::Curve;
};

// The leaf size the CPU tree solver builds with: its vector pair loop makes a body's pull cheaper than a
// node's, and its walk's descent costs by the node, so at 100K galaxies leaves of 32 took 16% less CPU time
// than 16's (48 and 64 about the same as 32) with a lower error (docs/perf.md, "CPU tree speed").
inline constexpr int kCpuLeafSize = 32;

// What a walk evaluated, summed over its targets: body-body pulls and body-node (multipole) pulls.
struct TreeCounts {
  double particle_particle = 0;
  double particle_node = 0;
};

}  // namespace coalesce
