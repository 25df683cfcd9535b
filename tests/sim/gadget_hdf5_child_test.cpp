// The GADGET reader's two processes (sim/gadget_hdf5_child.h): contents sent by the child come back exactly;
// a child that crashes, exits or is killed, sends values no reader accepts, an error not about the file, or
// lengths changed in its stream, each ends in one line naming the file, with no descriptor or child left.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "sim/gadget_hdf5.h"
#include "sim/gadget_hdf5_child.h"
#include "sim/limits.h"
#include "tests/support/child_leaks.h"
#include "tests/support/scratch_files.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

const std::string kName = "snap.hdf5";

class GadgetHdf5Child : public ::testing::Test {
 protected:
  void SetUp() override { m_fds = testing::open_fd_count(); }
  void TearDown() override {
    EXPECT_EQ(testing::open_fd_count(), m_fds) << "a descriptor was left open";
    EXPECT_TRUE(testing::no_child_left()) << "a child was left unreaped";
  }

  // Random contents as the decoder returns them, every field set.
  StateContents random_contents() {
    StateContents c;
    std::size_t inexact = 0;
    c.records = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 20000), 0.5, inexact);
    for (std::size_t i = 0; i < c.records.size(); ++i) c.ids.push_back(m_rng.engine()());
    c.held_doubles = m_rng.uniform_int(0, 1);
    c.ids_from_file = m_rng.uniform_int(0, 1);
    c.time = m_rng.uniform(-10.0f, 10.0f) / 3.0;
    if (m_rng.uniform_int(0, 1)) {
      PhysicalUnits units;
      units.length_in_cm = kKpcInCm * m_rng.uniform(0.1f, 10.0f);
      units.mass_in_g = kSolarMassInG * m_rng.uniform(0.1f, 10.0f);
      units.length_text = exact_text(units.length_in_cm) + " cm";
      units.mass_text = exact_text(units.mass_in_g) + " g";
      c.units = units;
    }
    c.ignored = testing::random_bytes(m_rng, m_rng.uniform_int(0, 200));
    c.converted = testing::random_bytes(m_rng, m_rng.uniform_int(0, 200));
    return c;
  }

  // What send_outcome writes for `decoded`, captured in a memory file of this process.
  static std::string sent_bytes(const StateContents& decoded) {
    const int fd = ::memfd_create("outcome", MFD_CLOEXEC);
    if (fd < 0) return {};
    gadget::send_outcome(ChildWriter(fd), [&] { return decoded; });
    std::string bytes(static_cast<std::size_t>(::lseek(fd, 0, SEEK_CUR)), '\0');
    const bool whole = ::pread(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size());
    ::close(fd);
    return whole ? bytes : std::string();
  }

  // decode_in_child with `child`: the one-line error's text, or "" when it returned contents.
  static std::string refusal(const std::function<void(ChildWriter&)>& child) {
    try {
      gadget::decode_in_child(kName, child);
    } catch (const Hdf5Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(kName + ": ", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      return what;
    }
    return "";
  }

  // The refusal of contents sent as send_outcome sends them.
  static std::string refusal_of(const StateContents& sent) {
    return refusal([&](ChildWriter& w) { gadget::send_outcome(w, [&] { return sent; }); });
  }

  testing::TestRng m_rng;
  int m_fds = 0;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(GadgetHdf5Child, ContentsComeBackExactly) {
  for (int round = 0; round < 4; ++round) {
    const StateContents sent = random_contents();
    const StateContents got = gadget::decode_in_child(
        kName, [&](ChildWriter& w) { gadget::send_outcome(w, [&] { return sent; }); });
    ASSERT_EQ(got.records.size(), sent.records.size());
    EXPECT_EQ(std::memcmp(got.records.data(), sent.records.data(), sent.records.size() * sizeof(ParticleF64)),
              0);
    EXPECT_EQ(got.ids, sent.ids);
    EXPECT_EQ(got.held_doubles, sent.held_doubles);
    EXPECT_EQ(got.ids_from_file, sent.ids_from_file);
    EXPECT_EQ(got.time, sent.time);
    ASSERT_EQ(got.units.has_value(), sent.units.has_value());
    if (sent.units) {
      EXPECT_EQ(got.units->length_in_cm, sent.units->length_in_cm);
      EXPECT_EQ(got.units->mass_in_g, sent.units->mass_in_g);
      EXPECT_EQ(got.units->length_text, sent.units->length_text);
      EXPECT_EQ(got.units->mass_text, sent.units->mass_text);
    }
    EXPECT_EQ(got.ignored, sent.ignored);
    EXPECT_EQ(got.converted, sent.converted);
    EXPECT_EQ(got.name, kName);
    EXPECT_EQ(got.format, "gadget-hdf5");
  }
}

TEST_F(GadgetHdf5Child, ADeadChildIsOneLineNamingHowItEnded) {
  const std::string half = sent_bytes(random_contents());
  const std::string crashed = refusal([&](ChildWriter& w) {
    w.bytes(half.data(), static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(half.size()) - 1)));
    ::signal(SIGSEGV, SIG_DFL);  // past the sanitizers' handler, which would report and exit instead
    ::raise(SIGSEGV);
  });
  EXPECT_TRUE(contains(crashed,
                       "libhdf5 failed while decoding the file (the decoding process was killed by "
                       "SIGSEGV); the file is damaged or not a GADGET snapshot libhdf5 can read"))
      << crashed;
  const int status = m_rng.uniform_int(1, 120);
  const std::string exited = refusal([&](ChildWriter&) { ::_exit(status); });
  EXPECT_TRUE(contains(
      exited, "(the decoding process exited with status " + std::to_string(status) + " without a result)"))
      << exited;
  // The out-of-memory killer's signal is the machine's state, not the file's: a runtime failure (exit 1).
  try {
    gadget::decode_in_child(kName, [](ChildWriter&) { ::raise(SIGKILL); });
    ADD_FAILURE() << "a killed child gave contents";
  } catch (const RuntimeFailure& e) {
    EXPECT_TRUE(contains(e.what(), "killed by SIGKILL")) << e.what();
  }
}

// What the decoder itself refuses comes back as the same kind of error with the same line.
TEST_F(GadgetHdf5Child, TheDecodersErrorsComeBackAsTheyWereThrown) {
  const std::string line = kName + ": " + testing::random_bytes(m_rng, m_rng.uniform_int(0, 100));
  const auto thrower = [&](int kind) {
    return [&, kind](ChildWriter& w) {
      gadget::send_outcome(w, [&]() -> StateContents {
        if (kind == 0) throw Hdf5Error(line);
        if (kind == 1) throw RuntimeFailure(line);
        throw std::logic_error(line);
      });
    };
  };
  try {
    gadget::decode_in_child(kName, thrower(0));
    ADD_FAILURE();
  } catch (const Hdf5Error& e) {
    EXPECT_EQ(std::string(e.what()), Hdf5Error(line).what());
  }
  try {
    gadget::decode_in_child(kName, thrower(1));
    ADD_FAILURE();
  } catch (const RuntimeFailure& e) {
    EXPECT_EQ(std::string(e.what()), RuntimeFailure(line).what());
  }
  EXPECT_THROW(gadget::decode_in_child(kName, thrower(2)), std::logic_error);
  const std::string other = refusal([](ChildWriter& w) {
    gadget::send_outcome(w,
                         []() -> StateContents { throw Hdf5Error("other.hdf5: a line about another file"); });
  });
  EXPECT_TRUE(contains(other, "sent a malformed result: a message not about the file")) << other;
}

// Values no reader accepts are refused again here, whoever sent them.
TEST_F(GadgetHdf5Child, ValuesAreCheckedAgain) {
  StateContents c = random_contents();
  const std::size_t k =
      static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(c.records.size()) - 1));
  c.records[k].vy = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(contains(refusal_of(c), "sent a malformed result: non-finite value (nan) at particle " +
                                          std::to_string(k) + ", field vy"));
  c = random_contents();
  c.records[k % c.records.size()].mass = -m_rng.uniform(1.0f, 2.0f);
  EXPECT_TRUE(contains(refusal_of(c), "at particle " + std::to_string(k % c.records.size()) + "; expected"));
  c = random_contents();
  c.ids.pop_back();
  EXPECT_TRUE(contains(refusal_of(c), "sent a malformed result: " + std::to_string(c.ids.size()) +
                                          " IDs for " + std::to_string(c.records.size()) + " records"));
  c = random_contents();
  c.records.clear(), c.ids.clear();
  EXPECT_TRUE(contains(refusal_of(c), "sent a malformed result: no records"));
  c = random_contents();
  c.time = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(contains(refusal_of(c), "sent a malformed result: a time of inf"));
  c = random_contents();
  c.units = PhysicalUnits{};
  EXPECT_TRUE(contains(refusal_of(c), "sent a malformed result: a length unit of 0"));
}

// The record count in the stream changed to past kMaxParticles, to one more (the stream is then short) or
// one less (bytes left over), or every byte after the tag random: each is refused in one line.
TEST_F(GadgetHdf5Child, ChangedLengthsInTheStreamAreRefused) {
  StateContents c = random_contents();
  c.units.reset(), c.ignored.clear(), c.converted.clear();
  const std::string sent = sent_bytes(c);
  // tag, flags, time, two empty texts' lengths, then the record count.
  const std::size_t at = 5 * sizeof(std::uint64_t);
  std::uint64_t count = 0;
  ASSERT_GE(sent.size(), at + sizeof count);
  std::memcpy(&count, sent.data() + at, sizeof count);
  ASSERT_EQ(count, c.records.size()) << "the stream's layout changed: update this test";
  const auto sending = [&](std::uint64_t changed) {
    return [&, changed](ChildWriter& w) {
      std::string bytes = sent;
      std::memcpy(bytes.data() + at, &changed, sizeof changed);
      w.bytes(bytes.data(), bytes.size());
    };
  };
  const std::uint64_t huge = static_cast<std::uint64_t>(kMaxParticles) + 1 + (m_rng.engine()() >> 2);
  EXPECT_TRUE(contains(refusal(sending(huge)), "sent a malformed result: a record count of " +
                                                   std::to_string(huge) + ", more than " +
                                                   std::to_string(kMaxParticles)));
  EXPECT_TRUE(contains(refusal(sending(count + 1)), "sent a malformed result:"));
  if (count > 1) {
    EXPECT_TRUE(contains(refusal(sending(count - 1)), "sent a malformed result:"));
  }
  for (int round = 0; round < 20; ++round) {
    const std::string garbage = sent.substr(0, 8) + testing::random_bytes(m_rng, m_rng.uniform_int(0, 200));
    const std::string what = refusal([&](ChildWriter& w) { w.bytes(garbage.data(), garbage.size()); });
    EXPECT_TRUE(contains(what, "sent a malformed result:")) << what;
  }
}

}  // namespace
}  // namespace coalesce
