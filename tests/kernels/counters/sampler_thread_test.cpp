// The decode thread (kernels/counters/sampler_thread.h), with a fake decoder and no GPU: every sample the
// decoder hands out arrives through poll() once and in order; poll() returns while a decode is under way;
// decodes run on the worker, after its start-up hook; a failure comes out of poll() after the samples
// finished before it; the destructor wakes a sleeping worker and destroys the decoder after the join.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernels/counters/sampler_thread.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

using namespace std::chrono_literals;
// Waits that bound a hang, not a speed: a correct sampler is done in microseconds.
constexpr auto kPatience = 60s;

// What the fake decoder saw, shared with the test (the decoder itself belongs to the sampler).
struct DecoderLog {
  std::mutex mutex;
  std::vector<std::thread::id> poll_threads;
  std::thread::id hook_thread;
  bool hook_ran_before_first_poll = false;
  std::atomic<bool> in_poll{false};
  std::atomic<bool> destroyed_during_poll{false};
  std::atomic<bool> destroyed{false};
  std::atomic<bool> threw{false};
  std::thread::id destroyed_on;
};

// Hands out `batches` one per poll; blocks inside a poll while `gate` is closed; throws after the last
// batch when `fail` is set.
class FakeDecoder : public HardwareSampler {
 public:
  FakeDecoder(std::vector<std::vector<HardwareSample>> batches, DecoderLog& log, bool fail = false,
              std::shared_future<void> gate = {})
      : m_batches(std::move(batches)), m_log(log), m_fail(fail), m_gate(std::move(gate)) {}
  ~FakeDecoder() override {
    m_log.destroyed_during_poll = m_log.in_poll.load();
    m_log.destroyed_on = std::this_thread::get_id();
    m_log.destroyed = true;
  }
  std::vector<HardwareSample> poll() override {
    m_log.in_poll = true;
    {
      const std::lock_guard<std::mutex> lock(m_log.mutex);
      m_log.poll_threads.push_back(std::this_thread::get_id());
    }
    if (m_gate.valid()) m_gate.wait();
    std::vector<HardwareSample> out;
    if (m_next < m_batches.size()) {
      out = m_batches[m_next++];
    } else if (m_fail) {
      m_log.in_poll = false;
      m_log.threw = true;
      throw std::runtime_error("CUPTI error: cuptiPmSamplingDecodeData failed");
    }
    m_log.in_poll = false;
    return out;
  }

 private:
  std::vector<std::vector<HardwareSample>> m_batches;
  DecoderLog& m_log;
  bool m_fail;
  std::shared_future<void> m_gate;
  std::size_t m_next = 0;
};

// Random batches (some empty, the last not) of samples numbered by their time.
std::vector<std::vector<HardwareSample>> random_batches(TestRng& rng, int& total) {
  std::vector<std::vector<HardwareSample>> batches(static_cast<std::size_t>(rng.uniform_int(1, 30)));
  total = 0;
  for (std::size_t b = 0; b < batches.size(); ++b)
    for (int i = rng.uniform_int(b + 1 == batches.size() ? 1 : 0, 5); i > 0; --i) {
      ++total;
      batches[b].push_back({static_cast<double>(total), rng.uniform(0.0f, 1e12f), 0.0, 1.9e9, 2.6e9});
    }
  return batches;
}

// Polls until `count` samples arrived or patience ran out.
std::vector<HardwareSample> poll_until(HardwareSampler& sampler, std::size_t count) {
  std::vector<HardwareSample> got;
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (got.size() < count && std::chrono::steady_clock::now() < deadline) {
    const std::vector<HardwareSample> more = sampler.poll();
    got.insert(got.end(), more.begin(), more.end());
    std::this_thread::sleep_for(1ms);
  }
  return got;
}

TEST(SamplerThread, EverySampleArrivesOnceInOrderAndDecodesRunOnTheWorkerAfterItsHook) {
  TestRng rng;
  int total = 0;
  const auto batches = random_batches(rng, total);
  DecoderLog log;
  std::vector<HardwareSample> got;
  {
    ThreadedSampler sampler(std::make_unique<FakeDecoder>(batches, log), rng.uniform(0.1f, 2.0f), [&log] {
      const std::lock_guard<std::mutex> lock(log.mutex);
      log.hook_thread = std::this_thread::get_id();
      log.hook_ran_before_first_poll = log.poll_threads.empty();
    });
    got = poll_until(sampler, static_cast<std::size_t>(total));
    ASSERT_EQ(got.size(), static_cast<std::size_t>(total));
    const std::optional<Summary> decodes = sampler.decode_milliseconds();
    ASSERT_TRUE(decodes.has_value());
    EXPECT_GE(decodes->count, static_cast<long>(batches.size())) << "one entry per decode, the last batch's too";
    EXPECT_GE(decodes->min, 0.0);
  }
  for (int i = 0; i < total; ++i) ASSERT_EQ(got[i].seconds, i + 1.0) << "sample " << i;
  ASSERT_FALSE(log.poll_threads.empty());
  EXPECT_TRUE(log.hook_ran_before_first_poll);
  for (const std::thread::id id : log.poll_threads) {
    EXPECT_NE(id, std::this_thread::get_id()) << "a decode ran on the caller's thread";
    EXPECT_EQ(id, log.hook_thread) << "a decode ran on a thread the hook did not prepare";
  }
  EXPECT_TRUE(log.destroyed);
  EXPECT_FALSE(log.destroyed_during_poll) << "the decoder went away while the worker was in it";
  EXPECT_EQ(log.destroyed_on, std::this_thread::get_id());
}

TEST(SamplerThread, PollReturnsWhileADecodeIsUnderWay) {
  TestRng rng;
  int total = 0;
  const auto batches = random_batches(rng, total);
  DecoderLog log;
  std::promise<void> open_gate;
  ThreadedSampler sampler(std::make_unique<FakeDecoder>(batches, log, false, open_gate.get_future().share()), 0.1);
  // Wait until the worker is stuck inside a decode, then poll from here: nothing finished, nothing waited.
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (!log.in_poll && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(log.in_poll) << "the worker never started a decode";
  auto polled = std::async(std::launch::async, [&sampler] { return sampler.poll(); });
  const bool returned = polled.wait_for(kPatience) == std::future_status::ready;
  open_gate.set_value();  // let the decode finish either way, so the test ends
  ASSERT_TRUE(returned) << "poll() waited for the decode";
  EXPECT_TRUE(polled.get().empty());
  EXPECT_EQ(poll_until(sampler, static_cast<std::size_t>(total)).size(), static_cast<std::size_t>(total));
}

TEST(SamplerThread, AFailureComesOutOfPollAfterTheSamplesFinishedBeforeIt) {
  TestRng rng;
  int total = 0;
  const auto batches = random_batches(rng, total);
  DecoderLog log;
  ThreadedSampler sampler(std::make_unique<FakeDecoder>(batches, log, true), 0.1);
  // Only once the worker has failed: its finished samples must still come first.
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (!log.threw && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(log.threw);
  std::vector<HardwareSample> got;
  std::string error;
  while (error.empty() && std::chrono::steady_clock::now() < deadline) {
    try {
      const std::vector<HardwareSample> more = sampler.poll();
      got.insert(got.end(), more.begin(), more.end());
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(error, "CUPTI error: cuptiPmSamplingDecodeData failed");
  EXPECT_EQ(got.size(), static_cast<std::size_t>(total)) << "every sample before the failure arrived first";
  EXPECT_THROW(sampler.poll(), std::runtime_error) << "a failed sampler keeps saying so";
}

TEST(SamplerThread, DestructionWakesASleepingWorkerInsteadOfWaitingOutTheInterval) {
  TestRng rng;
  // Shared with a detached thread that destroys the sampler: if the destructor hangs, the test fails
  // instead of hanging with it.
  const auto log = std::make_shared<DecoderLog>();
  auto made = std::make_shared<std::unique_ptr<ThreadedSampler>>(std::make_unique<ThreadedSampler>(
      std::make_unique<FakeDecoder>(std::vector<std::vector<HardwareSample>>{}, *log),
      1e9 * rng.uniform(1.0f, 2.0f)));  // weeks
  std::promise<void> done;
  std::future<void> destroyed = done.get_future();
  std::thread([made, log, done = std::move(done)]() mutable {
    made->reset();
    done.set_value();
  }).detach();
  ASSERT_EQ(destroyed.wait_for(kPatience), std::future_status::ready) << "the destructor slept out the interval";
  EXPECT_TRUE(log->poll_threads.empty()) << "no decode before the first interval ended";
  EXPECT_TRUE(log->destroyed);
}

}  // namespace
}  // namespace coalesce::testing
