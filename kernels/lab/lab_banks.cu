// Shared-memory bank conflicts: each lane reads word lane*stride, so stride k (1..32) gives a k-way
// conflict and stride 33 (a +1 padded row) gives none. Long loops make shared memory dominate the time.
#include <cstdio>
#include <string>

#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

__global__ void bank_read(const float* table, float* out, int stride, int iterations) {
  __shared__ float words[kBankTableWords];
  for (int i = threadIdx.x; i < kBankTableWords; i += blockDim.x) words[i] = table[i];
  __syncthreads();
  const int index = ((threadIdx.x % 32) * stride) % kBankTableWords;
  // volatile: every iteration is a real shared load, not one load hoisted out of the loop.
  volatile const float* w = words;
  float a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // four chains, so the adds do not hide the loads' throughput
  for (int it = 0; it < iterations; it += 4) {
    a0 += w[index];
    a1 += w[index];
    a2 += w[index];
    a3 += w[index];
  }
  out[blockIdx.x * std::size_t(blockDim.x) + threadIdx.x] = (a0 + a1) + (a2 + a3);
}

void launch_banks(const float* table, float* out, int threads, int stride, int iterations) {
  launch(bank_read, LaunchGrid{threads / kBlock, kBlock}, kLabStream, table, out, stride, iterations);
}

// Table words are small integers, so iterations * word is exact and the check can be bit-exact.
__host__ __device__ inline float table_word(std::uint32_t seed, int i) {
  return float(lab_hash(seed, i) % 16);
}

__global__ void fill_table(float* table, std::uint32_t seed) {
  for (int i = threadIdx.x; i < kBankTableWords; i += blockDim.x) table[i] = table_word(seed, i);
}

struct BankExpected {
  std::uint32_t seed;
  int stride, iterations;
  __device__ float operator()(std::int64_t t) const {
    return float(iterations) * table_word(seed, (int(t % 32) * stride) % kBankTableWords);
  }
};

std::string bank_article(int stride) {
  if (stride == 1) return "art. 003: no conflict, 1 cycle per request";
  if (stride == 2) return "art. 002: stride 2 = 2-way (lanes 0 and 16 share a bank)";
  if (stride == 32) return "art. 003/004: 32-way, 32 cycles instead of 1";
  if (stride == 33) return "art. 003: +1 padding removes the conflict (transpose 380 -> 1590 GB/s, A100)";
  return "art. 003: N-way conflict = N serialized cycles";
}

constexpr int kIterations = 4096;

}  // namespace

std::vector<LabRow> run_banks_experiment(const LabContext& context) {
  int device = 0, sms = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int threads = sms * 8 * kBlock;  // 2048 threads per SM: full occupancy, the load unit saturated
  DeviceBuffer<float> table(kBankTableWords), out(threads);
  launch(fill_table, LaunchGrid{1, kBlock}, kLabStream, table.data(), context.settings.seed);
  std::vector<LabRow> rows;
  double one_way_ms = 0;
  for (int stride : {1, 2, 4, 8, 16, 32, 33}) {
    poison(out.data(), threads * sizeof(float));
    launch_banks(table.data(), out.data(), threads, stride, kIterations);
    const bool ok =
        device_check(out.data(), threads, BankExpected{context.settings.seed, stride, kIterations});
    const TimedRow ms = timed_row(
        [&] { launch_banks(table.data(), out.data(), threads, stride, kIterations); }, context);
    if (stride == 1) one_way_ms = ms;
    const std::string name = stride == 33
                                 ? "stride 32 +1 pad (33)"
                                 : std::to_string(stride) + "-way (stride " + std::to_string(stride) + ")";
    LabRow row = make_row(context, "banks", name, ms, double(threads) * kIterations * 4,
                          "threads x iterations x 4 B of shared-memory reads", bank_article(stride), ok);
    row.pct_copy = -1;  // shared memory: the DRAM copy ceiling does not apply
    char note[64];
    std::snprintf(note, sizeof(note), "x%.2f time vs 1-way", one_way_ms > 0 ? ms / one_way_ms : 0.0);
    row.note = note;
    rows.push_back(row);
  }
  return rows;
}

std::vector<float> run_bank_kernel(int stride_words, const std::vector<float>& table, int threads,
                                   int iterations) {
  DeviceBuffer<float> d_table = upload(table);
  DeviceBuffer<float> out(threads);
  poison(out.data(), threads * sizeof(float));
  launch_banks(d_table.data(), out.data(), threads, stride_words, iterations);
  return download(out.data(), threads);
}

}  // namespace coalesce::lab
