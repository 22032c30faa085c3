// Expression nodes from per-thread lists of free blocks: nodes made on one thread and freed on
// another, threads that end with blocks kept, and lists full to their capacity.
#include <thread>
#include <vector>

#include "codegen/expr/node_pool.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

// `n` expressions of a few nodes each over `a`.
std::vector<jet::expr> make(const jet::array& a, int n) {
  std::vector<jet::expr> made;
  for (int i = 0; i < n; ++i) made.push_back(jet::exp(a * static_cast<double>(i)) + a);
  return made;
}

}  // namespace

TEST_CASE("expression nodes made on threads that end are freed on others", "[host][expr]") {
  const jet::array a = jet::placeholder({7, 3}, jet::float32);
  constexpr int threads = 4, each = 400;
  std::vector<std::vector<jet::expr>> made(threads);
  std::vector<std::thread> makers;
  for (int t = 0; t < threads; ++t) makers.emplace_back([&, t] { made[t] = make(a, each); });
  for (std::thread& t : makers) t.join();
  // Freed by other threads (which keep some blocks and give the rest back), then made again.
  std::vector<std::thread> freers;
  for (int t = 0; t < threads; ++t)
    freers.emplace_back([&, t] {
      made[t].clear();
      made[t] = make(a, each);
      CHECK(made[t][each - 1].shape() == jet::shape{7, 3});
    });
  for (std::thread& t : freers) t.join();
  for (auto& m : made) m.clear();
  const std::vector<jet::expr> again = make(a, 3 * jet::detail::free_blocks<64>::capacity);
  CHECK(again.back().dtype() == jet::float32);
  // A node of each kind the factories make, copied and freed on this thread.
  const jet::expr r = jet::sum(jet::where(a > 0, a, 1.5f), 0) + jet::placeholder({3}, jet::float32);
  CHECK(r.shape() == jet::shape{3});
}

TEST_CASE("a thread's free blocks are reused", "[host][expr]") {
  using blocks = jet::detail::free_blocks<48>;
  void* first = blocks::take();
  blocks::give(first);
  CHECK(blocks::take() == first);  // the list kept it
  blocks::give(first);
}
