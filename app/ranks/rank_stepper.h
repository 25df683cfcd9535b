// One rank's part of a run's steps (docs/mpi.md): it steps its slice of the bodies (Backend::step_range), and
// the ranks all-gather their slices' positions and masses, so every rank starts the next step with every
// body's sources. Each body's arithmetic is a one-rank step's: the state is the same bit for bit.
#pragma once

#include <memory>

#include "app/ranks/rank_slices.h"
#include "app/ranks/ranks.h"
#include "sim/backend.h"
#include "sim/sim_params.h"

namespace coalesce {

class RankStepper {
 public:
  // The backend holds all N bodies on every rank (rank 0's start, share_start).
  RankStepper(Backend& backend, Ranks& ranks);

  // One step: this rank's slice, then the all-gather. `local_signal` is the stop signal this rank has seen (0:
  // none); returns the one every rank stops on after this step (0: go on). A failure on any rank stops every
  // rank (rank_agreement.h): rank 0 throws it, the others StoppedWithOtherRanks.
  int step(const SimParams& params, double time, int local_signal);

  // The whole state on rank 0's backend: each rank's slice of positions and velocities, for the save, the
  // energy and the last line. Collective; the other ranks' backends are left as they are.
  void gather_state();

  const RankSlices& slices() const { return m_slices; }
  // Seconds this rank spent stepping its slice (until its sources were ready to send) and in the exchange
  // (the all-gather and the copies to and from the backend), since construction or reset_times().
  double compute_seconds() const { return m_compute_s; }
  double exchange_seconds() const { return m_exchange_s; }
  void reset_times() { m_compute_s = m_exchange_s = 0.0; }

 private:
  Backend& m_backend;
  Ranks& m_ranks;
  RankSlices m_slices;
  std::unique_ptr<ExchangeBuffer> m_exchange;  // made on the first all-pairs step
  double m_compute_s = 0.0;
  double m_exchange_s = 0.0;
};

}  // namespace coalesce
