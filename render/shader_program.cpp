// Shader compile and link with the info log carried into the thrown error.
#include "render/shader_program.h"

#include <vector>

#include "render/embedded_shaders.h"
#include "render/gl_check.h"

namespace coalesce {
namespace {

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  return log.data();
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return log.data();
}

std::string_view shader_text(const std::string& file) {
  const auto text = embedded_shader(file);
  if (!text) throw ShaderError("shader " + file + " is not embedded: add it to shaders/ and rebuild");
  return *text;
}

}  // namespace

GlShader compile_shader(GLenum stage, std::string_view source, const std::string& label) {
  GlShader shader(glCreateShader(stage));
  const char* text = source.data();
  const GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader.id(), 1, &text, &length);
  glCompileShader(shader.id());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) throw ShaderError("shader " + label + " failed to compile: " + shader_log(shader.id()));
  return shader;
}

GlProgram link_program(const GlShader& vertex, const GlShader& fragment, const std::string& label) {
  GlProgram program;
  glAttachShader(program.id(), vertex.id());
  glAttachShader(program.id(), fragment.id());
  glLinkProgram(program.id());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  glDetachShader(program.id(), vertex.id());
  glDetachShader(program.id(), fragment.id());
  if (ok != GL_TRUE) throw ShaderError("program " + label + " failed to link: " + program_log(program.id()));
  check_gl("building program " + label);
  return program;
}

GlProgram load_program(const std::string& vertex_file, const std::string& fragment_file) {
  const GlShader vertex = compile_shader(GL_VERTEX_SHADER, shader_text(vertex_file), vertex_file);
  const GlShader fragment = compile_shader(GL_FRAGMENT_SHADER, shader_text(fragment_file), fragment_file);
  return link_program(vertex, fragment, vertex_file + " + " + fragment_file);
}

}  // namespace coalesce
