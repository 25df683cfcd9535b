// What MPI ranks need of a backend and nothing else does: the sources' {x, y, z, m} out of and into the
// state, through host memory the backend copies quickly (app/ranks/rank_stepper.h).
#pragma once

#include <cstddef>
#include <memory>

namespace coalesce {

// Host memory for N x {x, y, z, m} of a state's scalar (RankExchange::make_exchange_buffer).
class ExchangeBuffer {
 public:
  virtual ~ExchangeBuffer() = default;
  virtual void* data() = 0;
  const void* data() const { return const_cast<ExchangeBuffer*>(this)->data(); }
  virtual std::size_t bytes() const = 0;
};

class RankExchange {
 public:
  virtual ~RankExchange() = default;
  // What ranks exchange each step: N x {x, y, z, m} in the state's precision (4 x scalar_bytes each), in host
  // memory the backend copies to and from quickly (pinned for a GPU). Owns its storage.
  virtual std::unique_ptr<ExchangeBuffer> make_exchange_buffer() const = 0;
  // {x, y, z, m} of bodies [begin, end) into their places in `buffer`. Synchronizes.
  virtual void export_sources(int begin, int end, ExchangeBuffer& buffer) = 0;
  // Position and mass of bodies [begin, end) from their places in `buffer`. Synchronizes.
  virtual void import_sources(int begin, int end, const ExchangeBuffer& buffer) = 0;
};

}  // namespace coalesce
