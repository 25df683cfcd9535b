// Access to the GLSL files of shaders/, embedded into the binary at build time (cmake/EmbedShaders.cmake).
#pragma once

#include <optional>
#include <string_view>

namespace coalesce {

// The text of shaders/<name> (e.g. "particles.vert"), or nullopt when no such file was embedded.
std::optional<std::string_view> embedded_shader(std::string_view name);

}  // namespace coalesce
