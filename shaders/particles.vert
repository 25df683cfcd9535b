// Particle point sprites: position from the packed render buffer, size attenuated by distance,
// colour from speed through a colour map.
#version 430 core

layout(location = 0) in vec4 a_position_speed;  // x, y, z, |v|

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_point_size;    // world-space diameter
uniform float u_viewport_height;
uniform float u_speed_scale;   // 1 / the speed that maps to the top of the colour map
uniform float u_intensity;     // per-particle brightness, lowered for large N so additive blending keeps detail
uniform float u_max_pixels;    // largest sprite drawn, in pixels

out vec3 v_colour;
flat out int v_flat;  // 1: a single pixel without the Gaussian

// Mirrors render/sprite_scale.cpp (drawn_sprite): tiny sprites become one flat pixel carrying the
// light their Gaussian would have spread, so large N costs one fragment per particle.
const float kFlatPointPixels = 2.0;
const float kGaussianFill = 0.19277;  // pi (1 - e^-4) / 16: the Gaussian's share of the sprite square

// Deep blue -> violet -> orange -> pale yellow: slow particles cool, fast ones hot.
vec3 colour_map(float t) {
  const vec3 c0 = vec3(0.10, 0.18, 0.60);
  const vec3 c1 = vec3(0.45, 0.25, 0.85);
  const vec3 c2 = vec3(1.00, 0.45, 0.20);
  const vec3 c3 = vec3(1.00, 0.90, 0.60);
  t = clamp(t, 0.0, 1.0);
  if (t < 0.33) return mix(c0, c1, t / 0.33);
  if (t < 0.66) return mix(c1, c2, (t - 0.33) / 0.33);
  return mix(c2, c3, (t - 0.66) / 0.34);
}

void main() {
  vec4 view_position = u_view * vec4(a_position_speed.xyz, 1.0);
  gl_Position = u_projection * view_position;
  float distance = max(-view_position.z, 1e-3);
  // Projected diameter in pixels: world size * focal length (in pixels) / distance.
  float pixels = u_point_size * u_projection[1][1] * 0.5 * u_viewport_height / distance;
  float light;
  if (pixels < kFlatPointPixels) {
    gl_PointSize = 1.0;
    light = kGaussianFill * pixels * pixels;
    v_flat = 1;
  } else {
    gl_PointSize = min(pixels, u_max_pixels);
    // Clamped at the top: the sprite keeps its per-pixel light (close particles must not flare).
    light = 1.0;
    v_flat = 0;
  }
  v_colour = colour_map(a_position_speed.w * u_speed_scale) * (u_intensity * light);
}
