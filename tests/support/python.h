// Python clients in the tests (NumPy, h5py): the interpreter that has them, a script run through it, and
// the raw values it wrote back.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace coalesce::testing {

// Debian's python3 packages install for /usr/bin/python3; a python3 earlier on PATH (pyenv) may lack them.
// "" when neither runs `imports` ("import h5py, numpy").
inline std::string python_with(const std::string& imports) {
  for (const std::string python : {"/usr/bin/python3", "python3"})
    if (run_process({python, "-c", imports}, {}, {}, 60).exit_code == 0) return python;
  return {};
}

// Runs `script` with `arguments` (sys.argv[1:]); a failure is the test's, with the script's stderr.
inline void run_python(const std::string& python, const std::string& script,
                       const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {python, "-c", script};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const ProcessResult result = run_process(argv, {}, {}, 120);
  ASSERT_EQ(result.exit_code, 0) << result.err;
}

// A file of raw T values, as a script's `array.tobytes()` wrote them.
template <class T>
std::vector<T> values_in_file(const std::string& path) {
  const std::string bytes = read_file(path);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace coalesce::testing
