// OpenGL errors never pass silently: check_gl (glGetError, every build) throws GlError naming the step that
// failed; debug builds also ask for a debug context and log each error through KHR_debug as it happens.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "render/gl_api.h"

namespace coalesce {

class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Debug builds: a debug context (GLFW and EGL) and enable_gl_debug_output() once it is current.
#ifdef NDEBUG
inline constexpr bool kGlDebugOutput = false;
#else
inline constexpr bool kGlDebugOutput = true;
#endif

// GL_INVALID_ENUM, GL_OUT_OF_MEMORY, ...; the code in hex where GL names none.
std::string gl_error_name(GLenum code);

// Reads every pending error of the current context (so the next check starts clean) and throws GlError,
// "OpenGL error GL_INVALID_VALUE, checked after <what> ...", if there was one. `what` names the step just
// done; the failing call is in it or before it, since the last check. Cheap: no GPU wait, a few per frame.
void check_gl(std::string_view what);

// KHR_debug (core in 4.3) on the current context, synchronous so the message comes from inside the failing
// call: errors, undefined behaviour and high-severity messages each logged to stderr as one line. Never
// throws (the log runs inside the driver, and contexts call this mid-construction): every error, its own
// included, stays pending for the next check_gl.
void enable_gl_debug_output();

}  // namespace coalesce
