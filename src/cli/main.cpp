// jet-cache: inspects Jet's kernel cache.
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "--help";
  std::printf("usage: jet-cache <command>\n");
  return command == "--help" ? 0 : 2;
}
