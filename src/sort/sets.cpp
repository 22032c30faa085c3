// Set routines: a sort (or a stable argsort where positions are asked for), then the runs of
// equal neighbours: where each starts (one count, the only wait), their values, first
// positions, lengths, and each element's run (a cumsum of the starts, put back through the
// order).
#include "jet/sets.hpp"

#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/sorting.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

// Sorted elements (or rows), where their runs of equal ones start, and when asked for, the
// stable order that sorts them.
struct sorted_runs {
  array sorted, order;
  array first;   // bool: whether each sorted element starts a run
  array starts;  // int64: the positions where runs start
};

// Whether each element of the sorted 1-D `sorted` (n > 0) starts a run: the first, and each
// that differs from the one before (NaNs, when `equal_nan`, do not differ from each other).
array starts_run(const array& sorted, bool equal_nan) {
  const std::int64_t n = sorted.size();
  const array next = sorted(slice(1, none)), before = sorted(slice(0, n - 1));
  expr differs = next != before;
  if (equal_nan && is_inexact(sorted.dtype())) differs = differs && !(isnan(next) && isnan(before));
  return concatenate({ones({1}, bool_), differs});
}

// The same for the rows of the sorted 2-D `sorted`: rows differ where any element does.
array starts_row_run(const array& sorted) {
  const std::int64_t n = sorted.shape()[0];
  const array next = sorted(slice(1, none)), before = sorted(slice(0, n - 1));
  return concatenate({ones({1}, bool_), any(next != before, 1)});
}

// The runs of the 1-D `flat`.
sorted_runs runs_of(const array& flat, bool with_order, bool equal_nan) {
  sorted_runs r;
  if (with_order) {
    r.order = argsort(flat, 0);
    r.sorted = take(flat, r.order);
  } else {
    r.sorted = sort(flat, 0);
  }
  r.first = flat.size() ? starts_run(r.sorted, equal_nan) : empty({0}, bool_);
  r.starts = flatnonzero(r.first);
  return r;
}

// The runs of the rows of the 2-D `rows`, in lexicographic order (column 0 the primary key).
sorted_runs row_runs_of(const array& rows) {
  sorted_runs r;
  const std::int64_t n = rows.shape()[0], m = rows.shape()[1];
  if (m == 0) {
    r.order = arange(n);  // empty rows are all equal
  } else {
    std::vector<expr> keys;  // lexsort's primary key comes last
    for (std::int64_t c = m - 1; c >= 0; --c) keys.emplace_back(rows(slice(), c));
    r.order = lexsort(keys, 0);
  }
  r.sorted = take(rows, r.order, 0);
  r.first = n ? starts_row_run(r.sorted) : empty({0}, bool_);
  r.starts = flatnonzero(r.first);
  return r;
}

// What the options ask for besides the values, from the runs over n elements (or rows): first
// positions, each element's run (1-D), and run lengths.
void add_positions(const sorted_runs& r, std::int64_t n, const unique_options& o,
                   unique_result& out) {
  if (o.return_index) out.index = take(r.order, r.starts);
  if (o.return_inverse) {
    array inverse = empty({n}, int64);
    if (n) put(inverse, r.order, cumsum(r.first) - 1);
    out.inverse = inverse;
  }
  if (o.return_counts) out.counts = array(diff(concatenate({r.starts, full({1}, n, int64)})));
}

unique_result unique_flat(const array& a, const unique_options& o) {
  const array flat = a.ravel();
  const sorted_runs r = runs_of(flat, o.return_index || o.return_inverse, o.equal_nan);
  unique_result out;
  out.values = take(r.sorted, r.starts);
  add_positions(r, flat.size(), o, out);
  if (out.inverse) out.inverse = out.inverse->reshape(a.shape());
  return out;
}

unique_result unique_along(const array& a, int d, const unique_options& o) {
  const array moved = moveaxis(a, d, 0);
  shape rest;
  for (int k = 1; k < moved.ndim(); ++k) rest.push_back(moved.shape()[k]);
  const std::int64_t n = moved.shape()[0];
  const array rows = ascontiguousarray(moved).reshape({n, rest.product()});
  const sorted_runs r = row_runs_of(rows);
  unique_result out;
  shape kept{r.starts.size()};
  for (std::int64_t e : rest) kept.push_back(e);
  out.values = moveaxis(array(take(r.sorted, r.starts, 0)).reshape(kept), 0, d);
  add_positions(r, n, o, out);
  return out;
}

}  // namespace

array unique(const expr& a) { return unique(a, unique_options{}).values; }

unique_result unique(const expr& a, const unique_options& options) {
  if (!options.axis) return unique_flat(detail::as_array(a), options);
  const int d = normalize_axis(*options.axis, a.ndim());
  return unique_along(detail::as_array(a), d, options);
}

unique_all_result unique_all(const expr& x) {
  unique_result r = unique(
      x, {.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false});
  return {r.values, *r.index, *r.inverse, *r.counts};
}

unique_counts_result unique_counts(const expr& x) {
  unique_result r = unique(x, {.return_counts = true, .equal_nan = false});
  return {r.values, *r.counts};
}

unique_inverse_result unique_inverse(const expr& x) {
  unique_result r = unique(x, {.return_inverse = true, .equal_nan = false});
  return {r.values, *r.inverse};
}

array unique_values(const expr& x) { return unique(x, {.equal_nan = false}).values; }

expr isin(const expr& element, const expr& test_elements, bool invert) {
  const array test = sort(test_elements, std::nullopt);
  if (test.size() == 0) return full(element.shape(), invert);
  const array at = searchsorted(test, element);
  const expr found = take(test, at, std::nullopt, index_mode::clip) == element;
  return invert ? !found : found;
}

namespace {

// The inputs of a two-set routine, each flattened, made unique unless assumed so.
array set_of(const expr& a, bool assume_unique) {
  return assume_unique ? detail::as_array(a).ravel() : unique(a);
}

// The flattened `a` made unique, with the first position of each value, unless assumed unique.
unique_result with_first_positions(const expr& a, bool assume_unique) {
  if (!assume_unique) return unique(a, {.return_index = true});
  unique_result r;
  r.values = detail::as_array(a).ravel();
  return r;
}

// Where the sorted 1-D `aux` holds an element equal to the next one.
array equal_to_next(const array& aux) {
  const std::int64_t n = aux.size();
  if (n < 2) return empty({0}, int64);
  return flatnonzero(aux(slice(1, none)) == aux(slice(0, n - 1)));
}

}  // namespace

array intersect1d(const expr& a, const expr& b, bool assume_unique) {
  const array aux =
      sort(concatenate({set_of(a, assume_unique), set_of(b, assume_unique)}, std::nullopt),
           std::nullopt);
  return take(aux, equal_to_next(aux));
}

intersect1d_result intersect1d_indices(const expr& a, const expr& b, bool assume_unique) {
  const unique_result ua = with_first_positions(a, assume_unique);
  const unique_result ub = with_first_positions(b, assume_unique);
  const array joined = concatenate({ua.values, ub.values}, std::nullopt);
  const array order = argsort(joined, 0);
  const array aux = take(joined, order);
  const array at = equal_to_next(aux);
  intersect1d_result out{take(aux, at), take(order, at),
                         array(take(order, array(at + 1)) - ua.values.size())};
  if (!assume_unique) {
    out.indices1 = take(*ua.index, out.indices1);
    out.indices2 = take(*ub.index, out.indices2);
  }
  return out;
}

array union1d(const expr& a, const expr& b) {
  // NumPy joins the two directly, so a Python scalar takes the array's kind (NEP 50).
  const auto scalar = [](const expr& e) {
    return e.ndim() == 0 ? e.node() : detail::make_input(placeholder({}, e.dtype()));
  };
  const dtype t = detail::make_op(detail::op_code::less, scalar(a), scalar(b))->operand_type;
  return unique(concatenate({a.astype(t), b.astype(t)}, std::nullopt));
}

array setdiff1d(const expr& a, const expr& b, bool assume_unique) {
  const array ua = set_of(a, assume_unique);
  return extract(isin(ua, b, true), ua);
}

array setxor1d(const expr& a, const expr& b, bool assume_unique) {
  const array aux =
      sort(concatenate({set_of(a, assume_unique), set_of(b, assume_unique)}, std::nullopt),
           std::nullopt);
  const std::int64_t n = aux.size();
  if (n == 0) return aux;
  // An element is alone where it differs from both neighbours (the ends count as differing).
  const array differs = concatenate(
      {ones({1}, bool_), aux(slice(1, none)) != aux(slice(0, n - 1)), ones({1}, bool_)});
  return extract(differs(slice(1, none)) && differs(slice(0, n)), aux);
}

}  // namespace jet
