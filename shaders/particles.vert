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
// The rule and the colour map of sim/sprite_light.h (drawn_sprite, colour_map), set from that header by
// render/particle_renderer.cpp so the GL path and the CUDA splat draw the same light.
uniform float u_flat_point_pixels;  // kFlatPointPixels: narrower sprites become one flat pixel
uniform float u_gaussian_fill;      // kGaussianFill: the Gaussian's share of the sprite square
uniform float u_colour_at[4];       // colour_stop(i).at
uniform vec3 u_colour_rgb[4];       // colour_stop(i) r, g, b

out vec3 v_colour;
flat out int v_flat;  // 1: a single pixel without the Gaussian

vec3 colour_map(float t) {
  t = clamp(t, 0.0, 1.0);
  int i = 0;
  while (i < 2 && t >= u_colour_at[i + 1]) ++i;
  return mix(u_colour_rgb[i], u_colour_rgb[i + 1], (t - u_colour_at[i]) / (u_colour_at[i + 1] - u_colour_at[i]));
}

void main() {
  vec4 view_position = u_view * vec4(a_position_speed.xyz, 1.0);
  gl_Position = u_projection * view_position;
  float distance = max(-view_position.z, 1e-3);
  // Projected diameter in pixels: world size * focal length (in pixels) / distance.
  float pixels = u_point_size * u_projection[1][1] * 0.5 * u_viewport_height / distance;
  float light;
  if (pixels < u_flat_point_pixels) {
    // One fragment carries the light the Gaussian would have spread, so large N costs one per particle.
    gl_PointSize = 1.0;
    light = u_gaussian_fill * pixels * pixels;
    v_flat = 1;
  } else {
    gl_PointSize = min(pixels, u_max_pixels);
    // Clamped at the top: the sprite keeps its per-pixel light (close particles must not flare).
    light = 1.0;
    v_flat = 0;
  }
  v_colour = colour_map(a_position_speed.w * u_speed_scale) * (u_intensity * light);
}
