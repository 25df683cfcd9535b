// What the splat experiment draws: the particles of a disk and of a cube, as packed render records, and
// the view the viewer would draw them with.
#pragma once

#include <cstdint>
#include <vector>

#include "render/splat_kernel.h"
#include "sim/common.h"

namespace coalesce::lab {

// The particles of a run of the lab at `side`: side^2 / 4, so 16,777,216 at the default --size 8192.
int splat_particles(int side);

// A thin disk, dense at the centre like the swirl's (many particles per pixel at the core).
std::vector<Float4> splat_disk(int particles, std::uint32_t seed);
// A uniform cube of side 2 (few particles per pixel, none alike).
std::vector<Float4> splat_cube(int particles, std::uint32_t seed);

// The viewer's 1600 x 900 window less its panel, the camera it frames the disk with, and its sprite size
// and light rule at this N (flat pixels at 16M).
SplatParams splat_view(int particles);

}  // namespace coalesce::lab
