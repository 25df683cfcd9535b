// A build without Dear ImGui (no viewer libraries) has no glyphs for a raster plot: SVG only.
#include "app/bench/chart.h"
#include "sim/errors.h"

namespace coalesce {

bool chart_png_built() {
  return false;
}

std::string chart_png(const Chart&) {
  throw UsageError("this build has no PNG plot (built without Dear ImGui); use out.svg");
}

}  // namespace coalesce
