// jet::array: a materialized, reference-counted device array with NumPy's views and creation.
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "jet/axes.hpp"

#include "jet/dtype.hpp"
#include "jet/shape.hpp"

namespace jet {

class array;
class expr;
class indexed;
namespace detail {
struct buffer;
// Zeroes fresh host memory about to receive a large copy on several threads (on huge pages
// where the kernel allows), so that its pages are present: what a new std::vector's zeroing
// would otherwise fault in on one thread, 4 KiB at a time.
void prepare_host_memory(void* host, std::size_t bytes);
// x(items...) with an index array among the items (jet/indexing.hpp).
template <class... Items>
indexed advanced_index(const array& x, const Items&... items);
}  // namespace detail

struct none_t {};
inline constexpr none_t none;
struct newaxis_t {};
inline constexpr newaxis_t newaxis;
struct ellipsis_t {};
inline constexpr ellipsis_t ellipsis;

// One end of a slice: an index, or none for "up to the edge".
struct slice_bound {
  std::optional<std::int64_t> value;
  slice_bound(none_t) {}
  template <std::integral T>
  slice_bound(T v) : value(static_cast<std::int64_t>(v)) {}
};

// NumPy's start:stop:step, with Python's meaning for negative and omitted values.
struct slice {
  slice_bound start = none;
  slice_bound stop = none;
  std::int64_t step = 1;
  slice() = default;
  slice(slice_bound start_, slice_bound stop_, std::int64_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}
};

// One item of a basic index: an integer, a slice, newaxis or ellipsis.
struct index_item {
  enum class kind : std::uint8_t { integer, range, new_axis, rest } what;
  std::int64_t integer = 0;
  slice range;
  template <std::integral T>
  index_item(T i) : what(kind::integer), integer(static_cast<std::int64_t>(i)) {}
  index_item(slice s) : what(kind::range), range(s) {}
  index_item(newaxis_t) : what(kind::new_axis) {}
  index_item(ellipsis_t) : what(kind::rest) {}
};

// A device array: a dtype, a shape, strides in elements and an offset over a shared buffer.
// Copying an array shares the memory (as NumPy's views do); views share it too.
class array {
 public:
  // An empty float64 array of shape (0,).
  array() = default;
  // Evaluates an expression into a new array (one fused kernel).
  array(const expr& e);  // NOLINT: implicit on purpose, `jet::array z = x * y;`

  array(const array&) = default;
  array(array&&) noexcept = default;
  // Assigning to a named array rebinds it, as `z = ...` does in Python.
  array& operator=(const array&) & = default;
  array& operator=(array&&) & noexcept = default;
  array& operator=(const expr& e) &;
  // Assigning to a temporary view writes into it: `a(jet::slice(1, jet::none)) = e;`.
  void operator=(const array& values) &&;
  void operator=(const expr& values) &&;

  // In-place arithmetic: one fused kernel writing into this array's elements.
  array& operator+=(const expr& e);
  array& operator-=(const expr& e);
  array& operator*=(const expr& e);
  array& operator/=(const expr& e);
  array& operator%=(const expr& e);
  array& operator&=(const expr& e);
  array& operator|=(const expr& e);
  array& operator^=(const expr& e);
  array& operator<<=(const expr& e);
  array& operator>>=(const expr& e);

  jet::dtype dtype() const { return dtype_; }
  const jet::shape& shape() const { return shape_; }
  // Strides in elements, as docs/DESIGN.md says (NumPy's are in bytes).
  const jet::shape& strides() const { return strides_; }
  std::int64_t offset() const { return offset_; }
  int ndim() const { return shape_.size(); }
  std::int64_t size() const { return shape_.product(); }
  int itemsize() const { return jet::itemsize(dtype_); }
  std::int64_t nbytes() const { return size() * itemsize(); }
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  // Device address of the first element (offset applied); null for a never-allocated array.
  // Jet's work on it may still be queued behind a compiling kernel: before other CUDA code
  // uses it, take the stream from jet::current_stream() (which sends that work to the GPU).
  void* data() const { return base_ ? base_ + offset_ * itemsize() : nullptr; }
  // The device the array's memory is on (jet/device.hpp); the current device for an array
  // that never had memory.
  int device() const;
  // The array on device `id`: a C-contiguous copy, peer to peer where the devices allow it, or
  // this array itself when it is on `id` already (as the Python array API's to_device). The
  // copy is ordered after the work on this array queued on the current stream (or after all
  // work on its device, when that is not the current one). Throws jet::value_error for an id
  // outside [0, device::count()).
  array to_device(int id) const;
  // True when both arrays view the same allocation.
  bool shares_buffer_with(const array& other) const { return buffer_ == other.buffer_; }

  // Views (no copy). Basic indexing: `x(1, jet::slice(0, jet::none, 2), jet::newaxis)`, with
  // integers, slices, newaxis and ellipsis; missing trailing items take whole axes.
  // With an integer array among the items (`x(idx)`, `x(jet::slice(), rows, cols)`), NumPy's
  // advanced indexing: a jet::indexed expression that gathers (jet/indexing.hpp).
  template <class... Items>
  auto operator()(const Items&... items) const {
    if constexpr ((std::is_constructible_v<index_item, const Items&> && ...)) {
      const index_item list[] = {index_item(items)..., index_item(ellipsis)};
      return index(std::span<const index_item>(list, sizeof...(Items)));
    } else {
      return detail::advanced_index(*this, items...);
    }
  }
  array index(std::span<const index_item> items) const;
  // Axes reversed; transpose(axes) permutes them; swapaxes exchanges two.
  array T() const;
  array transpose() const { return T(); }
  array transpose(const jet::shape& axes) const;
  // `x.transpose(1, 0, 2)`, as NumPy's.
  template <std::integral I, std::integral... Rest>
  array transpose(I first, Rest... rest) const {
    return transpose(
        jet::shape{static_cast<std::int64_t>(first), static_cast<std::int64_t>(rest)...});
  }
  array swapaxes(std::int64_t a, std::int64_t b) const;
  // A view when the strides allow it, else a copy (NumPy's rule); one extent may be -1.
  array reshape(const jet::shape& new_shape) const;
  // `x.reshape(-1)`, `x.reshape(4, 4)`, as NumPy's.
  template <std::integral I, std::integral... Rest>
  array reshape(I first, Rest... rest) const {
    return reshape(
        jet::shape{static_cast<std::int64_t>(first), static_cast<std::int64_t>(rest)...});
  }
  // Drops extent-1 axes (all, or the one given); expand_dims inserts one at `axis`.
  array squeeze() const;
  array squeeze(std::int64_t axis) const;
  array expand_dims(std::int64_t axis) const;
  // A view with stride 0 along the broadcast axes (NumPy's broadcast_to).
  array broadcast_to(const jet::shape& target) const;
  // reshape(-1): a view when the strides allow it, else a copy.
  array ravel() const;
  // The k-th diagonal of a 2-D array (jet::diagonal is the general form).
  array diagonal_view(std::int64_t k = 0) const;

  // Reductions, as the free functions of jet/reduce.hpp: `x.sum(1)` is `jet::sum(x, 1)`.
  JET_REDUCTION_MEMBERS

  // Copies: always new memory. flatten is 1-D; astype converts as NumPy's astype.
  array flatten() const;
  array copy() const;
  array astype(jet::dtype to) const;

  // Device -> host; waits for the current stream. Large copies into pageable memory go through
  // pinned buffers on several host threads; into pinned memory (jet::pinned_allocator), directly.
  void to_host(void* destination, jet::dtype as) const;
  template <class T>
  std::vector<T> to_vector() const {
    if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> packs bits: go through one byte per element, as the device stores them.
      const std::vector<std::uint8_t> bytes = astype(jet::bool_).to_vector<std::uint8_t>();
      return std::vector<bool>(bytes.begin(), bytes.end());
    } else {
      std::vector<T> out;
      out.reserve(static_cast<std::size_t>(size()));
      detail::prepare_host_memory(out.data(), out.capacity() * sizeof(T));
      out.resize(static_cast<std::size_t>(size()));
      to_host(out.data(), dtype_of<T>());
      return out;
    }
  }
  template <class T>
  void to_host(std::span<T> destination) const {
    check_host_span(static_cast<std::int64_t>(destination.size()));
    to_host(destination.data(), dtype_of<T>());
  }
  // The single element of a size-1 array; throws jet::value_error otherwise.
  template <class T>
  T item() const {
    check_item();
    T value{};
    to_host(&value, dtype_of<T>());
    return value;
  }

  // Device memory that other code allocated, as an array, without a copy: `data` is the
  // address of the element at index 0 (device or managed memory of the current device,
  // aligned to the itemsize), `strides` in elements (empty: C order). With no owner the memory
  // must outlive every array and expression over it; with `owner`, Jet holds it until the last
  // array over the memory is gone and the work queued on it has finished; with `deleter`, Jet
  // calls deleter(data) then. Throws jet::value_error for host memory, another device's, a
  // misaligned address or strides that do not match the shape.
  static array wrap(void* data, jet::dtype t, const jet::shape& shape,
                    const jet::shape& strides = {}, std::shared_ptr<void> owner = nullptr);
  static array wrap(void* data, jet::dtype t, const jet::shape& shape, const jet::shape& strides,
                    std::function<void(void*)> deleter);

  // For Jet's runtime: an array over a buffer with the given layout.
  array(std::shared_ptr<detail::buffer> buffer, jet::dtype type, const jet::shape& shape,
        const jet::shape& strides, std::int64_t offset);
  const std::shared_ptr<detail::buffer>& buffer() const { return buffer_; }

 private:
  void check_item() const;
  void check_host_span(std::int64_t count) const;
  void assign(const expr& values) const;
  array& update(const expr& values);

  std::shared_ptr<detail::buffer> buffer_;
  std::byte* base_ = nullptr;  // the buffer's device address, kept here for cheap data()
  jet::dtype dtype_ = jet::float64;
  jet::shape shape_{0};
  jet::shape strides_{1};
  std::int64_t offset_ = 0;
};

// Creation. dtype defaults follow NumPy: float64, and int64 for integer arange.
// Uninitialized, zero-filled and one-filled arrays of shape `s`: `jet::zeros({3, 4})`.
array empty(const shape& s, dtype t = float64);
array zeros(const shape& s, dtype t = float64);
array ones(const shape& s, dtype t = float64);
// Filled with `value` (a scalar, or anything that broadcasts to `s`), in its dtype or in `t`.
array full(const shape& s, const expr& value);
array full(const shape& s, const expr& value, dtype t);
// The same with a's shape, and its dtype unless `t` is given.
array empty_like(const array& a);
array empty_like(const array& a, dtype t);
array zeros_like(const array& a);
array zeros_like(const array& a, dtype t);
array ones_like(const array& a);
array ones_like(const array& a, dtype t);
array full_like(const array& a, const expr& value);
array full_like(const array& a, const expr& value, dtype t);
// Evenly spaced values in [start, stop). Integer arguments give int64, and any floating
// argument float64, as NumPy's arange does; `arange(2, 11, 3)` and `arange(0.5, 2.0)` both work.
array arange(double start, double stop, double step, dtype t);
namespace detail {
array arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step);
}
template <class A, class B, class C = std::int64_t>
requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<C> array
arange(A start, B stop, C step = 1) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<C>)
    return detail::arange_integers(start, stop, step);
  else
    return arange(static_cast<double>(start), static_cast<double>(stop), static_cast<double>(step),
                  float64);
}
template <class A>
requires std::is_arithmetic_v<A> array arange(A stop) { return arange(A{0}, stop); }
// `num` evenly spaced values from start to stop (included unless endpoint is false).
array linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
               dtype t = float64);
// An n x m (m defaults to n) array with ones on diagonal k, zeros elsewhere.
array eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
          dtype t = float64);
// The n x n identity matrix.
array identity(std::int64_t n, dtype t = float64);

// An array that describes a shape and dtype but holds no device memory: for jet::explain
// and for planning on machines without a GPU. Evaluating with it raises jet::value_error.
array placeholder(const shape& s, dtype t = float64);

// Host -> device copies; the shape defaults to 1-D and must hold exactly the values given:
// `jet::asarray(v, {n, n})`.
array from_host(const void* data, dtype t, const shape& s);
namespace detail {
// The shape for `count` host values; throws jet::value_error in NumPy's words if it does not fit.
shape host_shape(std::int64_t count, const std::optional<shape>& requested);
}  // namespace detail
template <class T>
array asarray(std::span<const T> values, const shape& s) {
  return from_host(values.data(), dtype_of<T>(),
                   detail::host_shape(static_cast<std::int64_t>(values.size()), s));
}
template <class T>
array asarray(std::span<const T> values) {
  return from_host(values.data(), dtype_of<T>(), shape{static_cast<std::int64_t>(values.size())});
}
// std::vector<bool> packs bits; Jet stores one byte per bool.
array asarray(const std::vector<bool>& values);
array asarray(const std::vector<bool>& values, const shape& s);
// Any allocator: a std::vector<T, jet::pinned_allocator<T>> copies without staging.
template <class T, class A>
array asarray(const std::vector<T, A>& values) {
  return asarray(std::span<const T>(values));
}
template <class T, class A>
array asarray(const std::vector<T, A>& values, const shape& s) {
  return asarray(std::span<const T>(values), s);
}
template <class T>
array asarray(std::initializer_list<T> values) {
  return asarray(std::span<const T>(values.begin(), values.size()));
}
template <class T>
array asarray(std::initializer_list<T> values, const shape& s) {
  return asarray(std::span<const T>(values.begin(), values.size()), s);
}

}  // namespace jet
