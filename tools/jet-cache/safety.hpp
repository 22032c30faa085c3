// The folders jet-cache changes: only those Jet would load from.
#pragma once

#include <string_view>

#include "tools/jet-cache/args.hpp"

namespace jet::cli {

// How to make a folder trusted again, for the reason detail::unsafe_reason() gave.
std::string_view repair_hint(std::string_view reason);

// jet-cache changes only a folder Jet would load from: in one that others can write, a file
// or subfolder could be theirs, placed to turn a removal onto something outside the cache, and
// an entry stored there would never be loaded. When `inv.dir` exists and is not such a folder,
// says so on stderr ("not `what` DIR: ...") and returns true.
bool refuse_unsafe(const invocation& inv, std::string_view what);

}  // namespace jet::cli
