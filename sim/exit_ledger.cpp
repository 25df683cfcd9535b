// The exit ledger (see exit_ledger.h): a fixed table a signal handler can read without allocating or locking.
#include "sim/exit_ledger.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstring>


namespace coalesce::exit_ledger {
namespace {

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<long long>::is_always_lock_free,
              "the handler may only touch lock-free atomics");

constexpr int kSlots = 48;
constexpr int kPlannedSlots = 32;  // planning stops here, so a write in progress always finds a slot
constexpr std::size_t kPathBytes = PATH_MAX + 64;
constexpr std::size_t kLabelBytes = 640;

enum Use : int { kFree, kFilling, kPlanned, kNote, kTransient };

struct Entry {
  std::atomic<int> use{kFree};
  // Changed only inside critical sections, which the handler waits for.
  volatile sig_atomic_t written = 0;
  volatile sig_atomic_t existed = 0;
  char label[kLabelBytes] = {};
  char target[kPathBytes] = {};
  char temporary[kPathBytes] = {};
};

struct Ledger {
  std::atomic<int> stop_signal{0};
  std::atomic<long long> first_handled_ns{0};  // when the first stop signal's handler ended; 0 until then
  std::atomic<int> quiet{0};
  std::atomic<int> critical{0};  // critical sections in progress, in any thread
  std::atomic<int> closing{0};   // a handler is ending the run: no new section may start
  Entry entries[kSlots];
};

// The one process-wide mutable state (see exit_ledger.h for why).
Ledger g_ledger;

void copy_text(char* to, std::size_t capacity, std::string_view text) {
  const std::size_t n = text.size() < capacity ? text.size() : capacity - 1;
  std::memcpy(to, text.data(), n);
  to[n] = '\0';
}

// A free slot, marked kFilling, or -1 when `limit` slots are in use.
int claim_slot(int limit) {
  int used = 0;
  for (const Entry& e : g_ledger.entries) used += e.use.load() != kFree;
  if (used >= limit) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_ledger.entries[i].use.compare_exchange_strong(expected, kFilling)) return i;
  }
  return -1;
}

int planned_slot_of(const std::string& target) {
  for (int i = 0; i < kSlots; ++i)
    if (g_ledger.entries[i].use.load() == kPlanned && target == g_ledger.entries[i].target) return i;
  return -1;
}

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : kStopSignals) sigaddset(&set, signal);
  return set;
}

// A bounded string builder that only copies bytes (async-signal-safe).
struct Line {
  char bytes[16384];
  std::size_t size = 0;
  void add(const char* text) {
    while (*text && size + 2 < sizeof bytes) bytes[size++] = *text++;  // the newline always fits
  }
};

}  // namespace

int stop_signal() {
  return g_ledger.stop_signal.load();
}

bool note_stop_signal(int signal) {
  int expected = 0;
  return g_ledger.stop_signal.compare_exchange_strong(expected, signal);
}

void note_first_stop_handled(long long now_ns) {
  g_ledger.first_handled_ns.store(now_ns);
}

long long since_first_stop_handled(long long now_ns) {
  const long long first = g_ledger.first_handled_ns.load();
  return first == 0 || now_ns < first ? 0 : now_ns - first;
}

void reset_stop_signal() {
  g_ledger.first_handled_ns.store(0);
  g_ledger.stop_signal.store(0);
}

void set_quiet() {
  g_ledger.quiet.store(1);
}

bool quiet() {
  return g_ledger.quiet.load() != 0;
}

void plan_output(const std::string& target, std::string_view label) {
  if (target.empty() || planned_slot_of(target) >= 0) return;
  if (target.size() >= kPathBytes) return;
  const int slot = claim_slot(kPlannedSlots);
  if (slot < 0) return;
  Entry& e = g_ledger.entries[slot];
  struct stat st {};
  e.existed = ::stat(target.c_str(), &st) == 0;
  e.written = 0;
  copy_text(e.label, kLabelBytes, label);
  copy_text(e.target, kPathBytes, target);
  e.temporary[0] = '\0';
  e.use.store(kPlanned);
}

void plan_note(std::string_view text) {
  for (const Entry& e : g_ledger.entries)
    if (e.use.load() == kNote && text == e.label) return;
  const int slot = claim_slot(kPlannedSlots);
  if (slot < 0) return;
  Entry& e = g_ledger.entries[slot];
  copy_text(e.label, kLabelBytes, text);
  e.target[0] = e.temporary[0] = '\0';
  e.use.store(kNote);
}

CriticalSection::CriticalSection() {
  const sigset_t stops = stop_set();
  ::pthread_sigmask(SIG_BLOCK, &stops, &m_previous);
  g_ledger.critical.fetch_add(1);
  if (g_ledger.closing.load() != 0) {
    // A handler in another thread is ending the process and has already read the ledger.
    g_ledger.critical.fetch_sub(1);
    for (;;) ::pause();
  }
}

CriticalSection::~CriticalSection() {
  g_ledger.critical.fetch_sub(1);
  ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
}

LedgerWrite::LedgerWrite(const std::string& target) {
  m_slot = planned_slot_of(target);
  if (m_slot >= 0 || target.size() >= kPathBytes) return;
  m_slot = claim_slot(kSlots);
  if (m_slot < 0) return;
  m_transient = true;
  Entry& e = g_ledger.entries[m_slot];
  e.existed = 0;
  e.written = 0;
  e.label[0] = '\0';
  copy_text(e.target, kPathBytes, target);
  e.temporary[0] = '\0';
  e.use.store(kTransient);
}

LedgerWrite::~LedgerWrite() {
  if (m_slot < 0) return;
  const CriticalSection section;
  g_ledger.entries[m_slot].temporary[0] = '\0';
  if (m_transient) g_ledger.entries[m_slot].use.store(kFree);
}

void LedgerWrite::set_temporary(const std::string& path) {
  if (m_slot < 0) return;
  Entry& e = g_ledger.entries[m_slot];
  copy_text(e.temporary, kPathBytes, path.size() < kPathBytes ? path : std::string());
  if (!path.empty()) e.written = 0;  // a new write: the file is not this one's until the rename
}

void LedgerWrite::set_existed(bool existed) {
  if (m_slot >= 0) g_ledger.entries[m_slot].existed = existed;
}

void LedgerWrite::mark_written() {
  if (m_slot < 0) return;
  Entry& e = g_ledger.entries[m_slot];
  e.temporary[0] = '\0';
  e.written = 1;
}

void abandon_outputs(int fd, const char* prefix) {
  g_ledger.closing.store(1);
  const timespec millisecond{0, 1000000};
  for (int waited = 0; g_ledger.critical.load() != 0 && waited < 3000; ++waited) ::nanosleep(&millisecond, nullptr);
  Line line;
  line.add(prefix);
  bool named = false;
  for (Entry& e : g_ledger.entries) {
    const int use = e.use.load();
    if ((use == kPlanned || use == kTransient) && e.temporary[0] != '\0') ::unlink(e.temporary);
    if (use != kPlanned && use != kNote) continue;
    line.add(named ? "; " : ": ");
    named = true;
    line.add(e.label);
    if (use == kNote) continue;
    line.add(e.written ? " was written"
                       : e.existed ? " was not written (the previous file is untouched)" : " was not written");
  }
  if (!named) line.add(" (this run writes no file)");
  line.bytes[line.size++] = '\n';
  if (quiet()) return;
  const ssize_t ignored = ::write(fd, line.bytes, line.size);
  (void)ignored;
}

}  // namespace coalesce::exit_ledger
