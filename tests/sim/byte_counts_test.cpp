// The byte-formula text the panel and the screenshot JSON show is read back and checked against the bytes
// the backends count, for random N, every layout, kernel and solver, and against the layout table's inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

#include "sim/byte_counts.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

constexpr KernelKind kKernels[] = {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack,
                                   KernelKind::Convert};

struct ParsedFormula {
  double term_sum = 0;      // the sum of the "K B ..." terms
  double stated_total = 0;  // the "= T N bytes" figure
  std::string interactions;
};

// Reads "N x (a B what + b B what ...) = T N bytes[; L interactions]", checking each term against `expect`,
// which returns the bytes the layout table gives that term.
template <class Expect>
ParsedFormula parse(const std::string& text, Expect&& expect) {
  static const std::regex whole(R"(^N x \((.+)\) = (\d+) N bytes(; (.+) interactions)?$)");
  static const std::regex term(R"(^(\d+) B (.+)$)");
  std::smatch m;
  ParsedFormula parsed;
  EXPECT_TRUE(std::regex_match(text, m, whole)) << text;
  if (m.empty()) return parsed;
  parsed.stated_total = std::stod(m[2]);
  parsed.interactions = m[4];
  const std::string terms = m[1];
  for (std::size_t begin = 0; begin <= terms.size();) {  // terms are separated by " + " ("pos+mass" is one)
    const std::size_t end = std::min(terms.find(" + ", begin), terms.size());
    const std::string one = terms.substr(begin, end - begin);
    std::smatch t;
    EXPECT_TRUE(std::regex_match(one, t, term)) << "term '" << one << "' of " << text;
    if (!t.empty()) {
      const double bytes = std::stod(t[1]);
      EXPECT_EQ(bytes, expect(t[2].str())) << "term '" << one << "' of " << text;
      parsed.term_sum += bytes;
    }
    begin = end + 3;
  }
  return parsed;
}

// What the layouts store, stated here from their definitions rather than read from the code: s bytes per
// scalar; AoS and SoA hold 7 scalars per particle and move 3 (a vector) or 4 (position + mass); the vector
// layout holds two 4-scalar vectors and moves whole ones.
struct Expected {
  int record, vec3, position_mass;
};
Expected expected_bytes(Layout layout, Precision precision) {
  const int s = precision == Precision::Fp32 ? 4 : 8;
  if (layout == Layout::Float4) return {8 * s, 4 * s, 4 * s};
  return {7 * s, 3 * s, 4 * s};
}

// What each named term must weigh.
double expected_term(const LayoutInfo& row, Precision precision, const std::string& what) {
  const Expected e = expected_bytes(row.layout, precision);
  if (what == "pos+mass read") return e.position_mass;
  if (what == "pos read" || what == "vel read" || what == "pos write" || what == "vel write") return e.vec3;
  if (what == "x,y,z,speed write") return 4 * sizeof(float);
  for (const LayoutInfo& r : kLayoutTable)
    if (what == std::string(r.name) + " record read" || what == std::string(r.name) + " record write")
      return expected_bytes(r.layout, precision).record;
  ADD_FAILURE() << "unknown term '" << what << "'";
  return -1;
}

TEST(ByteCounts, TheViewsStoreWhatTheLayoutsDefine) {
  for (const PrecisionInfo& p : kPrecisionTable)
    for (const LayoutInfo& row : kLayoutTable) {
      const Expected e = expected_bytes(row.layout, p.precision);
      const LayoutBytes got = layout_bytes(row.layout, p.precision);
      EXPECT_EQ(got.record, e.record) << row.name << " " << p.name;
      EXPECT_EQ(got.vec3, e.vec3) << row.name << " " << p.name;
      EXPECT_EQ(got.position_mass, e.position_mass) << row.name << " " << p.name;
    }
}

TEST(ByteCounts, RenderedTextMatchesTheCountedBytes) {
  testing::TestRng rng;
  const int n = rng.uniform_int(1, 1 << 26);
  const int attractors = rng.uniform_int(1, 16);
  for (const PrecisionInfo& p : kPrecisionTable) {
  for (const LayoutInfo& row : kLayoutTable) {
    for (KernelKind kind : kKernels) {
      for (const ForceMethodInfo& method : kForceMethodTable) {
        const std::string text = kernel_byte_formula(kind, row.layout, method.method, p.precision).text();
        SCOPED_TRACE(std::string(row.name) + " " + std::string(p.name) + " " + std::string(to_string(kind)) +
                     " " + std::string(method.name) + ": " + text);
        const ParsedFormula parsed =
            parse(text, [&](const std::string& what) { return expected_term(row, p.precision, what); });
        EXPECT_EQ(parsed.term_sum, parsed.stated_total);
        EXPECT_EQ(parsed.stated_total * n, bytes_moved(kind, row.layout, method.method, n, p.precision));
        const double count = interactions(kind, method.method, n, attractors);
        if (parsed.interactions == "N^2")
          EXPECT_EQ(count, static_cast<double>(n) * n);
        else if (parsed.interactions == "N x k")
          EXPECT_EQ(count, static_cast<double>(n) * attractors);
        else if (parsed.interactions == "counted")  // the solver counts them as it walks (ForceCost::counted)
          EXPECT_EQ(count, 0.0);
        else
          EXPECT_TRUE(parsed.interactions.empty() && count == 0.0) << parsed.interactions;
      }
    }
  }
  }
}

TEST(ByteCounts, ConversionTextMatchesItsBytes) {
  testing::TestRng rng;
  const int n = rng.uniform_int(1, 1 << 26);
  const Layout from = testing::random_layout(rng);
  const Layout to = testing::random_layout(rng);
  const Precision precision = kAllPrecisions[static_cast<std::size_t>(rng.uniform_int(0, kPrecisionCount - 1))];
  const std::string text = convert_byte_formula(from, to, precision).text();
  const ParsedFormula parsed = parse(text, [&](const std::string& what) {
    const bool read = what.find(" read") != std::string::npos;
    EXPECT_EQ(what,
              std::string(layout_info(read ? from : to).name) + (read ? " record read" : " record write"));
    return expected_term(layout_info(from), precision, what);
  });
  EXPECT_EQ(parsed.term_sum, parsed.stated_total) << text;
  EXPECT_EQ(parsed.stated_total * n, convert_bytes(from, to, n, precision)) << text;
  EXPECT_EQ(convert_bytes(from, to, n, precision),
            static_cast<double>(n) *
                (expected_bytes(from, precision).record + expected_bytes(to, precision).record));
  // The panel's summary names every layout's record size.
  for (const LayoutInfo& row : kLayoutTable)
    EXPECT_NE(convert_formula_summary(precision).find(std::string(row.name) + " " +
                                                      std::to_string(expected_bytes(row.layout, precision).record) +
                                                      " B"),
              std::string::npos);
}

}  // namespace
}  // namespace coalesce
