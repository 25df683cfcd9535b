// Writes Tipsy files byte by byte for the tests, good and deliberately broken, independently of
// sim/tipsy_write.cpp so the tests do not trust the code they check. Header-only.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace coalesce::testing {

// A Tipsy file's contents: particles as rows of 12 (gas), 9 (dark) and 11 (star) floats in file order
// (mass, pos[3], vel[3], then the family's other fields). The header's counts follow the rows unless set.
struct TipsyContents {
  bool big_endian = true;  // standard (XDR); false: native
  double time = 0.0;
  std::vector<std::vector<float>> gas, dark, star;
  std::optional<std::int32_t> nbodies, nsph, ndark, nstar;  // unset: from the rows
  std::int32_t ndim = 3;
};

class TipsyByteWriter {
 public:
  explicit TipsyByteWriter(bool big_endian) : m_big(big_endian) {}
  void put_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) m_out += static_cast<char>(b[m_big ? n - 1 - i : i]);
  }
  void put_int(std::int32_t v) { put_bytes(&v, sizeof v); }
  void put_float(float v) { put_bytes(&v, sizeof v); }
  void put_double(double v) { put_bytes(&v, sizeof v); }
  const std::string& bytes() const { return m_out; }

 private:
  bool m_big;
  std::string m_out;  // this little-endian host's bytes reversed for big-endian
};

inline std::string tipsy_file_bytes(const TipsyContents& c) {
  const auto count = [](std::optional<std::int32_t> set, std::size_t rows) {
    return set ? *set : static_cast<std::int32_t>(rows);
  };
  TipsyByteWriter out(c.big_endian);
  out.put_double(c.time);
  out.put_int(count(c.nbodies, c.gas.size() + c.dark.size() + c.star.size()));
  out.put_int(c.ndim);
  out.put_int(count(c.nsph, c.gas.size()));
  out.put_int(count(c.ndark, c.dark.size()));
  out.put_int(count(c.nstar, c.star.size()));
  out.put_int(0);  // pad
  for (const auto* family : {&c.gas, &c.dark, &c.star})
    for (const std::vector<float>& row : *family)
      for (float v : row) out.put_float(v);
  return out.bytes();
}

}  // namespace coalesce::testing
