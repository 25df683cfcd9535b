// generate_initial_state: Plummer sphere, disks (single and colliding), uniform cube and attractor swirl,
// all from SceneRandom so that one seed gives one state everywhere.
#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/scene.h"
#include "sim/scene_random.h"

namespace coalesce {

namespace {

struct V3 {
  double x, y, z;
};

Particle make_particle(V3 p, V3 v, double m) {
  return {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z), static_cast<float>(v.x),
          static_cast<float>(v.y), static_cast<float>(v.z), static_cast<float>(m)};
}

// Subtracts the mass-weighted mean velocity so that total momentum is zero (self-gravitating scenes).
void remove_bulk_velocity(std::vector<Particle>& ps) {
  double mass = 0, px = 0, py = 0, pz = 0;
  for (const Particle& p : ps) {
    mass += p.mass;
    px += static_cast<double>(p.mass) * p.vx;
    py += static_cast<double>(p.mass) * p.vy;
    pz += static_cast<double>(p.mass) * p.vz;
  }
  if (mass <= 0) return;
  for (Particle& p : ps) {
    p.vx = static_cast<float>(p.vx - px / mass);
    p.vy = static_cast<float>(p.vy - py / mass);
    p.vz = static_cast<float>(p.vz - pz / mass);
  }
}

// Aarseth, Henon & Wielen (1974): radius from the inverted cumulative mass (truncated at 99.9% of the mass),
// speed by von Neumann rejection from g(q) = q^2 (1 - q^2)^{7/2} times the local escape speed.
void plummer(const Scene& s, SceneRandom& rng, std::vector<Particle>& out) {
  const double a = s.scale, m_total = s.total_mass, m = m_total / s.particles;
  for (int i = 0; i < s.particles; ++i) {
    const double x1 = rng.uniform(1e-10, 0.999);
    const double r = a / std::sqrt(std::pow(x1, -2.0 / 3.0) - 1.0);
    V3 dir;
    rng.unit_vector(dir.x, dir.y, dir.z);
    double q = 0;
    for (;;) {
      const double x4 = rng.uniform01(), x5 = rng.uniform01();
      if (0.1 * x5 < x4 * x4 * std::pow(1.0 - x4 * x4, 3.5)) {
        q = x4;
        break;
      }
    }
    const double v_escape = std::sqrt(2.0 * m_total / a) * std::pow(1.0 + r * r / (a * a), -0.25);
    V3 vdir;
    rng.unit_vector(vdir.x, vdir.y, vdir.z);
    const double v = q * v_escape;
    out.push_back(make_particle({r * dir.x, r * dir.y, r * dir.z}, {v * vdir.x, v * vdir.y, v * vdir.z}, m));
  }
}

struct DiskSpec {
  int count;            // particles, the central mass included
  V3 center, velocity;  // bulk motion
  double tilt;          // rotation of the disk plane about the x axis, radians
  double radius, disk_mass, central_mass, softening;
};

// Exponential disk (scale length radius/3, truncated at radius) in circular orbits around a central mass
// (particle 0 of the disk, when central_mass > 0), with a thin Gaussian thickness and 3% velocity dispersion.
void disk(const DiskSpec& d, SceneRandom& rng, std::vector<Particle>& out) {
  if (d.count <= 0) return;
  int disk_count = d.count;
  const double c = std::cos(d.tilt), sn = std::sin(d.tilt);
  auto place = [&](V3 p, V3 v, double m) {
    const V3 pr{p.x, c * p.y - sn * p.z, sn * p.y + c * p.z};
    const V3 vr{v.x, c * v.y - sn * v.z, sn * v.y + c * v.z};
    out.push_back(make_particle({d.center.x + pr.x, d.center.y + pr.y, d.center.z + pr.z},
                                {d.velocity.x + vr.x, d.velocity.y + vr.y, d.velocity.z + vr.z}, m));
  };
  if (d.central_mass > 0) {
    place({0, 0, 0}, {0, 0, 0}, d.central_mass);
    --disk_count;
  }
  if (disk_count <= 0) return;
  const double h = d.radius / 3.0, r_min = 0.08 * d.radius, m = d.disk_mass / disk_count;
  auto enclosed = [&](double r) { return 1.0 - std::exp(-r / h) * (1.0 + r / h); };
  const double norm = enclosed(d.radius);
  for (int i = 0; i < disk_count; ++i) {
    // Inverse CDF of the exponential surface density by bisection on the enclosed fraction.
    const double target = rng.uniform01() * norm;
    double lo = 0, hi = d.radius;
    for (int it = 0; it < 40; ++it) (enclosed(0.5 * (lo + hi)) < target ? lo : hi) = 0.5 * (lo + hi);
    const double r = r_min + (1.0 - r_min / d.radius) * 0.5 * (lo + hi);
    const double phi = 6.283185307179586 * rng.uniform01();
    const double z = 0.02 * d.radius * rng.normal();
    const double inner = d.central_mass + d.disk_mass * enclosed(r) / norm;
    const double soft = r * r + d.softening * d.softening;
    const double v_circ = std::sqrt(inner * r * r / (soft * std::sqrt(soft)));
    const double dv = 0.03 * v_circ;
    const V3 v{-v_circ * std::sin(phi) + dv * rng.normal(), v_circ * std::cos(phi) + dv * rng.normal(),
               dv * rng.normal()};
    place({r * std::cos(phi), r * std::sin(phi), z}, v, m);
  }
}

void galaxies(const Scene& s, SceneRandom& rng, std::vector<Particle>& out) {
  const double R = s.scale, eps = s.params.softening;
  const int first = s.particles - s.particles / 2;
  // Offsets and an approach speed at 60% of parabolic give a close, off-centre pass and a later merger.
  const V3 offset{1.6 * R, 0.7 * R, 0.0};
  const double d = 2.0 * std::sqrt(offset.x * offset.x + offset.y * offset.y);
  const double m_all = 2.0 * s.central_mass + s.total_mass;
  const double v_rel = 0.6 * std::sqrt(2.0 * m_all / d);
  disk({first,
        {-offset.x, -offset.y, 0},
        {0.5 * v_rel, 0, 0},
        0.0,
        R,
        0.5 * s.total_mass,
        s.central_mass,
        eps},
       rng, out);
  disk({s.particles / 2, offset, {-0.5 * v_rel, 0, 0}, 1.0, R, 0.5 * s.total_mass, s.central_mass, eps}, rng,
       out);
}

void cube(const Scene& s, SceneRandom& rng, std::vector<Particle>& out) {
  const double a = s.scale, m = static_cast<double>(s.total_mass) / s.particles;
  const double sigma = 0.05 * std::sqrt(s.total_mass / a);  // cold: collapses under its own gravity
  for (int i = 0; i < s.particles; ++i) {
    const V3 p{rng.uniform(-a, a), rng.uniform(-a, a), rng.uniform(-a, a)};
    const V3 v{sigma * rng.normal(), sigma * rng.normal(), sigma * rng.normal()};
    out.push_back(make_particle(p, v, m));
  }
}

// Test particles (they feel only the attractors) on near-circular orbits around the total attractor mass.
void swirl(const Scene& s, SceneRandom& rng, std::vector<Particle>& out) {
  double m_attr = 0;
  for (int k = 0; k < s.params.attractors.count; ++k) m_attr += s.params.attractors.items[k].mass;
  const double R = s.scale, eps = s.params.softening, m = static_cast<double>(s.total_mass) / s.particles;
  for (int i = 0; i < s.particles; ++i) {
    const double r = R * std::sqrt(rng.uniform(0.04, 2.6));
    const double phi = 6.283185307179586 * rng.uniform01();
    const double soft = r * r + eps * eps;
    const double v_circ = std::sqrt(m_attr * r * r / (soft * std::sqrt(soft))) * (1.0 + 0.03 * rng.normal());
    const V3 p{r * std::cos(phi), r * std::sin(phi), 0.03 * R * rng.normal()};
    out.push_back(make_particle(p, {-v_circ * std::sin(phi), v_circ * std::cos(phi), 0.0}, m));
  }
}

}  // namespace

std::vector<Particle> generate_initial_state(const Scene& scene) {
  validate_scene(scene);
  SceneRandom rng(scene.seed);
  std::vector<Particle> out;
  out.reserve(static_cast<std::size_t>(scene.particles));
  switch (scene.initial) {
    case InitialConditions::Plummer:
      plummer(scene, rng, out);
      break;
    case InitialConditions::CollidingDisks:
      galaxies(scene, rng, out);
      break;
    case InitialConditions::RotatingDisk:
      disk({scene.particles,
            {0, 0, 0},
            {0, 0, 0},
            0.0,
            scene.scale,
            scene.total_mass,
            scene.central_mass,
            scene.params.softening},
           rng, out);
      break;
    case InitialConditions::UniformCube:
      cube(scene, rng, out);
      break;
    case InitialConditions::AttractorSwirl:
      swirl(scene, rng, out);
      break;
  }
  if (scene.initial != InitialConditions::AttractorSwirl) remove_bulk_velocity(out);
  return out;
}

}  // namespace coalesce
