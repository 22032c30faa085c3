// jet-cache's subcommands. Each returns the exit status: 0 fine, 1 a check found problems
// (or the work failed); usage mistakes throw usage_error (status 2).
#pragma once

#include "tools/jet-cache/args.hpp"

namespace jet::cli {

int run_path(const invocation& inv);    // inspect.cpp
int run_list(const invocation& inv);    // inspect.cpp
int run_show(const invocation& inv);    // inspect.cpp
int run_stats(const invocation& inv);   // inspect.cpp
int run_verify(const invocation& inv);  // maintain.cpp
int run_prune(const invocation& inv);   // maintain.cpp
int run_clear(const invocation& inv);   // maintain.cpp
int run_warm(const invocation& inv);    // warm.cpp

}  // namespace jet::cli
