// A sampler whose decodes run on a thread of its own (issue 20): a CUPTI decode takes 4-25 ms, which on
// the frame loop cost a 16M run a tenth of its frame rate. The worker decodes every interval; the
// caller's poll() only takes the samples it has finished, under a mutex, and never waits for a decode.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/counters/hardware_counters.h"

namespace coalesce {

class ThreadedSampler final : public HardwareSampler {
 public:
  // `decoder`: a sampler whose poll() decodes; from now on it is called on the worker only, every
  // `interval_ms`. `on_worker` runs first on the worker (the CUPTI sampler makes its device current).
  ThreadedSampler(std::unique_ptr<HardwareSampler> decoder, double interval_ms,
                  std::function<void()> on_worker = {});
  // Wakes and joins the worker, then destroys the decoder on this thread: no call overlaps another.
  ~ThreadedSampler() override;
  ThreadedSampler(const ThreadedSampler&) = delete;
  ThreadedSampler& operator=(const ThreadedSampler&) = delete;

  // The finished samples, oldest first; once the worker has failed and they are taken, its error.
  std::vector<HardwareSample> poll() override;
  std::optional<Summary> decode_milliseconds() const override;

 private:
  void run();

  std::unique_ptr<HardwareSampler> m_decoder;  // first: destroyed after the worker is joined
  std::chrono::duration<double, std::milli> m_interval;
  std::function<void()> m_on_worker;
  mutable std::mutex m_mutex;  // guards everything below but the thread
  std::condition_variable m_wake;
  bool m_stop = false;
  std::vector<HardwareSample> m_finished;
  std::string m_error;  // the worker's failure; empty while it runs
  Summary m_decode_ms;
  std::thread m_worker;  // last: starts once the members it reads exist
};

}  // namespace coalesce
