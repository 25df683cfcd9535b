// run_in_child (sim/child_decode.h): random payloads come back whole; a child killed by a signal, one that
// exits without a result, one that sends a length past its bound, too little or too much, and a parent that
// throws each end in the failure they are, quickly; stop signals meanwhile are retried here and ignored
// there; forks while other threads allocate. No descriptor or child is ever left behind.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "sim/child_decode.h"
#include "tests/support/child_leaks.h"
#include "tests/support/scratch_files.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using Clock = std::chrono::steady_clock;

class ChildDecode : public ::testing::Test {
 protected:
  void SetUp() override { m_fds = testing::open_fd_count(); }
  void TearDown() override {
    EXPECT_EQ(testing::open_fd_count(), m_fds) << "a descriptor was left open";
    EXPECT_TRUE(testing::no_child_left()) << "a child was left unreaped";
  }

  // run_in_child with `child`, the parent reading one counted text of at most `max` bytes; the text, or
  // what ChildFailed said.
  static std::string outcome(const std::function<void(ChildWriter&)>& child, std::size_t max = 1 << 24,
                             int* signal = nullptr) {
    std::string text;
    try {
      run_in_child(child, [&](ChildReader& reader) { text = reader.text(max, "a text of length"); });
    } catch (const ChildFailed& e) {
      if (signal) *signal = e.signal();
      return std::string("failed: ") + e.what();
    }
    return text;
  }

  testing::TestRng m_rng;
  int m_fds = 0;
};

TEST_F(ChildDecode, RandomPayloadsComeBackWhole) {
  for (int round = 0; round < 8; ++round) {
    // Up to 4 MiB: several times the pipe's capacity, so both ends wait for each other.
    const std::string payload = testing::random_bytes(m_rng, m_rng.uniform_int(0, 4 << 20));
    EXPECT_EQ(outcome([&](ChildWriter& w) { w.text(payload); }), payload) << payload.size() << " bytes";
  }
}

TEST_F(ChildDecode, AChildKilledBySignalIsNamed) {
  const int signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
  const int chosen = signals[m_rng.uniform_int(0, 4)];
  const std::string half = testing::random_bytes(m_rng, m_rng.uniform_int(0, 100000));
  int signal = 0;
  const std::string what = outcome(
      [&](ChildWriter& w) {
        w.u64(2 * half.size() + 1);
        w.bytes(half.data(), half.size());
        ::signal(chosen, SIG_DFL);  // past the sanitizers' handlers, which would report and exit instead
        ::raise(chosen);
      },
      1 << 24, &signal);
  EXPECT_EQ(what, "failed: was killed by " + signal_name(chosen));
  EXPECT_EQ(signal, chosen);
}

TEST_F(ChildDecode, AChildExitingWithoutAResultGivesItsStatus) {
  const int status = m_rng.uniform_int(1, 120);
  EXPECT_EQ(outcome([&](ChildWriter&) { ::_exit(status); }),
            "failed: exited with status " + std::to_string(status) + " without a result");
  const std::string thrown = outcome([&](ChildWriter&) { throw std::runtime_error("not reported"); });
  EXPECT_EQ(thrown.rfind("failed: exited with status ", 0), 0u) << thrown;
  EXPECT_NE(thrown.find(" without a result"), std::string::npos) << thrown;
}

// A length past its bound ends the child at once: it sleeps after sending it, and the call returns well
// before that sleep would end.
TEST_F(ChildDecode, ALengthPastItsBoundIsRefusedAndTheChildKilled) {
  const std::size_t max = static_cast<std::size_t>(m_rng.uniform_int(1, 1 << 20));
  const std::uint64_t sent = max + 1 + (m_rng.engine()() >> 1);
  const auto start = Clock::now();
  EXPECT_EQ(outcome(
                [&](ChildWriter& w) {
                  w.u64(sent);
                  ::sleep(60);
                },
                max),
            "failed: sent a malformed result: a text of length " + std::to_string(sent) + ", more than " +
                std::to_string(max));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
}

TEST_F(ChildDecode, TooLittleOrTooMuchIsMalformed) {
  const std::string payload = testing::random_bytes(m_rng, m_rng.uniform_int(1, 100000));
  EXPECT_EQ(outcome([&](ChildWriter& w) {
              w.u64(payload.size() + 1);
              w.bytes(payload.data(), payload.size());
            }),
            "failed: sent a malformed result: cut short");
  EXPECT_EQ(outcome([&](ChildWriter& w) {
              w.text(payload);
              w.bytes(payload.data(), payload.size());
              ::sleep(60);
            }),
            "failed: sent a malformed result: bytes after its end");
}

// The parent's own failure (out of memory) propagates, once the child, still running, is killed and reaped.
TEST_F(ChildDecode, AnExceptionOfTheParentKillsAndReapsTheChild) {
  const auto start = Clock::now();
  EXPECT_THROW(run_in_child([](ChildWriter&) { ::sleep(60); }, [](ChildReader&) { throw std::bad_alloc(); }),
               std::bad_alloc);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
}

// No descriptor left for the pipe: ChildNotStarted saying so, and nothing started.
TEST_F(ChildDecode, NoDescriptorLeftIsChildNotStarted) {
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
  const int lowest_free = ::dup(0);
  ASSERT_GE(lowest_free, 0);
  ::close(lowest_free);
  rlimit none = before;
  none.rlim_cur = static_cast<rlim_t>(lowest_free);  // every descriptor below it is taken
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &none), 0);
  bool started = false;
  std::string what;
  try {
    run_in_child([](ChildWriter&) {}, [&](ChildReader&) { started = true; });
  } catch (const ChildNotStarted& e) {
    // The limit back first: the sanitizers' own checks (a virtual call's) need a descriptor.
    ::setrlimit(RLIMIT_NOFILE, &before);
    what = e.what();
  }
  ::setrlimit(RLIMIT_NOFILE, &before);
  EXPECT_EQ(what, "pipe: Too many open files");
  EXPECT_FALSE(started);
}

std::atomic<int> g_stops_seen{0};  // written by the test's handler only
void note_stop(int) {
  g_stops_seen.fetch_add(1);
}

// As the app's handler does, SIGTERM only sets a flag here, installed without SA_RESTART so that every one
// interrupts the parent's read and waitpid. The child finds the stop signals ignored, and survives its own.
TEST_F(ChildDecode, StopSignalsAreRetriedHereAndIgnoredThere) {
  struct sigaction handler {
  }, before{};
  handler.sa_handler = note_stop;
  sigemptyset(&handler.sa_mask);
  ASSERT_EQ(::sigaction(SIGTERM, &handler, &before), 0);
  g_stops_seen = 0;
  const std::string payload = testing::random_bytes(m_rng, m_rng.uniform_int(1, 3 << 20));
  std::atomic<bool> done{false};
  const pthread_t parent = ::pthread_self();
  std::thread stopper([&] {
    while (!done) {
      ::pthread_kill(parent, SIGTERM);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  const std::string got = outcome([&](ChildWriter& w) {
    std::string ignored;
    for (int s : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction now {};
      ::sigaction(s, nullptr, &now);
      ignored += now.sa_handler == SIG_IGN ? "y" : "n";
    }
    ::raise(SIGTERM);
    ::usleep(300000);  // the parent waits in read meanwhile, interrupted every 5 ms
    w.text(ignored + payload);
  });
  done = true;
  stopper.join();
  ::sigaction(SIGTERM, &before, nullptr);
  EXPECT_EQ(got.substr(0, 3), "yyy") << "the child must ignore SIGINT, SIGTERM and SIGHUP";
  EXPECT_TRUE(got.size() == payload.size() + 3 && got.compare(3, payload.size(), payload) == 0)
      << "the payload did not come back whole";
  EXPECT_GT(g_stops_seen.load(), 10) << "the parent was hardly interrupted";
}

// AddressSanitizer's allocator: clang 14's takes no lock around fork, so a child can wait forever on one
// another thread held at the fork (seen: GetFromAllocator, below operator new, in the child).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COALESCE_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(COALESCE_TEST_ASAN)
constexpr bool kForkSafeAllocator = false;
#else
constexpr bool kForkSafeAllocator = true;
#endif

// glibc's malloc takes its locks around fork: a child that allocates while other threads of the parent
// allocate and free all the time must never wait forever on a lock one of them held.
TEST_F(ChildDecode, ForksWhileOtherThreadsAllocate) {
  if (!kForkSafeAllocator)
    GTEST_SKIP() << "skipped: AddressSanitizer's allocator (clang 14) is not fork-safe while other threads "
                    "allocate; glibc's malloc, in every other build, is";
  std::atomic<bool> done{false};
  std::vector<std::thread> busy;
  for (int t = 0; t < 3; ++t)
    busy.emplace_back([&] {
      while (!done) {
        std::vector<std::string> held;
        for (int i = 0; i < 64; ++i) held.emplace_back(static_cast<std::size_t>(16 + i * 97), 'x');
      }
    });
  for (int round = 0; round < 40; ++round) {
    const int size = m_rng.uniform_int(1, 1 << 20);
    const std::string got = outcome([&](ChildWriter& w) {
      std::vector<std::string> made(64, std::string(static_cast<std::size_t>(size) / 64 + 1, 'y'));
      w.text(made[0] + made[63]);
    });
    ASSERT_EQ(got.size(), 2 * (static_cast<std::size_t>(size) / 64 + 1)) << "round " << round;
  }
  done = true;
  for (std::thread& t : busy) t.join();
}

}  // namespace
}  // namespace coalesce
