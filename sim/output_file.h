// Every file the program writes goes through here (data safety: docs/reliability.md). A path is checked
// before any work starts; the bytes go to a temporary file beside the target, are flushed to disk, and are
// renamed over it, so the previous file survives any failure. Only regular files are ever replaced: a symlink
// is followed (its target is replaced, the link stays), a dangling one is refused, and so are devices, FIFOs,
// sockets and directories. "-" is standard output where the caller allows it. Every temporary is recorded in
// the exit ledger (sim/exit_ledger.h) while it exists, so a run ended at once by a signal removes it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce {

struct OutputFile {
  std::string flag;        // "--save-state", for messages
  std::string shown;       // the path as the user gave it
  std::string target;      // the regular file that will be replaced or created (symlinks resolved)
  bool to_stdout = false;  // "-"
  bool empty() const { return shown.empty(); }
};

enum class StdoutUse { Refuse, Allow };

// Throws UsageError (one line naming `flag`, the path and the fix) unless `path` can be written: a regular
// file that is writable, or a new name in a writable directory; a symlink whose target is one of those. A
// file of another user in a sticky directory (/tmp) is refused too: the rename over it would fail.
OutputFile check_output_path(std::string_view flag, const std::string& path,
                             StdoutUse use = StdoutUse::Refuse);

// The same checks again when the file is about to be written, after the work: a failure now is the run's
// (RuntimeFailure, exit 1), and a directory that is gone was removed during the run.
OutputFile recheck_output_path(std::string_view flag, const std::string& path,
                               StdoutUse use = StdoutUse::Refuse);

// The file a chain of symlinks from `path` ends at (existing or not): `path` itself where it is no link or
// the chain cannot be followed. Companion files (Tipsy's .iord) live beside it.
std::string final_target(const std::string& path);

// Writes the concatenation of `pieces` to `file` atomically (see above); standard output for "-". Throws
// RuntimeFailure naming the path and the reason; the previous file is then untouched and no temporary
// file is left behind.
void write_output(const OutputFile& file, const std::vector<std::string_view>& pieces);

// Files that belong together (a screenshot's PNG and its JSON) are replaced together or not at all: every
// temporary is written and synced first, then each is renamed over its target, and if a rename fails the
// ones already done are rolled back from hard links of the old files. Throws RuntimeFailure naming every
// file, saying truthfully that all are untouched.
struct OutputContent {
  const OutputFile& file;
  std::vector<std::string_view> pieces;
};
void write_outputs_together(const std::vector<OutputContent>& outputs);
class PendingOutput;
// The same, with `pending`'s file (filled by another program: a clip's .mp4) replaced in the same step.
void write_outputs_together(const std::vector<OutputContent>& outputs, PendingOutput& pending);

// For a file another program writes (ffmpeg encoding a clip): an empty temporary file beside the target,
// with the permissions of the file it will replace, renamed over the target by commit() with write_output's
// checks; removed if never committed. Throws RuntimeFailure as write_output does.
struct StagedOutput;
class PendingOutput {
 public:
  explicit PendingOutput(const OutputFile& file);
  ~PendingOutput();
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  const std::string& temporary() const;
  void commit();                 // write_outputs_together({}, *this)
  bool replaces_a_file() const;  // a previous file is there (untouched unless commit() succeeds)

 private:
  friend void write_outputs_together(const std::vector<OutputContent>& outputs, PendingOutput& pending);
  OutputFile m_file;
  std::unique_ptr<StagedOutput> m_staged;
  bool m_committed = false;
};

// Building blocks the held folder (held_folder.h) shares with the writer above.
// Writes `pieces` to `fd` and syncs it; 0 or the errno of the first failure. Does not close `fd`.
int write_and_sync(int fd, const std::vector<std::string_view>& pieces);
// The hidden name of a temporary for the file `name` (no directory): ".NAME.1a2b3c4d.tmp", `draw` in hex.
std::string hidden_temporary_name(const std::string& name, unsigned draw);
// What to do about a write of `target` that failed with `error`: the cause in words and a fix for it.
std::string fix_for_write_error(int error, const std::string& target);

}  // namespace coalesce
