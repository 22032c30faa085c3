// jet-cache: inspects Jet's kernel cache. This first version answers `path`; listing,
// verifying and pruning arrive with the persistent cache.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

// DESIGN.md's rule: $JET_CACHE_DIR, else $XDG_CACHE_HOME/jet/kernels, else ~/.cache/jet/kernels.
std::string cache_dir() {
  if (const char* dir = std::getenv("JET_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/jet/kernels";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.cache/jet/kernels";
}

int usage(std::FILE* to, int status) {
  std::fprintf(to,
               "usage: jet-cache <command>\n\n"
               "commands:\n"
               "  path    print the kernel cache directory\n");
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(stderr, 2);
  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") return usage(stdout, 0);
  if (command == "path") {
    if (argc > 2 && std::string_view(argv[2]) == "--help") {
      std::printf("usage: jet-cache path\n\nPrints the kernel cache directory.\n");
      return 0;
    }
    std::printf("%s\n", cache_dir().c_str());
    return 0;
  }
  std::fprintf(stderr, "jet-cache: unknown command '%s'\n", argv[1]);
  return usage(stderr, 2);
}
