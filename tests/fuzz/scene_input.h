// What the scene-file fuzzer checks on each input, shared with the regression test that replays its corpus
// (tests/sim/fuzz_regression_test.cpp), so both hold parse_scene to the same promise. Header-only.
#pragma once

#include <cctype>
#include <stdexcept>
#include <string>

#include "sim/scene.h"

namespace coalesce::fuzz {

struct SceneOutcome {
  bool parsed = false;
  std::string error;   // the rejection's message
  std::string broken;  // "" when parse_scene kept its promise, else how it did not
};

// Feeds `content` to parse_scene as the file `path`. Its promise (sim/scene.h): a Scene that passes
// validate_scene, or a SceneError (a UsageError) whose what() is "PATH:LINE: ..." with LINE >= 1. Any
// other exception is not caught here: the fuzzer reports it as a crash, GoogleTest as a failure.
inline SceneOutcome check_parse_scene(const std::string& content, const std::string& path) {
  SceneOutcome outcome;
  try {
    const Scene scene = parse_scene(content, path);
    outcome.parsed = true;
    try {
      validate_scene(scene);
    } catch (const std::invalid_argument& e) {
      outcome.broken = std::string("parse_scene accepted a scene that validate_scene refuses: ") + e.what();
    }
  } catch (const UsageError& e) {
    outcome.error = e.what();
    const std::string what = e.what();
    const std::string prefix = path + ":";
    std::size_t digits = 0;
    while (prefix.size() + digits < what.size() &&
           std::isdigit(static_cast<unsigned char>(what[prefix.size() + digits])))
      ++digits;
    const bool file_line = what.rfind(prefix, 0) == 0 && digits > 0 &&
                           what.compare(prefix.size() + digits, 2, ": ") == 0 &&
                           std::stol(what.substr(prefix.size(), digits)) >= 1;
    if (!file_line) outcome.broken = "message is not 'PATH:LINE: ...' with LINE >= 1: " + what;
  }
  return outcome;
}

}  // namespace coalesce::fuzz
