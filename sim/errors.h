// The two kinds of failure the commands report: usage errors (exit 2) and runtime failures (exit 1).
// Each what() is one line naming the problem and the fix.
#pragma once

#include <stdexcept>

namespace coalesce {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace coalesce
