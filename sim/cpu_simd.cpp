// The CPU backend's vector loops (sim/cpu_simd.h), compiled once per SIMD target by Highway's
// foreach_target.h: this file includes itself once per target, each time inside that target's namespace.
// Built with -ffp-contract=off (sim/CMakeLists.txt): only the MulAdds written here fuse, so drift and pack
// round exactly as the scalar reference does.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sim/cpu_simd.cpp"
// SSSE3 would add a fourth 128-bit build no row of kCpuTargetTable names; SSE4 covers those CPUs' successors.
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS HWY_SSSE3
#endif
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cmath>
#include <cstddef>

#include "sim/cpu_simd.h"

HWY_BEFORE_NAMESPACE();
namespace coalesce {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Terms of (1 - e)^(-3/2) = sum c_k e^k, c_k = (2k + 1)!! / (2^k k!): the force scale's series.
constexpr double kSeries[] = {1.0, 1.5, 1.875, 2.1875, 2.4609375, 2.70703125};

// The target's seed for 1/sqrt(x), x positive and finite: AVX-512 has 14-bit seeds in both precisions
// (vrsqrt14ps/pd); the others have a 12-bit single-precision one (rsqrtps), which fp64 reaches through float.
// Near (x within float's range, as the caller's reach test guarantees): x itself. Far: for every double, x =
// f 4^k with f in [0.5, 2) (x's exponent bits rewritten), the seed of f, and 2^-k put back into the seed's
// exponent, six integer operations.
template <bool kFar, class D>
HWY_INLINE hn::Vec<D> RsqrtSeed(D d, hn::Vec<D> x) {
  if constexpr (sizeof(hn::TFromD<D>) == sizeof(float)) {
    (void)d;
    return hn::ApproximateReciprocalSqrt(x);
  } else {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    (void)d;
    return hn::Vec<D>{_mm512_rsqrt14_pd(x.raw)};
#else
    const hn::Rebind<float, D> df;
    if constexpr (!kFar) return hn::PromoteTo(d, hn::ApproximateReciprocalSqrt(hn::DemoteTo(df, x)));
    const hn::RebindToUnsigned<D> du;
    const auto bits = hn::BitCast(du, x);
    // f keeps x's mantissa and the low bit of its exponent E, over a bias of 1022: 2^(E mod 2 - 1) x 1.m.
    const auto f =
        hn::Add(hn::And(bits, hn::Set(du, 0x001FFFFFFFFFFFFFull)), hn::Set(du, 0x3FE0000000000000ull));
    const auto seed = hn::PromoteTo(d, hn::ApproximateReciprocalSqrt(hn::DemoteTo(df, hn::BitCast(d, f))));
    // x / f = 4^k with k = floor(E / 2) - 511: the seed's exponent less k.
    const auto half_exponent = hn::And(hn::ShiftRight<1>(bits), hn::Set(du, 0x3FF0000000000000ull));
    return hn::BitCast(
        d, hn::Sub(hn::Add(hn::BitCast(du, seed), hn::Set(du, 0x1FF0000000000000ull)), half_exponent));
#endif
  }
}

// Series terms after the seed, enough that the last term left out is below half an ulp: with seed error
// d, e = 1 - x y^2 is about 2d, and the first omitted term is c_(K+1) e^(K+1) (docs/kernels.md).
template <class T>
constexpr int SeriesDegree() {
  constexpr bool fine_seed = HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL;  // 2^-14, else 1.5 x 2^-12
  if constexpr (sizeof(T) == sizeof(float)) return 2;
  return fine_seed ? 4 : 5;
}

// m / r2^(3/2) for r2 > 0: m y^3 (1 + e (c1 + e (c2 + ...))) with y the seed and e = 1 - r2 y^2. Far, an r2
// that overflowed to infinity is taken as the largest finite value first: its seed is not 0, so e is not
// inf x 0 (NaN), and m y^3 underflows to 0 for every mass in range, as the scalar loop's m / r^3 does.
template <bool kFar, class D>
HWY_INLINE hn::Vec<D> MassOverCube(D d, hn::Vec<D> m, hn::Vec<D> r2) {
  using T = hn::TFromD<D>;
  constexpr int kDegree = SeriesDegree<T>();
  const auto x = kFar ? hn::Min(r2, hn::Set(d, hwy::HighestValue<T>())) : r2;
  const auto y = RsqrtSeed<kFar>(d, x);
  const auto y2 = hn::Mul(y, y);
  const auto e = hn::NegMulAdd(x, y2, hn::Set(d, T(1)));
  const auto my3 = hn::Mul(hn::Mul(m, y), y2);
  auto p = hn::Set(d, T(kSeries[kDegree]));
  for (int k = kDegree - 1; k >= 1; --k) p = hn::MulAdd(p, e, hn::Set(d, T(kSeries[k])));
  return hn::MulAdd(hn::Mul(my3, e), p, my3);
}

// Two registers of targets per pass over the sources: each source's broadcasts serve both, and the two
// independent chains keep the FMA pipes full.
template <bool kFar, class T>
HWY_INLINE void ForceLoop(const T* HWY_RESTRICT tx, const T* HWY_RESTRICT ty, const T* HWY_RESTRICT tz,
                          std::size_t count, SimdForceSources<T> s, T softening_squared, T* HWY_RESTRICT ax,
                          T* HWY_RESTRICT ay, T* HWY_RESTRICT az) {
  const hn::ScalableTag<T> d;
  const std::size_t lanes = hn::Lanes(d);
  const auto eps2 = hn::Set(d, softening_squared);
  for (std::size_t i = 0; i < count; i += 2 * lanes) {
    const auto x0 = hn::Load(d, tx + i), y0 = hn::Load(d, ty + i), z0 = hn::Load(d, tz + i);
    const auto x1 = hn::Load(d, tx + i + lanes), y1 = hn::Load(d, ty + i + lanes), z1 = hn::Load(d, tz + i + lanes);
    auto ax0 = hn::Zero(d), ay0 = hn::Zero(d), az0 = hn::Zero(d);
    auto ax1 = hn::Zero(d), ay1 = hn::Zero(d), az1 = hn::Zero(d);
    for (int j = 0; j < s.count; ++j) {
      const auto xj = hn::Set(d, s.x[j]), yj = hn::Set(d, s.y[j]), zj = hn::Set(d, s.z[j]);
      const auto mj = hn::Set(d, s.m[j]);
      const auto dx0 = hn::Sub(xj, x0), dy0 = hn::Sub(yj, y0), dz0 = hn::Sub(zj, z0);
      const auto dx1 = hn::Sub(xj, x1), dy1 = hn::Sub(yj, y1), dz1 = hn::Sub(zj, z1);
      // Softening first, then x, y, z: the scalar reference's order of the sum.
      const auto r0 = hn::MulAdd(dz0, dz0, hn::MulAdd(dy0, dy0, hn::MulAdd(dx0, dx0, eps2)));
      const auto r1 = hn::MulAdd(dz1, dz1, hn::MulAdd(dy1, dy1, hn::MulAdd(dx1, dx1, eps2)));
      const auto s0 = MassOverCube<kFar>(d, mj, r0);
      const auto s1 = MassOverCube<kFar>(d, mj, r1);
      ax0 = hn::MulAdd(dx0, s0, ax0);
      ay0 = hn::MulAdd(dy0, s0, ay0);
      az0 = hn::MulAdd(dz0, s0, az0);
      ax1 = hn::MulAdd(dx1, s1, ax1);
      ay1 = hn::MulAdd(dy1, s1, ay1);
      az1 = hn::MulAdd(dz1, s1, az1);
    }
    hn::Store(ax0, d, ax + i);
    hn::Store(ay0, d, ay + i);
    hn::Store(az0, d, az + i);
    hn::Store(ax1, d, ax + i + lanes);
    hn::Store(ay1, d, ay + i + lanes);
    hn::Store(az1, d, az + i + lanes);
  }
}

// The loop for blocks within reach of their sources (below): the one docs/perf.md counts and the issue limit
// uses (scripts/cpu-loop-count).
template <class T>
HWY_NOINLINE void BlockAccelerations(const T* HWY_RESTRICT tx, const T* HWY_RESTRICT ty,
                                     const T* HWY_RESTRICT tz, std::size_t count, SimdForceSources<T> s,
                                     T softening_squared, T* HWY_RESTRICT ax, T* HWY_RESTRICT ay,
                                     T* HWY_RESTRICT az) {
  ForceLoop<false>(tx, ty, tz, count, s, softening_squared, ax, ay, az);
}

// The loop for the rest of the accepted range (sim/limits.h): r^2 capped, and fp64's float seed taken over
// every double's exponent.
template <class T>
HWY_NOINLINE void FarBlockAccelerations(const T* HWY_RESTRICT tx, const T* HWY_RESTRICT ty,
                                        const T* HWY_RESTRICT tz, std::size_t count, SimdForceSources<T> s,
                                        T softening_squared, T* HWY_RESTRICT ax, T* HWY_RESTRICT ay,
                                        T* HWY_RESTRICT az) {
  ForceLoop<true>(tx, ty, tz, count, s, softening_squared, ax, ay, az);
}

// A block whose targets and sources all lie within kSimdNearReach of the origin between them has every r^2
// below 3e38 + eps^2, inside float's range: the near loop, with nothing for the edges, serves it.
template <class T>
void Accelerations(const T* HWY_RESTRICT tx, const T* HWY_RESTRICT ty, const T* HWY_RESTRICT tz, int count,
                   SimdForceSources<T> s, T softening_squared, T* HWY_RESTRICT ax, T* HWY_RESTRICT ay,
                   T* HWY_RESTRICT az) {
  const hn::ScalableTag<T> d;
  // Whole register pairs, as the loop computes them.
  const std::size_t lanes = hn::Lanes(d),
                    computed = (static_cast<std::size_t>(count) + 2 * lanes - 1) / (2 * lanes) * (2 * lanes);
  auto reach = hn::Zero(d);
  for (std::size_t i = 0; i < computed; i += lanes)
    reach = hn::Max(reach, hn::Max(hn::Abs(hn::Load(d, tx + i)),
                                   hn::Max(hn::Abs(hn::Load(d, ty + i)), hn::Abs(hn::Load(d, tz + i)))));
  if (hn::GetLane(hn::MaxOfLanes(d, reach)) + s.reach <= T(kSimdNearReach))
    BlockAccelerations(tx, ty, tz, computed, s, softening_squared, ax, ay, az);
  else
    FarBlockAccelerations(tx, ty, tz, computed, s, softening_squared, ax, ay, az);
}

// Terms of (1 - e)^(-1/2) = sum c_k e^k, c_k = (2k - 1)!! / (2^k k!): 1 / sqrt(x) from the same seeds; each
// is below kSeries' term of the same k, so SeriesDegree() leaves out less than half an ulp here too.
constexpr double kRootSeries[] = {1.0, 0.5, 0.375, 0.3125, 0.2734375, 0.24609375};

// 1 / sqrt(x) for x positive and within float's range: y (1 + e (c1 + e (c2 + ...))), e = 1 - x y^2.
template <class D>
HWY_INLINE hn::Vec<D> ReciprocalSqrt(D d, hn::Vec<D> x) {
  using T = hn::TFromD<D>;
  constexpr int kDegree = SeriesDegree<T>();
  const auto y = RsqrtSeed<false>(d, x);
  const auto e = hn::NegMulAdd(x, hn::Mul(y, y), hn::Set(d, T(1)));
  auto p = hn::Set(d, T(kRootSeries[kDegree]));
  for (int k = kDegree - 1; k >= 1; --k) p = hn::MulAdd(p, e, hn::Set(d, T(kRootSeries[k])));
  return hn::MulAdd(hn::Mul(y, e), p, y);
}

// One node's pull on a register of targets, added to (ax, ay, az). With u = r / sqrt(r^2 + eps^2) and s =
// 1 / (r^2 + eps^2) the pull is s (-M u + s (Q u - 5/2 (u.Q.u) u)): every product stays near the result's
// size (|Q u| s <= M theta^2 for an accepted node), so no r^-7 overflows the precision.
template <class D>
HWY_INLINE void NodePull(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> z, const hn::Vec<D>* node,
                         hn::Vec<D> eps2, hn::Vec<D>& ax, hn::Vec<D>& ay, hn::Vec<D>& az) {
  using T = hn::TFromD<D>;
  const auto rx = hn::Sub(x, node[0]), ry = hn::Sub(y, node[1]), rz = hn::Sub(z, node[2]);
  const auto r2 = hn::MulAdd(rz, rz, hn::MulAdd(ry, ry, hn::MulAdd(rx, rx, eps2)));
  const auto inv = ReciprocalSqrt(d, r2);
  const auto s = hn::Mul(inv, inv);
  const auto ux = hn::Mul(rx, inv), uy = hn::Mul(ry, inv), uz = hn::Mul(rz, inv);
  const auto* q = node + 4;  // xx, yy, zz, xy, xz, yz
  const auto qx = hn::MulAdd(q[4], uz, hn::MulAdd(q[3], uy, hn::Mul(q[0], ux)));
  const auto qy = hn::MulAdd(q[5], uz, hn::MulAdd(q[1], uy, hn::Mul(q[3], ux)));
  const auto qz = hn::MulAdd(q[2], uz, hn::MulAdd(q[5], uy, hn::Mul(q[4], ux)));
  const auto uqu = hn::Mul(hn::MulAdd(uz, qz, hn::MulAdd(uy, qy, hn::Mul(ux, qx))), hn::Set(d, T(-2.5)));
  const auto m = node[3];
  // s (-M u + s (Q u + uqu u)), uqu already -5/2 u.Q.u.
  ax = hn::MulAdd(s, hn::MulSub(s, hn::MulAdd(uqu, ux, qx), hn::Mul(m, ux)), ax);
  ay = hn::MulAdd(s, hn::MulSub(s, hn::MulAdd(uqu, uy, qy), hn::Mul(m, uy)), ay);
  az = hn::MulAdd(s, hn::MulSub(s, hn::MulAdd(uqu, uz, qz), hn::Mul(m, uz)), az);
}

// Two registers of targets per pass over the nodes, as ForceLoop: each node's ten broadcasts serve both.
template <class T>
HWY_NOINLINE void NodeAccelerations(const T* HWY_RESTRICT tx, const T* HWY_RESTRICT ty,
                                    const T* HWY_RESTRICT tz, int count, SimdNodeSources<T> s,
                                    T softening_squared, T* HWY_RESTRICT ax, T* HWY_RESTRICT ay,
                                    T* HWY_RESTRICT az) {
  const hn::ScalableTag<T> d;
  const std::size_t lanes = hn::Lanes(d);
  const auto eps2 = hn::Set(d, softening_squared);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); i += 2 * lanes) {
    const auto x0 = hn::Load(d, tx + i), y0 = hn::Load(d, ty + i), z0 = hn::Load(d, tz + i);
    const auto x1 = hn::Load(d, tx + i + lanes), y1 = hn::Load(d, ty + i + lanes),
               z1 = hn::Load(d, tz + i + lanes);
    auto ax0 = hn::Load(d, ax + i), ay0 = hn::Load(d, ay + i), az0 = hn::Load(d, az + i);
    auto ax1 = hn::Load(d, ax + i + lanes), ay1 = hn::Load(d, ay + i + lanes),
         az1 = hn::Load(d, az + i + lanes);
    for (int j = 0; j < s.count; ++j) {
      const T* const r = s.records + static_cast<std::ptrdiff_t>(kMultipoleFields) * s.ids[j];
      hn::Vec<decltype(d)> node[kMultipoleFields];
      for (int f = 0; f < kMultipoleFields; ++f) node[f] = hn::Set(d, r[f]);
      NodePull(d, x0, y0, z0, node, eps2, ax0, ay0, az0);
      NodePull(d, x1, y1, z1, node, eps2, ax1, ay1, az1);
    }
    hn::Store(ax0, d, ax + i);
    hn::Store(ay0, d, ay + i);
    hn::Store(az0, d, az + i);
    hn::Store(ax1, d, ax + i + lanes);
    hn::Store(ay1, d, ay + i + lanes);
    hn::Store(az1, d, az + i + lanes);
  }
}

template <class T>
void DriftSoa(T* HWY_RESTRICT x, T* HWY_RESTRICT y, T* HWY_RESTRICT z, const T* HWY_RESTRICT vx,
              const T* HWY_RESTRICT vy, const T* HWY_RESTRICT vz, std::ptrdiff_t begin, std::ptrdiff_t end,
              T dt) {
  const hn::ScalableTag<T> d;
  const std::ptrdiff_t lanes = static_cast<std::ptrdiff_t>(hn::Lanes(d));
  const auto step = hn::Set(d, dt);
  std::ptrdiff_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    hn::StoreU(hn::Add(hn::LoadU(d, x + i), hn::Mul(hn::LoadU(d, vx + i), step)), d, x + i);
    hn::StoreU(hn::Add(hn::LoadU(d, y + i), hn::Mul(hn::LoadU(d, vy + i), step)), d, y + i);
    hn::StoreU(hn::Add(hn::LoadU(d, z + i), hn::Mul(hn::LoadU(d, vz + i), step)), d, z + i);
  }
  for (; i < end; ++i) {
    x[i] = x[i] + vx[i] * dt;
    y[i] = y[i] + vy[i] * dt;
    z[i] = z[i] + vz[i] * dt;
  }
}

template <class T>
void DriftVec4(T* HWY_RESTRICT pos_mass, const T* HWY_RESTRICT vel, std::ptrdiff_t begin, std::ptrdiff_t end,
               T dt) {
  const hn::ScalableTag<T> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  using U = hn::TFromD<decltype(du)>;
  const std::ptrdiff_t lanes = static_cast<std::ptrdiff_t>(hn::Lanes(d));
  const auto step = hn::Set(d, dt);
  // Which lanes are w (mass, kept): a register starting at a multiple of 4 scalars, or (2 lanes) at 4k + 2.
  const auto three = hn::Set(du, U(3));
  const auto keep_at_0 = hn::RebindMask(d, hn::Eq(hn::And(hn::Iota(du, U(0)), three), three));
  const auto keep_at_2 = hn::RebindMask(d, hn::Eq(hn::And(hn::Iota(du, U(2)), three), three));
  std::ptrdiff_t k = 4 * begin;
  const std::ptrdiff_t stop = 4 * end;
  for (; k + lanes <= stop; k += lanes) {
    const auto p = hn::LoadU(d, pos_mass + k);
    const auto moved = hn::Add(p, hn::Mul(hn::LoadU(d, vel + k), step));
    hn::StoreU(hn::IfThenElse((k & 3) == 0 ? keep_at_0 : keep_at_2, p, moved), d, pos_mass + k);
  }
  for (; k < stop; ++k)
    if ((k & 3) != 3) pos_mass[k] = pos_mass[k] + vel[k] * dt;
}

// |v| as the scalar pack computes it: (vx^2 + vy^2) + vz^2, then the correctly rounded square root.
template <class D>
HWY_INLINE hn::Vec<D> Speed(hn::Vec<D> vx, hn::Vec<D> vy, hn::Vec<D> vz) {
  return hn::Sqrt(hn::Add(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy)), hn::Mul(vz, vz)));
}

template <class T>
void PackOne(T x, T y, T z, T vx, T vy, T vz, float* out) {
  out[0] = static_cast<float>(x);
  out[1] = static_cast<float>(y);
  out[2] = static_cast<float>(z);
  out[3] = static_cast<float>(std::sqrt(vx * vx + vy * vy + vz * vz));
}

// Four registers of x, y, z, |v| into out: interleaved stores in fp32; in fp64 the lanes go through a small
// array and are narrowed one by one (the 16-byte float records want half-width registers).
template <class D>
HWY_INLINE void StorePacked(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> z, hn::Vec<D> s, float* out) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == sizeof(float)) {
    hn::StoreInterleaved4(x, y, z, s, d, out);
  } else {
    constexpr std::size_t kMax = hn::MaxLanes(d);
    HWY_ALIGN T lanes[4][kMax];
    hn::Store(x, d, lanes[0]);
    hn::Store(y, d, lanes[1]);
    hn::Store(z, d, lanes[2]);
    hn::Store(s, d, lanes[3]);
    for (std::size_t l = 0; l < hn::Lanes(d); ++l)
      for (int c = 0; c < 4; ++c) out[4 * l + static_cast<std::size_t>(c)] = static_cast<float>(lanes[c][l]);
  }
}

template <class T>
void PackSoa(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, const T* HWY_RESTRICT z,
             const T* HWY_RESTRICT vx, const T* HWY_RESTRICT vy, const T* HWY_RESTRICT vz, std::ptrdiff_t begin,
             std::ptrdiff_t end, float* HWY_RESTRICT out) {
  const hn::ScalableTag<T> d;
  const std::ptrdiff_t lanes = static_cast<std::ptrdiff_t>(hn::Lanes(d));
  std::ptrdiff_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    const auto s = Speed<decltype(d)>(hn::LoadU(d, vx + i), hn::LoadU(d, vy + i), hn::LoadU(d, vz + i));
    StorePacked(d, hn::LoadU(d, x + i), hn::LoadU(d, y + i), hn::LoadU(d, z + i), s, out + 4 * i);
  }
  for (; i < end; ++i) PackOne(x[i], y[i], z[i], vx[i], vy[i], vz[i], out + 4 * i);
}

template <class T>
void PackVec4(const T* HWY_RESTRICT pos_mass, const T* HWY_RESTRICT vel, std::ptrdiff_t begin,
              std::ptrdiff_t end, float* HWY_RESTRICT out) {
  const hn::ScalableTag<T> d;
  const std::ptrdiff_t lanes = static_cast<std::ptrdiff_t>(hn::Lanes(d));
  std::ptrdiff_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    hn::Vec<decltype(d)> x, y, z, m, vx, vy, vz, w;
    hn::LoadInterleaved4(d, pos_mass + 4 * i, x, y, z, m);
    hn::LoadInterleaved4(d, vel + 4 * i, vx, vy, vz, w);
    StorePacked(d, x, y, z, Speed<decltype(d)>(vx, vy, vz), out + 4 * i);
  }
  for (; i < end; ++i) {
    const T* p = pos_mass + 4 * i;
    const T* v = vel + 4 * i;
    PackOne(p[0], p[1], p[2], v[0], v[1], v[2], out + 4 * i);
  }
}

template <class T>
SimdKernelsT<T> KernelsFor() {
  return {&Accelerations<T>, &DriftSoa<T>, &DriftVec4<T>, &PackSoa<T>, &PackVec4<T>, &NodeAccelerations<T>};
}

SimdKernels MakeKernels() { return {KernelsFor<float>(), KernelsFor<double>()}; }

}  // namespace HWY_NAMESPACE
}  // namespace coalesce
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <optional>

namespace coalesce {

HWY_EXPORT(MakeKernels);

namespace {

// Highway's bit for each SIMD row of kCpuTargetTable; 0 for the scalar reference.
constexpr std::int64_t highway_bit(CpuTarget target) {
  switch (target) {
    case CpuTarget::Avx512:
      return HWY_AVX3;
    case CpuTarget::Avx2:
      return HWY_AVX2;
    case CpuTarget::Sse4:
      return HWY_SSE4;
    case CpuTarget::Scalar:
      return 0;
  }
  return 0;
}

// This TU's table entry for one target: a local ChosenTarget (not Highway's process-wide one) picks it, so
// two backends in one process may use different targets.
SimdKernels kernels_of(CpuTarget target) {
  hwy::ChosenTarget chosen;
  chosen.Update(highway_bit(target));
  return HWY_DISPATCH_TABLE(MakeKernels)[chosen.GetIndex()]();
}

struct AllKernels {
  std::optional<SimdKernels> by_target[kCpuTargetCount];
};

const AllKernels& all_kernels() {
  static const AllKernels all = [] {
    AllKernels out;
    for (const CpuTargetInfo& row : kCpuTargetTable)
      if (row.target != CpuTarget::Scalar && cpu_target_supported(row.target))
        out.by_target[static_cast<std::size_t>(row.target)] = kernels_of(row.target);
    return out;
  }();
  return all;
}

}  // namespace

bool cpu_target_supported(CpuTarget target) {
  const std::int64_t bit = highway_bit(target);
  if (bit == 0) return true;
  return (HWY_TARGETS & bit) != 0 && (hwy::SupportedTargets() & bit) != 0;
}

CpuTarget best_cpu_target() {
  for (const CpuTargetInfo& row : kCpuTargetTable)
    if (cpu_target_supported(row.target)) return row.target;
  return CpuTarget::Scalar;
}

std::string supported_cpu_targets_text() {
  std::string out;
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    if (!cpu_target_supported(row.target)) continue;
    if (!out.empty()) out += ", ";
    out += row.name;
  }
  return out;
}

std::string unsupported_cpu_target_text(CpuTarget target) {
  return "this CPU does not run " + std::string(cpu_target_info(target).label) + " (it runs " +
         supported_cpu_targets_text() + ")";
}

const SimdKernels* simd_kernels(CpuTarget target) {
  const auto& entry = all_kernels().by_target[static_cast<std::size_t>(target)];
  return entry ? &*entry : nullptr;
}

}  // namespace coalesce
#endif  // HWY_ONCE
