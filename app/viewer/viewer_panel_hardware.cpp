// Panel section: the GPU's own counters (issues 11, 20): hardware DRAM GB/s beside the kernels' computed
// GB/s, and the SM and memory clocks against their maximums, on one time axis; or one line saying why
// not. Samples that measured nothing are left out of the lines; time the sampler has not delivered yet is
// shaded, and a layout that ran without a sample of its own says why.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/viewer_panel.h"

namespace coalesce {
namespace {

constexpr double kPlotSeconds = 30.0;  // the plots' time window: a whole scripted sweep fits
const ImU32 kHardwareColour = IM_COL32(255, 160, 60, 255);
const ImU32 kComputedColour = IM_COL32(90, 200, 255, 255);
const ImU32 kSmColour = IM_COL32(120, 220, 120, 255);
const ImU32 kMemoryColour = IM_COL32(225, 125, 225, 255);

struct PlotLine {
  std::vector<ImVec2> points;  // (seconds, value)
  ImU32 colour;
  double top = 1.0;   // the value at the box's top
  std::string label;  // its scale, in its colour: the first line's at the left, the second's at the right
};

struct TimeAxis {
  double begin = 0.0;
  double end = 1.0;
};

void legend(ImU32 colour, const char* text) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float side = ImGui::GetTextLineHeight() * 0.7f;
  const float pad = (ImGui::GetTextLineHeight() - side) * 0.5f;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + pad), ImVec2(at.x + side, at.y + pad + side),
                                            colour);
  ImGui::Dummy(ImVec2(side, side));
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
}

// One box, several lines over the same time axis, each from 0 to its own top; layout switches marked.
// `sampled_until`: the end of the last sample; later time is shaded as not sampled yet.
void plot_box(const char* id, float height, const TimeAxis& axis, const std::vector<PlotLine>& lines,
              const std::vector<std::pair<double, std::string>>& switches, const std::string& caption,
              double sampled_until) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
  ImGui::Dummy(size);
  ImGui::PushID(id);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 corner(origin.x + size.x, origin.y + size.y);
  draw->AddRectFilled(origin, corner, ImGui::GetColorU32(ImGuiCol_FrameBg));
  const double span = std::max(1e-6, axis.end - axis.begin);
  const auto x_of = [&](double t) { return origin.x + static_cast<float>((t - axis.begin) / span) * size.x; };
  const float row = ImGui::GetTextLineHeight();
  if (sampled_until < axis.end) {
    const float x = std::max(origin.x, x_of(sampled_until));
    draw->AddRectFilled(ImVec2(x, origin.y), corner, IM_COL32(255, 255, 255, 22));
    const char* text = "not sampled yet";
    if (corner.x - x > ImGui::CalcTextSize(text).x + 4.0f)
      draw->AddText(ImVec2(x + 2.0f, corner.y - row), IM_COL32(255, 255, 255, 110), text);
  }
  for (std::size_t i = 0; i < switches.size(); ++i) {
    const auto& [seconds, label] = switches[i];
    const float x = x_of(seconds);
    draw->AddLine(ImVec2(x, origin.y + row), ImVec2(x, corner.y), IM_COL32(255, 255, 255, 70));
    // A label only where it fits before the next switch: short segments ("aos fp32" beside "soa") overlapped.
    const float room = (i + 1 < switches.size() ? x_of(switches[i + 1].first) : corner.x) - x;
    if (ImGui::CalcTextSize(label.c_str()).x + 4.0f <= room)
      draw->AddText(ImVec2(x + 2.0f, origin.y + row), IM_COL32(255, 255, 255, 170), label.c_str());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const PlotLine& line = lines[i];
    const auto y_of = [&](double v) {
      return corner.y -
             static_cast<float>(std::clamp(v / std::max(line.top, 1e-9), 0.0, 1.0)) * (size.y - 2.0f) - 1.0f;
    };
    std::vector<ImVec2> screen;
    for (const ImVec2& p : line.points)
      if (p.x >= axis.begin) screen.push_back(ImVec2(x_of(p.x), y_of(p.y)));
    if (screen.size() >= 2)
      draw->AddPolyline(screen.data(), static_cast<int>(screen.size()), line.colour, 0, 1.5f);
    if (line.label.empty()) continue;
    const float width = ImGui::CalcTextSize(line.label.c_str()).x;
    const float x = i == 0 ? origin.x + 3.0f : corner.x - width - 3.0f;
    draw->AddText(ImVec2(x, origin.y + 1.0f), line.colour, line.label.c_str());
  }
  if (!caption.empty())
    draw->AddText(ImVec2(origin.x + 3.0f, origin.y + 1.0f), IM_COL32(255, 255, 255, 160), caption.c_str());
  draw->AddRect(origin, corner, ImGui::GetColorU32(ImGuiCol_Border));
  ImGui::PopID();
}

// The layout at the window's start, then every change of layout or precision among the frames in the
// window; a marker names the precision where it changes (and the first), so the labels stay short.
std::vector<std::pair<double, std::string>> layout_switches(const HardwareSeries& s, const TimeAxis& axis) {
  std::vector<std::pair<double, std::string>> switches;
  const ComputedPoint* previous = nullptr;
  const ComputedPoint* marked = nullptr;
  for (const ComputedPoint& p : s.computed()) {
    const bool changed = !previous || previous->layout != p.layout || previous->precision != p.precision;
    if (p.seconds >= axis.begin && changed) {
      std::string label(to_string(p.layout));
      if (!marked || marked->precision != p.precision) label += " " + std::string(to_string(p.precision));
      switches.emplace_back(std::max(p.seconds, axis.begin), label);
      marked = &p;
    }
    previous = &p;
  }
  return switches;
}

// The MHz text of a clock's maximum: "-" where the device facts do not know it.
std::string maximum_text(double mhz) {
  return mhz > 0 ? std::to_string(static_cast<long>(mhz + 0.5)) : std::string("-");
}

// Bytes per frame, hardware DRAM against the kernels' formulas (the forces' partial sums included), on one
// scale: their gap is the layout's waste plus the draw's reads, which no kernel row counts, and it moves at
// every layout switch. A line under it names what most of the bytes are, from these numbers.
void draw_per_frame(const HardwareSeries& s, const TimeAxis& axis) {
  PlotLine hardware{{}, kHardwareColour, 0.0, ""};
  PlotLine formula{{}, kComputedColour, 0.0, ""};
  const HardwarePoint* last = nullptr;
  for (const HardwarePoint& p : s.hardware()) {
    if (p.end_seconds < axis.begin || !p.measured()) continue;
    const auto hw = p.hardware_megabytes_per_frame();
    const auto f = p.formula_megabytes_per_frame();
    if (!hw || !f) continue;
    const float t = static_cast<float>(0.5 * (p.start_seconds + p.end_seconds));
    hardware.points.emplace_back(t, static_cast<float>(*hw));
    formula.points.emplace_back(t, static_cast<float>(*f));
    formula.top = std::max(formula.top, *f);
    last = &p;
  }
  if (!last) return;
  // Scaled to the 90th percentile of the hardware line: a start-up sample (the draw-path timing, the
  // first CUPTI decode) can hold many times a steady frame's bytes and would flatten everything else.
  std::vector<float> values;
  for (const ImVec2& point : hardware.points) values.push_back(point.y);
  const auto at = values.begin() + static_cast<long>(values.size() * 9 / 10);
  std::nth_element(values.begin(), at, values.end());
  hardware.top = std::max(static_cast<double>(*at), formula.top);
  char text[160];
  std::snprintf(text, sizeof text, "per frame: DRAM %.0f MB, formulas %.0f MB (x%.2f)",
                *last->hardware_megabytes_per_frame(), *last->formula_megabytes_per_frame(),
                *last->hardware_megabytes_per_frame() / *last->formula_megabytes_per_frame());
  ImGui::TextUnformatted(text);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "DRAM bytes of each sample divided by its frames (every kernel and the draw), against the\n"
        "formula bytes of the kernels those frames timed, the all-pairs partial sums included; one\n"
        "scale, so the gap is what the hardware moves beyond the formulas: whole sectors for AoS,\n"
        "and the draw's read of the render buffer");
  // Which part dominates, from the numbers: the partial sums, the state, or what no formula counts.
  const std::string note =
      per_frame_note(*last->hardware_megabytes_per_frame(), *last->formula_megabytes_per_frame(),
                     last->scratch_megabytes_per_frame().value_or(0.0));
  if (!note.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", note.c_str());
    ImGui::PopTextWrapPos();
  }
  hardware.top = formula.top = std::max(hardware.top * 1.3, 1.0);
  hardware.label = "0-" + std::to_string(static_cast<long>(hardware.top)) + " MB per frame";
  plot_box("per-frame", 60.0f, axis, {hardware, formula}, layout_switches(s, axis), "",
           s.hardware().back().end_seconds);
}

// Why each layout that ran (in a precision) has no sample of its own ("soa fp32: ran 35 ms, shorter than
// one 50 ms sample").
void draw_unsampled_layouts(const HardwareSeries& s) {
  for (Precision precision : kAllPrecisions) {
    for (Layout layout : kAllLayouts) {
      const std::string note = s.unsampled_note(layout, precision);
      if (!note.empty())
        ImGui::TextDisabled("%s %s: %s", std::string(to_string(layout)).c_str(),
                            std::string(to_string(precision)).c_str(), note.c_str());
    }
  }
}

// `last`: the latest sample that measured something.
void draw_sampled(const HardwareSeries& s, const HardwarePoint& last) {
  const double sampled_until = s.hardware().back().end_seconds;
  TimeAxis axis;
  axis.end = std::max(sampled_until, s.computed().empty() ? 0.0 : s.computed().back().seconds);
  axis.begin = std::max(axis.end - kPlotSeconds, s.hardware().front().start_seconds);
  PlotLine hardware{{}, kHardwareColour, 0.0, ""};
  PlotLine computed{{}, kComputedColour, 0.0, ""};
  PlotLine sm{{}, kSmColour, 0.0, ""};
  PlotLine memory{{}, kMemoryColour, 0.0, ""};
  double clock_top = 0.0;
  const double sm_max = s.sm_clock().maximum_mhz;
  const double memory_max = s.dram_clock().maximum_mhz;
  for (const HardwarePoint& p : s.hardware()) {
    // Older than the window, or measured nothing: neither drawn nor scaled to.
    if (p.end_seconds < axis.begin || !p.measured()) continue;
    const float t = static_cast<float>(0.5 * (p.start_seconds + p.end_seconds));
    hardware.points.emplace_back(t, static_cast<float>(p.dram_gigabytes_per_second()));
    hardware.top = std::max(hardware.top, p.dram_gigabytes_per_second());
    if (p.computed_gigabytes_per_second) {
      computed.points.emplace_back(t, static_cast<float>(*p.computed_gigabytes_per_second));
      computed.top = std::max(computed.top, *p.computed_gigabytes_per_second);
    }
    // Clocks as % of their maximums (of the highest sample where the maximum is unknown).
    sm.points.emplace_back(t,
                           static_cast<float>(p.sm_clock_mhz / (sm_max > 0 ? sm_max : s.sm_clock().mhz.max)));
    memory.points.emplace_back(
        t, static_cast<float>(p.dram_clock_mhz / (memory_max > 0 ? memory_max : s.dram_clock().mhz.max)));
    clock_top = std::max(
        {clock_top, static_cast<double>(sm.points.back().y), static_cast<double>(memory.points.back().y)});
  }
  char text[160];
  std::snprintf(text, sizeof text, "DRAM, hardware: %.0f GB/s (read %.0f, write %.0f)",
                last.dram_gigabytes_per_second(), last.dram_read_gigabytes_per_second,
                last.dram_write_gigabytes_per_second);
  legend(kHardwareColour, text);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "bytes the GPU's DRAM read and wrote per second of wall time, every kernel and the draw\n"
        "included, averaged over each %.0f ms sample (CUPTI PM sampling)",
        s.interval_ms());
  // The latest sample whose frames read kernel timings (a frame may outlast a sample).
  const auto computed_last =
      std::find_if(s.hardware().rbegin(), s.hardware().rend(),
                   [](const HardwarePoint& p) { return p.computed_gigabytes_per_second.has_value(); });
  if (computed_last != s.hardware().rend())
    std::snprintf(text, sizeof text, "kernels, computed: %.0f GB/s",
                  *computed_last->computed_gigabytes_per_second);
  else
    std::snprintf(text, sizeof text, "kernels, computed: -");
  legend(kComputedColour, text);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the GB/s kernels' formula bytes over their GPU time, together (the table's numbers),\n"
        "averaged over the frames in each sample");
  // Each line on its own scale: the hardware averages over wall time, idle gaps and the draw included,
  // so beside the kernels' rate it would be a flat line at the bottom; the switches still show on both.
  hardware.top = std::max(hardware.top * 1.15, 1.0);
  computed.top = std::max(computed.top * 1.15, 1.0);
  hardware.label = "0-" + std::to_string(static_cast<long>(hardware.top)) + " GB/s";
  computed.label = "0-" + std::to_string(static_cast<long>(computed.top)) + " GB/s";
  plot_box("dram", 78.0f, axis, {hardware, computed}, layout_switches(s, axis), "", sampled_until);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "each line on its own scale (its range in its colour): DRAM averages over wall time, so it sits\n"
        "below the kernels' rate by the share of each frame the GPU spends elsewhere or idle; last %.0f s.\n"
        "A sample belongs to the layout whose frames filled over half of it; shaded: not sampled yet",
        axis.end - axis.begin);
  draw_unsampled_layouts(s);

  draw_per_frame(s, axis);

  std::snprintf(text, sizeof text, "SM %.0f / %s MHz", last.sm_clock_mhz, maximum_text(sm_max).c_str());
  legend(kSmColour, text);
  ImGui::SameLine();
  std::snprintf(text, sizeof text, "memory %.0f / %s MHz", last.dram_clock_mhz,
                maximum_text(memory_max).c_str());
  legend(kMemoryColour, text);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "measured now / maximum (the device facts); the note below weighs each sample by the DRAM\n"
        "bytes it moved, so start-up and idle samples at a low clock do not count as a slow run");
  sm.top = memory.top = std::max(1.1, clock_top * 1.05);
  plot_box("clocks", 34.0f, axis, {sm, memory}, {}, "% of maximum", sampled_until);
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& note : s.clock_notes())
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", note.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

void draw_hardware_section(const ViewerModel& model) {
  if (!model.hardware || !ImGui::CollapsingHeader("Hardware counters (live)", ImGuiTreeNodeFlags_DefaultOpen))
    return;
  const ViewerHardware& hardware = *model.hardware;
  const HardwareSeries& s = hardware.series();
  const auto last = std::find_if(s.hardware().rbegin(), s.hardware().rend(),
                                 [](const HardwarePoint& p) { return p.measured(); });
  ImGui::PushTextWrapPos(0.0f);
  if (!hardware.available()) {
    ImGui::TextDisabled("%s", hardware.reason().c_str());
  } else if (last == s.hardware().rend()) {
    ImGui::TextDisabled("sampling every %.0f ms: no sample %s", s.interval_ms(),
                        s.hardware().empty() ? "yet" : "has measured the clocks yet (they read 0 MHz)");
    draw_unsampled_layouts(s);
  }
  ImGui::PopTextWrapPos();
  if (hardware.available() && last != s.hardware().rend()) draw_sampled(s, *last);
}

}  // namespace coalesce
