#include "app/ranks/rank_stepper.h"

#include <chrono>
#include <vector>

#include "app/ranks/rank_agreement.h"
#include "sim/body_range.h"
#include "sim/force_method.h"

namespace coalesce {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The vote that carries both a failure and a stop signal: a failure outranks any signal.
constexpr long long kFailureVote = 1LL << 32;

}  // namespace

RankStepper::RankStepper(Backend& backend, Ranks& ranks)
    : m_backend(backend), m_ranks(ranks), m_slices(slice_bodies(backend.particle_count(), ranks.size())) {}

int RankStepper::step(const SimParams& params, double time, int local_signal) {
  if (!m_ranks.distributed()) {
    m_backend.step(params, time);
    return local_signal;
  }
  const int begin = m_slices.begin(m_ranks.rank());
  const int end = m_slices.end(m_ranks.rank());
  const bool exchange = method_info(m_backend.force_method()).sources_move;
  const auto start = std::chrono::steady_clock::now();
  const LocalOutcome mine = capture_outcome([&] {
    m_backend.step_range(params, time, begin, end);
    if (!exchange) return;
    if (!m_exchange) m_exchange = m_backend.rank_exchange().make_exchange_buffer();
    m_backend.rank_exchange().export_sources(begin, end, *m_exchange);
  });
  m_compute_s += seconds_since(start);
  // One collective says whether to go on: the first failing rank, else the largest stop signal.
  const long long vote = m_ranks.max_over_ranks(mine.failed() ? kFailureVote + failure_vote(m_ranks, mine)
                                                              : local_signal);
  if (vote >= kFailureVote) stop_together(m_ranks, first_failed_rank(m_ranks, vote - kFailureVote), mine);
  if (exchange) {
    const auto sent = std::chrono::steady_clock::now();
    agreed(m_ranks, [&] {
      m_ranks.all_gather(m_exchange->data(), exchange_bytes(m_backend.precision(), 1), m_slices.first,
                         m_slices.count);
      m_backend.rank_exchange().import_sources(0, begin, *m_exchange);
      m_backend.rank_exchange().import_sources(end, m_backend.particle_count(), *m_exchange);
    });
    m_exchange_s += seconds_since(sent);
  }
  return static_cast<int>(vote);
}

void RankStepper::gather_state() {
  if (!m_ranks.distributed()) return;
  agreed(m_ranks, [&] {
    with_records(m_backend, [&](auto records) {
      using Record = typename decltype(records)::value_type;
      m_ranks.gather(records.data(), sizeof(Record), m_slices.first, m_slices.count);
      if (m_ranks.root()) m_backend.upload(records);
    });
  });
}

}  // namespace coalesce
