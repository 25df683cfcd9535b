// The parser's one-line UsageError for a command line, or "" when it parses: shared by the CLI unit tests.
#pragma once

#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "sim/errors.h"

namespace coalesce::testing {

using Args = std::vector<std::string>;

inline std::string usage_error(const Args& args) {
  try {
    parse_arguments(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace coalesce::testing
