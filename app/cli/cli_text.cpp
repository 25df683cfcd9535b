// The --help and --version texts, generated from the option table so they list exactly what parses.
#include <string>

#include "app/cli/cli.h"
#include "app/cli/cli_table.h"
#include "sim/cpu_target.h"
#include "sim/layout.h"

namespace coalesce {
namespace {

// The options whose scopes include `scope`; `common` picks those of every command instead.
std::string option_lines(unsigned scope, bool common = false) {
  std::string text;
  for (const cli::OptionSpec* spec = cli::option_table_begin(); spec != cli::option_table_end(); ++spec) {
    if (!(spec->scopes & scope) || (spec->scopes == cli::kAll) != common) continue;
    std::string left = "  " + std::string(spec->name);
    if (!spec->value.empty()) left += " " + std::string(spec->value);
    constexpr std::size_t kColumn = 42;
    left += left.size() < kColumn ? std::string(kColumn - left.size(), ' ')
                                  : std::string("\n") + std::string(kColumn, ' ');
    text += left + std::string(spec->help) + "\n";
    if (spec->range) text += std::string(kColumn, ' ') + "(" + spec->range() + ")\n";
  }
  return text;
}

}  // namespace

std::string usage_text() {
  std::string text =
      "coalesce: an N-body particle simulation that shows how memory layout (AoS, SoA, float4) changes GPU\n"
      "bandwidth, live.\n\n"
      "usage:\n"
      "  coalesce [options]                                    the viewer (window)\n"
      "  coalesce --headless --frames N --screenshot out.png   render offscreen, write PNG + JSON\n"
      "  coalesce --steps N [--save-state F] [--load-state F]  simulate with no window, print stats\n"
      "  coalesce --steps N --snapshot-every K DIR [--format F]  a snapshot series with its index.json\n"
      "  coalesce bench [options]                              sweep layouts x kernels x sizes\n"
      "  coalesce lab [options]                                the access-pattern lab\n\n"
      "viewer and --steps options:\n";
  text += option_lines(cli::kViewer);
  text += "\nbench options:\n" + option_lines(cli::kBench);
  text += "\nlab options:\n" + option_lines(cli::kLab);
  text +=
      "\nevery command (-h is --help):\n" + option_lines(cli::kAll, true) +
      "\nValues go as '--opt value' or '--opt=value'. Exit codes: 0 ok, 1 runtime failure, 2 usage error,\n"
      "128 + the signal when a signal stopped the run after saving (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).\n"
      "Keys in the viewer: " +
      std::string(kLayoutKeys) +
      " layout, P precision, Space pause, S step, H panel, F12 screenshot, V record a\n"
      "clip, R reset camera.\n";
  return text;
}

std::string version_text(std::optional<CpuTarget> forced) {
  // COALESCE_FEATURES: "cuda, viewer, mpi", ... or "cpu only", from app/cli/CMakeLists.txt.
  // The CPU line: which SIMD build of the CPU loops this machine gets, and which others it could force; with
  // --cpu-target, the one that flag gives, so the flag is never silently ignored.
  const std::string best(cpu_target_info(best_cpu_target()).label);
  const std::string runs = "runs here: " + supported_cpu_targets_text();
  const std::string target = forced ? std::string(cpu_target_info(*forced).label) +
                                          " (forced by --cpu-target; best here: " + best + "; " + runs + ")"
                                    : best + " (" + runs + "; --cpu-target forces one)";
  return "coalesce " COALESCE_VERSION " (" COALESCE_FEATURES ")\nCPU SIMD target: " + target;
}

}  // namespace coalesce
