// The GADGET HDF5 reader over two processes (sim/child_decode.h): libhdf5 decodes in a forked child, which
// sends the StateContents or the error's kind and line over the pipe; the parent checks every value again.
#pragma once

#include <functional>
#include <string>

#include "sim/child_decode.h"
#include "sim/state_contents.h"

namespace coalesce::gadget {

// The longest text a child sends (a message, the ignored and converted phrases); longer ones are cut there.
constexpr std::size_t kMaxSentText = 4096;

// The decoding itself, in this process (sim/gadget_hdf5_read.cpp): only ever run in the child.
StateContents decode_here(const std::string& name, std::string bytes);

// In the child: runs decode() and sends what came of it, the contents or the exception's kind and line.
void send_outcome(const ChildWriter& writer, const std::function<StateContents()>& decode);

// In the parent: runs `child` in a child process (send_outcome around decode_here; the tests pass children
// that crash or send garbage) and `forked` here once the child has its own copy of the input, then
// returns the contents it sent, every value checked again, or rethrows its error. A child that dies or
// sends anything malformed is an Hdf5Error naming `name`; one killed by SIGKILL (the out-of-memory killer),
// or none started (no descriptor or memory left), a RuntimeFailure.
StateContents decode_in_child(const std::string& name, const std::function<void(ChildWriter&)>& child,
                              const std::function<void()>& forked = {});

}  // namespace coalesce::gadget
