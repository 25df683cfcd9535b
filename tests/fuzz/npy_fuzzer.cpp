// libFuzzer target: the .npy state reader, coalesce::decode_npy_state and npy_records<Fp32> (sim/npy.h)
// over the input as an in-memory file, and coalesce::parse_npy_header (sim/npy_header.h) over the same bytes
// as header text. An NpyError naming "fuzz.npy" is a clean rejection; a crash, a hang, a sanitizer report,
// a read outside the file, any other exception or a broken promise (npy_input.h) is a bug. scripts/test
// runs it; see tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/npy_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const coalesce::fuzz::NpyOutcome outcome = coalesce::fuzz::check_decode_npy(bytes, "fuzz.npy");
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "npy_fuzzer: %s\n", outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
