// libFuzzer target: the Tipsy state reader, coalesce::decode_tipsy (sim/tipsy.h), over the input as an
// in-memory file. A TipsyError naming "fuzz.tipsy" is a clean rejection; a crash, a hang, a sanitizer
// report, a read outside the file, any other exception or a broken promise (tipsy_input.h) is a bug.
// scripts/test runs it; see tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/tipsy_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const coalesce::fuzz::TipsyOutcome outcome = coalesce::fuzz::check_decode_tipsy(bytes, "fuzz.tipsy");
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "tipsy_fuzzer: %s\n", outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
