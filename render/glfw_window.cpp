// GLFW window lifetime in the order of ImGui's GLFW + OpenGL3 example: error callback first, reverse
// teardown.
#include "render/glfw_window.h"

#include <cstdio>

#include "render/gl_api.h"
#include "render/gl_check.h"
// glad first: GLFW must not pull in the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

namespace coalesce {
namespace {

void report_glfw_error(int code, const char* description) {
  std::fprintf(stderr, "coalesce: GLFW error %d: %s\n", code, description);
}

std::string last_glfw_error() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description ? description : "unknown GLFW error";
}

}  // namespace

GlfwWindow::GlfwWindow(int width, int height, const std::string& title) {
  // No callback until the window is up: a failure to open one is reported once, in WindowError's line,
  // with GLFW's own words read back through glfwGetError.
  glfwSetErrorCallback(nullptr);
  if (!glfwInit()) {
    throw WindowError("cannot open a window (" + last_glfw_error() + "): run with --headless");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, kGlDebugOutput ? GLFW_TRUE : GLFW_FALSE);
  m_window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!m_window) {
    const std::string why = last_glfw_error();
    glfwTerminate();
    throw WindowError("cannot create an OpenGL 4.3 core window (" + why + "): run with --headless");
  }
  glfwSetErrorCallback(report_glfw_error);
  glfwMakeContextCurrent(m_window);
  glfwSwapInterval(1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    glfwDestroyWindow(m_window);
    glfwTerminate();
    throw WindowError("cannot load OpenGL 4.3 core functions: run with --headless");
  }
  if (kGlDebugOutput) enable_gl_debug_output();
}

GlfwWindow::~GlfwWindow() {
  if (m_imgui) imgui_shutdown();
  glfwDestroyWindow(m_window);
  glfwTerminate();
}

bool GlfwWindow::should_close() const {
  return glfwWindowShouldClose(m_window);
}
void GlfwWindow::poll_events() {
  glfwPollEvents();
}

FramebufferSize GlfwWindow::framebuffer_size() const {
  FramebufferSize size;
  glfwGetFramebufferSize(m_window, &size.width, &size.height);
  if (glfwGetWindowAttrib(m_window, GLFW_ICONIFIED)) return {};
  return size;
}

void GlfwWindow::bind_framebuffer() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}
void GlfwWindow::present() {
  glfwSwapBuffers(m_window);
}

void GlfwWindow::imgui_init() {
  ImGui_ImplGlfw_InitForOpenGL(m_window, true);
  m_imgui = true;
}

void GlfwWindow::imgui_new_frame(float) {
  ImGui_ImplGlfw_NewFrame();
}

void GlfwWindow::imgui_shutdown() {
  if (!m_imgui) return;
  ImGui_ImplGlfw_Shutdown();
  m_imgui = false;
}

std::string GlfwWindow::description() const {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return std::string("window (GLFW ") + glfwGetVersionString() + "), " + (renderer ? renderer : "?") +
         ", GL " + (version ? version : "?");
}

}  // namespace coalesce
