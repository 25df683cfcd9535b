// inflated_size: zlib's inflate into one small buffer, overwritten each round, until the stream ends, fails,
// stops making progress or passes the limit.
#include "sim/inflated_size.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <vector>

namespace coalesce {

namespace {

constexpr std::size_t kScratchBytes = std::size_t{1} << 16;

class Inflater {
 public:
  Inflater() { m_ok = inflateInit(&m_stream) == Z_OK; }
  ~Inflater() {
    if (m_ok) inflateEnd(&m_stream);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  bool ok() const { return m_ok; }
  z_stream& stream() { return m_stream; }

 private:
  z_stream m_stream{};
  bool m_ok = false;
};

}  // namespace

std::uint64_t inflated_size(const void* data, std::size_t size, std::uint64_t limit) {
  Inflater inflater;
  if (!inflater.ok()) return 0;
  z_stream& z = inflater.stream();
  std::vector<unsigned char> scratch(kScratchBytes);
  z.next_in = static_cast<Bytef*>(const_cast<void*>(data));  // zlib's API is not const; it only reads
  std::size_t in_left = size;
  std::uint64_t out = 0;
  while (out <= limit) {
    const uInt in_step = static_cast<uInt>(std::min<std::size_t>(in_left, UINT_MAX));  // zlib counts in uInt
    z.avail_in = in_step;
    z.next_out = scratch.data();
    z.avail_out = static_cast<uInt>(scratch.size());
    const int status = inflate(&z, Z_NO_FLUSH);
    const std::size_t produced = scratch.size() - z.avail_out;
    in_left -= in_step - z.avail_in;
    out += produced;
    if (status == Z_STREAM_END || (status != Z_OK && status != Z_BUF_ERROR)) break;
    if (produced == 0 && z.avail_in == in_step) break;  // cut short: no progress is possible
  }
  return std::min(out, limit + 1);
}

}  // namespace coalesce
