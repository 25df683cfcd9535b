// The ranks of an mpirun job through MPI's C API. MPI_Init runs only when a launcher started the process:
// a plain `coalesce` never touches MPI, so it behaves (and starts) exactly as a build without it.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string>

#include "app/ranks/ranks.h"
#include "sim/errors.h"

namespace coalesce {

namespace {

// What Open MPI's mpirun (OMPI_*), PMIx launchers (PMIX_RANK: Open MPI 5, Slurm) and PMI-1/2 ones (MPICH's
// hydra, Slurm) set in every rank's environment: how a process knows it was launched as one rank of a job.
bool started_by_a_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

std::string error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(std::max(length, 0)));
}

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw RuntimeFailure(std::string(call) + " failed: " + error_text(code));
}

// A committed MPI datatype of `bytes` contiguous bytes, freed with its owner: counts of items stay within
// int where counts of bytes would not (16M fp64 bodies are 512 MiB).
class ItemType {
 public:
  explicit ItemType(std::size_t bytes) {
    check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &m_type), "MPI_Type_contiguous");
    check(MPI_Type_commit(&m_type), "MPI_Type_commit");
  }
  ~ItemType() { MPI_Type_free(&m_type); }
  ItemType(const ItemType&) = delete;
  ItemType& operator=(const ItemType&) = delete;
  MPI_Datatype get() const { return m_type; }

 private:
  MPI_Datatype m_type = MPI_DATATYPE_NULL;
};

class MpiRanks final : public Ranks {
 public:
  MpiRanks(int& argc, char**& argv) {
    int provided = 0;
    // Only the main thread calls MPI; the CPU backend's pool threads never do.
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // errors become exceptions, then one line
    check(MPI_Comm_rank(MPI_COMM_WORLD, &m_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &m_size), "MPI_Comm_size");
    MPI_Comm host = MPI_COMM_NULL;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &host),
          "MPI_Comm_split_type");
    check(MPI_Comm_rank(host, &m_local_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(host, &m_on_host), "MPI_Comm_size");
    MPI_Comm_free(&host);
  }
  ~MpiRanks() override { MPI_Finalize(); }
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const override { return m_rank; }
  int size() const override { return m_size; }
  int local_rank() const override { return m_local_rank; }
  int ranks_on_host() const override { return m_on_host; }

  std::string library() const override {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "MPI";
    std::string line(text, static_cast<std::size_t>(std::max(length, 0)));
    line = line.substr(0, line.find_first_of(",\n"));  // "Open MPI v4.1.4", without package and build
    while (!line.empty() && (line.back() == ' ' || line.back() == '\0')) line.pop_back();
    return line;
  }

  std::optional<bool> cuda_aware() const override {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() == 1;  // the library this process runs with, not the headers' build
#else
    return std::nullopt;
#endif
  }

  void broadcast(void* data, std::size_t bytes, int from) override {
    // In pieces of at most INT_MAX bytes: MPI counts are int.
    auto* at = static_cast<unsigned char*>(data);
    for (std::size_t done = 0; done < bytes;) {
      const std::size_t piece = std::min<std::size_t>(bytes - done, INT_MAX);
      check(MPI_Bcast(at + done, static_cast<int>(piece), MPI_BYTE, from, MPI_COMM_WORLD), "MPI_Bcast");
      done += piece;
    }
  }

  long long max_over_ranks(long long value) override {
    long long out = 0;
    check(MPI_Allreduce(&value, &out, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
  }

  void all_gather(void* items, std::size_t item_bytes, const std::vector<int>& first,
                  const std::vector<int>& count) override {
    const ItemType type(item_bytes);
    check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, items, count.data(), first.data(), type.get(),
                         MPI_COMM_WORLD),
          "MPI_Allgatherv");
  }

  void gather(void* items, std::size_t item_bytes, const std::vector<int>& first,
              const std::vector<int>& count) override {
    const ItemType type(item_bytes);
    const auto r = static_cast<std::size_t>(m_rank);
    if (m_rank == 0) {
      check(MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, items, count.data(), first.data(), type.get(), 0,
                        MPI_COMM_WORLD),
            "MPI_Gatherv");
    } else {
      void* mine = static_cast<unsigned char*>(items) + item_bytes * static_cast<std::size_t>(first[r]);
      check(MPI_Gatherv(mine, count[r], type.get(), nullptr, nullptr, nullptr, type.get(), 0, MPI_COMM_WORLD),
            "MPI_Gatherv");
    }
  }

  std::vector<double> gather_values(double value) override {
    std::vector<double> out(m_rank == 0 ? static_cast<std::size_t>(m_size) : 0);
    check(MPI_Gather(&value, 1, MPI_DOUBLE, out.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Gather");
    return out;
  }

  void barrier() override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

 private:
  int m_rank = 0;
  int m_size = 1;
  int m_local_rank = 0;
  int m_on_host = 1;
};

}  // namespace

std::unique_ptr<Ranks> start_ranks(int& argc, char**& argv) {
  if (!started_by_a_launcher()) return single_rank();
  return std::make_unique<MpiRanks>(argc, argv);
}

bool mpi_built() {
  return true;
}

}  // namespace coalesce
