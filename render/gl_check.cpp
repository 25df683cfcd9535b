// check_gl and the debug-output log (see gl_check.h).
#include "render/gl_check.h"

#include <cstdio>

namespace coalesce {
namespace {

const char* debug_type_name(GLenum type) {
  switch (type) {
    case GL_DEBUG_TYPE_ERROR:
      return "error";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR:
      return "undefined behaviour";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR:
      return "deprecated behaviour";
    case GL_DEBUG_TYPE_PERFORMANCE:
      return "performance";
    case GL_DEBUG_TYPE_PORTABILITY:
      return "portability";
    default:
      return "message";
  }
}

void GLAD_API_PTR log_gl_message(GLenum, GLenum type, GLuint id, GLenum, GLsizei, const GLchar* message,
                                 const void*) {
  std::fprintf(stderr, "coalesce: OpenGL %s (debug output, id %u): %s\n", debug_type_name(type), id,
               message ? message : "");
}

}  // namespace

std::string gl_error_name(GLenum code) {
  switch (code) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW:
      return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW:
      return "GL_STACK_OVERFLOW";
  }
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%04X", code);
  return hex;
}

void check_gl(std::string_view what) {
  std::string errors;
  // Bounded: an error that never clears (a lost context) must not hold the check in a loop.
  for (int i = 0; i < 8; ++i) {
    const GLenum code = glGetError();
    if (code == GL_NO_ERROR) break;
    errors += (errors.empty() ? "" : ", ") + gl_error_name(code);
  }
  // glGetError says only that some call since the last check failed: the step is where it was found.
  if (errors.empty()) return;
  const char* const where = kGlDebugOutput ? " (the call that set it is logged above)"
                                           : " (a debug build logs the call that set it)";
  throw GlError("OpenGL error " + errors + ", checked after " + std::string(what) + where);
}

void enable_gl_debug_output() {
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(log_gl_message, nullptr);
  // Only what is a bug: NVIDIA also sends a notification per buffer placement, which would drown these.
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  for (GLenum type : {GL_DEBUG_TYPE_ERROR, GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR})
    glDebugMessageControl(GL_DONT_CARE, type, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_HIGH, 0, nullptr, GL_TRUE);
}

}  // namespace coalesce
