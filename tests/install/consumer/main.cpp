// A program built against an installed Jet: it must link and start, GPU or not.
#include <jet/jet.hpp>

#include <cstdio>

int main() {
  const jet::array x = jet::placeholder({4, 4}, jet::float32);
  const jet::explanation e = jet::explain(jet::sin(x) * 2.0f);
  std::printf("%s\n", e.kernel_name.c_str());
  return e.source.empty() ? 1 : 0;
}
