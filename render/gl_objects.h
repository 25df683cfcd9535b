// Move-only owners for OpenGL names (buffers, vertex arrays, shaders, programs, framebuffers,
// renderbuffers, textures, queries): each deletes its name exactly once, in the context that is current.
#pragma once

#include <utility>

#include "render/gl_api.h"

namespace coalesce {

// Traits supply create() and destroy(GLuint); GlObject holds the name and the ownership rules.
template <typename Traits>
class GlObject {
 public:
  GlObject() : m_id(Traits::create()) {}
  explicit GlObject(GLuint adopted) : m_id(adopted) {}
  ~GlObject() { reset(); }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  GlObject(GlObject&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}
  GlObject& operator=(GlObject&& other) noexcept {
    if (this != &other) {
      reset();
      m_id = std::exchange(other.m_id, 0);
    }
    return *this;
  }

  GLuint id() const { return m_id; }
  explicit operator bool() const { return m_id != 0; }

 private:
  void reset() {
    if (m_id != 0) Traits::destroy(m_id);
    m_id = 0;
  }
  GLuint m_id = 0;
};

struct BufferTraits {
  static GLuint create() {
    GLuint id = 0;
    glGenBuffers(1, &id);
    return id;
  }
  static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct VertexArrayTraits {
  static GLuint create() {
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    return id;
  }
  static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct FramebufferTraits {
  static GLuint create() {
    GLuint id = 0;
    glGenFramebuffers(1, &id);
    return id;
  }
  static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
  static GLuint create() {
    GLuint id = 0;
    glGenRenderbuffers(1, &id);
    return id;
  }
  static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct TextureTraits {
  static GLuint create() {
    GLuint id = 0;
    glGenTextures(1, &id);
    return id;
  }
  static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct QueryTraits {
  static GLuint create() {
    GLuint id = 0;
    glGenQueries(1, &id);
    return id;
  }
  static void destroy(GLuint id) { glDeleteQueries(1, &id); }
};
struct ProgramTraits {
  static GLuint create() { return glCreateProgram(); }
  static void destroy(GLuint id) { glDeleteProgram(id); }
};
struct ShaderTraits {
  static GLuint create() { return 0; }  // shaders are created with their stage: see compile_shader()
  static void destroy(GLuint id) { glDeleteShader(id); }
};

using GlBuffer = GlObject<BufferTraits>;
using GlVertexArray = GlObject<VertexArrayTraits>;
using GlFramebuffer = GlObject<FramebufferTraits>;
using GlRenderbuffer = GlObject<RenderbufferTraits>;
using GlTexture = GlObject<TextureTraits>;
using GlProgram = GlObject<ProgramTraits>;
using GlShader = GlObject<ShaderTraits>;
using GlQuery = GlObject<QueryTraits>;

}  // namespace coalesce
