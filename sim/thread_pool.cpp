// ThreadPool: persistent workers woken once per parallel_for, so small steps do not pay thread creation.
#include "sim/thread_pool.h"

#include <algorithm>

namespace coalesce {

namespace {
// Chunk `index` of `chunks` over [0, n): sizes differ by at most one.
std::pair<int, int> chunk_range(int n, int chunks, int index) {
  const long long begin = static_cast<long long>(n) * index / chunks;
  const long long end = static_cast<long long>(n) * (index + 1) / chunks;
  return {static_cast<int>(begin), static_cast<int>(end)};
}
}  // namespace

ThreadPool::ThreadPool(int threads) : m_threads(std::max(1, threads)) {
  for (int i = 1; i < m_threads; ++i) m_workers.emplace_back([this, i] { worker(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_start.notify_all();
  for (std::thread& t : m_workers) t.join();
}

void ThreadPool::parallel_for(int n, const std::function<void(int, int)>& fn) {
  if (n <= 0) return;
  if (m_threads == 1) {
    fn(0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_task = &fn;
    m_n = n;
    m_pending = m_threads - 1;
    ++m_generation;
  }
  m_start.notify_all();
  const auto [begin, end] = chunk_range(n, m_threads, 0);
  if (begin < end) fn(begin, end);
  std::unique_lock<std::mutex> lock(m_mutex);
  m_done.wait(lock, [this] { return m_pending == 0; });
  m_task = nullptr;
}

void ThreadPool::worker(int index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(int, int)>* task = nullptr;
    int n = 0;
    {
      std::unique_lock<std::mutex> lock(m_mutex);
      m_start.wait(lock, [&] { return m_stop || m_generation != seen; });
      if (m_stop) return;
      seen = m_generation;
      task = m_task;
      n = m_n;
    }
    const auto [begin, end] = chunk_range(n, m_threads, index);
    if (begin < end) (*task)(begin, end);
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      --m_pending;
    }
    m_done.notify_one();
  }
}

}  // namespace coalesce
