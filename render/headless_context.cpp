// EGL device-platform setup, following the facts checked on the GPU machine and on Mesa (docs/viewer.md, "Headless").
#include "render/headless_context.h"

#include <cstring>
#include <memory>
#include <vector>

#include <glad/egl.h>
#include <imgui.h>

#include "render/gl_check.h"

namespace coalesce {

struct HeadlessContext::Egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;  // a 16 x 16 pbuffer only where surfaceless is missing

  ~Egl() {
    if (display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surface != EGL_NO_SURFACE) eglDestroySurface(display, surface);
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    eglTerminate(display);
  }
};

namespace {

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + n, name)) {
    const bool starts = p == list || p[-1] == ' ';
    const bool ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

std::string device_string(EGLDeviceEXT device, EGLint name) {
  if (!eglQueryDeviceStringEXT) return {};
  const char* text = eglQueryDeviceStringEXT(device, name);
  return text ? text : "";
}

// The device whose CUDA ordinal matches, else the first (Mesa's software device on a machine without GPU).
EGLDeviceEXT choose_device(int cuda_device, std::string& label) {
  if (!(GLAD_EGL_EXT_device_enumeration || GLAD_EGL_EXT_device_base) || !eglQueryDevicesEXT) {
    throw HeadlessError(
        "EGL has no device enumeration (EGL_EXT_device_base): install an EGL driver (libegl1)");
  }
  EGLint count = 0;
  eglQueryDevicesEXT(0, nullptr, &count);
  if (count <= 0)
    throw HeadlessError("EGL lists no devices: install Mesa (libegl-mesa0) or the NVIDIA driver");
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  eglQueryDevicesEXT(count, devices.data(), &count);
  for (EGLint i = 0; i < count && cuda_device >= 0; ++i) {
    const std::string extensions = device_string(devices[i], EGL_EXTENSIONS);
    EGLAttrib ordinal = -1;
    if (has_extension(extensions.c_str(), "EGL_NV_device_cuda") && eglQueryDeviceAttribEXT &&
        eglQueryDeviceAttribEXT(devices[i], EGL_CUDA_DEVICE_NV, &ordinal) && ordinal == cuda_device) {
      label = "EGL device " + std::to_string(i) + " (CUDA device " + std::to_string(cuda_device) + ")";
      return devices[i];
    }
  }
  label = "EGL device 0 of " + std::to_string(count);
  return devices[0];
}

}  // namespace

HeadlessContext::HeadlessContext(int width, int height, int cuda_device)
    : m_egl(std::make_unique<Egl>()), m_width(width), m_height(height) {
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) throw HeadlessError("cannot load libEGL.so.1: install libegl1");
  const EGLDeviceEXT device = choose_device(cuda_device, m_device_label);
  m_egl->display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
  if (m_egl->display == EGL_NO_DISPLAY || !eglInitialize(m_egl->display, nullptr, nullptr)) {
    throw HeadlessError("cannot initialise the EGL device display (EGL error " +
                        std::to_string(eglGetError()) + ")");
  }
  // Reload with the display so its extensions (surfaceless context) are known.
  gladLoaderLoadEGL(m_egl->display);
  eglBindAPI(EGL_OPENGL_API);

  const EGLint config_attributes[] = {EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT,
                                      EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT,
                                      EGL_RED_SIZE,
                                      8,
                                      EGL_GREEN_SIZE,
                                      8,
                                      EGL_BLUE_SIZE,
                                      8,
                                      EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(m_egl->display, config_attributes, &config, 1, &configs) || configs == 0) {
    throw HeadlessError("no EGL config supports desktop OpenGL on this device");
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       4,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_CONTEXT_OPENGL_DEBUG,
                                       kGlDebugOutput ? EGL_TRUE : EGL_FALSE,
                                       EGL_NONE};
  m_egl->context = eglCreateContext(m_egl->display, config, EGL_NO_CONTEXT, context_attributes);
  if (m_egl->context == EGL_NO_CONTEXT) {
    throw HeadlessError("cannot create an OpenGL 4.3 core context on the EGL device");
  }
  if (!GLAD_EGL_KHR_surfaceless_context) {
    const EGLint pbuffer_attributes[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    m_egl->surface = eglCreatePbufferSurface(m_egl->display, config, pbuffer_attributes);
  }
  if (!eglMakeCurrent(m_egl->display, m_egl->surface, m_egl->surface, m_egl->context) ||
      !gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    throw HeadlessError("cannot make the headless OpenGL context current or load its functions");
  }
  if (kGlDebugOutput) enable_gl_debug_output();

  m_framebuffer.emplace();
  m_colour.emplace();
  m_depth.emplace();
  glBindRenderbuffer(GL_RENDERBUFFER, m_colour->id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, m_depth->id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer->id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_colour->id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, m_depth->id());
  check_gl("creating the " + std::to_string(width) + "x" + std::to_string(height) + " headless framebuffer");
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw HeadlessError("the headless framebuffer is incomplete at " + std::to_string(width) + "x" +
                        std::to_string(height));
  }
}

HeadlessContext::~HeadlessContext() = default;

void HeadlessContext::bind_framebuffer() {
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer->id());
  glReadBuffer(GL_COLOR_ATTACHMENT0);
}

void HeadlessContext::present() {
  glFinish();
}

void HeadlessContext::imgui_new_frame(float delta_seconds) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(m_width), static_cast<float>(m_height));
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  io.DeltaTime = delta_seconds > 0.0f ? delta_seconds : 1.0f / 60.0f;
}

std::string HeadlessContext::description() const {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return "headless EGL, " + m_device_label + ", " + (renderer ? renderer : "?") + ", GL " +
         (version ? version : "?");
}

}  // namespace coalesce
