// Holds a stream until the host lets it go: a one-thread kernel waits on a flag in mapped host memory, so
// the launches queued behind it run back to back once released and their events time the GPU alone, not
// the rate at which the host can launch (bench's calls of a few microseconds; docs/bench-json.md).
#pragma once

#include <cuda_runtime.h>

namespace coalesce {

class LaunchHold {
 public:
  LaunchHold();  // the flag: pinned, mapped host memory
  ~LaunchHold();
  LaunchHold(const LaunchHold&) = delete;
  LaunchHold& operator=(const LaunchHold&) = delete;

  // Queues the waiting kernel on `stream`. It gives up by itself after kTimeoutNs, so a launch queue that
  // fills while held (the host blocks in a launch) cannot hang the program.
  void hold(cudaStream_t stream);
  void release();  // the waiting kernel returns; safe to call when nothing is held

  static constexpr unsigned long long kTimeoutNs = 2'000'000'000ull;

 private:
  unsigned int* m_host = nullptr;    // 0: held, 1: released
  unsigned int* m_device = nullptr;  // the same word as the device sees it
};

}  // namespace coalesce
