// libFuzzer target: the command-line parser, coalesce::parse_arguments (app/cli/cli.h), with the input split
// at each '\0' into arguments. A UsageError is a clean rejection; a crash, a hang, a sanitizer report, any
// other exception or a broken promise (cli_input.h) is a bug. scripts/test runs it; see tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/cli_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const coalesce::fuzz::CliOutcome outcome = coalesce::fuzz::check_parse_arguments(bytes);
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "cli_fuzzer: %s\n", outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
