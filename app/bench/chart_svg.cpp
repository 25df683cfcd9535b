// The chart as SVG: bars as <rect class="bar" data-row=...>, text as <text> in a monospace font.
#include <cstdio>

#include "app/bench/chart.h"

namespace coalesce {
namespace {

std::string colour(Rgb c) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", c.r, c.g, c.b);
  return text;
}

std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const char* anchor_name(Anchor anchor) {
  return anchor == Anchor::Start ? "start" : anchor == Anchor::Middle ? "middle" : "end";
}

}  // namespace

int estimated_text_width(const std::string& text, int size) {
  int characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80;  // UTF-8 continuation bytes add none
  return characters * size * 6 / 10;
}

std::string chart_svg(const Chart& chart) {
  std::string svg;
  const auto add = [&](const char* format, auto... values) {
    char line[512];
    std::snprintf(line, sizeof line, format, values...);
    svg += line;
  };
  add("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
      chart.width, chart.height, chart.width, chart.height);
  add("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", chart.width, chart.height,
      colour(chart.background).c_str());
  for (const ChartRect& r : chart.rects) {
    if (r.row >= 0)
      add("<rect class=\"bar\" data-row=\"%d\" data-layout=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
          "height=\"%d\" "
          "fill=\"%s\"/>\n",
          r.row, escape_xml(r.label).c_str(), r.x, r.y, r.width, r.height, colour(r.fill).c_str());
    else
      add("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", r.x, r.y, r.width, r.height,
          colour(r.fill).c_str());
  }
  for (const ChartText& t : chart.texts) {
    // y is the top of the line; SVG places the baseline, about 0.8 of the size below it.
    add("<text x=\"%d\" y=\"%d\" font-family=\"monospace\" font-size=\"%d\" fill=\"%s\" text-anchor=\"%s\">",
        t.x, t.y + t.size * 8 / 10, t.size, colour(t.colour).c_str(), anchor_name(t.anchor));
    svg += escape_xml(t.text) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace coalesce
