// libFuzzer target: the scene-file parser, coalesce::parse_scene (sim/scene.h), over any bytes. A SceneError
// naming "fuzz.toml:LINE" is a clean rejection; a crash, a hang, a sanitizer report, any other exception or
// a broken promise (scene_input.h) is a bug. scripts/test runs it; tests/fuzz/README.md says how by hand.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/scene_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  const coalesce::fuzz::SceneOutcome outcome = coalesce::fuzz::check_parse_scene(content, "fuzz.toml");
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "scene_fuzzer: %s\n", outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
