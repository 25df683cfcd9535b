// The two kinds of failure every part of the program reports: usage errors (exit 2: what the user typed or
// pointed at is wrong) and runtime failures (exit 1). Each what() is one line naming the problem and the fix.
#pragma once

#include <stdexcept>
#include <string>

#include "sim/printable.h"

namespace coalesce {

// The message is made one printable line here, once for every thrower: what() ends at the first NUL, so a
// NUL from a file would otherwise cut the line, and a line break would start a second one.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(one_line(message)) {}
};

class RuntimeFailure : public std::runtime_error {
 public:
  explicit RuntimeFailure(const std::string& message) : std::runtime_error(one_line(message)) {}
};

}  // namespace coalesce
