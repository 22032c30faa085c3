// CuPy's examples/kmeans/kmeans.py in Jet, line for line: fit_xp in NumPy's style (fancy
// indexing and masks on the device) and fit_custom with an elementwise and two reduction
// kernels. examples/kmeans.cpp checks both against a host reference; bench/kmeans.cpp times
// them beside CuPy's.
#pragma once

#include <cstdint>

#include <jet/jet.hpp>

namespace kmeans {

struct fit_result {
  jet::array centers;  // (n_clusters, 2)
  jet::array pred;     // int32 label of each sample
  int iterations = 0;
};

// X: (n, 2); initial: n_clusters distinct sample indices (CuPy's np.random.choice).
inline fit_result fit_xp(const jet::array& X, std::int64_t n_clusters, int max_iter,
                         const jet::array& initial) {
  const jet::slice all;
  jet::array pred = jet::zeros({X.shape()[0]}, jet::int32);
  jet::array centers = X(initial);
  int it = 0;
  for (; it < max_iter; ++it) {
    // distances and labels
    const jet::array distances =
        jet::linalg::norm(X(all, jet::newaxis, all) - centers(jet::newaxis, all, all), {}, 2);
    const jet::array new_pred = jet::argmin(distances, 1).astype(jet::int32);
    // convergence
    if (jet::all(new_pred == pred).item<bool>()) break;
    pred = new_pred;
    // centers
    const jet::array i = jet::arange(n_clusters);
    const jet::array mask = pred == i(all, jet::newaxis);
    const jet::array sums = jet::sum(jet::where(mask(all, all, jet::newaxis), X, 0), 1);
    const jet::array counts = jet::count_nonzero(mask, 1).reshape({n_clusters, 1});
    centers = sums / counts;
  }
  return {centers, pred, it};
}

struct kernels {
  jet::elementwise_kernel var{"T x0, T x1, T c0, T c1", "T out",
                              "out = (x0 - c0) * (x0 - c0) + (x1 - c1) * (x1 - c1)", "var_kernel"};
  jet::reduction_kernel sum{"T x, S mask", "T out", "mask ? x : 0", "a + b",
                            "out = a",     "0",     "sum_kernel"};
  jet::reduction_kernel count{"T mask",  "float32 out", "mask ? 1.0 : 0.0", "a + b",
                              "out = a", "0.0",         "count_kernel"};
};

inline fit_result fit_custom(const kernels& k, const jet::array& X, std::int64_t n_clusters,
                             int max_iter, const jet::array& initial) {
  const jet::slice all;
  jet::array pred = jet::empty({X.shape()[0]}, jet::int32);
  jet::array centers = X(initial);
  int it = 0;
  for (; it < max_iter; ++it) {
    const jet::array distances =
        k.var(X(all, jet::newaxis, 0), X(all, jet::newaxis, 1), centers(jet::newaxis, all, 0),
              centers(jet::newaxis, all, 1));
    const jet::array new_pred = jet::argmin(distances, 1).astype(jet::int32);
    if (jet::all(new_pred == pred).item<bool>()) break;
    pred = new_pred;
    const jet::array i = jet::arange(n_clusters);
    const jet::array mask = pred == i(all, jet::newaxis);
    const jet::array sums = k.sum.call({X, mask(all, all, jet::newaxis)}, 1);
    const jet::array counts = jet::array(k.count.call({mask}, 1)).reshape({n_clusters, 1});
    centers = sums / counts;
  }
  return {centers, pred, it};
}

}  // namespace kmeans
