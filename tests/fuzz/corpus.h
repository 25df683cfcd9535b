// The seed corpus of a fuzz target (tests/fuzz/corpus/<target>/), for the GoogleTest regression tests
// that replay it on every ctest run, without the fuzzer. Header-only.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace coalesce::fuzz {

// The corpus folder of `target` ("scene", "npy", "cli") in the source tree.
inline std::filesystem::path corpus_folder(const std::string& target) {
  return std::filesystem::path(COALESCE_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / target;
}

// The files of `folder`, sorted by name.
inline std::vector<std::filesystem::path> corpus_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Seed files are named for what they hold: "ok-..." must be accepted, "bad-..." rejected.
inline bool expected_to_parse(const std::filesystem::path& file) {
  return file.filename().string().rfind("ok-", 0) == 0;
}

}  // namespace coalesce::fuzz
