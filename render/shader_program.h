// Compiles and links GLSL (from the embedded shaders/ files); failures throw with the driver's info log.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "render/gl_objects.h"

namespace coalesce {

class ShaderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `label` names the source in the error (the file name); `stage` is GL_VERTEX_SHADER etc.
GlShader compile_shader(GLenum stage, std::string_view source, const std::string& label);
GlProgram link_program(const GlShader& vertex, const GlShader& fragment, const std::string& label);
// Compiles shaders/<vertex_file> and shaders/<fragment_file> from the embedded copies and links them.
GlProgram load_program(const std::string& vertex_file, const std::string& fragment_file);

}  // namespace coalesce
