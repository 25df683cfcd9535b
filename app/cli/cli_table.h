// The table of every command-line option: name, value placeholder, which commands accept it, help text,
// and how its value lands in Options. Both the parser and --help read it, so they cannot disagree.
#pragma once

#include <string>
#include <string_view>

#include "app/cli/cli_values.h"
#include "app/services/options.h"

namespace coalesce::cli {

enum Scope : unsigned { kViewer = 1, kBench = 2, kLab = 4, kAll = kViewer | kBench | kLab };

struct OptionSpec {
  std::string_view name;     // "--particles"
  std::string_view value;    // placeholder for --help ("N"); empty for switches like --headless
  std::string_view example;  // a good value, for error messages ("65536")
  unsigned scopes;           // the commands that accept it
  std::string_view help;     // one line for --help
  // Stores the value in Options; throws UsageError for a bad one. `context` names the flag and an example.
  void (*apply)(Options& options, std::string_view value, const ValueContext& context);
  std::string (*range)();  // the values it accepts, in words, for --help; nullptr where help says it all
  // Values it takes (--compare: two files); `apply` is called once for each, in order.
  int count = 1;
  // bench: whether it means something to --compare and --from, which read saved runs and run nothing. A
  // flag that does not (every flag that sets up a run, and any new one until marked) is refused there.
  bool reads_saved_runs = false;
};

// All options, in --help order.
const OptionSpec* option_table_begin();
const OptionSpec* option_table_end();

const OptionSpec* find_option(std::string_view name);  // nullptr when unknown
std::string_view command_name(Command command);        // "the viewer", "coalesce bench", "coalesce lab"
unsigned scope_of(Command command);

}  // namespace coalesce::cli
