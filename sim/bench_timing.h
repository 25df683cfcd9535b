// What bench needs of a backend and nothing else does: a pack target like the viewer's render buffer, and
// launches held back so a short call's timings are the device's alone (app/bench/bench_runner.cpp).
#pragma once

#include <memory>

namespace coalesce {

// Where a pack writes its N x 4 floats (x, y, z, speed): host memory, or device memory such as a
// CUDA-mapped OpenGL buffer.
enum class MemorySpace { Host, Device };

// N x 4 floats a pack can write into, in the memory the backend packs to (as the viewer's render buffer
// would be): device memory for a GPU backend, host memory for the CPU. Owns its storage.
class PackTarget {
 public:
  virtual ~PackTarget() = default;
  virtual float* data() = 0;
  virtual MemorySpace space() const = 0;
};

class BenchTiming {
 public:
  virtual ~BenchTiming() = default;
  // A buffer of particle_count() x 4 floats in the memory space this backend packs to.
  virtual std::unique_ptr<PackTarget> make_pack_target() const = 0;
  // Between hold_launches() and release_launches() the device starts nothing, so the launches in between are
  // all queued when it starts them and their timings are the device's alone (bench's short calls). A
  // backend that times on the host runs as it goes: nothing to hold.
  virtual void hold_launches() {}
  virtual void release_launches() {}
};

}  // namespace coalesce
