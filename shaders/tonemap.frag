// Maps the additive float light of the particle pass to the screen: 1 - exp(-x) saturates softly, so
// dense cores keep their colour instead of clipping to white, and sparse halos stay visible.
#version 430 core

in vec2 v_uv;
out vec4 f_colour;

uniform sampler2D u_light;
uniform vec3 u_background;
uniform float u_exposure;

void main() {
  vec3 light = texture(u_light, v_uv).rgb * u_exposure;
  vec3 mapped = vec3(1.0) - exp(-light);
  f_colour = vec4(u_background + (vec3(1.0) - u_background) * mapped, 1.0);
}
