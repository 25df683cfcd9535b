// The directory, the last component and the extension of a path, as the output and clip checks name them.
#pragma once

#include <cctype>
#include <string>

namespace coalesce {

// "out/shot.png" -> "out"; "shot.png" -> "."; "/shot.png" -> "/".
inline std::string parent_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// "out/shot.png" -> "shot.png".
inline std::string name_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The position of the extension's dot in the last component ("out/shot.png" -> 8), or npos: none, or a
// name that only starts with a dot ("out/.hidden").
inline std::size_t extension_dot(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  return dot != std::string::npos && dot > name_start ? dot : std::string::npos;
}

// The last component's extension with its dot, lowercased ("out/Shot.PNG" -> ".png"); "" when none.
inline std::string lowercase_extension(const std::string& path) {
  const std::size_t dot = extension_dot(path);
  if (dot == std::string::npos) return {};
  std::string extension = path.substr(dot);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

}  // namespace coalesce
