#include "app/ranks/rank_start.h"

#include <cstdint>
#include <type_traits>

namespace coalesce {

namespace {

template <class Record>
void share_records(Ranks& ranks, std::vector<Record>& records, std::int64_t count) {
  static_assert(std::is_trivially_copyable_v<Record>, "records go to the other ranks as bytes");
  records.resize(static_cast<std::size_t>(count));
  ranks.broadcast(records.data(), records.size() * sizeof(Record), 0);
}

}  // namespace

void share_start(Ranks& ranks, SimParams& params, ForceMethod& family, InitialState& initial) {
  if (!ranks.distributed()) return;
  static_assert(std::is_trivially_copyable_v<SimParams>, "SimParams goes to the other ranks as bytes");
  ranks.broadcast(&params, sizeof params, 0);
  ranks.broadcast(&family, sizeof family, 0);
  ranks.broadcast(&initial.time, sizeof initial.time, 0);  // the attractors' orbits read the clock
  std::int64_t shape[2] = {static_cast<std::int64_t>(initial.size()), initial.fp64.empty() ? 0 : 1};
  ranks.broadcast(shape, sizeof shape, 0);
  if (shape[1] != 0)
    share_records(ranks, initial.fp64, shape[0]);
  else
    share_records(ranks, initial.fp32, shape[0]);
}

}  // namespace coalesce
