// Shapes and strides: a small fixed-capacity list of extents, formatted as NumPy prints them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>

namespace jet {

// Most axes an array may have.
inline constexpr int max_ndim = 16;

// A list of up to max_ndim signed 64-bit values; holds shapes, strides and axis lists.
// Fixed capacity so that evaluating an expression allocates nothing for its shapes.
class shape {
 public:
  // Only the first size() values are ever read, so the rest are left unset: zeroing them
  // costs every expression's host time. Copies move the whole fixed block, which is
  // cheaper than a loop and well-defined for unset bytes.
  shape() {}  // NOLINT(cppcoreguidelines-pro-type-member-init)
// GCC cannot see that the unset slots are never read and warns about copying them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  shape(const shape& other) : size_(other.size_) {
    std::memcpy(&values_, &other.values_, sizeof values_);
  }
  shape& operator=(const shape& other) {
    std::memmove(&values_, &other.values_, sizeof values_);
    size_ = other.size_;
    return *this;
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  shape(std::initializer_list<std::int64_t> values) { assign(values.begin(), values.end()); }
  explicit shape(std::span<const std::int64_t> values) { assign(values.begin(), values.end()); }
  // A shape of `n` copies of `value`.
  static shape filled(int n, std::int64_t value);

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::int64_t& operator[](int i) { return values_[i]; }
  std::int64_t operator[](int i) const { return values_[i]; }
  std::int64_t* begin() { return values_.data(); }
  std::int64_t* end() { return values_.data() + size_; }
  const std::int64_t* begin() const { return values_.data(); }
  const std::int64_t* end() const { return values_.data() + size_; }
  std::int64_t back() const { return values_[size_ - 1]; }

  void push_back(std::int64_t value);
  void insert(int position, std::int64_t value);
  void erase(int position);
  void resize(int n, std::int64_t value = 0);

  // Product of all values (1 for an empty list): the element count of a shape.
  std::int64_t product() const;

  friend bool operator==(const shape& a, const shape& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  template <class It>
  void assign(It first, It last) {
    size_ = 0;
    for (; first != last; ++first) push_back(*first);
  }
  std::array<std::int64_t, max_ndim> values_;
  int size_ = 0;
};

// NumPy's spelling: "(3,4)", "(5,)", "()".
std::string to_string(const shape& s);

// The shape two shapes broadcast to; throws jet::shape_error in NumPy's words when they do not.
shape broadcast_shapes(const shape& a, const shape& b);

// Row-major (C-order) element strides for a shape.
shape contiguous_strides(const shape& s);

// Normalizes a possibly negative axis against ndim; throws jet::index_error when out of range.
int normalize_axis(std::int64_t axis, int ndim);

}  // namespace jet
