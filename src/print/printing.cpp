// Printing's public functions: the calling thread's options, and what is copied to the host
// (a summarized array's edges only) before src/print's host code formats it.
#include "jet/printing.hpp"

#include <complex>
#include <ostream>
#include <string>
#include <vector>

#include "jet/error.hpp"
#include "jet/manipulation.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/print/shown.hpp"

namespace jet {
namespace {

thread_local print_options current;

// `a` with each axis longer than 2 * edge cut to its first and last `edge` elements.
array leading_trailing(array a, int edge) {
  for (int axis = 0; axis < a.ndim(); ++axis) {
    if (a.shape()[axis] <= 2 * std::int64_t{edge}) continue;
    std::vector<index_item> head(static_cast<std::size_t>(axis), slice()), tail = head;
    head.emplace_back(slice(0, edge));
    tail.emplace_back(slice(-edge, none));
    a = concatenate({a.index(head), a.index(tail)}, axis);
  }
  return a;
}

// The elements of `a` that printing shows, on the host.
detail::shown_elements shown(const array& a) {
  const array part = a.size() > current.threshold ? leading_trailing(a, current.edgeitems) : a;
  detail::shown_elements e;
  e.type = a.dtype();
  e.dims = part.shape();
  if (part.size() == 0) return e;
  if (is_complex(a.dtype())) {
    for (const std::complex<double>& z :
         part.astype(complex128).to_vector<std::complex<double>>()) {
      e.real.push_back(z.real());
      e.imag.push_back(z.imag());
    }
  } else if (is_floating(a.dtype())) {
    e.real = part.astype(float64).to_vector<double>();
  } else if (kind(a.dtype()) == dtype_kind::unsigned_int) {
    for (std::uint64_t v : part.astype(uint64).to_vector<std::uint64_t>())
      e.integers.push_back(std::to_string(v));
  } else {
    for (std::int64_t v : part.astype(int64).to_vector<std::int64_t>())
      e.integers.push_back(std::to_string(v));
  }
  return e;
}

}  // namespace

print_options get_printoptions() { return current; }

void set_printoptions(const print_options& options) {
  const std::string& mode = options.floatmode;
  if (mode != "fixed" && mode != "unique" && mode != "maxprec" && mode != "maxprec_equal")
    throw value_error(
        "floatmode option must be one of 'fixed', 'unique', 'maxprec', "
        "'maxprec_equal'; got '" +
        mode + "'");
  if (options.sign != '-' && options.sign != '+' && options.sign != ' ')
    throw value_error(std::string("sign option must be one of ' ', '+', or '-'; got '") +
                      options.sign + "'");
  if (options.precision < 0) throw value_error("precision must be >= 0");
  if (options.threshold < 0) throw value_error("threshold must be >= 0");
  if (options.edgeitems < 0) throw value_error("edgeitems must be >= 0");
  if (options.linewidth < 1) throw value_error("linewidth must be >= 1");
  current = options;
}

printoptions::printoptions(const print_options& options) : saved_(current) {
  set_printoptions(options);
}

printoptions::~printoptions() { current = saved_; }

std::string array_repr(const expr& a) {
  const array x = detail::as_array(a);
  return detail::repr_text(shown(x), x.shape(), current);
}

std::string array_str(const expr& a) {
  const array x = detail::as_array(a);
  return detail::str_text(shown(x), x.shape(), current);
}

std::string array2string(const expr& a, const std::string& separator, const std::string& prefix) {
  const array x = detail::as_array(a);
  if (x.size() == 0) return "[]";
  return detail::elements_text(shown(x), x.shape(), current, separator, prefix, 0);
}

std::ostream& operator<<(std::ostream& out, const array& a) { return out << array_str(a); }
std::ostream& operator<<(std::ostream& out, const expr& a) { return out << array_str(a); }

}  // namespace jet
