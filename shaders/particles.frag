// Soft Gaussian falloff across the point sprite; blended additively by the renderer. One-pixel sprites
// (large N) skip the falloff: their light was already scaled per vertex.
#version 430 core

in vec3 v_colour;
flat in int v_flat;
out vec4 f_colour;

void main() {
  if (v_flat != 0) {
    f_colour = vec4(v_colour, 1.0);
    return;
  }
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  float falloff = exp(-4.0 * r2);
  f_colour = vec4(v_colour * falloff, 1.0);
}
