// AoS vs SoA (and float4) particle updates, article 003: x += vx*dt alone, and position += velocity*dt. In the
// run's precision (lab --precision): fp64 moves the app's fp64 records, 56-byte AoS, double SoA arrays and
// double4_32a vectors, over the same bytes as fp32 (half the particles).
#include <type_traits>

#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

// The vector layout's element: float4, or CUDA 13's double4_32a (one 32-byte vector) in fp64.
template <class Real>
using Vector4 = std::conditional_t<std::is_same_v<Real, float>, float4, double4_32a>;

template <class Real>
__host__ __device__ inline Vector4<Real> make_vector4(Real x, Real y, Real z, Real w) {
  return {x, y, z, w};
}

template <class Real>
constexpr Real kDt = Real(1e-3);

template <class Real, bool kAll>
__global__ void update_aos(ParticleRecord<Real>* p, std::int64_t n, Real dt) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  p[i].x += p[i].vx * dt;
  if (kAll) {
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
  }
}

template <class Real>
struct SoaPointers {
  Real *x, *y, *z, *vx, *vy, *vz;
};

template <class Real, bool kAll>
__global__ void update_soa(SoaPointers<Real> s, std::int64_t n, Real dt) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  s.x[i] += s.vx[i] * dt;
  if (kAll) {
    s.y[i] += s.vy[i] * dt;
    s.z[i] += s.vz[i] * dt;
  }
}

template <class Real>
__global__ void update_float4(Vector4<Real>* pos_mass, const Vector4<Real>* vel, std::int64_t n, Real dt) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Vector4<Real> p = pos_mass[i];
  const Vector4<Real> v = vel[i];
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  pos_mass[i] = p;
}

template <class Real>
void launch_aos(ParticleRecord<Real>* p, std::int64_t n, Real dt, ParticleUpdate u) {
  if (u == ParticleUpdate::AllFields)
    launch(update_aos<Real, true>, {n, kBlock, kBlock}, kLabStream, p, n, dt);
  else
    launch(update_aos<Real, false>, {n, kBlock, kBlock}, kLabStream, p, n, dt);
}

template <class Real>
void launch_soa(SoaPointers<Real> s, std::int64_t n, Real dt, ParticleUpdate u) {
  if (u == ParticleUpdate::AllFields)
    launch(update_soa<Real, true>, {n, kBlock, kBlock}, kLabStream, s, n, dt);
  else
    launch(update_soa<Real, false>, {n, kBlock, kBlock}, kLabStream, s, n, dt);
}

template <class Real>
void launch_float4(Vector4<Real>* pos_mass, const Vector4<Real>* vel, std::int64_t n, Real dt) {
  launch(update_float4<Real>, {n, kBlock, kBlock}, kLabStream, pos_mass, vel, n, dt);
}

// Particle i's field f (0..6 = x, y, z, vx, vy, vz, mass) is lab_value(seed, 7i + f) in every layout and
// either precision (a float, exact in double).
template <class Real>
__device__ inline Real field(std::uint32_t seed, std::int64_t i, int f) {
  return Real(lab_value(seed, 7 * i + f));
}
template <class Real>
__device__ inline Real updated(std::uint32_t seed, std::int64_t i, int f, bool all, Real dt) {
  return (f == 0 || (all && f < 3)) ? field<Real>(seed, i, f) + field<Real>(seed, i, f + 3) * dt
                                    : field<Real>(seed, i, f);
}

template <class Real>
struct AosExpected {  // over the 7N values of the records
  std::uint32_t seed;
  bool all;
  __device__ Real operator()(std::int64_t j) const {
    return updated<Real>(seed, j / 7, int(j % 7), all, kDt<Real>);
  }
};
template <class Real>
struct SoaExpected {  // over one field array
  std::uint32_t seed;
  int f;
  bool all;
  __device__ Real operator()(std::int64_t i) const { return updated<Real>(seed, i, f, all, kDt<Real>); }
};
template <class Real>
struct Float4Expected {  // over the 4N values of pos_mass
  std::uint32_t seed;
  __device__ Real operator()(std::int64_t j) const {
    const int c = int(j % 4);
    return c < 3 ? updated<Real>(seed, j / 4, c, true, kDt<Real>) : field<Real>(seed, j / 4, 6);
  }
};

template <class Real>
__global__ void init_float4(Vector4<Real>* pos_mass, Vector4<Real>* vel, std::int64_t n, std::uint32_t seed) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  pos_mass[i] = make_vector4<Real>(field<Real>(seed, i, 0), field<Real>(seed, i, 1), field<Real>(seed, i, 2),
                                   field<Real>(seed, i, 6));
  vel[i] = make_vector4<Real>(field<Real>(seed, i, 3), field<Real>(seed, i, 4), field<Real>(seed, i, 5), Real(0));
}

const char* const kArticle = "A100 (art. 003, 16-B struct): AoS 410 vs SoA 1840 GB/s";

// x' = x + v*dt may be fused on the device: a couple of roundings in the run's precision.
template <class Real>
constexpr double kTol = std::is_same_v<Real, float> ? 1e-6 : 1e-12;

template <class Real>
std::vector<LabRow> run_particles(const LabContext& context) {
  constexpr bool kFp64 = std::is_same_v<Real, double>;
  // The same bytes in either precision: fp64 records are twice as wide, so half as many particles.
  const std::int64_t n = context.settings.elements() / 4 / (sizeof(Real) / sizeof(float));
  const std::uint32_t seed = context.settings.seed;
  const double w = sizeof(Real);
  const std::string suffix = kFp64 ? ", fp64" : "";
  const std::string single_formula = kFp64 ? "3 x N x 8 B (read x, vx; write x)" : "3 x N x 4 B (read x, vx; write x)";
  const std::string all_formula = kFp64 ? "9 x N x 8 B (read x,y,z,vx,vy,vz; write x,y,z)"
                                        : "9 x N x 4 B (read x,y,z,vx,vy,vz; write x,y,z)";
  std::vector<LabRow> rows;
  {
    DeviceBuffer<ParticleRecord<Real>> p(n);
    Real* flat = reinterpret_cast<Real*>(p.data());
    for (ParticleUpdate u : {ParticleUpdate::SingleField, ParticleUpdate::AllFields}) {
      const bool all = u == ParticleUpdate::AllFields;
      fill_values(flat, 7 * n, seed);
      launch_aos(p.data(), n, kDt<Real>, u);
      const bool ok = device_check(flat, 7 * n, AosExpected<Real>{seed, all}, kTol<Real>);
      const TimedRow ms = timed_row([&] { launch_aos(p.data(), n, kDt<Real>, u); }, context);
      rows.push_back(make_row(context, "particles", (all ? "AoS all fields" : "AoS x only") + suffix, ms,
                              (all ? 9.0 : 3.0) * n * w, all ? all_formula : single_formula,
                              all ? kArticle : "", ok));
    }
  }
  {
    DeviceBuffer<Real> fields[6] = {DeviceBuffer<Real>(n), DeviceBuffer<Real>(n), DeviceBuffer<Real>(n),
                                    DeviceBuffer<Real>(n), DeviceBuffer<Real>(n), DeviceBuffer<Real>(n)};
    const SoaPointers<Real> s{fields[0].data(), fields[1].data(), fields[2].data(),
                              fields[3].data(), fields[4].data(), fields[5].data()};
    for (ParticleUpdate u : {ParticleUpdate::SingleField, ParticleUpdate::AllFields}) {
      const bool all = u == ParticleUpdate::AllFields;
      for (int f = 0; f < 6; ++f) fill_values(fields[f].data(), n, seed, 7, f);
      launch_soa(s, n, kDt<Real>, u);
      bool ok = true;
      for (int f = 0; f < 6; ++f)
        ok = device_check(fields[f].data(), n, SoaExpected<Real>{seed, f, all}, kTol<Real>) && ok;
      const TimedRow ms = timed_row([&] { launch_soa(s, n, kDt<Real>, u); }, context);
      rows.push_back(make_row(context, "particles", (all ? "SoA all fields" : "SoA x only") + suffix, ms,
                              (all ? 9.0 : 3.0) * n * w, all ? all_formula : single_formula,
                              all ? kArticle : "", ok));
    }
  }
  {
    DeviceBuffer<Vector4<Real>> pos_mass(n), vel(n);
    launch(init_float4<Real>, {n, kBlock, kBlock}, kLabStream, pos_mass.data(), vel.data(), n, seed);
    launch_float4<Real>(pos_mass.data(), vel.data(), n, kDt<Real>);
    const bool ok = device_check(reinterpret_cast<const Real*>(pos_mass.data()), 4 * n, Float4Expected<Real>{seed},
                                 kTol<Real>);
    const TimedRow ms = timed_row([&] { launch_float4<Real>(pos_mass.data(), vel.data(), n, kDt<Real>); }, context);
    rows.push_back(make_row(context, "particles", kFp64 ? "double4_32a all fields, fp64" : "float4 all fields", ms,
                            9.0 * n * w,
                            kFp64 ? "9 x N x 8 B useful (moves 96 B/particle: 2 double4_32a read, 1 written)"
                                  : "9 x N x 4 B useful (moves 48 B/particle: 2 float4 read, 1 written)",
                            "", ok));
  }
  return rows;
}

template <class Real>
std::vector<ParticleRecord<Real>> aos_update(const std::vector<ParticleRecord<Real>>& p, Real dt,
                                             ParticleUpdate update) {
  DeviceBuffer<ParticleRecord<Real>> d = upload(p);
  launch_aos(d.data(), static_cast<std::int64_t>(p.size()), dt, update);
  return download(d.data(), p.size());
}

template <class Real>
std::vector<ParticleRecord<Real>> soa_update(const std::vector<ParticleRecord<Real>>& p, Real dt,
                                             ParticleUpdate update) {
  const std::size_t n = p.size();
  std::vector<Real> host[6];
  for (auto& h : host) h.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Real values[6] = {p[i].x, p[i].y, p[i].z, p[i].vx, p[i].vy, p[i].vz};
    for (int f = 0; f < 6; ++f) host[f][i] = values[f];
  }
  DeviceBuffer<Real> d[6] = {upload(host[0]), upload(host[1]), upload(host[2]),
                             upload(host[3]), upload(host[4]), upload(host[5])};
  launch_soa<Real>({d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data()},
                   static_cast<std::int64_t>(n), dt, update);
  std::vector<ParticleRecord<Real>> out = p;
  const std::vector<Real> x = download(d[0].data(), n), y = download(d[1].data(), n), z = download(d[2].data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].x = x[i];
    out[i].y = y[i];
    out[i].z = z[i];
  }
  return out;
}

template <class Real>
std::vector<ParticleRecord<Real>> vector_update(const std::vector<ParticleRecord<Real>>& p, Real dt) {
  std::vector<Vector4<Real>> pos(p.size()), vel(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    pos[i] = make_vector4<Real>(p[i].x, p[i].y, p[i].z, p[i].mass);
    vel[i] = make_vector4<Real>(p[i].vx, p[i].vy, p[i].vz, Real(0));
  }
  DeviceBuffer<Vector4<Real>> d_pos = upload(pos);
  DeviceBuffer<Vector4<Real>> d_vel = upload(vel);
  launch_float4<Real>(d_pos.data(), d_vel.data(), static_cast<std::int64_t>(p.size()), dt);
  const std::vector<Vector4<Real>> out_pos = download(d_pos.data(), p.size());
  std::vector<ParticleRecord<Real>> out = p;
  for (std::size_t i = 0; i < p.size(); ++i) {
    out[i].x = out_pos[i].x;
    out[i].y = out_pos[i].y;
    out[i].z = out_pos[i].z;
    out[i].mass = out_pos[i].w;
  }
  return out;
}

}  // namespace

std::vector<LabRow> run_particles_experiment(const LabContext& context) {
  return context.settings.precision == Precision::Fp64 ? run_particles<double>(context)
                                                       : run_particles<float>(context);
}

std::vector<Particle> run_aos_update(const std::vector<Particle>& p, float dt, ParticleUpdate update) {
  return aos_update(p, dt, update);
}
std::vector<ParticleF64> run_aos_update(const std::vector<ParticleF64>& p, double dt, ParticleUpdate update) {
  return aos_update(p, dt, update);
}
std::vector<Particle> run_soa_update(const std::vector<Particle>& p, float dt, ParticleUpdate update) {
  return soa_update(p, dt, update);
}
std::vector<ParticleF64> run_soa_update(const std::vector<ParticleF64>& p, double dt, ParticleUpdate update) {
  return soa_update(p, dt, update);
}
std::vector<Particle> run_float4_update(const std::vector<Particle>& p, float dt) {
  return vector_update(p, dt);
}
std::vector<ParticleF64> run_double4_update(const std::vector<ParticleF64>& p, double dt) {
  return vector_update(p, dt);
}

}  // namespace coalesce::lab
