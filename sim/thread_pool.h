// A small owned pool of worker threads that splits an index range into one contiguous chunk per thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace coalesce {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // threads >= 1; the calling thread does chunk 0
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int thread_count() const { return m_threads; }

  // Calls fn(begin, end) over [0, n) split into thread_count() contiguous chunks; returns when all are done.
  // Each index is handled by exactly one call, so per-index results do not depend on the thread count.
  void parallel_for(int n, const std::function<void(int, int)>& fn);

 private:
  void worker(int index);

  int m_threads;
  std::vector<std::thread> m_workers;
  std::mutex m_mutex;
  std::condition_variable m_start;
  std::condition_variable m_done;
  const std::function<void(int, int)>* m_task = nullptr;
  int m_n = 0;
  std::uint64_t m_generation = 0;
  int m_pending = 0;
  bool m_stop = false;
};

}  // namespace coalesce
