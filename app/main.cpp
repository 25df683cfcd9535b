// Entry point: parse the command line, run the chosen command, map failures to exit codes
// (0 ok, 1 runtime failure, 2 usage error), each failure one line on stderr.
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "app/cli.h"
#include "app/commands.h"
#include "app/errors.h"
#include "sim/scene.h"

namespace {

// Exactly one line, whatever the message holds: scripts and tests read stderr line by line.
void print_error(const std::string& message) {
  std::string line = message.rfind("coalesce: ", 0) == 0 ? message : "coalesce: " + message;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::fprintf(stderr, "%s\n", line.c_str());
}

int run(const coalesce::Options& options) {
  using coalesce::Command;
  if (options.show_help) {
    std::fputs(coalesce::usage_text().c_str(), stdout);
    return 0;
  }
  if (options.show_version) {
    std::puts(coalesce::version_text().c_str());
    return 0;
  }
  coalesce::check_paths(options);
  switch (options.command) {
    case Command::Bench:
      return coalesce::run_bench(options);
    case Command::Lab:
      return coalesce::run_lab(options);
    case Command::Viewer:
      break;
  }
  // --steps never opens a window, with or without --headless.
  return options.steps ? coalesce::run_steps(options) : coalesce::run_viewer(options);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(coalesce::parse_options(argc, argv));
  } catch (const coalesce::UsageError& e) {
    print_error(e.what());
    return 2;
  } catch (const coalesce::SceneError& e) {
    print_error(e.what());  // a bad scene file is bad input: it names the file and the line
    return 2;
  } catch (const coalesce::RuntimeFailure& e) {
    print_error(e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    print_error("out of host memory (try a smaller --particles)");
    return 1;
  } catch (const std::exception& e) {
    print_error(e.what());
    return 1;
  }
}
