// One process as the ranks of a run: rank 0 of 1, whose collectives leave its data as it is.
#include "app/ranks/ranks.h"

namespace coalesce {

namespace {

class SingleRank final : public Ranks {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int ranks_on_host() const override { return 1; }
  std::string library() const override { return {}; }
  std::optional<bool> cuda_aware() const override { return std::nullopt; }
  void broadcast(void*, std::size_t, int) override {}
  long long max_over_ranks(long long value) override { return value; }
  void all_gather(void*, std::size_t, const std::vector<int>&, const std::vector<int>&) override {}
  void gather(void*, std::size_t, const std::vector<int>&, const std::vector<int>&) override {}
  std::vector<double> gather_values(double value) override { return {value}; }
  void barrier() override {}
};

}  // namespace

std::unique_ptr<Ranks> single_rank() {
  return std::make_unique<SingleRank>();
}

}  // namespace coalesce
