// Sampling from a population: choice (with or without replacement, with or without
// probabilities), permutation and shuffle. Orderings come from sorting random keys on the
// device (CUB's radix sort), as CuPy's permutation does, with ties broken at random.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "jet/sorting.hpp"
#include "src/random/kernels.hpp"
#include "src/random/state.hpp"
#include "src/sort/sort_rows.hpp"

namespace jet::random {
namespace {

array contiguous(const array& a) { return a.is_c_contiguous() ? a : a.copy(); }

// A uniformly random ordering of arange(n): positions sorted by 32-bit random keys (CUB's radix
// sort, four passes over keys and int32 positions), then each run of equal keys shuffled, so
// that ties (about n^2 / 2^33 of them) are broken at random, as uniformity needs.
array permutation_indices(detail::generator_state& g, std::int64_t n) {
  if (n == 0) return empty({0}, int64);
  const array keys = detail::draw(g, jet::detail::random_dist::words, {n}, uint32);
  const dtype wide = n > std::numeric_limits<std::int32_t>::max() ? int64 : int32;
  const array positions = arange(0.0, static_cast<double>(n), 1.0, wide);
  const auto [sorted_keys, sorted] = jet::detail::radix_sorted(keys, 1, positions);
  const array out = empty({n}, int64);
  detail::untie(out, detail::draw_key(g), sorted_keys, sorted);
  return out;
}

// n indices drawn from [0, p.size()) without replacement with probabilities p: the n smallest
// keys E_i / p_i, with E_i exponential, which is successive sampling (Efraimidis and
// Spirakis, "Weighted random sampling with a reservoir", 2006). Zero probabilities get
// infinite keys and are never taken while any other index is left.
array weighted_without_replacement(detail::generator_state& g, const std::vector<double>& p,
                                   std::int64_t n) {
  const auto population = static_cast<std::int64_t>(p.size());
  const expr weights = asarray(p);
  const expr unit = detail::draw(g, jet::detail::random_dist::uniform, {population}, float64);
  const expr keys =
      where(weights > 0, -log1p(-unit) / weights, std::numeric_limits<double>::infinity());
  return argsort(keys)(slice(0, n));
}

// n indices drawn from [0, p.size()) with replacement: NumPy's inverse CDF, the first index
// whose cumulative probability exceeds a uniform draw on [0, 1).
array weighted_with_replacement(detail::generator_state& g, const std::vector<double>& p,
                                std::int64_t n) {
  std::vector<double> cdf(p.size());
  double total = 0;
  for (std::size_t i = 0; i < p.size(); ++i) cdf[i] = total += p[i];
  for (double& c : cdf) c /= total;  // the last is now exactly 1
  const array u = detail::draw_unit(g, n, float64);
  const array index = empty({n}, int64);
  detail::search_sorted(index, u, asarray(cdf));
  return index;
}

// NumPy's checks of p: one probability per element, none negative, summing to 1 within
// sqrt(float64 epsilon).
void check_probabilities(const std::vector<double>& p, std::int64_t population) {
  if (static_cast<std::int64_t>(p.size()) != population)
    throw value_error(
        fmt::format("choice: a and p must have same size ({} and {})", population, p.size()));
  double sum = 0, compensation = 0;
  for (double v : p) {
    if (!(v >= 0)) throw value_error("choice: probabilities are not non-negative");
    const double t = sum + v;
    compensation += std::abs(sum) >= std::abs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  sum += compensation;
  if (!(std::abs(sum - 1) <= std::sqrt(std::numeric_limits<double>::epsilon())))
    throw value_error(fmt::format("choice: probabilities do not sum to 1 (they sum to {})", sum));
}

}  // namespace

array generator::choice(std::int64_t a, const shape& size, bool replace,
                        const std::vector<double>& p) {
  const std::int64_t n = detail::element_count(size);
  if (a <= 0 && n != 0)
    throw value_error("choice: a must be greater than 0 unless no samples are taken");
  if (!p.empty()) check_probabilities(p, a);
  if (!replace && n > a)
    throw value_error(fmt::format(
        "choice: cannot take a larger sample ({}) than population ({}) when replace is false", n,
        a));
  if (!replace && !p.empty()) {
    std::int64_t nonzero = 0;
    for (double v : p) nonzero += v > 0;
    if (nonzero < n)
      throw value_error(
          fmt::format("choice: fewer non-zero entries in p ({}) than size ({})", nonzero, n));
  }
  if (n == 0) return empty(size, int64);
  if (p.empty()) {
    if (replace) return randint(std::int64_t{0}, a, size, int64);
    return permutation_indices(*state_, a)(slice(0, n)).reshape(size);
  }
  const array index = replace ? weighted_with_replacement(*state_, p, n)
                              : weighted_without_replacement(*state_, p, n);
  return index.reshape(size);
}

array generator::choice(const array& a, const shape& size, bool replace,
                        const std::vector<double>& p) {
  if (a.ndim() != 1)
    throw value_error("choice: a must be 1-dimensional (got shape " + to_string(a.shape()) + ")");
  const std::int64_t n = detail::element_count(size);
  if (a.size() == 0 && n != 0)
    throw value_error("choice: a cannot be empty unless no samples are taken");
  const array index = contiguous(choice(a.size(), {n}, replace, p));
  const array out = empty({n}, a.dtype());
  detail::gather_rows(out, contiguous(a), index);
  return out.reshape(size);
}

array generator::permutation(std::int64_t n) { return permutation_indices(*state_, n < 0 ? 0 : n); }

array generator::permutation(const array& a) {
  if (a.ndim() == 0)
    throw index_error("permutation: x must be an integer or at least 1-dimensional");
  const array rows = permutation_indices(*state_, a.shape()[0]);
  const array out = empty(a.shape(), a.dtype());
  detail::gather_rows(out, contiguous(a), rows);
  return out;
}

void generator::shuffle(const array& a) {
  if (a.ndim() == 0) throw index_error("shuffle: x must be at least 1-dimensional");
  array target = a;
  std::move(target) = permutation(a);
}

}  // namespace jet::random
