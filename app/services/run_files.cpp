// The one rule for a run's files (see run_files.h).
#include "app/services/run_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "sim/errors.h"
#include "sim/path_parts.h"
#include "sim/scene.h"

namespace coalesce {
namespace {

struct Identity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string canonical;  // what a file that does not exist yet is matched by
};

std::string real_path(const std::string& path) {
  char real[PATH_MAX];
  return ::realpath(path.c_str(), real) ? std::string(real) : std::string();
}

// stat follows symlinks, so a link and its target are one identity, as are two hard links.
Identity identity_of(const std::string& path) {
  Identity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.device = st.st_dev;
    id.inode = st.st_ino;
    return id;
  }
  const std::string dir = real_path(parent_of(path));
  id.canonical = dir.empty() ? path : dir + "/" + name_of(path);
  return id;
}

bool same(const Identity& a, const Identity& b) {
  if (a.exists != b.exists) return false;
  return a.exists ? a.device == b.device && a.inode == b.inode : a.canonical == b.canonical;
}

// "--screenshot's JSON" -> "--screenshot": the flag whose path the user can change.
std::string base_flag(const std::string& flag) {
  return flag.substr(0, flag.find("'s "));
}

std::string named(const OutputFile& out) {
  return out.flag + " " + out.shown + (out.shown == out.target ? "" : " (" + out.target + ")");
}

bool given(const Options& options, std::string_view flag) {
  return std::find(options.given.begin(), options.given.end(), flag) != options.given.end();
}

// A path --camera-from put into the options is named as the file's, not the user's.
std::string source(const Options& options, const std::string& flag, const std::string& what) {
  return !options.camera_from.empty() && !given(options, flag) ? "the " + what + " file --camera-from restored"
                                                               : flag + "'s file";
}

}  // namespace

std::vector<RunInput> run_inputs(const Options& options) {
  std::vector<RunInput> inputs;
  if (!is_preset(options.scene)) inputs.push_back({source(options, "--scene", "scene"), options.scene});
  if (!options.load_state.empty()) {
    inputs.push_back({source(options, "--load-state", "state"), options.load_state});
    // A Tipsy state's IDs are read from beside it; no output may replace them either.
    const std::optional<StateFormat> named = format_of_extension(options.load_state);
    const StateFormat format = named.value_or(options.state_format.value_or(StateFormat::Npy));
    for (const std::string& companion : companion_paths(options.load_state, format))
      inputs.push_back({source(options, "--load-state", "state") + "'s IDs", companion});
  }
  if (!options.camera_from.empty()) inputs.push_back({"--camera-from's file", options.camera_from});
  for (const std::string& run : options.bench_compare) inputs.push_back({"--compare's file", run});
  if (!options.bench_from.empty()) inputs.push_back({"--from's file", options.bench_from});
  return inputs;
}

void check_run_files(const std::vector<OutputFile>& outputs, const std::vector<OutputFolder>& folders,
                     const std::vector<RunInput>& inputs) {
  std::vector<const OutputFile*> files;
  for (const OutputFile& out : outputs)
    if (!out.empty() && !out.to_stdout) files.push_back(&out);
  std::vector<Identity> ids;
  for (const OutputFile* out : files) ids.push_back(identity_of(out->target));
  std::vector<Identity> input_ids;
  for (const RunInput& in : inputs) input_ids.push_back(identity_of(in.path));

  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const RunInput& in = inputs[k];
      if (same(ids[i], input_ids[k]))
        throw UsageError(named(*files[i]) + " is " + in.what + " (" + in.path +
                         "), which this run reads: writing it would destroy it (give " + base_flag(files[i]->flag) +
                         " another path)");
    }
    for (std::size_t j = 0; j < i; ++j)
      if (same(ids[i], ids[j]))
        throw UsageError(named(*files[i]) + " is the same file as " + named(*files[j]) +
                         ", which it would overwrite; give them different paths");
  }
  for (const OutputFolder& folder : folders) {
    const Identity folder_id = identity_of(folder.path);
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (same(ids[i], folder_id))
        throw UsageError(named(*files[i]) + " is " + folder.flag + "'s folder " + folder.shown +
                         "; give them different paths");
      if (same(identity_of(parent_of(files[i]->target)), folder_id))
        throw UsageError(named(*files[i]) + " is inside " + folder.flag + "'s folder " + folder.shown +
                         ", which receives " + folder.receives + "; write it elsewhere");
    }
  }
  for (std::size_t i = 0; i < folders.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (same(identity_of(folders[i].path), identity_of(folders[j].path)))
        throw UsageError(folders[i].flag + "'s folder " + folders[i].shown + " is also " + folders[j].flag +
                         "'s; give them different folders");
}

}  // namespace coalesce
