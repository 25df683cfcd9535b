// What the command-line fuzzer checks on each input, shared with the regression test that replays its
// corpus (tests/app/fuzz_regression_test.cpp), so both hold parse_arguments to the same promise. Header-only.
#pragma once

#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "sim/errors.h"

namespace coalesce::fuzz {

// A command line without the program name: the input split at each '\0' ("" is no argument, "a\0" is "a"
// and ""), so the fuzzer can produce empty arguments and arguments holding any other byte.
inline std::vector<std::string> split_arguments(const std::string& bytes) {
  std::vector<std::string> arguments;
  if (bytes.empty()) return arguments;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = bytes.find('\0', start);
    arguments.push_back(bytes.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return arguments;
    start = end + 1;
  }
}

struct CliOutcome {
  bool parsed = false;
  std::string error;   // the rejection's message
  std::string broken;  // "" when parse_arguments kept its promise, else how it did not
};

// Feeds the arguments in `bytes` to parse_arguments. Its promise (app/cli/cli.h): Options, or a UsageError
// with a message. Any other exception is not caught here: the fuzzer reports it as a crash, GoogleTest as
// a failure.
inline CliOutcome check_parse_arguments(const std::string& bytes) {
  CliOutcome outcome;
  try {
    parse_arguments(split_arguments(bytes));
    outcome.parsed = true;
  } catch (const UsageError& e) {
    outcome.error = e.what();
    if (std::string(e.what()).empty()) outcome.broken = "a UsageError with no message";
  }
  return outcome;
}

}  // namespace coalesce::fuzz
