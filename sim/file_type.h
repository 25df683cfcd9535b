// How messages name a file that is not a regular one ("a FIFO", "a character device", ...).
#pragma once

#include <sys/types.h>

#include <string>

namespace coalesce {

std::string file_type_name(mode_t mode);  // from stat's st_mode

}  // namespace coalesce
