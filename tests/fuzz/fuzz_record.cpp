// Fuzzes the reader of record files (src/cache/record.cpp, what `jet-cache warm` reads). Every
// non-empty line is a kernel or a problem that names its line; no exception escapes; every
// kernel read has a C identifier for a name and writes back (record_line) as one line that
// reads again as the same kernel.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "src/cache/record.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace jet::detail;
using jet::fuzz::require;

bool same_kernel(const recorded_kernel& a, const recorded_kernel& b) {
  return a.source.name == b.source.name && a.source.source == b.source.source && a.arch == b.arch &&
         a.options == b.options && a.extras.options == b.extras.options &&
         a.extras.name_expressions == b.extras.name_expressions;
}

// The numbers of the non-empty lines of `text`, counted from 1 as std::getline splits them.
std::vector<std::string> non_empty_line_numbers(std::string_view text) {
  std::vector<std::string> numbers;
  std::size_t start = 0;
  for (int number = 1; start < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) numbers.push_back(std::to_string(number));
    start = end + 1;
  }
  return numbers;
}

void check_round_trip(const recorded_kernel& kernel) {
  require(jet::codegen::is_identifier(kernel.source.name), "a kernel read has a C identifier");
  const std::string line = record_line(kernel);
  require(!line.empty(), "a kernel read from a record can be written back");
  require(line.back() == '\n' && std::count(line.begin(), line.end(), '\n') == 1,
          "a written record is one line");
  std::istringstream in(line);
  const record_file again = read_records(in);
  require(again.problems.empty() && again.kernels.size() == 1 &&
              same_kernel(again.kernels.front(), kernel),
          "a written record reads back as the same kernel");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream in(text);
  const record_file read = read_records(in);
  const std::vector<std::string> lines = non_empty_line_numbers(text);
  require(read.kernels.size() + read.problems.size() == lines.size(),
          "every non-empty line is a kernel or a problem");
  auto line = lines.begin();
  for (const std::string& problem : read.problems) {
    line = std::find_if(line, lines.end(), [&](const std::string& number) {
      return problem.starts_with("line " + number + ": ");
    });
    require(line != lines.end(), "problems name their non-empty lines, in order");
    ++line;
  }
  for (const recorded_kernel& kernel : read.kernels) check_round_trip(kernel);
  return 0;
}
