// render/gl_check.h: a deliberate invalid GL call is reported by check_gl (naming the error and the step),
// by the renderer's next checkpoint, and by the KHR_debug log. Runs on any headless EGL device (Mesa's
// software device without a GPU); skips, saying why, where there is none.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "render/gl_check.h"
#include "render/headless_context.h"
#include "render/orbit_camera.h"
#include "render/particle_renderer.h"

namespace coalesce {
namespace {

constexpr GLenum kNoSuchCapability = 0xFFFF;  // glEnable of it is GL_INVALID_ENUM

std::unique_ptr<HeadlessContext> headless_or_null(std::string& why) {
  try {
    return std::make_unique<HeadlessContext>(64, 64, -1);
  } catch (const HeadlessError& e) {
    why = e.what();
    return nullptr;
  }
}

#define COALESCE_REQUIRE_HEADLESS_GL(context)                                                   \
  std::string why_no_gl;                                                                        \
  const std::unique_ptr<HeadlessContext> context = headless_or_null(why_no_gl);                 \
  if (!context) GTEST_SKIP() << "skipped: no headless OpenGL (" << why_no_gl << ")"

TEST(CheckGl, PassesWhenNothingFailed) {
  COALESCE_REQUIRE_HEADLESS_GL(context);
  glEnable(GL_BLEND);
  EXPECT_NO_THROW(check_gl("enabling blending"));
}

TEST(CheckGl, ThrowsNamingTheErrorAndTheStepThenStartsClean) {
  COALESCE_REQUIRE_HEADLESS_GL(context);
  glEnable(kNoSuchCapability);
  try {
    check_gl("enabling an unknown capability");
    FAIL() << "an invalid glEnable passed check_gl";
  } catch (const GlError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("OpenGL error GL_INVALID_ENUM, checked after enabling an unknown capability", 0), 0u)
        << what;
  }
  EXPECT_NO_THROW(check_gl("the next step"));  // the error was read, not left for the next check
}

TEST(CheckGl, ErrorNamesForUnknownCodesAreHex) {
  EXPECT_EQ(gl_error_name(GL_OUT_OF_MEMORY), "GL_OUT_OF_MEMORY");
  EXPECT_EQ(gl_error_name(0x1234), "0x1234");
}

TEST(CheckGl, TheRenderersNextCheckpointReportsAnEarlierError) {
  COALESCE_REQUIRE_HEADLESS_GL(context);
  ParticleRenderer renderer;
  renderer.resize(16);
  context->bind_framebuffer();
  glEnable(kNoSuchCapability);  // a stray error from code outside the renderer
  EXPECT_THROW(renderer.draw(OrbitCamera{}, Viewport{0, 0, 64, 64}, SpriteStyle{}), GlError);
  EXPECT_NO_THROW(renderer.draw(OrbitCamera{}, Viewport{0, 0, 64, 64}, SpriteStyle{}));  // reported once
}

TEST(CheckGl, DebugOutputLogsTheErrorAsItHappensAndLeavesItForCheckGl) {
  COALESCE_REQUIRE_HEADLESS_GL(context);
  enable_gl_debug_output();  // what debug builds do when the context is made; callable in any build
  ::testing::internal::CaptureStderr();
  glEnable(kNoSuchCapability);
  const std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(logged.find("coalesce: OpenGL error (debug output"), std::string::npos) << logged;
  EXPECT_THROW(check_gl("enabling an unknown capability"), GlError);
}

}  // namespace
}  // namespace coalesce
