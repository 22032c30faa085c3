// A program built against an installed Jet: it must link and start, GPU or not. It uses the
// API corners a NumPy user guesses (README), so that they compile outside Jet's own build;
// the parts that run kernels run only where there is a GPU.
#include <jet/jet.hpp>

#include <cstdio>
#include <vector>

namespace {

// Runs kernels: host values with a braced shape, an expression's views and values, waiting
// and timing. Returns the number of wrong results.
int run_on_gpu() {
  const int n = 4;
  std::vector<float> host(n * n);
  for (int i = 0; i < n * n; ++i) host[i] = static_cast<float>(i);
  const jet::array a = jet::asarray(host, {n, n});
  const jet::expr e = a * 2;
  jet::event start, stop;
  start.record();
  const jet::array t = e.T();                             // evaluates, then a transposed view
  const jet::array row = e(1, jet::slice(1, jet::none));  // basic indexing of an expression
  const jet::array flat = e.reshape(-1);
  stop.record();
  jet::synchronize();
  const float ms = jet::elapsed_ms(start, stop);
  int wrong = 0;
  wrong += t.to_vector<float>()[1] != 8.0f;  // t[0, 1] = e[1, 0] = 2 * 4
  wrong += row.to_vector<float>() != std::vector<float>{10.0f, 12.0f, 14.0f};
  wrong += flat.size() != n * n;
  wrong += e(3, 3).item<float>() != 30.0f;
  wrong += e.flatten().to_vector<float>().back() != 30.0f;
  wrong += jet::linalg::norm(a, {}, 1).to_vector<double>().size() != n;
  std::printf("ran on %s in %.3f ms, %d wrong\n", jet::device::current().name.c_str(), ms, wrong);
  return wrong;
}

}  // namespace

int main() {
  const jet::array x = jet::placeholder({4, 4}, jet::float32);
  const jet::explanation e = jet::explain(jet::sin(x) * 2.0f);
  std::printf("%s\n", e.kernel_name.c_str());
  // A product of placeholders plans without a GPU, and links cuBLAS through jet::jet.
  const jet::array p = jet::matmul(x, x.T());
  // An empty draw needs no GPU, and links cuRAND through jet::jet.
  const jet::array r = jet::random::generator(7).rand({0, 3});
  // NumPy's norm(x, None, 1) and the reduction members build nodes without a GPU.
  const bool lazy_ok = jet::linalg::norm(x, {}, 1).shape() == jet::shape{4} &&
                       x.count_nonzero(0).shape() == jet::shape{4} &&
                       (x * 2).count_nonzero().dtype() == jet::int64;
  if (e.source.empty() || p.shape() != jet::shape{4, 4} || r.size() != 0 || !lazy_ok) return 1;
  if (!jet::device::available()) {
    std::printf("%s: kernels not run\n", jet::device::unavailable_reason().c_str());
    return 0;
  }
  return run_on_gpu() == 0 ? 0 : 1;
}
