// jet-cache: inspects and manages Jet's kernel cache. This file holds the command table
// and the help texts; each command lives in inspect.cpp, maintain.cpp or warm.cpp.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "src/cache/directory.hpp"
#include "tools/jet-cache/commands.hpp"

namespace {

using jet::cli::invocation;

struct command {
  std::string_view name;
  std::string_view summary;
  std::string_view usage;                 // the first line of --help
  std::string_view details;               // the rest
  std::vector<std::string_view> options;  // accepted besides --dir and --help
  std::size_t operands;                   // exactly this many
  int (*run)(const invocation&);
  bool reads_cache;  // needs the folder to be one: path only prints it, warm makes it
};

const std::vector<command>& commands() {
  static const std::vector<command> table = {
      {"path",
       "print the cache directory",
       "jet-cache path",
       "Prints $JET_CACHE_DIR, else $XDG_CACHE_HOME/jet/kernels, else ~/.cache/jet/kernels\n"
       "(relative XDG_CACHE_HOME and HOME count as unset: then there is none, and --dir is\n"
       "needed).\n",
       {},
       0,
       jet::cli::run_path,
       false},
      {"list",
       "list entries: key, kernel, arch, size, created, last used",
       "jet-cache list [--json]",
       "Lists every entry, most recently used first. Keys are shown abbreviated to 16 digits;\n"
       "--json gives them whole, with the NVRTC and Jet versions of each entry. Exit status 1\n"
       "when an entry or a folder could not be read; 'jet-cache verify' names them.\n",
       {"--json"},
       0,
       jet::cli::run_list,
       true},
      {"show",
       "show one entry: header, options, source, machine code",
       "jet-cache show KEY [--json]",
       "KEY may be any unique prefix of a key. The machine code is disassembled with\n"
       "cuobjdump -sass when cuobjdump is on PATH; PTX entries show their PTX.\n",
       {"--json"},
       1,
       jet::cli::run_show,
       true},
      {"stats",
       "count entries, bytes and unreadable entries",
       "jet-cache stats [--json]",
       "Reads every entry's header; 'bad entries' are those whose header cannot be read,\n"
       "links where entries belong, and folders that cannot be read. 'jet-cache verify' also\n"
       "checks the checksums.\n",
       {"--json"},
       0,
       jet::cli::run_stats,
       true},
      {"verify",
       "check every entry's checksum and permissions",
       "jet-cache verify [--fix] [--json]",
       "Exit status 1 when problems were found and not fixed: damaged entries, links or\n"
       "folders named like entries, folders it cannot read. --fix removes bad entries and\n"
       "links (never what they point at); folders writable by others are reported, never\n"
       "changed.\n",
       {"--fix", "--json"},
       0,
       jet::cli::run_verify,
       true},
      {"prune",
       "remove least-recently-used or unused entries",
       "jet-cache prune [--max-bytes N] [--older-than DURATION]",
       "--max-bytes N       remove least-recently-used entries until at most N bytes remain\n"
       "                    (N may end in K, M or G: 500M)\n"
       "--older-than D      remove entries not used for D: 30s, 10m, 2h, 7d or 2w\n"
       "Exit status 1 when an entry could not be removed (a read-only mount, a folder it may\n"
       "not write); stderr names each.\n",
       {"--max-bytes", "--older-than"},
       0,
       jet::cli::run_prune,
       true},
      {"clear",
       "remove every entry",
       "jet-cache clear",
       "Removes entries and temporary files only; other files in the folder are left alone.\n"
       "Exit status 1 when an entry could not be removed; stderr names each.\n",
       {},
       0,
       jet::cli::run_clear,
       true},
      {"warm",
       "compile the kernels of a record file into the cache",
       "jet-cache warm FILE [--arch sm_90]",
       "FILE is what a program wrote with JET_CACHE_RECORD=FILE. Every kernel in it is compiled\n"
       "for --arch (default: the arch it was recorded for; one this NVRTC builds) and stored,\n"
       "so that a deployment starts with a full cache. Needs no GPU. Exit status 1 if any\n"
       "kernel failed or was refused: a name that is no C identifier, a source that does not\n"
       "define the kernel, a folder Jet would not load from.\n"
       "A record file is code: warm only what you would run. Its sources may #include any file\n"
       "you can read; a failed compile's log shows at most 40 lines, and none of the text NVRTC\n"
       "quotes from files other than the record's own source.\n",
       {"--arch"},
       1,
       jet::cli::run_warm,
       false},
  };
  return table;
}

// A --dir that does not exist or is not a folder, or a cache directory that is not a folder,
// is a mistake that would otherwise read as an empty cache. The environment's directory may
// be missing: Jet makes it on its first store.
void check_cache_folder(const invocation& inv) {
  const bool given = std::find(inv.given.begin(), inv.given.end(), "--dir") != inv.given.end();
  const std::string what = given ? "--dir " + inv.dir : "the cache directory " + inv.dir;
  struct stat st {};
  if (stat(inv.dir.c_str(), &st) != 0) {
    if (given && (errno == ENOENT || errno == ENOTDIR))
      throw jet::cli::usage_error(what + " does not exist");
    return;  // missing, or unreadable: the scan reports the latter
  }
  if (!S_ISDIR(st.st_mode)) throw jet::cli::usage_error(what + " is not a folder");
}

void print_usage(std::FILE* to) {
  std::string text =
      "usage: jet-cache [--dir DIR] <command> [options]\n\n"
      "Inspects and manages Jet's kernel cache.\n\ncommands:\n";
  for (const command& c : commands()) text += fmt::format("  {:<8}{}\n", c.name, c.summary);
  text +=
      "\n--dir DIR points at another cache folder, which must exist; --help after a command\n"
      "explains it. A record file is code: warm only one you would run.\n"
      "Exit status: 0 fine, 1 a check found problems or the work failed, 2 a usage mistake.\n";
  std::fputs(text.c_str(), to);
}

int run(int argc, char** argv) {
  const invocation inv = jet::cli::parse_command_line(argc, argv);
  if (inv.command.empty()) {
    if (inv.help) {
      print_usage(stdout);
      return 0;
    }
    throw jet::cli::usage_error("no command given");
  }
  if (inv.command == "help") {
    print_usage(stdout);
    return 0;
  }
  const auto found = std::find_if(commands().begin(), commands().end(),
                                  [&](const command& c) { return c.name == inv.command; });
  if (found == commands().end())
    throw jet::cli::usage_error("unknown command '" + inv.command + "'");
  const command& c = *found;
  if (inv.help) {
    fmt::print("usage: {} [--dir DIR]\n\n{}\n{}", c.usage, c.summary, c.details);
    return 0;
  }
  for (const std::string& option : inv.given)
    if (option != "--dir" &&
        std::find(c.options.begin(), c.options.end(), option) == c.options.end())
      throw jet::cli::usage_error(fmt::format("'{}' takes no {} option", c.name, option));
  if (inv.operands.size() > c.operands)
    throw jet::cli::usage_error(
        fmt::format("'{}' does not take '{}'", c.name, inv.operands[c.operands]));
  if (inv.operands.size() < c.operands)
    throw jet::cli::usage_error(fmt::format("usage: {}", c.usage));
  if (inv.dir.empty())
    throw jet::cli::usage_error(std::string(jet::detail::no_cache_directory) + "; give --dir");
  if (c.reads_cache) check_cache_folder(inv);
  return c.run(inv);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const jet::cli::usage_error& e) {
    std::fprintf(stderr, "jet-cache: %s\n", e.what());
    std::fprintf(stderr,
                 "run 'jet-cache --help' for the commands, 'jet-cache COMMAND --help' for one\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "jet-cache: %s\n", e.what());
    return 1;
  }
}
