// libFuzzer target: the GADGET HDF5 snapshot reader, coalesce::decode_gadget_hdf5 (sim/gadget_hdf5.h), over
// the input as a file's bytes in memory. An Hdf5Error naming "fuzz.hdf5" is a clean rejection; a crash, a
// hang, a sanitizer report in this process, any other exception or a broken promise (gadget_input.h) is a
// finding. libhdf5 decodes in a forked child: a report there ends the child and is one Hdf5Error here, and
// the child's coverage is not seen, so the fuzzer steers by the outcome reader's edges only
// (docs/reliability.md, "Hostile GADGET HDF5 files"); see tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/gadget_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const coalesce::fuzz::GadgetOutcome outcome = coalesce::fuzz::check_decode_gadget(bytes, "fuzz.hdf5");
  if (!outcome.broken.empty()) {
    std::fprintf(stderr, "gadget_fuzzer: %s\n", outcome.broken.c_str());
    std::abort();
  }
  return 0;
}
