// AoS vs SoA (and float4) particle updates, article 003: x += vx*dt alone, and position += velocity*dt.
#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

constexpr float kDt = 1e-3f;

template <bool kAll>
__global__ void update_aos(Particle* p, std::int64_t n, float dt) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  p[i].x += p[i].vx * dt;
  if (kAll) {
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
  }
}

struct SoaPointers {
  float *x, *y, *z, *vx, *vy, *vz;
};

template <bool kAll>
__global__ void update_soa(SoaPointers s, std::int64_t n, float dt) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  s.x[i] += s.vx[i] * dt;
  if (kAll) {
    s.y[i] += s.vy[i] * dt;
    s.z[i] += s.vz[i] * dt;
  }
}

__global__ void update_float4(float4* pos_mass, const float4* vel, std::int64_t n, float dt) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float4 p = pos_mass[i];
  const float4 v = vel[i];
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  pos_mass[i] = p;
}

void launch_aos(Particle* p, std::int64_t n, float dt, ParticleUpdate u) {
  if (u == ParticleUpdate::AllFields)
    launch(update_aos<true>, {n, kBlock, kBlock}, kLabStream, p, n, dt);
  else
    launch(update_aos<false>, {n, kBlock, kBlock}, kLabStream, p, n, dt);
}

void launch_soa(SoaPointers s, std::int64_t n, float dt, ParticleUpdate u) {
  if (u == ParticleUpdate::AllFields)
    launch(update_soa<true>, {n, kBlock, kBlock}, kLabStream, s, n, dt);
  else
    launch(update_soa<false>, {n, kBlock, kBlock}, kLabStream, s, n, dt);
}

void launch_float4(float4* pos_mass, const float4* vel, std::int64_t n, float dt) {
  launch(update_float4, {n, kBlock, kBlock}, kLabStream, pos_mass, vel, n, dt);
}

// Particle i's field f (0..6 = x, y, z, vx, vy, vz, mass) is lab_value(seed, 7i + f) in every layout.
__device__ inline float field(std::uint32_t seed, std::int64_t i, int f) {
  return lab_value(seed, 7 * i + f);
}
__device__ inline float updated(std::uint32_t seed, std::int64_t i, int f, bool all, float dt) {
  return (f == 0 || (all && f < 3)) ? field(seed, i, f) + field(seed, i, f + 3) * dt : field(seed, i, f);
}

struct AosExpected {  // over the 7N floats of the records
  std::uint32_t seed;
  bool all;
  __device__ float operator()(std::int64_t j) const { return updated(seed, j / 7, int(j % 7), all, kDt); }
};
struct SoaExpected {  // over one field array
  std::uint32_t seed;
  int f;
  bool all;
  __device__ float operator()(std::int64_t i) const { return updated(seed, i, f, all, kDt); }
};
struct Float4Expected {  // over the 4N floats of pos_mass
  std::uint32_t seed;
  __device__ float operator()(std::int64_t j) const {
    const int c = int(j % 4);
    return c < 3 ? updated(seed, j / 4, c, true, kDt) : field(seed, j / 4, 6);
  }
};

__global__ void init_float4(float4* pos_mass, float4* vel, std::int64_t n, std::uint32_t seed) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  pos_mass[i] = make_float4(field(seed, i, 0), field(seed, i, 1), field(seed, i, 2), field(seed, i, 6));
  vel[i] = make_float4(field(seed, i, 3), field(seed, i, 4), field(seed, i, 5), 0.0f);
}

const char* const kArticle = "A100 (art. 003, 16-B struct): AoS 410 vs SoA 1840 GB/s";
const char* const kSingleFormula = "3 x N x 4 B (read x, vx; write x)";
const char* const kAllFormula = "9 x N x 4 B (read x,y,z,vx,vy,vz; write x,y,z)";
constexpr float kTol = 1e-6f;

}  // namespace

std::vector<LabRow> run_particles_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements() / 4;
  const std::uint32_t seed = context.settings.seed;
  std::vector<LabRow> rows;
  {
    DeviceBuffer<Particle> p(n);
    float* flat = reinterpret_cast<float*>(p.data());
    for (ParticleUpdate u : {ParticleUpdate::SingleField, ParticleUpdate::AllFields}) {
      const bool all = u == ParticleUpdate::AllFields;
      fill_values(flat, 7 * n, seed);
      launch_aos(p.data(), n, kDt, u);
      const bool ok = device_check(flat, 7 * n, AosExpected{seed, all}, kTol);
      const TimedRow ms = timed_row([&] { launch_aos(p.data(), n, kDt, u); }, context);
      rows.push_back(make_row(context, "particles", all ? "AoS all fields" : "AoS x only", ms,
                              (all ? 9.0 : 3.0) * n * 4, all ? kAllFormula : kSingleFormula,
                              all ? kArticle : "", ok));
    }
  }
  {
    DeviceBuffer<float> fields[6] = {DeviceBuffer<float>(n), DeviceBuffer<float>(n), DeviceBuffer<float>(n),
                                     DeviceBuffer<float>(n), DeviceBuffer<float>(n), DeviceBuffer<float>(n)};
    const SoaPointers s{fields[0].data(), fields[1].data(), fields[2].data(),
                        fields[3].data(), fields[4].data(), fields[5].data()};
    for (ParticleUpdate u : {ParticleUpdate::SingleField, ParticleUpdate::AllFields}) {
      const bool all = u == ParticleUpdate::AllFields;
      for (int f = 0; f < 6; ++f) fill_values(fields[f].data(), n, seed, 7, f);
      launch_soa(s, n, kDt, u);
      bool ok = true;
      for (int f = 0; f < 6; ++f)
        ok = device_check(fields[f].data(), n, SoaExpected{seed, f, all}, kTol) && ok;
      const TimedRow ms = timed_row([&] { launch_soa(s, n, kDt, u); }, context);
      rows.push_back(make_row(context, "particles", all ? "SoA all fields" : "SoA x only", ms,
                              (all ? 9.0 : 3.0) * n * 4, all ? kAllFormula : kSingleFormula,
                              all ? kArticle : "", ok));
    }
  }
  {
    DeviceBuffer<float4> pos_mass(n), vel(n);
    launch(init_float4, {n, kBlock, kBlock}, kLabStream, pos_mass.data(), vel.data(), n, seed);
    launch_float4(pos_mass.data(), vel.data(), n, kDt);
    const bool ok =
        device_check(reinterpret_cast<const float*>(pos_mass.data()), 4 * n, Float4Expected{seed}, kTol);
    const TimedRow ms = timed_row([&] { launch_float4(pos_mass.data(), vel.data(), n, kDt); }, context);
    rows.push_back(make_row(context, "particles", "float4 all fields", ms, 9.0 * n * 4,
                            "9 x N x 4 B useful (moves 48 B/particle: 2 float4 read, 1 written)", "", ok));
  }
  return rows;
}

std::vector<Particle> run_aos_update(const std::vector<Particle>& p, float dt, ParticleUpdate update) {
  DeviceBuffer<Particle> d = upload(p);
  launch_aos(d.data(), static_cast<std::int64_t>(p.size()), dt, update);
  return download(d.data(), p.size());
}

std::vector<Particle> run_soa_update(const std::vector<Particle>& p, float dt, ParticleUpdate update) {
  const std::size_t n = p.size();
  std::vector<float> host[6];
  for (auto& h : host) h.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float values[6] = {p[i].x, p[i].y, p[i].z, p[i].vx, p[i].vy, p[i].vz};
    for (int f = 0; f < 6; ++f) host[f][i] = values[f];
  }
  DeviceBuffer<float> d[6] = {upload(host[0]), upload(host[1]), upload(host[2]),
                              upload(host[3]), upload(host[4]), upload(host[5])};
  launch_soa({d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data()},
             static_cast<std::int64_t>(n), dt, update);
  std::vector<Particle> out = p;
  const std::vector<float> x = download(d[0].data(), n), y = download(d[1].data(), n),
                           z = download(d[2].data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].x = x[i];
    out[i].y = y[i];
    out[i].z = z[i];
  }
  return out;
}

std::vector<Particle> run_float4_update(const std::vector<Particle>& p, float dt) {
  std::vector<float4> pos(p.size()), vel(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    pos[i] = make_float4(p[i].x, p[i].y, p[i].z, p[i].mass);
    vel[i] = make_float4(p[i].vx, p[i].vy, p[i].vz, 0.0f);
  }
  DeviceBuffer<float4> d_pos = upload(pos);
  DeviceBuffer<float4> d_vel = upload(vel);
  launch_float4(d_pos.data(), d_vel.data(), static_cast<std::int64_t>(p.size()), dt);
  const std::vector<float4> out_pos = download(d_pos.data(), p.size());
  std::vector<Particle> out = p;
  for (std::size_t i = 0; i < p.size(); ++i) {
    out[i].x = out_pos[i].x;
    out[i].y = out_pos[i].y;
    out[i].z = out_pos[i].z;
    out[i].mass = out_pos[i].w;
  }
  return out;
}

}  // namespace coalesce::lab
