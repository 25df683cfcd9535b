// The two kinds of failure every part of the program reports: usage errors (exit 2: what the user typed or
// pointed at is wrong) and runtime failures (exit 1). Each what() is one line naming the problem and the fix.
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
