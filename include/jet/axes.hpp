// The axis argument of reductions: all axes (NumPy's axis=None), one axis, or several.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>

#include "jet/shape.hpp"

namespace jet {

class axes {
 public:
  // Every axis, as NumPy's axis=None.
  axes() = default;
  // One axis; negative counts from the end.
  template <std::integral I>
  axes(I axis) : all_(false) {  // NOLINT: `jet::sum(x, 1)`
    list_.push_back(static_cast<std::int64_t>(axis));
  }
  // Several axes: `jet::sum(x, {0, 2})`.
  axes(std::initializer_list<int> list) : all_(false) {
    for (int a : list) list_.push_back(a);
  }

  bool all() const { return all_; }
  // The axes as given (unnormalized); empty when all() is true.
  const shape& list() const { return list_; }

 private:
  bool all_ = true;
  shape list_;
};

}  // namespace jet

// The reduction members of jet::array and jet::expr (defined in src/array/reduce.cpp).
#define JET_REDUCTION_MEMBERS                                          \
  expr sum(axes axis = {}, bool keepdims = false) const;               \
  expr prod(axes axis = {}, bool keepdims = false) const;              \
  expr mean(axes axis = {}, bool keepdims = false) const;              \
  expr var(axes axis = {}, int ddof = 0, bool keepdims = false) const; \
  expr std(axes axis = {}, int ddof = 0, bool keepdims = false) const; \
  expr min(axes axis = {}, bool keepdims = false) const;               \
  expr max(axes axis = {}, bool keepdims = false) const;               \
  expr ptp(axes axis = {}, bool keepdims = false) const;               \
  expr argmin(axes axis = {}, bool keepdims = false) const;            \
  expr argmax(axes axis = {}, bool keepdims = false) const;            \
  expr all(axes axis = {}, bool keepdims = false) const;               \
  expr any(axes axis = {}, bool keepdims = false) const;               \
  expr count_nonzero(axes axis = {}, bool keepdims = false) const;
