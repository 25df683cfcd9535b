// run_viewer: picks the render target (window, or headless EGL), builds the simulation, runs the frames.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "app/cli/commands.h"
#include "app/services/interrupt.h"
#include "app/services/clip_output.h"
#include "app/lab/lab_tab.h"
#include "app/services/output_paths.h"
#include "app/services/state_output.h"
#include "app/viewer/viewer_app.h"
#include "app/viewer/viewer_recording.h"
#include "app/viewer/viewer_simulation.h"
#include "render/glfw_window.h"
#include "render/headless_context.h"
#include "sim/errors.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

// Detects a display to suggest --headless; it switches no behaviour (the other getenv is find_program's
// PATH lookup of ffmpeg, app/services/clip_output.cpp).
bool has_display() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 && *x11) || (wayland && *wayland);
}

// --save-state when the viewer closes (last frame, window closed or Ctrl-C): the state as it is then.
void save_viewer_state(const std::string& path, ViewerSimulation& simulation) {
  const FinalState final_state =
      finish_state(simulation.backend(), path, simulation.writing(), simulation.time());
  const std::string& bad = final_state.non_finite;
  const std::string& written = final_state.written;
  if (!bad.empty())
    throw RuntimeFailure("the state is not finite at step " + std::to_string(simulation.step_count()) +
                         " (particle " + bad + "); saved it to " + written + ", leaving " + path +
                         " untouched");
  std::fprintf(stderr, "coalesce: state at step %llu saved to %s%s\n",
               static_cast<unsigned long long>(simulation.step_count()), printable(written).c_str(),
               final_state.rounded.empty() ? "" : (" (" + final_state.rounded + ")").c_str());
}

// The files a new request's line names, as the run will write them: the clip, the screenshot, the state.
void plan_viewer_outputs(const Options& options) {
  if (!options.record.empty()) plan_clip_outputs(check_clip_outputs("--record", options.record));
  if (!options.screenshot.empty()) {
    const ScreenshotOutputs shot = check_screenshot_outputs("--screenshot", options.screenshot);
    plan_output(shot.png);
    plan_output(shot.json);
  }
  if (!options.save_state.empty()) plan_output(check_output_path("--save-state", options.save_state));
}

}  // namespace

int run_viewer(const Options& options) {
  if (!options.headless && !has_display()) {
    throw UsageError("no display found (DISPLAY is not set): use --headless --frames N --screenshot out.png");
  }
  if (options.headless && options.frames && *options.frames <= 0) {
    throw UsageError("--frames must be at least 1");
  }
  if (options.width <= 0 || options.height <= 0) throw UsageError("--width and --height must be positive");
  if (!options.lab_tab.empty()) {
    LabTab::check_experiment(options.lab_tab);  // before a window opens
    // Asked for and not done: say so, rather than leave the user to find the tab empty.
    const std::string not_run = LabTab::not_run_notice(options.lab_tab);
    if (!not_run.empty()) std::fprintf(stderr, "coalesce: %s\n", printable(not_run).c_str());
  }
  // A frame size ffmpeg refuses is known before anything runs (a HiDPI window is checked again when it opens).
  if (!options.record.empty()) check_clip_outputs("--record", options.record, options.width, options.height);

  // Before the set-up (start-size trials, the context): a signal then still ends the run with its line.
  plan_viewer_outputs(options);  // the ledger is complete before a signal can be handled
  const StopSignals interrupt;

  // The simulation first: with a CUDA backend, the headless context picks the EGL device of that GPU.
  ViewerSimulation simulation(options);
  if (options.draw == DrawChoice::Splat && !simulation.is_cuda())
    throw UsageError("--draw splat needs the CUDA backend, and this run has none" +
                     (simulation.backend_notice().empty()
                          ? std::string()
                          : " (" + printable(simulation.backend_notice()) + ")") +
                     "; use --draw points or --draw auto");
  for (const std::string& notice :
       {simulation.backend_notice(), simulation.scene_notice(), simulation.load_notice()})
    if (!notice.empty()) std::fprintf(stderr, "coalesce: %s\n", printable(notice).c_str());
  if (simulation.start_size().particles > 0)
    std::printf("coalesce: N = %d, chosen at start for %s; --particles N sets it\n", simulation.start_size().particles,
                simulation.start_size().reason.c_str());

  std::unique_ptr<RenderTarget> target;
  try {
    if (options.headless) {
      target =
          std::make_unique<HeadlessContext>(options.width, options.height, simulation.cuda_device());
    } else {
      target = std::make_unique<GlfwWindow>(options.width, options.height, "coalesce");
    }
  } catch (const WindowError& e) {
    throw UsageError(e.what());
  } catch (const HeadlessError& e) {
    throw RuntimeFailure(std::string("headless rendering unavailable: ") + e.what());
  }

  ViewerRun run;
  // A headless clip of known length, with no --frames: the run is the warm-up frames and the clip.
  const bool clip_sets_frames = options.headless && !options.frames && clip_has_length(options);
  run.frames = clip_sets_frames ? static_cast<int>(kClipWarmupFrames +
                                                   clip_frame_count(*options.record_seconds, options.record_fps))
                                : options.frames.value_or(options.headless ? 10 : 0);
  run.screenshot = options.screenshot;
  run.interrupt = &interrupt;
  int code = 0;
  {
    ViewerApp app(options, *target, simulation);  // GL objects die before the context
    code = app.run(run);
    // The series' files and index are complete after every snapshot; this says where they are.
    const std::string snapshots = app.finish_snapshots();
    if (!snapshots.empty()) std::fprintf(stderr, "coalesce: %s\n", printable(snapshots).c_str());
  }
  if (!options.save_state.empty()) save_viewer_state(options.save_state, simulation);
  return interrupt.requested() ? interrupt.exit_code() : code;
}

}  // namespace coalesce
