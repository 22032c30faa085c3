// Shapes: storage, NumPy formatting, broadcasting.
#include "jet/shape.hpp"

#include <string>

#include "jet/error.hpp"

namespace jet {

shape shape::filled(int n, std::int64_t value) {
  shape s;
  s.resize(n, value);
  return s;
}

void shape::push_back(std::int64_t value) {
  if (size_ == max_ndim)
    throw value_error("maximum supported dimension for an array is " + std::to_string(max_ndim));
  values_[size_++] = value;
}

void shape::insert(int position, std::int64_t value) {
  push_back(0);
  for (int i = size_ - 1; i > position; --i) values_[i] = values_[i - 1];
  values_[position] = value;
}

void shape::erase(int position) {
  for (int i = position; i + 1 < size_; ++i) values_[i] = values_[i + 1];
  --size_;
}

void shape::resize(int n, std::int64_t value) {
  if (n > max_ndim)
    throw value_error("maximum supported dimension for an array is " + std::to_string(max_ndim));
  for (int i = size_; i < n; ++i) values_[i] = value;
  size_ = n;
}

std::int64_t shape::product() const {
  std::int64_t p = 1;
  for (std::int64_t v : *this) p *= v;
  return p;
}

std::string to_string(const shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) {
    if (i) out += ",";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}

shape broadcast_shapes(const shape& a, const shape& b) {
  const int n = std::max(a.size(), b.size());
  shape out = shape::filled(n, 1);
  for (int i = 0; i < n; ++i) {
    const std::int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      throw shape_error("operands could not be broadcast together with shapes " + to_string(a) +
                        " " + to_string(b));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

shape contiguous_strides(const shape& s) {
  shape strides = shape::filled(s.size(), 1);
  for (int i = s.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * std::max<std::int64_t>(s[i + 1], 1);
  return strides;
}

int normalize_axis(std::int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw index_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                      std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

}  // namespace jet
