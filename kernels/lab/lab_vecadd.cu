// Vector add with article 001's index patterns: lanes swapped in pairs (same sectors, still coalesced) and
// lane 0 shifted into the next warp's range (5 sectors per request instead of 4).
#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

template <LanePattern kPattern>
__global__ void vector_add(const float* a, const float* b, float* c, std::int64_t n) {
  std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;  // before the remapping, so a tail thread cannot wrap onto a real element
  if (kPattern == LanePattern::Swapped) i ^= 1;  // even <-> odd neighbour: a permutation when n is even
  // Lane 0 takes the next warp's lane-0 element (wrapping): a permutation when n % 32 == 0.
  if (kPattern == LanePattern::Shifted && (threadIdx.x % 32) == 0) i = (i + 32) % n;
  c[i] = a[i] + b[i];
}

void launch_vector_add(LanePattern pattern, const float* a, const float* b, float* c, std::int64_t n) {
  switch (pattern) {
    case LanePattern::Coalesced:
      launch(vector_add<LanePattern::Coalesced>, {n, kBlock, kBlock}, kLabStream, a, b, c, n);
      break;
    case LanePattern::Swapped:
      launch(vector_add<LanePattern::Swapped>, {n, kBlock, kBlock}, kLabStream, a, b, c, n);
      break;
    case LanePattern::Shifted:
      launch(vector_add<LanePattern::Shifted>, {n, kBlock, kBlock}, kLabStream, a, b, c, n);
      break;
  }
}

// a and b are two hashed inputs with different seeds; c must be their sum at every index.
struct SumValue {
  std::uint32_t seed;
  __device__ float operator()(std::int64_t i) const { return lab_value(seed, i) + lab_value(seed + 1, i); }
};

}  // namespace

std::vector<LabRow> run_vecadd_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements() / 32 * 32;
  DeviceBuffer<float> a(n), b(n), c(n);
  fill_values(a.data(), n, context.settings.seed);
  fill_values(b.data(), n, context.settings.seed + 1);
  const struct {
    LanePattern pattern;
    const char* name;
    const char* article;
  } variants[] = {
      {LanePattern::Coalesced, "coalesced", "art. 001 (no GPU named): 4 sectors per request"},
      {LanePattern::Swapped, "pairs swapped", "art. 001: still 4 sectors per request, still coalesced"},
      {LanePattern::Shifted, "lane 0 shifted a warp", "art. 001: 5 sectors per request (no GB/s quoted)"},
  };
  std::vector<LabRow> rows;
  for (const auto& v : variants) {
    poison(c.data(), n * sizeof(float));
    launch_vector_add(v.pattern, a.data(), b.data(), c.data(), n);
    const bool ok = device_check(c.data(), n, SumValue{context.settings.seed});
    const TimedRow ms = timed_row([&] { launch_vector_add(v.pattern, a.data(), b.data(), c.data(), n); }, context);
    rows.push_back(make_row(context, "vecadd", v.name, ms, 3.0 * n * 4, "3 x N x 4 B (read a and b, write c)",
                            v.article, ok));
  }
  return rows;
}

std::vector<float> run_vector_add(LanePattern pattern, const std::vector<float>& a,
                                  const std::vector<float>& b) {
  DeviceBuffer<float> d_a = upload(a);
  DeviceBuffer<float> d_b = upload(b);
  DeviceBuffer<float> c(a.size());
  poison(c.data(), a.size() * sizeof(float));
  launch_vector_add(pattern, d_a.data(), d_b.data(), c.data(), static_cast<std::int64_t>(a.size()));
  return download(c.data(), a.size());
}

}  // namespace coalesce::lab
