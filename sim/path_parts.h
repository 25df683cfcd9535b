// The directory and the last component of a path, as the output and clip checks name them.
#pragma once

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

}  // namespace coalesce
