// Joining and splitting: a few parts are written by one kernel (src/array/fused_join.hpp), more
// each into its slice of the result by a kernel with its producer fused; splits and the
// atleast_*d forms are views.
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/manipulation.hpp"
#include "src/array/assignment.hpp"
#include "src/array/fused_join.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

using part = detail::join_part;

// `view`'s memory as `target`, which has the same extents but for extent-1 axes.
array with_shape(const array& view, const shape& target) {
  if (view.shape() == target) return view;
  shape strides;
  int d = 0;
  for (std::int64_t extent : target) {
    if (extent == 1) {
      strides.push_back(0);
      continue;
    }
    while (view.shape()[d] == 1) ++d;
    strides.push_back(view.strides()[d++]);
  }
  return array(view.buffer(), view.dtype(), target, strides, view.offset());
}

// NumPy's atleast_1d, _2d and _3d shapes.
shape at_least(const shape& s, int axes) {
  if (s.size() >= axes) return s;
  if (s.empty()) return shape::filled(axes, 1);
  if (axes == 2 || s.size() == 2) {
    shape out = s.size() == 1 ? shape{1, s[0]} : s;
    if (axes == 3) out.push_back(1);
    return out;
  }
  return shape{1, s[0], 1};  // 1-D to 3-D
}

// The view of `out` along `axis` from `start`, `length` long.
array slab(const array& out, int axis, std::int64_t start, std::int64_t length) {
  std::vector<index_item> items(static_cast<std::size_t>(axis), index_item(slice()));
  items.emplace_back(slice(start, start + length));
  return out.index(items);
}

std::vector<part> as_parts(const parts& p, int axes) {
  std::vector<part> out;
  for (const expr& e : p.items()) out.push_back({e, at_least(e.shape(), axes)});
  return out;
}

void check_any(const std::vector<part>& ps, const char* what) {
  if (ps.empty()) throw value_error(std::string("need at least one array to ") + what);
}

// The join's result shape along `axis`, checked in NumPy's words.
shape joined_shape(const std::vector<part>& ps, int axis) {
  const shape& first = ps.front().joined;
  shape result = first;
  result[axis] = 0;
  for (std::size_t k = 0; k < ps.size(); ++k) {
    const shape& s = ps[k].joined;
    if (s.size() != first.size())
      throw value_error(
          "all the input arrays must have same number of dimensions, but the array "
          "at index 0 has " +
          std::to_string(first.size()) + " dimension(s) and the array at index " +
          std::to_string(k) + " has " + std::to_string(s.size()) + " dimension(s)");
    for (int d = 0; d < s.size(); ++d)
      if (d != axis && s[d] != first[d])
        throw value_error(
            "all the input array dimensions except for the concatenation axis must match exactly, "
            "but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " + std::to_string(first[d]) +
            " and the array at index " + std::to_string(k) + " has size " + std::to_string(s[d]));
    result[axis] += s[axis];
  }
  return result;
}

dtype promoted(const std::vector<part>& ps) {
  dtype t = ps.front().value.dtype();
  for (const part& p : ps) t = promote_types(t, p.value.dtype());
  return t;
}

// The result's dtype: `t`, which each part must reach under 'same_kind', or the promoted one.
dtype result_dtype(const std::vector<part>& ps, std::optional<dtype> t) {
  if (!t) return promoted(ps);
  for (const part& p : ps) detail::check_same_kind_cast(p.value.dtype(), *t, p.value.ndim() == 0);
  return *t;
}

array join(const std::vector<part>& ps, std::int64_t axis, std::optional<dtype> t) {
  check_any(ps, "concatenate");
  if (ps.front().joined.empty())
    throw value_error("zero-dimensional arrays cannot be concatenated");
  const int d = normalize_axis(axis, ps.front().joined.size());
  const shape joined = joined_shape(ps, d);
  array out = empty(joined, result_dtype(ps, t));
  if (const detail::node_ptr fused = detail::fused_join(ps, d, joined, out.dtype())) {
    detail::evaluate(*fused, out);
    return out;
  }
  std::int64_t at = 0;
  for (const part& p : ps) {
    with_shape(slab(out, d, at, p.joined[d]), p.value.shape()) = p.value;
    at += p.joined[d];
  }
  return out;
}

// Joins the parts flattened: each is written into its piece of the result seen in its shape.
array join_flat(const parts& p, std::optional<dtype> t) {
  std::vector<part> ps;
  for (const expr& e : p.items()) ps.push_back({e, shape{e.size()}});
  check_any(ps, "concatenate");
  const shape joined = joined_shape(ps, 0);
  array out = empty(joined, result_dtype(ps, t));
  std::int64_t at = 0;
  for (const part& q : ps) {
    out(slice(at, at + q.joined[0])).reshape(q.value.shape()) = q.value;
    at += q.joined[0];
  }
  return out;
}

std::vector<array> split_at(const array& a, const std::vector<std::int64_t>& cuts, int axis) {
  std::vector<array> out;
  std::int64_t start = 0;
  for (std::size_t k = 0; k <= cuts.size(); ++k) {
    std::vector<index_item> items(static_cast<std::size_t>(axis), index_item(slice()));
    items.emplace_back(k < cuts.size() ? slice(start, cuts[k]) : slice(start, none));
    out.push_back(a.index(items));
    if (k < cuts.size()) start = cuts[k];
  }
  return out;
}

// Where array_split cuts an axis of `n` into `sections`.
std::vector<std::int64_t> section_cuts(std::int64_t n, std::int64_t sections) {
  if (sections <= 0) throw value_error("number sections must be larger than 0.");
  std::vector<std::int64_t> cuts;
  std::int64_t at = 0;
  for (std::int64_t k = 0; k + 1 < sections; ++k) {
    at += n / sections + (k < n % sections ? 1 : 0);
    cuts.push_back(at);
  }
  return cuts;
}

// hsplit, vsplit and dsplit: split along `axis` an array of `least` axes or more.
template <class Cuts>
std::vector<array> split_named(const array& a, const Cuts& cuts, int least, const char* what,
                               int axis) {
  if (a.ndim() < least)
    throw value_error(std::string(what) + " only works on arrays of " + std::to_string(least) +
                      " or more dimensions");
  return split(a, cuts, axis);
}

}  // namespace

array parts::array_at(std::size_t k) const { return detail::as_array(list_.at(k)); }

array concatenate(const parts& p, std::optional<std::int64_t> axis, std::optional<dtype> t) {
  return axis ? join(as_parts(p, 0), *axis, t) : join_flat(p, t);
}

array stack(const parts& p, std::int64_t axis) {
  const std::vector<part> ps = as_parts(p, 0);
  check_any(ps, "stack");
  const shape& first = ps.front().joined;
  for (const part& q : ps)
    if (!(q.joined == first)) throw value_error("all input arrays must have the same shape");
  const int d = normalize_axis(axis, first.size() + 1);
  shape result;
  for (int k = 0; k < first.size(); ++k) result.push_back(first[k]);
  result.insert(d, static_cast<std::int64_t>(ps.size()));
  array out = empty(result, promoted(ps));
  for (std::size_t k = 0; k < ps.size(); ++k) {
    std::vector<index_item> items(static_cast<std::size_t>(d), index_item(slice()));
    items.emplace_back(static_cast<std::int64_t>(k));
    out.index(items) = ps[k].value;
  }
  return out;
}

array vstack(const parts& p) { return join(as_parts(p, 2), 0, std::nullopt); }
array dstack(const parts& p) { return join(as_parts(p, 3), 2, std::nullopt); }

array hstack(const parts& p) {
  const std::vector<part> ps = as_parts(p, 1);
  check_any(ps, "concatenate");
  return join(ps, ps.front().joined.size() == 1 ? 0 : 1, std::nullopt);
}

array column_stack(const parts& p) {
  std::vector<part> ps = as_parts(p, 2);
  for (part& q : ps)
    if (q.value.ndim() < 2) q.joined = shape{q.value.size(), 1};  // a column
  return join(ps, 1, std::nullopt);
}

array append(const expr& a, const expr& values, std::optional<std::int64_t> axis) {
  return concatenate({a, values}, axis);
}

std::vector<array> split(const array& a, std::int64_t sections, std::int64_t axis) {
  const int d = normalize_axis(axis, a.ndim());
  if (sections > 0 && a.shape()[d] % sections != 0)
    throw value_error("array split does not result in an equal division");
  return split_at(a, section_cuts(a.shape()[d], sections), d);
}
std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices,
                         std::int64_t axis) {
  return split_at(a, indices, normalize_axis(axis, a.ndim()));
}
std::vector<array> array_split(const array& a, std::int64_t sections, std::int64_t axis) {
  const int d = normalize_axis(axis, a.ndim());
  return split_at(a, section_cuts(a.shape()[d], sections), d);
}
std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices,
                               std::int64_t axis) {
  return split(a, indices, axis);
}

std::vector<array> hsplit(const array& a, std::int64_t sections) {
  return split_named(a, sections, 1, "hsplit", a.ndim() > 1 ? 1 : 0);
}
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices) {
  return split_named(a, indices, 1, "hsplit", a.ndim() > 1 ? 1 : 0);
}
std::vector<array> vsplit(const array& a, std::int64_t sections) {
  return split_named(a, sections, 2, "vsplit", 0);
}
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices) {
  return split_named(a, indices, 2, "vsplit", 0);
}
std::vector<array> dsplit(const array& a, std::int64_t sections) {
  return split_named(a, sections, 3, "dsplit", 2);
}
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices) {
  return split_named(a, indices, 3, "dsplit", 2);
}

array atleast_1d(const array& a) { return with_shape(a, at_least(a.shape(), 1)); }
array atleast_2d(const array& a) { return with_shape(a, at_least(a.shape(), 2)); }
array atleast_3d(const array& a) { return with_shape(a, at_least(a.shape(), 3)); }

}  // namespace jet
