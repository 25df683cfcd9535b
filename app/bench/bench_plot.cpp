// Builds the bench chart (see bench_plot.h) from a run's rows: header, legend, then the memory-bound
// section scaled in % of copy and the all-pairs forces section scaled in interactions/s.
#include "app/bench/bench_plot.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include "app/bench/bench_file.h"
#include "app/services/device_report.h"
#include "sim/errors.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

constexpr int kTitleSize = 26;  // twice the 13 px text: the PNG's font is drawn for 13 px

const Rgb kInk = Rgb::hex(0x222222);
const Rgb kMuted = Rgb::hex(0x666666);
const Rgb kGrid = Rgb::hex(0xDDDDDD);
const Rgb kAxis = Rgb::hex(0x888888);

constexpr int kMargin = 24;
constexpr int kBarsLeft = 420;                // group labels to the left, bars to the right
constexpr int kBarsRight = kPlotWidth - 140;  // room for the value labels
constexpr int kBarHeight = 14;
constexpr int kBarGap = 3;
constexpr int kGroupGap = 10;
constexpr int kMinBar = 2;  // a row near 0 still shows as a bar

struct Group {
  std::string label;
  std::vector<int> rows;  // indices into run.rows, in layout order
};

// Rows grouped by (solver, N, precision, kernel, variant) in the order the run first met them.
std::vector<Group> group_rows(const std::vector<BenchRow>& rows, bool interactions) {
  std::vector<Group> groups;
  std::map<std::tuple<int, int, int, std::string, std::string>, std::size_t> where;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const BenchRow& row = rows[static_cast<std::size_t>(i)];
    if (headline_is_interactions(row) != interactions) continue;
    const auto key = std::make_tuple(static_cast<int>(row.solver), row.particles, static_cast<int>(row.precision),
                                     row.kernel, row.variant);
    auto [it, added] = where.emplace(key, groups.size());
    if (added) {
      std::string label = std::string(method_info(row.solver).solver_name) +
                          "  N=" + std::to_string(row.particles) + "  " +
                          std::string(to_string(row.precision)) + "  " + row.kernel;
      if (!row.variant.empty()) label += " " + row.variant;
      groups.push_back({printable(label), {}});
    }
    groups[it->second].rows.push_back(i);
  }
  for (Group& g : groups)
    std::stable_sort(g.rows.begin(), g.rows.end(), [&](int a, int b) {
      return rows[static_cast<std::size_t>(a)].layout < rows[static_cast<std::size_t>(b)].layout;
    });
  return groups;
}

// Full scale: 100% of the ceilings, or the next 25% step above the largest row: a row that beats its ceiling
// shows as such rather than clipped.
double percent_scale(const std::vector<BenchRow>& rows) {
  double top = 100.0;
  for (const BenchRow& r : rows)
    if (!headline_is_interactions(r)) top = std::max(top, std::ceil(r.percent_of_ceiling / 25.0) * 25.0);
  return top;
}

// Full scale for interactions/s: 1, 2 or 5 x 10^k at or above the largest row.
double rate_scale(const std::vector<BenchRow>& rows) {
  double top = 0;
  for (const BenchRow& r : rows)
    if (headline_is_interactions(r)) top = std::max(top, r.interactions_per_second);
  if (top <= 0) return 1;
  const double decade = std::pow(10.0, std::floor(std::log10(top)));
  for (double step : {1.0, 2.0, 5.0, 10.0})
    if (step * decade >= top) return step * decade;
  return 10 * decade;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

class Builder {
 public:
  explicit Builder(const BenchResult& run) : m_run(run) { m_chart.width = kPlotWidth; }

  void header() {
    const DeviceInfo& d = m_run.device;
    const std::string backend = m_run.backend_name.substr(0, m_run.backend_name.find(" ("));
    text(kMargin, m_y,
         printable(d.name) + "  |  " + printable(m_run.date_utc) + "  |  copy ceiling " +
             format(d.gpu ? "%.0f GB/s" : "%.1f GB/s", d.copy_peak_gbps) + "  |  backend " + printable(backend),
         kInk, kTitleSize);
    m_y += 36;
    text(kMargin, m_y,
         printable(m_run.command_line.empty() ? "(command line not recorded)" : m_run.command_line), kMuted);
    m_y += 24;
    // The legend, right-aligned in the header, clear of the bars' left edge.
    int x = kPlotWidth - kMargin - static_cast<int>(kLayoutCount) * 110;
    for (const LayoutInfo& info : kLayoutTable) {
      m_chart.rects.push_back({x, m_y, 14, 14, Rgb::hex(info.colour), -1, ""});
      text(x + 20, m_y + 1, std::string(info.name), kInk);
      x += 110;
    }
    text(kMargin, m_y + 1, "one bar per row of the run, in its layout's colour", kMuted);
    m_y += 30;
  }

  // One section: a title, ticks at 0/25/50/75/100% of `scale`, and the groups' bars.
  void section(const std::string& title, const std::vector<Group>& groups, double scale, bool interactions) {
    if (groups.empty()) return;
    text(kMargin, m_y, title, kInk);
    m_y += 22;
    const int ticks_y = m_y;
    m_y += 18;
    const int top = m_y;
    for (const Group& group : groups) {
      const int group_top = m_y;
      for (int index : group.rows) {
        const BenchRow& row = m_run.rows[static_cast<std::size_t>(index)];
        const double value = interactions ? row.interactions_per_second : row.percent_of_ceiling;
        const int length =
            std::max(kMinBar, static_cast<int>(std::lround(value / scale * (kBarsRight - kBarsLeft))));
        m_chart.rects.push_back({kBarsLeft, m_y, length, kBarHeight, Rgb::hex(layout_info(row.layout).colour),
                                 index, std::string(to_string(row.layout))});
        const std::string label =
            interactions ? format("%.3g int/s", value) : format("%.1f%% ", value) + row.ceiling;
        text(kBarsLeft + length + 6, m_y + 1, label, kInk);
        m_y += kBarHeight + kBarGap;
      }
      const int middle = (group_top + m_y - kBarGap) / 2;
      text(kBarsLeft - 10, middle - 7, group.label, kInk, 13, Anchor::End);
      m_y += kGroupGap;
    }
    const int bottom = m_y - kGroupGap;
    // Gridlines at every quarter of full scale, 0% as the axis; for % of copy, quarters of 100% up to scale.
    const double step = interactions ? scale / 4 : 25.0;
    for (double at = 0; at <= scale + 1e-9; at += step) {
      const int x = kBarsLeft + static_cast<int>(std::lround(at / scale * (kBarsRight - kBarsLeft)));
      m_grid.push_back({x, top - 2, 1, bottom - (top - 2) + 1, at == 0 ? kAxis : kGrid, -1, ""});
      text(x, ticks_y, interactions ? format("%.3g", at) : format("%.0f%%", at), kMuted, 13, Anchor::Middle);
    }
    m_y += 16;
  }

  Chart finish() {
    // Grid lines go under the bars: drawn before them.
    m_chart.rects.insert(m_chart.rects.begin(), m_grid.begin(), m_grid.end());
    m_chart.height = m_y + kMargin;
    return std::move(m_chart);
  }

 private:
  void text(int x, int y, const std::string& t, Rgb colour, int size = 13, Anchor anchor = Anchor::Start) {
    m_chart.texts.push_back({x, y, t, colour, size, anchor});
  }

  const BenchResult& m_run;
  Chart m_chart;
  std::vector<ChartRect> m_grid;  // 1-px vertical gridlines, under the bars
  int m_y = kMargin;
};

}  // namespace

std::optional<PlotFormat> plot_format(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return std::nullopt;
  std::string extension = path.substr(dot + 1);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == "png") return PlotFormat::Png;
  if (extension == "svg") return PlotFormat::Svg;
  return std::nullopt;
}

namespace {
// The ceilings the rows were compared with, each with its GB/s: "in-place A, to-other B-C GB/s" (a range
// where rows smaller than the start-up ceiling had their own size's). Worked out from the rows themselves
// (GB/s over their share of it), so a run read back from its file says the same.
std::string ceilings_caption(const BenchResult& run) {
  std::string out;
  for (const CeilingInfo& c : kCeilingTable) {
    std::vector<double> gbps;
    for (const BenchRow& r : run.rows)
      if (r.ceiling == c.name && r.percent_of_ceiling > 0 && !headline_is_interactions(r))
        gbps.push_back(100.0 * r.gbps / r.percent_of_ceiling);
    if (gbps.empty()) continue;
    const auto [low, high] = std::minmax_element(gbps.begin(), gbps.end());
    const std::string least = format("%.1f", *low), most = format("%.1f", *high);
    out += (out.empty() ? "" : ", ") + std::string(c.name) + " " + least + (most != least ? "-" + most : "");
  }
  return out.empty() ? "none" : out + " GB/s";
}
}  // namespace

Chart bench_chart(const BenchResult& run, const std::string& source) {
  if (run.rows.empty())
    throw UsageError("--plot: " + source +
                     " has no rows, so there is nothing to plot (run coalesce bench again)");
  if (run.rows.size() > kMaxPlotRows)
    throw UsageError("--plot: " + source + " has " + std::to_string(run.rows.size()) + " rows; a plot draws at most " +
                     std::to_string(kMaxPlotRows) + " (plot a smaller sweep: --particles, --layouts, --solver)");
  Builder builder(run);
  builder.header();
  builder.section(run.device.gpu
                      ? "Memory-bound kernels: % of the copy ceiling (" +
                            format("%.0f GB/s", run.device.copy_peak_gbps) + ", " +
                            copy_ceiling_label(run.device) +
                            ", measured in this run); bars labelled with their value"
                      : "Memory-bound kernels: % of the ceiling that moves bytes as each kernel does (" +
                            ceilings_caption(run) + "; " + copy_ceiling_label(run.device) +
                            ", measured in this run); bars labelled with value and ceiling",
                  group_rows(run.rows, false), percent_scale(run.rows), false);
  builder.section("All-pairs forces: compute bound, so % of copy means nothing; interactions/s instead",
                  group_rows(run.rows, true), rate_scale(run.rows), true);
  return builder.finish();
}

std::string plot_bytes(const Chart& chart, PlotFormat format) {
  return format == PlotFormat::Svg ? chart_svg(chart) : chart_png(chart);
}

}  // namespace coalesce
