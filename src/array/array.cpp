// Arrays: construction from expressions, assignment into views, copies and host transfers.
#include "jet/array.hpp"

#include <cstring>
#include <optional>
#include <string>

#include "codegen/expr/node.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/array/assignment.hpp"
#include "src/device/memory.hpp"
#include "src/device/placement.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "src/device/transfer.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {

array::array(std::shared_ptr<detail::buffer> buffer, jet::dtype type, const jet::shape& shape,
             const jet::shape& strides, std::int64_t offset)
    : buffer_(std::move(buffer)),
      base_(buffer_ ? static_cast<std::byte*>(buffer_->data) : nullptr),
      dtype_(type),
      shape_(shape),
      strides_(strides),
      offset_(offset) {}

array::array(const expr& e) : array(empty(e.shape(), e.dtype())) {
  detail::evaluate(*e.node(), *this);
}

array& array::operator=(const expr& e) & { return *this = array(e); }
void array::operator=(const array& values) && { assign(expr(values)); }
void array::operator=(const expr& values) && { assign(values); }

void array::assign(const expr& values) const {
  detail::check_assignable(values.shape(), shape_, *this);
  if (detail::overlaps(*values.node(), *this)) {
    const array staged(values);  // read everything before writing anything, as NumPy does
    detail::evaluate(*expr(staged).node(), *this);
    return;
  }
  detail::evaluate(*values.node(), *this);
}

array& array::update(const expr& result) {
  detail::check_same_kind(*result.node(), dtype_);
  assign(result);
  return *this;
}

array& array::operator+=(const expr& e) { return update(*this + e); }
array& array::operator-=(const expr& e) { return update(*this - e); }
array& array::operator*=(const expr& e) { return update(*this * e); }
array& array::operator/=(const expr& e) { return update(*this / e); }
array& array::operator%=(const expr& e) { return update(*this % e); }
array& array::operator&=(const expr& e) { return update(*this & e); }
array& array::operator|=(const expr& e) { return update(*this | e); }
array& array::operator^=(const expr& e) { return update(*this ^ e); }
array& array::operator<<=(const expr& e) { return update(*this << e); }
array& array::operator>>=(const expr& e) { return update(*this >> e); }

array array::copy() const { return array(expr(*this)); }
array array::flatten() const { return copy().reshape({-1}); }
array array::astype(jet::dtype to) const { return array(expr(*this).astype(to)); }

void array::check_item() const {
  if (size() != 1) throw value_error("can only convert an array of size 1 to a C++ scalar");
}

void array::check_host_span(std::int64_t count) const {
  if (count != size())
    throw value_error("host span of " + std::to_string(count) + " elements for an array of " +
                      std::to_string(size()));
}

int array::device() const { return buffer_ ? buffer_->device : device::current_id(); }

array array::to_device(int id) const {
  detail::check_device_id(id);
  const int from = device();
  if (from == id) return *this;
  const int here = device::current_id();
  // The copy goes on the current stream of each side that is the current device; the other
  // side's work, all of it, finishes first.
  const cudaStream_t target_stream = here == id ? detail::current_stream() : nullptr;
  std::optional<device_guard> at_source;
  if (from != here) {
    detail::settle_device(from);
    at_source.emplace(from);
  }
  if (size() == 0) {
    const detail::device_scope on(id);
    const detail::current_stream_scope in(target_stream);
    return empty(shape_, dtype_);
  }
  const array source = is_c_contiguous() ? *this : copy();
  return detail::copy_to_peer(source, id, detail::current_stream(), target_stream);
}

void array::to_host(void* destination, jet::dtype as) const {
  if (size() == 0) return;
  if (detail::on_other_device(*this)) {
    // Read where the memory is, once all of that device's work has finished.
    detail::settle_device(device());
    const device_guard on(device());
    to_host(destination, as);
    return;
  }
  if (as != dtype_ || !is_c_contiguous()) {
    astype(as).to_host(destination, as);
    return;
  }
  const cudaStream_t s = detail::current_stream();
  detail::drain(s);
  detail::copy_to_host(destination, data(), static_cast<std::size_t>(nbytes()), s);
}

shape detail::host_shape(std::int64_t count, const std::optional<shape>& requested) {
  if (!requested) return shape{count};
  if (requested->product() != count)
    throw value_error("cannot reshape array of size " + std::to_string(count) + " into shape " +
                      to_string(*requested));
  return *requested;
}

array asarray(const std::vector<bool>& values, const shape& s) {
  const std::vector<std::uint8_t> bytes(values.begin(), values.end());
  return from_host(bytes.data(), bool_,
                   detail::host_shape(static_cast<std::int64_t>(bytes.size()), s));
}
array asarray(const std::vector<bool>& values) {
  return asarray(values, shape{static_cast<std::int64_t>(values.size())});
}

array from_host(const void* data, dtype t, const shape& s) {
  array out = empty(s, t);
  if (out.size() == 0) return out;
  // A fresh array, which no work queued on the stream reads: the copy goes at once.
  detail::copy_to_device(out.data(), data, static_cast<std::size_t>(out.nbytes()),
                         detail::current_stream());
  return out;
}

array empty(const shape& s, dtype t) {
  for (std::int64_t v : s)
    if (v < 0) throw value_error("negative dimensions are not allowed");
  return array(detail::allocate(static_cast<std::size_t>(s.product() * itemsize(t))), t, s,
               contiguous_strides(s), 0);
}

array placeholder(const shape& s, dtype t) {
  return array(nullptr, t, s, contiguous_strides(s), 0);
}

expr round(const expr& a, int decimals) {
  if (a.dtype() == bool_) return rint(a);  // NumPy rounds bools in float16
  if (!is_inexact(a.dtype())) {
    if (decimals >= 0) return +a;
    throw value_error("jet::round of integers supports decimals >= 0");
  }
  if (decimals == 0) return rint(a);
  double scale = 1;
  for (int i = 0; i < (decimals < 0 ? -decimals : decimals); ++i) scale *= 10;
  return decimals > 0 ? rint(a * scale) / scale : rint(a / scale) * scale;
}

expr astype(const expr& a, dtype to) { return a.astype(to); }

explanation explain(const expr& e) { return detail::explain(*e.node()); }

}  // namespace jet
