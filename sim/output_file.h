// Every file the program writes goes through here (data safety: docs/reliability.md). A path is checked before any work
// starts; the bytes go to a temporary file beside the target, are flushed to disk, and are renamed over it,
// so the previous file survives any failure. Only regular files are ever replaced: a symlink is followed (its
// target is replaced, the link stays), and devices, FIFOs, sockets and directories are refused. "-" is
// standard output where the caller allows it.
#pragma once

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
// file that is writable, or a new name in a writable directory; a symlink whose target is one of those.
OutputFile check_output_path(std::string_view flag, const std::string& path,
                             StdoutUse use = StdoutUse::Refuse);

// Throws UsageError when two of `outputs` (empty ones skipped) are the same file, so that one would
// overwrite the other.
void check_distinct_outputs(const std::vector<OutputFile>& outputs);

// Writes the concatenation of `pieces` to `file` atomically (see above); standard output for "-". Throws
// RuntimeFailure naming the path and the reason; the previous file is then untouched and no temporary
// file is left behind.
void write_output(const OutputFile& file, const std::vector<std::string_view>& pieces);

// For a file another program writes (ffmpeg encoding a clip): an empty temporary file beside the target,
// with the permissions of the file it will replace, renamed over the target by commit() with write_output's
// checks; removed if never committed. Throws RuntimeFailure as write_output does.
class PendingOutput {
 public:
  explicit PendingOutput(const OutputFile& file);
  ~PendingOutput();
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  const std::string& temporary() const { return m_temporary; }
  void commit();

 private:
  OutputFile m_file;
  std::string m_temporary;
  bool m_existed = false;
  bool m_committed = false;
};

}  // namespace coalesce
