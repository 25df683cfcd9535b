// Text from files and arguments, made fit for a message line: control characters (C0, DEL and the UTF-8
// encodings of C1) become \xNN, so a value cannot move the cursor, clear the screen or, as a NUL, cut the
// line where what() ends; long values are shortened and numbers written in a few digits, so one hostile
// value cannot turn a line into kilobytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace coalesce {

std::string printable(std::string_view text);

// printable(), with line breaks as spaces: what every error line is made of (sim/errors.h).
std::string one_line(std::string_view text);

// A value quoted from a file or argument: printable, and when longer than `shown` characters that way,
// its first ones and the whole length ("abc... (70000 bytes)"), never cut inside an escape or a character.
std::string excerpt(std::string_view text, std::size_t shown = 64);

// A number read from a file, for a message: at most 6 significant digits ("1e+308", "0.25", "nan").
std::string number_text(double value);

// "1 thread", "2 threads": `count` and the noun, plural unless it is one.
std::string counted(long long count, std::string_view noun);

}  // namespace coalesce
