// GPU time of a span of GL commands (GL_TIME_ELAPSED), read back a few frames later from a small ring
// of queries so that timing never stalls the frame loop.
#pragma once

#include <array>
#include <optional>

#include "render/gl_objects.h"

namespace coalesce {

class GpuTimer {
 public:
  // begin()/end() bracket the commands of one frame; TIME_ELAPSED queries cannot nest.
  void begin();
  void end();
  // The newest finished measurement since the last call, in milliseconds; never waits for the GPU.
  std::optional<double> poll();

 private:
  static constexpr int kRing = 4;  // frames in flight before a slot is reused
  std::array<GlQuery, kRing> m_queries;
  std::array<bool, kRing> m_pending{};
  int m_next = 0;    // the slot begin() uses
  int m_oldest = 0;  // the first slot poll() looks at
  bool m_open = false;
};

}  // namespace coalesce
