// The chart rasterized in software to RGBA, then PNG (render/png_image.h). Glyphs come from Dear ImGui's
// font atlas, built on the CPU (no GL, no ImGui context): its default font baked at the chart's two sizes.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/bench/chart.h"
#include "render/png_image.h"
#include "sim/errors.h"

namespace coalesce {
namespace {

class Glyphs {
 public:
  Glyphs() {
    const ImFontConfig small = config(13.0f), large = config(26.0f);
    m_small = m_atlas.AddFontDefault(&small);
    m_large = m_atlas.AddFontDefault(&large);
    m_atlas.GetTexDataAsAlpha8(&m_pixels, &m_width, &m_height);
  }
  // One texel per pixel (ImFontConfig's default oversamples 3x horizontally, which the blit does not
  // expect); ProggyClean is drawn for 13 px, so the large size is its exact double.
  static ImFontConfig config(float pixels) {
    ImFontConfig c;
    c.OversampleH = c.OversampleV = 1;
    c.PixelSnapH = true;
    c.SizePixels = pixels;
    return c;
  }
  Glyphs(const Glyphs&) = delete;
  Glyphs& operator=(const Glyphs&) = delete;

  const ImFont& font(int size) const { return size >= 17 ? *m_large : *m_small; }
  std::uint8_t alpha(int x, int y) const {
    return x < 0 || y < 0 || x >= m_width || y >= m_height ? 0 : m_pixels[y * m_width + x];
  }
  int width() const { return m_width; }
  int height() const { return m_height; }

 private:
  ImFontAtlas m_atlas;
  ImFont* m_small = nullptr;
  ImFont* m_large = nullptr;
  unsigned char* m_pixels = nullptr;  // owned by m_atlas
  int m_width = 0;
  int m_height = 0;
};

const Glyphs& glyphs() {
  static const Glyphs instance;
  return instance;
}

// One code point per character: ASCII as is, any other UTF-8 sequence as '?' (the font has ASCII only).
std::vector<ImWchar> characters(const std::string& text) {
  std::vector<ImWchar> out;
  for (unsigned char c : text) {
    if (c < 0x80)
      out.push_back(c);
    else if ((c & 0xC0) != 0x80)
      out.push_back('?');
  }
  return out;
}

class Raster {
 public:
  explicit Raster(const Chart& chart) {
    m_image.width = chart.width;
    m_image.height = chart.height;
    m_image.rgba.resize(static_cast<std::size_t>(chart.width) * chart.height * 4);
    fill(0, 0, chart.width, chart.height, chart.background);
  }

  void fill(int x, int y, int width, int height, Rgb c) {
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = std::min(x + width, m_image.width), y1 = std::min(y + height, m_image.height);
    for (int py = y0; py < y1; ++py)
      for (int px = x0; px < x1; ++px) blend(px, py, c, 255);
  }

  void text(const ChartText& t) {
    const Glyphs& g = glyphs();
    const ImFont& font = g.font(t.size);
    const std::vector<ImWchar> chars = characters(t.text);
    float width = 0;
    for (ImWchar c : chars) width += font.FindGlyph(c)->AdvanceX;
    float pen = static_cast<float>(t.x);
    if (t.anchor == Anchor::Middle) pen -= width / 2;
    if (t.anchor == Anchor::End) pen -= width;
    pen = std::round(pen);
    for (ImWchar c : chars) {
      const ImFontGlyph* glyph = font.FindGlyph(c);
      if (glyph->Visible) {
        // The atlas holds the glyph at this very size: one texel per pixel.
        const int u0 = static_cast<int>(std::lround(glyph->U0 * g.width()));
        const int v0 = static_cast<int>(std::lround(glyph->V0 * g.height()));
        const int x0 = static_cast<int>(std::lround(pen + glyph->X0));
        const int y0 = static_cast<int>(std::lround(t.y + glyph->Y0));
        const int w = static_cast<int>(std::lround(glyph->X1 - glyph->X0));
        const int h = static_cast<int>(std::lround(glyph->Y1 - glyph->Y0));
        for (int j = 0; j < h; ++j)
          for (int i = 0; i < w; ++i) blend(x0 + i, y0 + j, t.colour, g.alpha(u0 + i, v0 + j));
      }
      pen += glyph->AdvanceX;
    }
  }

  Image take() { return std::move(m_image); }

 private:
  void blend(int x, int y, Rgb c, int alpha) {
    if (alpha == 0 || x < 0 || y < 0 || x >= m_image.width || y >= m_image.height) return;
    std::uint8_t* p = &m_image.rgba[(static_cast<std::size_t>(y) * m_image.width + x) * 4];
    const auto mix = [alpha](int under, int over) {
      return static_cast<std::uint8_t>((over * alpha + under * (255 - alpha) + 127) / 255);
    };
    p[0] = mix(p[0], c.r);
    p[1] = mix(p[1], c.g);
    p[2] = mix(p[2], c.b);
    p[3] = 255;
  }

  Image m_image;
};

}  // namespace

bool chart_png_built() {
  return true;
}

std::string chart_png(const Chart& chart) {
  Raster raster(chart);
  for (const ChartRect& r : chart.rects) raster.fill(r.x, r.y, r.width, r.height, r.fill);
  for (const ChartText& t : chart.texts) raster.text(t);
  std::string png = encode_png(raster.take());
  if (png.empty()) throw RuntimeFailure("PNG encoding of the plot failed");
  return png;
}

}  // namespace coalesce
