// Text from files and arguments, made safe to show on a terminal: control characters (C0, DEL and the
// UTF-8 encodings of C1) become \xNN, so a scene value cannot move the cursor or clear the screen.
#pragma once

#include <string>
#include <string_view>

namespace coalesce {

std::string printable(std::string_view text);

}  // namespace coalesce
