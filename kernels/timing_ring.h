// A ring of CUDA event pairs, one per timed launch, read back later with cudaEventQuery so the frame loop
// never waits for the GPU. When the ring is full the oldest unread timing is dropped (and counted).
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/cuda_event.h"
#include "sim/kernel_stats.h"

namespace coalesce {

class TimingRing {
 public:
  explicit TimingRing(std::size_t capacity = 512);

  // Brackets one launch: begin() before it, end() after it, on the same stream.
  void begin(cudaStream_t stream);
  void end(cudaStream_t stream, const KernelTiming& what);  // `what.milliseconds` is filled in on poll()

  // Completed timings in launch order; stops at the first launch still running.
  std::vector<KernelTiming> poll();
  std::size_t pending() const { return m_count; }
  std::size_t dropped() const { return m_dropped; }

 private:
  struct Slot {
    CudaEvent start;
    CudaEvent stop;
    KernelTiming timing{};
  };
  std::vector<Slot> m_slots;
  std::size_t m_head = 0;   // next slot to record into
  std::size_t m_count = 0;  // recorded, not yet polled
  std::size_t m_dropped = 0;
};

}  // namespace coalesce
