// Checks shared by the backends' slice and exchange calls (Backend::step_range, export_sources,
// import_sources): a bad range or buffer is a programming error, reported as std::invalid_argument.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "sim/backend.h"
#include "sim/force_method.h"
#include "sim/layout_storage.h"

namespace coalesce {

// Bytes of n bodies' {x, y, z, m} in `precision`: what ranks exchange each step.
inline std::size_t exchange_bytes(Precision precision, int n) {
  return 4 * scalar_bytes(precision) * static_cast<std::size_t>(n);
}

inline void check_body_range(int begin, int end, int n) {
  if (begin < 0 || end > n || begin > end)
    throw std::invalid_argument("body range [" + std::to_string(begin) + ", " + std::to_string(end) +
                                ") is not within the " + std::to_string(n) + " bodies");
}

// A row whose kick needs every body at once (no rank_slices) refuses a slice: a mutual pair spans two.
inline void check_slice(ForceMethod method, int begin, int end, int n, const std::string& backend) {
  if (!method_info(method).rank_slices && end - begin != n)
    throw std::invalid_argument(backend + ": the " + std::string(method_info(method).name) +
                                " scheme computes every body at once, not a slice");
}

inline void check_exchange_buffer(const ExchangeBuffer& buffer, Precision precision, int n) {
  if (buffer.bytes() < exchange_bytes(precision, n))
    throw std::invalid_argument("exchange buffer of " + std::to_string(buffer.bytes()) + " bytes; " +
                                std::to_string(n) + " bodies in " + std::string(to_string(precision)) +
                                " need " + std::to_string(exchange_bytes(precision, n)));
}

}  // namespace coalesce
