// The tree's build (kernels/tree.h): bounding box, Morton keys, the stable radix sort, the sorted copy, the
// Karras radix tree's links, and the upsweep of moments. Every step is O(N) on the GPU and deterministic:
// min / max are exact, and each node's moments come from its two children in a fixed order.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cfloat>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/launch.h"
#include "kernels/tree.h"
#include "kernels/tree_nodes.h"
#include "kernels/tree_source.h"
#include "sim/morton.h"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kBoxBlocks = 256;           // partial boxes reduced by one block afterwards
constexpr int kExactExtentBodies = 64;    // nodes this small take the exact extent from their bodies

__device__ void reduce_box(double (&box)[6], double* shared) {
  // shared: kThreads x 6; a fixed tree of min / max (exact, so any order gives the same bits).
  for (int a = 0; a < 6; ++a) shared[a * kThreads + threadIdx.x] = box[a];
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half)
      for (int a = 0; a < 6; ++a) {
        double& mine = shared[a * kThreads + threadIdx.x];
        const double other = shared[a * kThreads + threadIdx.x + half];
        mine = a < 3 ? fmin(mine, other) : fmax(mine, other);
      }
    __syncthreads();
  }
  for (int a = 0; a < 6; ++a) box[a] = shared[a * kThreads];
}

template <class View>
__global__ void __launch_bounds__(kThreads) box_partials_kernel(View view, double* partials) {
  __shared__ double shared[6 * kThreads];
  double box[6] = {DBL_MAX, DBL_MAX, DBL_MAX, -DBL_MAX, -DBL_MAX, -DBL_MAX};
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < view.n; i += gridDim.x * kThreads) {
    const auto p = view.position(i);
    const double c[3] = {double(p.x), double(p.y), double(p.z)};
    for (int a = 0; a < 3; ++a) {
      box[a] = fmin(box[a], c[a]);
      box[3 + a] = fmax(box[3 + a], c[a]);
    }
  }
  reduce_box(box, shared);
  if (threadIdx.x == 0)
    for (int a = 0; a < 6; ++a) partials[blockIdx.x * 6 + a] = box[a];
}

__global__ void __launch_bounds__(kThreads) box_final_kernel(double* partials, int count, double* box_out) {
  __shared__ double shared[6 * kThreads];
  double box[6] = {DBL_MAX, DBL_MAX, DBL_MAX, -DBL_MAX, -DBL_MAX, -DBL_MAX};
  for (int b = threadIdx.x; b < count; b += kThreads)
    for (int a = 0; a < 6; ++a)
      box[a] = a < 3 ? fmin(box[a], partials[b * 6 + a]) : fmax(box[a], partials[b * 6 + a]);
  reduce_box(box, shared);
  if (threadIdx.x == 0)
    for (int a = 0; a < 6; ++a) box_out[a] = box[a];
}

template <class View>
__global__ void __launch_bounds__(kThreads)
    keys_kernel(View view, const double* box, std::uint64_t* keys, int* index) {
  const long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= view.n) return;
  const auto p = view.position(static_cast<int>(i));
  keys[i] = morton_key(double(p.x), double(p.y), double(p.z), box, morton_cube_size(box, box + 3));
  index[i] = static_cast<int>(i);
}

// SourceOrder::Shuffled's fixed permutation: slots sorted by a hash of their index (splitmix64's finaliser).
__global__ void __launch_bounds__(kThreads) shuffle_keys_kernel(int n, std::uint64_t* keys, int* index) {
  const long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= n) return;
  std::uint64_t z = static_cast<std::uint64_t>(i) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  keys[i] = z ^ (z >> 31);
  index[i] = static_cast<int>(i);
}

template <class View, class Src>
__global__ void __launch_bounds__(kThreads)
    gather_kernel(View view, Src sources, const int* order, int* position) {
  const long long k = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (k >= view.n) return;
  const int i = order[k];
  sources.store(static_cast<int>(k), view.position_mass(i));
  position[i] = static_cast<int>(k);
}

// Common prefix bits of the keys at curve positions i and j (-1 outside), equal keys told apart by index.
__device__ int prefix(const std::uint64_t* keys, int n, int i, int j) {
  if (j < 0 || j >= n) return -1;
  const std::uint64_t a = keys[i], b = keys[j];
  if (a != b) return __clzll(static_cast<long long>(a ^ b)) - 1;  // bit 63 is always 0
  return kEqualKeyBits + __clz(i ^ j);
}

// Karras (2012), "Maximizing parallelism in the construction of BVHs, octrees, and k-d trees": internal
// node i's range and split from the sorted keys alone.
__global__ void __launch_bounds__(kThreads)
    links_kernel(const std::uint64_t* keys, int n, TreeLinks* links, int* delta, int* parent) {
  const int i = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  if (i >= n - 1) return;
  const int d = prefix(keys, n, i, i + 1) - prefix(keys, n, i, i - 1) >= 0 ? 1 : -1;
  const int below = prefix(keys, n, i, i - d);
  long long reach = 2;
  while (prefix(keys, n, i, static_cast<int>(i + reach * d)) > below) reach *= 2;
  int length = 0;
  for (long long t = reach / 2; t >= 1; t /= 2)
    if (prefix(keys, n, i, static_cast<int>(i + (length + t) * d)) > below) length += static_cast<int>(t);
  const int j = i + length * d;
  const int node_bits = prefix(keys, n, i, j);
  int split = 0;
  int t = length;
  do {
    t = (t + 1) / 2;
    if (prefix(keys, n, i, i + (split + t) * d) > node_bits) split += t;
  } while (t > 1);
  const int gamma = i + split * d + min(d, 0);
  const int lo = min(i, j), hi = max(i, j);
  const int left = lo == gamma ? n - 1 + gamma : gamma;
  const int right = hi == gamma + 1 ? n - 1 + gamma + 1 : gamma + 1;
  links[i] = TreeLinks{left, right, lo, hi};
  delta[i] = node_bits;
  parent[left] = i;
  parent[right] = i;
}

// What the walk needs to open internal node i (OctreeKids): a node of fewer than leaf_size + 1 bodies or of
// equal keys is taken body by body; any other node's octree children are its binary descendants down to the
// first with a longer prefix than its octant digit (or a leaf), in curve order; at most 8.
__global__ void __launch_bounds__(kThreads)
    kids_kernel(const TreeLinks* links, const int* delta, int n, int leaf_size, OctreeKids* kids) {
  const int i = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  if (i >= n - 1) return;
  const TreeLinks own = links[i];
  const int bits = delta[i];
  OctreeKids out;
  for (int& k : out.kid) k = -1;
  if (own.last - own.first < leaf_size || bits >= kEqualKeyBits) {
    out.kid[0] = ~own.first;
    out.kid[1] = own.last - own.first + 1;
  } else {
    const int next_level_bits = 3 * (bits / 3 + 1);
    int pending[8];
    int top = 0, count = 0;
    pending[top++] = own.right;
    pending[top++] = own.left;
    while (top > 0) {
      const int c = pending[--top];
      if (c >= n - 1 || delta[c] >= next_level_bits) {
        out.kid[count++] = c;
      } else {
        const TreeLinks inner = links[c];
        pending[top++] = inner.right;
        pending[top++] = inner.left;
      }
    }
  }
  int4* to = reinterpret_cast<int4*>(kids + i);
  to[0] = make_int4(out.kid[0], out.kid[1], out.kid[2], out.kid[3]);
  to[1] = make_int4(out.kid[4], out.kid[5], out.kid[6], out.kid[7]);
}

// A child's moments: a leaf from its body, an internal node from what its own upsweep wrote (read through
// L2: another thread of this launch wrote it before its fence and atomic).
template <class Src>
__device__ TreeMoments child_moments(const Src& sources, const TreeMoments* moments, int n, int id) {
  TreeMoments m{};
  if (id >= n - 1) {
    const auto b = sources.position_mass(id - (n - 1));
    const double c[3] = {double(b.x), double(b.y), double(b.z)};
    m.mass = double(b.w);
    for (int a = 0; a < 3; ++a) m.com[a] = m.lo[a] = m.hi[a] = c[a];
    return m;
  }
  const double* from = reinterpret_cast<const double*>(moments + id);
  double* to = reinterpret_cast<double*>(&m);
  for (int w = 0; w < static_cast<int>(sizeof(TreeMoments) / sizeof(double)); ++w) to[w] = __ldcg(from + w);
  return m;
}

template <class Real>
__device__ Real round_up(double v) {
  if constexpr (std::is_same_v<Real, float>) {
    return __double2float_ru(v);  // an extent rounded down could accept a node it should open
  } else {
    return v;
  }
}

template <class Real>
__device__ void store_walk_node(WalkNode<Real>* nodes, int id, const TreeMoments& m) {
  WalkNode<Real> w;
  w.com_extent = {Real(m.com[0]), Real(m.com[1]), Real(m.com[2]), round_up<Real>(m.extent)};
  w.quad_a = {Real(m.quad[0]), Real(m.quad[1]), Real(m.quad[2]), Real(m.quad[3])};
  w.quad_b = {Real(m.quad[4]), Real(m.quad[5]), Real(m.mass), Real(0)};
  store_vec4(&nodes[id].com_extent, w.com_extent);
  store_vec4(&nodes[id].quad_a, w.quad_a);
  store_vec4(&nodes[id].quad_b, w.quad_b);
}

template <class Src>
__device__ TreeMoments combine(const Src& sources, const TreeMoments* moments, int n, const TreeLinks& links) {
  const TreeMoments c[2] = {child_moments(sources, moments, n, links.left),
                            child_moments(sources, moments, n, links.right)};
  TreeMoments m{};
  m.mass = c[0].mass + c[1].mass;
  // Massless nodes keep their first body's position, as the CPU's do.
  for (int a = 0; a < 3; ++a)
    m.com[a] = m.mass > 0 ? (c[0].mass * c[0].com[a] + c[1].mass * c[1].com[a]) / m.mass : c[0].com[a];
  double bound = 0;
  for (const TreeMoments& k : c) {
    // Parallel axes: a child's quadrupole about its own centre, moved to the parent's.
    const double d[3] = {k.com[0] - m.com[0], k.com[1] - m.com[1], k.com[2] - m.com[2]};
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    m.quad[0] += k.quad[0] + k.mass * (3 * d[0] * d[0] - d2);
    m.quad[1] += k.quad[1] + k.mass * (3 * d[1] * d[1] - d2);
    m.quad[2] += k.quad[2] + k.mass * (3 * d[2] * d[2] - d2);
    m.quad[3] += k.quad[3] + k.mass * 3 * d[0] * d[1];
    m.quad[4] += k.quad[4] + k.mass * 3 * d[0] * d[2];
    m.quad[5] += k.quad[5] + k.mass * 3 * d[1] * d[2];
    bound = fmax(bound, sqrt(d2) + k.extent);
  }
  double corner = 0;
  for (int a = 0; a < 3; ++a) {
    m.lo[a] = fmin(c[0].lo[a], c[1].lo[a]);
    m.hi[a] = fmax(c[0].hi[a], c[1].hi[a]);
    const double far = fmax(m.com[a] - m.lo[a], m.hi[a] - m.com[a]);
    corner += far * far;
  }
  m.extent = fmin(bound, sqrt(corner));  // both bound every body's distance; the smaller opens less
  if (links.last - links.first < kExactExtentBodies) {
    double most = 0;
    for (int k = links.first; k <= links.last; ++k) {
      const auto b = sources.position_mass(k);
      const double d[3] = {double(b.x) - m.com[0], double(b.y) - m.com[1], double(b.z) - m.com[2]};
      most = fmax(most, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    m.extent = sqrt(most);
  }
  return m;
}

// One thread per leaf climbs while it is the second child to arrive at a node (Karras' bottom-up pass).
template <class Src, class Real>
__global__ void __launch_bounds__(kThreads)
    upsweep_kernel(Src sources, int n, const TreeLinks* links, const int* parent, int* arrivals,
                   TreeMoments* moments, WalkNode<Real>* nodes) {
  const int k = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  if (k >= n) return;
  store_walk_node(nodes, n - 1 + k, child_moments(sources, moments, n, n - 1 + k));
  int node = parent[n - 1 + k];
  while (node >= 0) {
    __threadfence();  // this thread's moments are visible before its arrival is
    if (atomicAdd(arrivals + node, 1) == 0) return;
    __threadfence();
    const TreeMoments m = combine(sources, moments, n, links[node]);
    moments[node] = m;
    store_walk_node(nodes, node, m);
    node = parent[node];
  }
}

template <class T>
void ensure(DeviceBuffer<T>& buffer, std::size_t count) {
  if (buffer.size() < count) buffer = DeviceBuffer<T>(count);
}

// CUB's stable radix sort of (key, index) pairs over key bits [0, bits), its scratch grown as needed.
void sort_pairs(DeviceBuffer<std::byte>& temp, const std::uint64_t* keys_in, std::uint64_t* keys_out,
                const int* index_in, int* index_out, int n, int bits, cudaStream_t stream) {
  std::size_t temp_bytes = 0;
  COALESCE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_in, keys_out, index_in, index_out,
                                                      n, 0, bits, stream));
  ensure(temp, temp_bytes);
  COALESCE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, keys_in, keys_out, index_in,
                                                      index_out, n, 0, bits, stream));
}

}  // namespace

GpuTree::GpuTree() : m_counters(8) { COALESCE_CUDA_CHECK(cudaMemset(m_counters.data(), 0, m_counters.bytes())); }

void GpuTree::check_state(const StateViews& state) const {
  if (state.n != m_n || state.layout != m_layout || state.precision != m_precision)
    throw std::invalid_argument("GpuTree: the state is not the one the tree was built from (" +
                                std::to_string(state.n) + " bodies, built for " + std::to_string(m_n) + ")");
}

void GpuTree::build(const StateViews& state, const TreeSettings& settings, cudaStream_t stream) {
  if ((settings.group_size < 1 || settings.group_size > 32) && settings.group_size != 64)
    throw std::invalid_argument("GpuTree: group_size " + std::to_string(settings.group_size) +
                                " is not 1..32 or 64 (a group is one warp, holding one or two targets a lane)");
  if (state.n < 0) throw std::invalid_argument("GpuTree: negative body count");
  const int n = state.n;
  m_n = n;
  m_layout = state.layout;
  m_precision = state.precision;
  m_settings = settings;
  m_last_build_stream = stream;
  m_build_start.record(stream);
  const auto count = static_cast<std::size_t>(std::max(n, 1));
  ensure(m_box, 6 * (kBoxBlocks + 1));
  ensure(m_keys_in, count);
  ensure(m_keys, count);
  ensure(m_index_in, count);
  ensure(m_order, count);
  ensure(m_position, count);
  ensure(m_links, count);
  ensure(m_delta, count);
  ensure(m_parent, 2 * count);
  ensure(m_arrivals, count);
  ensure(m_moments, count);
  ensure(m_kids, count);
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    using Real = typename View::Scalar;
    using Src = SourceFor<View>;
    ensure(m_sources, Src::bytes_for(n));
    ensure(m_walk_nodes, sizeof(WalkNode<Real>) * (2 * count));
    if (n == 0) return;
    double* box = m_box.data() + 6 * kBoxBlocks;
    const int blocks = std::min(kBoxBlocks, (n + kThreads - 1) / kThreads);
    launch(box_partials_kernel<View>, LaunchGrid{static_cast<unsigned>(blocks), kThreads}, stream, view,
           m_box.data());
    launch(box_final_kernel, LaunchGrid{1, kThreads}, stream, m_box.data(), blocks, box);
    const bool shuffled = settings.source_order == SourceOrder::Shuffled;
    if (shuffled && m_slot_count != n) {  // before the keys: it borrows their buffers; once per N
      ensure(m_slot, count);
      launch(shuffle_keys_kernel, {n, kThreads, kThreads}, stream, n, m_keys_in.data(), m_index_in.data());
      sort_pairs(m_sort_temp, m_keys_in.data(), m_keys.data(), m_index_in.data(), m_slot.data(), n, 32, stream);
      m_slot_count = n;
    }
    launch(keys_kernel<View>, {n, kThreads, kThreads}, stream, view, box, m_keys_in.data(), m_index_in.data());
    // Stable LSD radix sort of the 63 key bits: ties keep index order, so the curve is a function of the state.
    sort_pairs(m_sort_temp, m_keys_in.data(), m_keys.data(), m_index_in.data(), m_order.data(), n, 63, stream);
    // The rest of the build reads and writes the copy through the same view as the walk.
    const auto rest = [&](const auto& sources) {
      using Source = std::decay_t<decltype(sources)>;
      launch(gather_kernel<View, Source>, {n, kThreads, kThreads}, stream, view, sources, m_order.data(),
             m_position.data());
      m_sorted.record(stream);
      COALESCE_CUDA_CHECK(cudaMemsetAsync(m_parent.data(), 0xff, sizeof(int), stream));  // the root's: -1
      launch(links_kernel, {n - 1, kThreads, kThreads}, stream, m_keys.data(), n, m_links.data(),
             m_delta.data(), m_parent.data());
      launch(kids_kernel, {n - 1, kThreads, kThreads}, stream, m_links.data(), m_delta.data(), n,
             std::max(1, settings.leaf_size), m_kids.data());
      m_linked.record(stream);
      COALESCE_CUDA_CHECK(cudaMemsetAsync(m_arrivals.data(), 0, sizeof(int) * count, stream));
      launch(upsweep_kernel<Source, Real>, {n, kThreads, kThreads}, stream, sources, n, m_links.data(),
             m_parent.data(), m_arrivals.data(), m_moments.data(),
             reinterpret_cast<WalkNode<Real>*>(m_walk_nodes.data()));
    };
    const Src curve = Src::over(m_sources.data(), n);
    if (shuffled)
      rest(ShuffledSource<Src>{curve, m_slot.data()});
    else
      rest(curve);
  });
  if (n == 0) {
    m_sorted.record(stream);
    m_linked.record(stream);
  }
  m_swept.record(stream);
}

TreeCounts GpuTree::last_counts() const {
  unsigned long long host[8] = {};
  COALESCE_CUDA_CHECK(cudaStreamSynchronize(m_last_kick_stream));
  COALESCE_CUDA_CHECK(cudaMemcpy(host, m_counters.data(), sizeof(host), cudaMemcpyDeviceToHost));
  if (host[3] != 0 || host[7] != 0)
    throw std::runtime_error("GpuTree: a walk ran out of its stack; its results are wrong");
  TreeCounts counts;
  counts.particle_particle = static_cast<double>(host[0]);
  counts.particle_node = static_cast<double>(host[1]);
  return counts;
}

TreeStageTimes GpuTree::last_times() const {
  TreeStageTimes t;
  COALESCE_CUDA_CHECK(cudaEventSynchronize(m_swept.get()));
  t.keys_sort_ms = m_sorted.elapsed_since(m_build_start);
  t.build_ms = m_linked.elapsed_since(m_sorted);
  t.upsweep_ms = m_swept.elapsed_since(m_linked);
  if (m_kicked) {
    COALESCE_CUDA_CHECK(cudaEventSynchronize(m_walk_end.get()));
    t.walk_ms = m_walk_end.elapsed_since(m_walk_start);
  }
  return t;
}

std::vector<int> GpuTree::download_order() const {
  std::vector<int> order(static_cast<std::size_t>(m_n));
  if (m_n > 0)
    COALESCE_CUDA_CHECK(cudaMemcpy(order.data(), m_order.data(), order.size() * sizeof(int), cudaMemcpyDeviceToHost));
  return order;
}

std::vector<Vec4T<double>> GpuTree::download_sources() const {
  std::vector<Vec4T<double>> out(static_cast<std::size_t>(m_n));
  if (m_n == 0) return out;
  std::vector<std::byte> bytes(m_sources.bytes());
  COALESCE_CUDA_CHECK(cudaMemcpy(bytes.data(), m_sources.data(), bytes.size(), cudaMemcpyDeviceToHost));
  std::vector<int> slot(static_cast<std::size_t>(m_n));
  for (int k = 0; k < m_n; ++k) slot[static_cast<std::size_t>(k)] = k;
  if (m_settings.source_order == SourceOrder::Shuffled)
    COALESCE_CUDA_CHECK(cudaMemcpy(slot.data(), m_slot.data(), slot.size() * sizeof(int), cudaMemcpyDeviceToHost));
  with_format(m_layout, m_precision, [&](auto format) {
    using View = decltype(format);
    const SourceFor<View> host = SourceFor<View>::over(bytes.data(), m_n);
    for (int k = 0; k < m_n; ++k) {
      const auto b = host.position_mass(slot[static_cast<std::size_t>(k)]);
      out[static_cast<std::size_t>(k)] = {double(b.x), double(b.y), double(b.z), double(b.w)};
    }
  });
  return out;
}

}  // namespace coalesce::gpu
