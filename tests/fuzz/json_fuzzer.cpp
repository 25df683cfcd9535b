// libFuzzer target: the JSON readers (--camera-from, bench --compare/--from, json_schema_in) over any bytes.
// A UsageError naming the flag and the file is a clean rejection; a crash, a hang, a sanitizer report, an
// allocation past -malloc_limit_mb, any other exception or a broken promise (json_input.h) is a bug.
// scripts/test runs it; tests/fuzz/README.md says how by hand.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/json_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const coalesce::fuzz::JsonOutcome outcome = coalesce::fuzz::check_json_readers(bytes);
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "json_fuzzer: %s\n", outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
