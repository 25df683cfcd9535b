// What the snapshot-series tests share: a CPU Plummer run's arguments, and a series folder read back.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace coalesce::testing {

using Args = std::vector<std::string>;

inline nlohmann::json read_index(const std::string& dir) {
  std::ifstream in(dir + "/index.json");
  return nlohmann::json::parse(in);
}

// The names in `dir`, sorted.
inline std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Exact all-pairs on the CPU backend, so a run's state is the same bits every time.
inline Args plummer_run(int n, const std::string& seed) {
  return {"--backend", "cpu",       "--scene",     "plummer",         "--solver", "all-pairs",
          "--forces",  "one-sided", "--particles", std::to_string(n), "--seed",   seed};
}

inline Args with(Args args, const Args& extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace coalesce::testing
