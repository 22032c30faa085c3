// A program built against an installed Jet: it must link and start, GPU or not.
#include <jet/jet.hpp>

#include <cstdio>

int main() {
  const jet::array x = jet::placeholder({4, 4}, jet::float32);
  const jet::explanation e = jet::explain(jet::sin(x) * 2.0f);
  std::printf("%s\n", e.kernel_name.c_str());
  // A product of placeholders plans without a GPU, and links cuBLAS through jet::jet.
  const jet::array p = jet::matmul(x, x.T());
  // An empty draw needs no GPU, and links cuRAND through jet::jet.
  const jet::array r = jet::random::generator(7).rand({0, 3});
  return e.source.empty() || p.shape() != jet::shape{4, 4} || r.size() != 0 ? 1 : 0;
}
