// The processes of one run (docs/mpi.md): one without mpirun or in a build without MPI, K under
// `mpirun -n K`. Every rank calls the collectives below in the same order; a failure on one rank is agreed
// on (app/ranks/rank_agreement.h) before the next collective, so no rank waits for one that stopped.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace coalesce {

class Ranks {
 public:
  virtual ~Ranks() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  // This rank's place among the ranks on its host: the GPU it takes is local_rank() % devices.
  virtual int local_rank() const = 0;
  virtual int ranks_on_host() const = 0;
  bool root() const { return rank() == 0; }
  bool distributed() const { return size() > 1; }
  // "Open MPI v4.1.4" (the first line of MPI_Get_library_version); empty for one process without MPI.
  virtual std::string library() const = 0;
  // Whether the MPI library takes device pointers, asked at run time (MPIX_Query_cuda_support); empty when
  // it cannot say (no MPI, or an MPI without that query).
  virtual std::optional<bool> cuda_aware() const = 0;

  // `bytes` at `data` from rank `from` to every rank.
  virtual void broadcast(void* data, std::size_t bytes, int from) = 0;
  // The largest of every rank's `value`, on every rank.
  virtual long long max_over_ranks(long long value) = 0;
  // Rank r's items [first[r], first[r] + count[r]) of `items` (item_bytes each, all N in place on every
  // rank) to every rank.
  virtual void all_gather(void* items, std::size_t item_bytes, const std::vector<int>& first,
                          const std::vector<int>& count) = 0;
  // The same, to rank 0 only.
  virtual void gather(void* items, std::size_t item_bytes, const std::vector<int>& first,
                      const std::vector<int>& count) = 0;
  // Every rank's `value` on rank 0, in rank order (the others get an empty vector).
  virtual std::vector<double> gather_values(double value) = 0;
  virtual void barrier() = 0;
};

// One process: every collective is a no-op over its own data.
std::unique_ptr<Ranks> single_rank();

// The ranks of this process: MPI's when the build has it and mpirun started the process (MPI_Init is called
// then, and MPI_Finalize when the result is destroyed), else single_rank(). Throws RuntimeFailure when MPI
// cannot start.
std::unique_ptr<Ranks> start_ranks(int& argc, char**& argv);

// "mpi" in --version's feature list when the build has MPI.
bool mpi_built();

// Thrown on the ranks other than 0 when a run stops because of another rank: rank 0 says why, in one line;
// the others leave with the same exit code and print nothing.
class StoppedWithOtherRanks : public std::runtime_error {
 public:
  explicit StoppedWithOtherRanks(int exit_code)
      : std::runtime_error("stopped with the other ranks"), m_exit_code(exit_code) {}
  int exit_code() const { return m_exit_code; }

 private:
  int m_exit_code;
};

}  // namespace coalesce
