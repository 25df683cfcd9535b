// Entry point: parse the command line, run the chosen command, map failures to exit codes
// (0 ok, 1 runtime failure, 2 usage error, 128+signal when stopped by SIGINT, SIGTERM or SIGHUP), each
// failure one line on stderr.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>

#include "app/cli/camera_from.h"
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/ranks/rank_agreement.h"
#include "app/ranks/ranks.h"
#include "app/services/interrupt.h"
#include "sim/errors.h"
#include "sim/exit_ledger.h"
#include "sim/printable.h"

namespace {

// Exactly one line, whatever the message holds: scripts and tests read stderr line by line, and control
// characters from a file or an argument are shown escaped, never sent to the terminal.
void print_error(const std::string& message) {
  std::string line = coalesce::one_line(message);
  if (line.rfind("coalesce: ", 0) != 0) line = "coalesce: " + line;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::fprintf(stderr, "%s\n", line.c_str());
}

// Everything a rank could refuse on its own (the command line, the paths it checks, a command that runs in
// one process only) is agreed on, so under mpirun a bad input on one rank stops every rank with one line.
coalesce::Options checked_options(int argc, char** argv, coalesce::Ranks& ranks, std::string& restored_line) {
  using coalesce::Command;
  coalesce::Options options;
  coalesce::agreed(ranks, [&] {
    options = coalesce::parse_options(argc, argv);
    if (!options.camera_from.empty() && !options.show_help && !options.show_version) {
      const coalesce::CameraFromResult restored = coalesce::apply_camera_from(options);
      restored_line = coalesce::describe(restored, options.camera_from);
      options = restored.options;
    }
    if (options.show_help || options.show_version) return;
    if (ranks.distributed() && (options.command == Command::Lab ||
                                (options.command == Command::Viewer && !options.steps)))
      throw coalesce::UsageError(std::string(options.command == Command::Lab ? "the lab" : "the viewer") +
                                 " runs in one process; under mpirun, run --steps or bench");
    coalesce::check_paths(options);
  });
  coalesce::check_one_command_line(ranks, argc, argv);
  return options;
}

int run(const coalesce::Options& options, coalesce::Ranks& ranks, const std::string& restored_line) {
  using coalesce::Command;
  if (options.show_help) {
    if (ranks.root()) std::fputs(coalesce::usage_text().c_str(), stdout);
    return 0;
  }
  if (options.show_version) {
    if (ranks.root()) std::puts(coalesce::version_text(options.cpu_target).c_str());
    return 0;
  }
  if (!restored_line.empty() && ranks.root()) std::fprintf(stderr, "coalesce: %s\n", restored_line.c_str());
  switch (options.command) {
    case Command::Bench:
      return coalesce::run_bench(options, ranks);
    case Command::Lab:
      return coalesce::run_lab(options);
    case Command::Viewer:
      break;
  }
  // --steps never opens a window, with or without --headless.
  return options.steps ? coalesce::run_steps(options, ranks) : coalesce::run_viewer(options);
}

// What sets the size that did not fit: the advice for running out of host memory.
std::string out_of_memory_advice(const coalesce::Options& options) {
  if (options.command == coalesce::Command::Lab) return "try a smaller --size";
  if (!options.load_state.empty())
    return "the --load-state file sets N: free memory, or load a smaller state";
  return "try a smaller --particles";
}

// Whether the command is --steps or the viewer, which stop on a signal after saving (bench and lab end as
// the signal's default action ends them): bench and lab are named first or not at all.
bool stops_on_signals(int argc, char** argv) {
  if (argc < 2) return true;
  const std::string first = argv[1];
  return first != "bench" && first != "lab";
}

int run_and_report(int argc, char** argv) {
  // Before anything slow (MPI, the device): a signal during start-up waits for the run's handler, then ends
  // the run as one after it does.
  if (stops_on_signals(argc, argv)) coalesce::block_stop_signals();
  std::unique_ptr<coalesce::Ranks> ranks;
  std::string memory_advice = "try a smaller --particles";
  try {
    ranks = coalesce::start_ranks(argc, argv);  // MPI_Init under mpirun; argv as MPI leaves it
    if (!ranks->root()) coalesce::exit_ledger::set_quiet();  // rank 0's line on a stop signal speaks for all
    std::string restored_line;  // said once the paths are known to be safe: a refused run restores nothing
    const coalesce::Options options = checked_options(argc, argv, *ranks, restored_line);
    memory_advice = out_of_memory_advice(options);
    return run(options, *ranks, restored_line);
  } catch (const coalesce::StoppedWithOtherRanks& e) {  // rank 0 said why
    return e.exit_code();
  } catch (const coalesce::UsageError& e) {  // scene and state file errors included: they name file and line
    print_error(e.what());
    return 2;
  } catch (const coalesce::RuntimeFailure& e) {
    print_error(e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    print_error("out of host memory (" + memory_advice + ")");
    return 1;
  } catch (const std::exception& e) {
    print_error(e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) would kill the process silently mid-write, leaving a temporary: ignored,
  // the write fails with EFBIG instead, which the writer reports in one line and cleans up.
  std::signal(SIGXFSZ, SIG_IGN);
  int code = run_and_report(argc, argv);
  // A stop signal that came as the run was ending (its handler stays to the end) still ends it as stopped.
  if (const int signal = coalesce::exit_ledger::stop_signal(); signal != 0 && code == 0) code = 128 + signal;
  // Output the user asked for that never arrived (a full disk, a closed pipe) is a failure, not a success.
  // After SIGHUP the terminal it went to is gone, and the run already exits 129: nothing more to say.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    if (coalesce::exit_ledger::stop_signal() != SIGHUP)
      print_error(std::string("cannot write to standard output (") + std::strerror(errno) + ")");
    return code == 0 ? 1 : code;
  }
  return code;
}
