// Parser for the Python-literal dict of a .npy header: {'descr': '<f4', 'fortran_order': False, 'shape': (N,
// 7), }
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
};

// Parses the dict (keys in any order, either quote style, optional trailing comma, trailing whitespace
// padding). On failure returns nullopt and sets `error` to what was wrong.
std::optional<NpyHeader> parse_npy_header(const std::string& text, std::string& error);

}  // namespace coalesce
