// TimingRing: event pairs recorded around launches, harvested without blocking.
#include "kernels/timing_ring.h"

namespace coalesce {

TimingRing::TimingRing(std::size_t capacity) : m_slots(capacity > 0 ? capacity : 1) {}

void TimingRing::begin(cudaStream_t stream) {
  if (m_count == m_slots.size()) {  // full: give up the oldest unread timing rather than wait for it
    --m_count;
    ++m_dropped;
  }
  m_slots[m_head].start.record(stream);
}

void TimingRing::end(cudaStream_t stream, const KernelTiming& what) {
  Slot& slot = m_slots[m_head];
  slot.stop.record(stream);
  slot.timing = what;
  m_head = (m_head + 1) % m_slots.size();
  ++m_count;
}

std::vector<KernelTiming> TimingRing::poll() {
  std::vector<KernelTiming> out;
  while (m_count > 0) {
    Slot& slot = m_slots[(m_head + m_slots.size() - m_count) % m_slots.size()];
    const cudaError_t state = cudaEventQuery(slot.stop.get());
    if (state == cudaErrorNotReady) {
      // "Not ready" is a status, not a failure: keep it out of the next launch check.
      if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
      break;
    }
    COALESCE_CUDA_CHECK(state);
    slot.timing.milliseconds = slot.stop.elapsed_since(slot.start);
    out.push_back(slot.timing);
    --m_count;
  }
  return out;
}

}  // namespace coalesce
