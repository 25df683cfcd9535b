// kernels/counters/sampler_thread.h: the decode worker and the hand-over of its samples.
#include "kernels/counters/sampler_thread.h"

#include <stdexcept>
#include <utility>

namespace coalesce {

namespace {
// Finished samples kept for a caller that stops polling (a minimised window): about an hour at 50 ms.
constexpr std::size_t kMaxFinished = 1u << 16;
}  // namespace

ThreadedSampler::ThreadedSampler(std::unique_ptr<HardwareSampler> decoder, double interval_ms,
                                 std::function<void()> on_worker)
    : m_decoder(std::move(decoder)), m_interval(interval_ms), m_on_worker(std::move(on_worker)) {
  if (!m_decoder) throw std::invalid_argument("ThreadedSampler: no decoder");
  m_worker = std::thread([this] { run(); });
}

ThreadedSampler::~ThreadedSampler() {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  m_worker.join();
}

std::vector<HardwareSample> ThreadedSampler::poll() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  if (m_finished.empty() && !m_error.empty()) throw std::runtime_error(m_error);
  std::vector<HardwareSample> out;
  out.swap(m_finished);
  return out;
}

std::optional<Summary> ThreadedSampler::decode_milliseconds() const {
  const std::lock_guard<std::mutex> lock(m_mutex);
  return m_decode_ms;
}

void ThreadedSampler::run() {
  try {
    if (m_on_worker) m_on_worker();
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_wake.wait_for(lock, m_interval, [this] { return m_stop; })) {
      lock.unlock();  // the decode runs unlocked: poll() never waits for it
      const auto start = std::chrono::steady_clock::now();
      std::vector<HardwareSample> samples = m_decoder->poll();
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      lock.lock();
      m_finished.insert(m_finished.end(), samples.begin(), samples.end());
      if (m_finished.size() > kMaxFinished)
        m_finished.erase(m_finished.begin(), m_finished.end() - static_cast<long>(kMaxFinished));
      m_decode_ms.add(ms);
    }
  } catch (const std::exception& error) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_error = error.what();
  } catch (...) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_error = "the decode thread failed with an unknown exception";
  }
}

}  // namespace coalesce
