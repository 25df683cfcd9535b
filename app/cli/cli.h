// The command line: a pure parser (argv -> Options, or a UsageError naming the problem and the fix), the
// --help and --version texts, and the checks that look at the file system, kept apart so parsing is testable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/services/options.h"

namespace coalesce {

// argv[0] is the program name; a subcommand (bench, lab) may come first. Throws UsageError.
Options parse_options(int argc, char** argv);
Options parse_arguments(const std::vector<std::string>& arguments);  // without the program name

// Cross-option rules that need no file system (e.g. --screenshot needs --frames). parse_* call it.
void check_combinations(const Options& options, const std::vector<std::string>& given_flags);

// Checks that touch files, done before any work so that nothing is lost: output directories exist and are
// writable (--screenshot, --save-state, --json), input files exist (--load-state, a --scene that is no
// preset). Throws UsageError.
void check_paths(const Options& options);

std::string usage_text();    // every option, for --help
// "coalesce 0.1.0 (cuda, viewer)": the version and the features built in, and the CPU SIMD target: `forced`
// (--cpu-target) or this CPU's best.
std::string version_text(std::optional<CpuTarget> forced = std::nullopt);

}  // namespace coalesce
