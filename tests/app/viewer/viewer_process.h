// Test support for the viewer tests: the viewer's command line and finding programs on PATH (xvfb-run);
// screenshots decode through tests/support/picture.h. Running it is tests/support/process.h's run_process.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/picture.h"
#include "tests/support/process.h"

namespace coalesce::testing {

// One viewer run's options; each test states only what it is about.
struct ViewerArgs {
  bool headless = true;
  std::string backend = "cpu";
  std::string scene = "galaxies";
  int particles = 2048;
  std::string layout = "soa";  // "" leaves the default
  int frames = 6;
  int width = 1280;
  int height = 900;
  std::string screenshot;  // "" takes none
  std::vector<std::string> extra;
};

inline std::vector<std::string> viewer_command(const ViewerArgs& a) {
  std::vector<std::string> command{coalesce_executable()};
  if (a.headless) command.push_back("--headless");
  const auto add = [&command](const char* flag, const std::string& value) {
    command.push_back(flag);
    command.push_back(value);
  };
  add("--backend", a.backend);
  add("--scene", a.scene);
  add("--particles", std::to_string(a.particles));
  if (!a.layout.empty()) add("--layout", a.layout);
  add("--frames", std::to_string(a.frames));
  add("--width", std::to_string(a.width));
  add("--height", std::to_string(a.height));
  if (!a.screenshot.empty()) add("--screenshot", a.screenshot);
  command.insert(command.end(), a.extra.begin(), a.extra.end());
  return command;
}

inline bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace coalesce::testing
