// The timer-query ring: results are taken only when GL_QUERY_RESULT_AVAILABLE says so.
#include "render/gpu_timer.h"

namespace coalesce {

void GpuTimer::begin() {
  // Every slot still pending: the GPU is kRing frames behind; skip this frame's measurement rather
  // than reuse a query whose result was never read.
  if (m_open || m_pending[static_cast<size_t>(m_next)]) return;
  glBeginQuery(GL_TIME_ELAPSED, m_queries[static_cast<size_t>(m_next)].id());
  m_open = true;
}

void GpuTimer::end() {
  if (!m_open) return;
  glEndQuery(GL_TIME_ELAPSED);
  m_pending[static_cast<size_t>(m_next)] = true;
  m_next = (m_next + 1) % kRing;
  m_open = false;
}

std::optional<double> GpuTimer::poll() {
  std::optional<double> newest;
  // Results arrive in submission order: read from the oldest until one is not ready yet.
  while (m_pending[static_cast<size_t>(m_oldest)]) {
    const GLuint id = m_queries[static_cast<size_t>(m_oldest)].id();
    GLint available = 0;
    glGetQueryObjectiv(id, GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) break;
    GLuint64 nanoseconds = 0;
    glGetQueryObjectui64v(id, GL_QUERY_RESULT, &nanoseconds);
    newest = static_cast<double>(nanoseconds) * 1e-6;
    m_pending[static_cast<size_t>(m_oldest)] = false;
    m_oldest = (m_oldest + 1) % kRing;
  }
  return newest;
}

}  // namespace coalesce
