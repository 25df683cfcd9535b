// write_encoded (see encoded_file.h).
#include "sim/encoded_file.h"

namespace coalesce {

std::string companion_target(const OutputFile& file, const std::string& suffix) {
  return file.target + suffix;
}

void write_encoded(const OutputFile& file, const std::vector<EncodedFile>& files) {
  std::vector<OutputFile> targets;
  targets.reserve(files.size());
  for (const EncodedFile& encoded : files)
    targets.push_back(encoded.suffix.empty()
                          ? file
                          : recheck_output_path(file.flag, companion_target(file, encoded.suffix)));
  std::vector<OutputContent> outputs;
  for (std::size_t i = 0; i < files.size(); ++i) outputs.push_back({targets[i], files[i].pieces()});
  if (outputs.size() == 1) return write_output(file, outputs[0].pieces);  // "-" for npy and HDF5
  write_outputs_together(outputs);
}

}  // namespace coalesce
