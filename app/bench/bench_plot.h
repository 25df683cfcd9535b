// coalesce bench --plot: a run drawn as a standalone bar chart (docs/bench-json.md, "The plot"), one bar
// per row in the layout's colour: % of the copy ceiling for the memory-bound rows, and interactions/s in a
// section of its own for the all-pairs forces, which are compute bound.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "app/bench/bench_types.h"
#include "app/bench/chart.h"

namespace coalesce {

enum class PlotFormat { Png, Svg };
// The format --plot's extension names (.png or .svg, any case); none for anything else.
std::optional<PlotFormat> plot_format(const std::string& path);

inline constexpr int kPlotWidth = 1400;  // pixels; the height follows from the rows
// About 20 px a row: 1000 rows make a 20,000-px image (110 MB of RGBA while it is encoded); the default GPU
// sweep has 120.
inline constexpr std::size_t kMaxPlotRows = 1000;

// Throws UsageError naming `source` when the run has no rows.
Chart bench_chart(const BenchResult& run, const std::string& source);

// The chart in `format`'s bytes (chart_svg or chart_png).
std::string plot_bytes(const Chart& chart, PlotFormat format);

}  // namespace coalesce
