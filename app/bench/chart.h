// A chart as a list of drawing primitives (filled rectangles, text runs), built once and handed
// to two writers: SVG text, and a small software rasterizer to RGBA and PNG. Pixel units, origin top left.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace coalesce {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  static Rgb hex(unsigned rgb) {
    return {static_cast<std::uint8_t>(rgb >> 16), static_cast<std::uint8_t>(rgb >> 8),
            static_cast<std::uint8_t>(rgb)};
  }
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

struct ChartRect {
  int x = 0, y = 0, width = 0, height = 0;  // whole pixels, so the raster has exact edges and colours
  Rgb fill;
  int row = -1;       // a bar: the index of the data row it draws (SVG class="bar" data-row); -1 otherwise
  std::string label;  // a bar: its layout (SVG data-layout)
};

enum class Anchor { Start, Middle, End };

struct ChartText {
  int x = 0, y = 0;  // y: the top of the line of text
  std::string text;  // printable UTF-8
  Rgb colour;
  int size = 13;  // pixels: 13 (body) or 26 (title)
  Anchor anchor = Anchor::Start;
};

struct Chart {
  int width = 0, height = 0;
  Rgb background = Rgb::hex(0xFFFFFF);
  std::vector<ChartRect> rects;  // drawn first, in order (gridlines are 1-px rects)
  std::vector<ChartText> texts;  // then text
};

// A text run's width in the chart's monospace font, for layout (the writers measure their own glyphs).
int estimated_text_width(const std::string& text, int size);

std::string chart_svg(const Chart& chart);

// PNG plots need a glyph source: Dear ImGui's font atlas, built only with the viewer's libraries.
bool chart_png_built();
// The chart rasterized and encoded; throws UsageError in a build without Dear ImGui.
std::string chart_png(const Chart& chart);

}  // namespace coalesce
