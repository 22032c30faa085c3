// NumPy's array manipulation: joining (concatenate, stack and its forms, append), splitting
// (split, array_split, hsplit, vsplit, dsplit) and the atleast_*d views. Parts may be arrays or
// expressions; each part's producer is fused into the kernel that writes it into the result.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "jet/expr.hpp"

namespace jet {

// The parts of a join: a braced list of arrays and expressions (`{a * 2, b}`), or a vector of
// either.
class parts {
 public:
  parts(std::initializer_list<expr> list) : list_(list) {}  // NOLINT: `jet::stack({a, b})`
  parts(const std::vector<expr>& list) : list_(list) {}     // NOLINT
  parts(const std::vector<array>& list) : list_(list.begin(), list.end()) {}  // NOLINT
  std::span<const expr> items() const { return list_; }

 private:
  std::vector<expr> list_;
};

// Joins along an existing axis (none: each part flattened first), in the parts' promoted
// dtype unless `t` is given; NumPy's errors name the first part that does not fit.
array concatenate(const parts& p, std::optional<std::int64_t> axis = 0,
                  std::optional<dtype> t = std::nullopt);
// Joins parts of one shape along a new axis.
array stack(const parts& p, std::int64_t axis = 0);
// Joins along axis 0 after atleast_2d (rows), along axis 1 (axis 0 for 1-D parts), along
// axis 2 after atleast_3d; column_stack makes 1-D parts columns.
array vstack(const parts& p);
array hstack(const parts& p);
array dstack(const parts& p);
array column_stack(const parts& p);
// `values` appended to `a` along `axis` (none: both flattened).
array append(const expr& a, const expr& values, std::optional<std::int64_t> axis = std::nullopt);

// Views of `a` cut along `axis` into `sections` equal parts (split raises when they cannot be
// equal; array_split makes the first n % sections parts one longer), or at the `indices`.
std::vector<array> split(const array& a, std::int64_t sections, std::int64_t axis = 0);
std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices,
                         std::int64_t axis = 0);
std::vector<array> array_split(const array& a, std::int64_t sections, std::int64_t axis = 0);
std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices,
                               std::int64_t axis = 0);
// split along axis 1 (axis 0 of 1-D arrays), 0 and 2.
std::vector<array> hsplit(const array& a, std::int64_t sections);
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> vsplit(const array& a, std::int64_t sections);
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> dsplit(const array& a, std::int64_t sections);
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices);

// Views with at least 1, 2 or 3 axes, as NumPy adds them: (n,) is (1, n) and (1, n, 1);
// (m, n) is (m, n, 1).
array atleast_1d(const array& a);
array atleast_2d(const array& a);
array atleast_3d(const array& a);

}  // namespace jet
