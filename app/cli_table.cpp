// The option table (see cli_table.h): every flag of SPEC section 6 and how its value is checked and stored.
#include "app/cli_table.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "app/errors.h"
#include "sim/layout.h"

namespace coalesce::cli {
namespace {

constexpr std::int64_t kMaxParticles = std::int64_t{1} << 30;  // 28 GiB of state: beyond any GPU here
constexpr std::int64_t kMinPixels = 64;
constexpr std::int64_t kMaxPixels = 16384;  // the largest GL_MAX_TEXTURE_SIZE commonly found
constexpr std::int64_t kMaxCount = 1'000'000'000'000;

int particle_count(std::string_view text, const ValueContext& context) {
  return static_cast<int>(parse_integer(context, text, 1, kMaxParticles, "a positive integer"));
}

int pixels(std::string_view text, const ValueContext& context) {
  return static_cast<int>(
      parse_integer(context, text, kMinPixels, kMaxPixels, "an integer from 64 to 16384"));
}

void set_backend(Options& o, std::string_view v, const ValueContext& c) {
  if (v == "cuda")
    o.backend = BackendChoice::Cuda;
  else if (v == "cpu")
    o.backend = BackendChoice::Cpu;
  else
    throw UsageError(bad_choice(c, v, "cuda|cpu"));
}

void set_layout(Options& o, std::string_view v, const ValueContext& c) {
  const auto layout = parse_layout(v);
  if (!layout) throw UsageError(bad_choice(c, v, "aos|soa|float4"));
  o.layout = *layout;
}

void set_solver(Options& o, std::string_view v, const ValueContext& c) {
  o.solver = parse_solver(v);
  if (!o.solver) throw UsageError(bad_choice(c, v, "all-pairs|attractors"));
}

void set_scene(Options& o, std::string_view v, const ValueContext& c) {
  if (v.empty())
    throw UsageError(std::string(c.flag) + " needs a preset name or a file path (try --scene plummer)");
  o.scene = std::string(v);
}

// The viewer takes one N; bench takes a list, so `bench --particles 65536,262144` sweeps both.
void set_particles(Options& o, std::string_view v, const ValueContext& c) {
  if (o.command != Command::Bench) {
    o.particles = particle_count(v, c);
    return;
  }
  ValueContext list_context{c.flag, "65536,262144"};
  for (const std::string& item : split_list(list_context, v))
    o.bench_particles.push_back(particle_count(item, list_context));
}

// 0 draws every particle; a limit below N / 128 still draws N / 128 (the renderer's largest stride).
void set_draw_limit(Options& o, std::string_view v, const ValueContext& c) {
  o.draw_limit = static_cast<int>(parse_integer(c, v, 0, kMaxParticles, "an integer >= 0 (0 draws all)"));
}

void set_dt(Options& o, std::string_view v, const ValueContext& c) {
  o.dt = parse_float(c, v, true);
}
// > 0, not >= 0: all-pairs includes the self term, which is 0/0 without softening (scene files agree).
void set_softening(Options& o, std::string_view v, const ValueContext& c) {
  o.softening = parse_float(c, v, true);
}
void set_seed(Options& o, std::string_view v, const ValueContext& c) {
  o.seed = parse_unsigned64(c, v);
}

void set_pack(Options& o, std::string_view v, const ValueContext& c) {
  o.pack = parse_pack_variant(v);
  if (!o.pack) throw UsageError(bad_choice(c, v, "naive|tiled|tiled-padded|vector"));
}

void set_width(Options& o, std::string_view v, const ValueContext& c) {
  o.width = pixels(v, c);
}
void set_height(Options& o, std::string_view v, const ValueContext& c) {
  o.height = pixels(v, c);
}
void set_headless(Options& o, std::string_view, const ValueContext&) {
  o.headless = true;
}

void set_frames(Options& o, std::string_view v, const ValueContext& c) {
  o.frames = static_cast<int>(parse_integer(c, v, 1, 100'000'000, "a positive integer"));
}

void set_steps(Options& o, std::string_view v, const ValueContext& c) {
  o.steps = parse_integer(c, v, 0, kMaxCount, "an integer >= 0");
}

// Paths must not be empty; whether their directory exists is check_paths' job (it touches the disk).
std::string path_value(std::string_view v, const ValueContext& c) {
  if (v.empty())
    throw UsageError(std::string(c.flag) + " needs a file path (try " + std::string(c.flag) + " " +
                     std::string(c.example) + ")");
  return std::string(v);
}

void set_screenshot(Options& o, std::string_view v, const ValueContext& c) {
  o.screenshot = path_value(v, c);
}
void set_save_state(Options& o, std::string_view v, const ValueContext& c) {
  o.save_state = path_value(v, c);
}
void set_load_state(Options& o, std::string_view v, const ValueContext& c) {
  o.load_state = path_value(v, c);
}
void set_json(Options& o, std::string_view v, const ValueContext& c) {
  o.json = path_value(v, c);
}

void set_layouts(Options& o, std::string_view v, const ValueContext& c) {
  for (const std::string& item : split_list(c, v)) {
    const auto layout = parse_layout(item);
    if (!layout) throw UsageError(bad_choice(c, item, "a list of aos, soa, float4"));
    if (std::find(o.bench_layouts.begin(), o.bench_layouts.end(), *layout) != o.bench_layouts.end())
      throw UsageError(std::string(c.flag) + " names '" + item + "' twice (try " + std::string(c.flag) + " " +
                       std::string(c.example) + ")");
    o.bench_layouts.push_back(*layout);
  }
}

void set_repeats(Options& o, std::string_view v, const ValueContext& c) {
  o.repeats = static_cast<int>(parse_integer(c, v, 1, 100'000, "a positive integer"));
}

void set_size(Options& o, std::string_view v, const ValueContext& c) {
  o.lab_size = static_cast<int>(parse_integer(c, v, 1, kMaxParticles, "a positive integer"));
}

void set_only(Options& o, std::string_view v, const ValueContext& c) {
  o.lab_only = split_list(c, v);
}
void set_help(Options& o, std::string_view, const ValueContext&) {
  o.show_help = true;
}
void set_version(Options& o, std::string_view, const ValueContext&) {
  o.show_version = true;
}

constexpr unsigned kViewerBench = kViewer | kBench;

const OptionSpec kOptions[] = {
    {"--backend", "cuda|cpu", "cpu", kViewerBench, "compute backend (default: cuda when a device exists)",
     set_backend},
    {"--layout", "aos|soa|float4", "float4", kViewer, "particle memory layout (default: float4)", set_layout},
    {"--solver", "all-pairs|attractors", "all-pairs", kViewerBench, "force solver (default: the scene's)",
     set_solver},
    {"--scene", "NAME|FILE", "galaxies", kViewerBench,
     "preset (plummer, galaxies, disk, cube, swirl) or TOML file (default: galaxies)", set_scene},
    {"--particles", "N", "65536", kViewerBench, "particle count; bench: a comma list of counts",
     set_particles},
    {"--draw-limit", "N", "4194304", kViewer,
     "most particles drawn per frame, every k-th with k x the light; 0 = all (default: 4194304)",
     set_draw_limit},
    {"--dt", "SECONDS", "0.001", kViewerBench, "time step, > 0 (default: the scene's)", set_dt},
    {"--softening", "EPS", "0.05", kViewerBench, "Plummer softening, > 0 (default: the scene's)",
     set_softening},
    {"--seed", "S", "42", kViewerBench, "random seed of the initial state (default: the scene's)", set_seed},
    {"--pack", "naive|tiled|tiled-padded|vector", "tiled", kViewer,
     "render-buffer pack variant (default: fastest measured)", set_pack},
    {"--width", "PIXELS", "1600", kViewer, "window or image width, 64..16384 (default: 1600)", set_width},
    {"--height", "PIXELS", "900", kViewer, "window or image height, 64..16384 (default: 900)", set_height},
    {"--headless", "", "", kViewer, "render offscreen (EGL), no display needed; needs --frames",
     set_headless},
    {"--frames", "N", "120", kViewer, "render N frames, then exit (with or without a window)", set_frames},
    {"--screenshot", "PATH", "out/shot.png", kViewer, "after --frames N, write a PNG and a JSON beside it",
     set_screenshot},
    {"--steps", "N", "200", kViewer, "simulate N steps with no window, print stats and exit", set_steps},
    {"--save-state", "PATH", "out/state.npy", kViewer, "write the final state as .npy (N x 7 float32)",
     set_save_state},
    {"--load-state", "PATH", "out/state.npy", kViewer, "start from a .npy state (N comes from the file)",
     set_load_state},
    {"--layouts", "LIST", "aos,soa,float4", kBench, "layouts to sweep (default: all)", set_layouts},
    {"--json", "FILE", "out/results.json", kBench | kLab, "also write the results as JSON", set_json},
    {"--repeats", "N", "5", kBench | kLab, "timed repeats per measurement; the median is reported",
     set_repeats},
    {"--size", "N", "8192", kLab, "problem size (matrix side / element count scale)", set_size},
    {"--only", "LIST", "transpose", kLab, "experiments to run, comma-separated (default: all)", set_only},
    {"--help", "", "", kAll, "print this help and exit", set_help},
    {"--version", "", "", kAll, "print the version and the features built in, and exit", set_version},
};

}  // namespace

const OptionSpec* option_table_begin() {
  return std::begin(kOptions);
}
const OptionSpec* option_table_end() {
  return std::end(kOptions);
}

const OptionSpec* find_option(std::string_view name) {
  if (name == "-h") name = "--help";
  for (const OptionSpec& spec : kOptions)
    if (spec.name == name) return &spec;
  return nullptr;
}

std::string_view command_name(Command command) {
  switch (command) {
    case Command::Viewer:
      return "the viewer (no subcommand)";
    case Command::Bench:
      return "coalesce bench";
    case Command::Lab:
      return "coalesce lab";
  }
  return "?";
}

unsigned scope_of(Command command) {
  switch (command) {
    case Command::Viewer:
      return kViewer;
    case Command::Bench:
      return kBench;
    case Command::Lab:
      return kLab;
  }
  return 0;
}

}  // namespace coalesce::cli
