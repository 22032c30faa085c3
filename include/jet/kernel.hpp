// User kernels from CUDA C strings, as CuPy's RawKernel, RawModule, ElementwiseKernel and
// ReductionKernel: Jet compiles them with NVRTC, keeps them in its memory and disk caches
// and launches them on the current stream.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "jet/array.hpp"
#include "jet/axes.hpp"
#include "jet/dtype.hpp"
#include "jet/expr.hpp"
#include "jet/stream.hpp"

namespace jet {

// A grid or block size: `256`, `{16, 16}`, `{8, 8, 4}`.
struct dims {
  unsigned x = 1, y = 1, z = 1;
  dims(unsigned x_, unsigned y_ = 1, unsigned z_ = 1)
      : x(x_), y(y_), z(z_) {}  // NOLINT: `k(64, 256, ...)`
};

// Everything a launch takes besides the arguments.
struct launch_config {
  dims grid;
  dims block;
  std::size_t shared_memory = 0;  // dynamic shared memory, in bytes
  CUstream_st* stream = nullptr;  // null: the calling thread's current stream
};

// A kernel's attributes, as cudaFuncGetAttributes reports them.
struct kernel_attributes {
  int max_threads_per_block = 0;
  int num_regs = 0;
  std::size_t shared_size_bytes = 0;  // static shared memory
  std::size_t const_size_bytes = 0;
  std::size_t local_size_bytes = 0;
  int max_dynamic_shared_size_bytes = 0;
  int preferred_shared_memory_carveout = -1;
  int ptx_version = 0;
  int binary_version = 0;
};

// A `__device__` or `__constant__` variable of a module: its device address and size, as
// CuPy's RawModule.get_global returns a memory pointer. Copies run on the current stream.
struct device_global {
  void* data = nullptr;
  std::size_t bytes = 0;
  // Copies `count` bytes from the host into the variable (and waits); throws
  // jet::value_error when the variable is smaller.
  void copy_from_host(const void* source, std::size_t count) const;
  // Copies `count` bytes of the variable to the host (and waits).
  void copy_to_host(void* destination, std::size_t count) const;
  template <class T>
  void assign(std::span<const T> values) const {
    copy_from_host(values.data(), values.size_bytes());
  }
  template <class T>
  std::vector<T> to_vector() const {
    std::vector<T> out(bytes / sizeof(T));
    copy_to_host(out.data(), out.size() * sizeof(T));
    return out;
  }
};

namespace detail {
struct user_function;  // a kernel of a loaded user module (src/user/raw_kernel.cpp)

// Launches `f`; `sizes` holds each argument's size in bytes, checked against the kernel's
// parameters where the driver reports them.
void launch_user(user_function& f, const launch_config& c, void** args, const std::size_t* sizes,
                 std::size_t count);

template <class A>
constexpr std::size_t launch_arg_size() {
  if constexpr (std::is_same_v<A, array>)
    return sizeof(void*);
  else
    return sizeof(A);
}

// The address cuLaunchKernel reads argument `a` from: an array's device pointer (stored in
// `pointer`), or the value itself.
template <class A>
void* launch_arg_address(const A& a, void*& pointer) {
  if constexpr (std::is_same_v<A, array>) {
    pointer = a.data();
    return &pointer;
  } else {
    static_assert(std::is_trivially_copyable_v<A>,
                  "jet::raw_kernel: an argument must be an array or a trivially copyable value");
    return const_cast<A*>(&a);
  }
}
}  // namespace detail

// One `__global__` function from CUDA C source (CuPy's RawKernel). It compiles on the first
// launch (or compile()), through Jet's memory cache, disk cache and NVRTC; later launches
// only pack arguments. Arrays pass their device pointer (of the first element), any other
// argument its bytes, so a scalar must have the C++ type the kernel's parameter has:
// jet::float16_t for __half, jet::bfloat16_t for __nv_bfloat16, std::complex<float> and
// <double> for cuda::std::complex<float> and <double>.
class raw_kernel {
 public:
  // `name` is an `extern "C"` function, or a C++ one such as "scale<float>" (found through
  // NVRTC's name expressions). `options` are NVRTC's, after Jet's own (-arch, -std=c++17, and
  // -I for the CUDA toolkit's headers when the source includes one).
  raw_kernel(std::string source, std::string name, std::vector<std::string> options = {});

  // Launches on `grid` blocks of `block` threads on the current stream.
  template <class... Args>
  void operator()(dims grid, dims block, const Args&... args) const {
    launch(launch_config{grid, block}, args...);
  }
  // Launches with dynamic shared memory and a stream.
  template <class... Args>
  void launch(const launch_config& c, const Args&... args) const {
    void* pointers[sizeof...(Args) + 1];
    pack(c, std::index_sequence_for<Args...>{}, pointers, args...);
  }

  const std::string& name() const;
  // Compiles and loads now (the first launch does it otherwise); throws jet::compile_error.
  void compile() const;
  kernel_attributes attributes() const;
  // cudaFuncAttributeMaxDynamicSharedMemorySize: needed above 48 KiB of dynamic shared memory.
  void set_max_dynamic_shared_memory(int bytes) const;
  // cudaFuncAttributePreferredSharedMemoryCarveout, in percent of the L1/shared capacity.
  void set_preferred_shared_memory_carveout(int percent) const;

  explicit raw_kernel(std::shared_ptr<detail::user_function> function);

 private:
  template <class... Args, std::size_t... I>
  void pack(const launch_config& c, std::index_sequence<I...>, void** pointers,
            const Args&... args) const {
    void* addresses[] = {detail::launch_arg_address(args, pointers[I])..., nullptr};
    const std::size_t sizes[] = {detail::launch_arg_size<Args>()..., 0};
    detail::launch_user(*function_, c, addresses, sizes, sizeof...(Args));
  }
  std::shared_ptr<detail::user_function> function_;
};

// A compiled translation unit of CUDA C, or a cubin/PTX/fatbin file (CuPy's RawModule).
class raw_module {
 public:
  // Compiles `source` now; `name_expressions` names the template instantiations
  // get_function and get_global will be asked for ("scale<float>", "table<3>").
  explicit raw_module(std::string source, std::vector<std::string> options = {},
                      std::vector<std::string> name_expressions = {});
  // Loads a cubin, PTX or fatbin file.
  static raw_module from_file(const std::string& path);

  // A kernel: an `extern "C"` name, or one of the name expressions.
  raw_kernel get_function(const std::string& name) const;
  // A `__device__` or `__constant__` variable; throws jet::value_error when there is none.
  device_global get_global(const std::string& name) const;

  struct library;

 private:
  explicit raw_module(std::shared_ptr<library> lib) : library_(std::move(lib)) {}
  std::shared_ptr<library> library_;
};

// One argument of an elementwise or reduction kernel: an array (an expression is evaluated
// first), or a scalar. C++ arithmetic and complex scalars are weak, as Python's are: they take
// their parameter's dtype. jet::float16_t and jet::bfloat16_t scalars have their dtype, as
// NumPy's scalars do: they fix a placeholder as an array would.
class kernel_arg {
 public:
  kernel_arg(const array& a) : array_(a), is_array_(true) {}  // NOLINT: implicit on purpose
  kernel_arg(const expr& e) : array_(e), is_array_(true) {}   // NOLINT
  template <class T>
  requires arithmetic_scalar<T> kernel_arg(T value)
      : scalar_(detail::to_scalar_value(value)) {}                             // NOLINT
  kernel_arg(float16_t value) : type_(dtype::float16), bits_(value.bits) {}    // NOLINT
  kernel_arg(bfloat16_t value) : type_(dtype::bfloat16), bits_(value.bits) {}  // NOLINT
  bool is_array() const { return is_array_; }
  const array& value() const { return array_; }
  // A weak scalar's kind; none for arrays and for 16-bit float scalars.
  weak_kind scalar_kind() const { return scalar_.kind; }
  // A 16-bit float scalar's dtype.
  dtype scalar_type() const { return type_; }
  // The scalar's bytes as a value of `t`, laid out as the kernel's C type of `t` (see
  // elementwise_kernel): a 16-bit float of its own dtype keeps its bits, a double rounds once
  // to a 16-bit float.
  void scalar_bytes(dtype t, std::byte* out) const;

 private:
  array array_;
  bool is_array_ = false;
  detail::scalar_value scalar_;  // a weak scalar (kind none for arrays and 16-bit floats)
  dtype type_ = dtype::float64;  // a 16-bit float's dtype
  std::uint16_t bits_ = 0;       // and its bits
};

// The outputs of an elementwise or reduction kernel; converts to an array when there is one.
class kernel_outputs : public std::vector<array> {
 public:
  using std::vector<array>::vector;
  operator array()
      const;  // NOLINT: `jet::array y = k(x);`; throws jet::value_error unless one output
};

// A kernel from a per-element operation (CuPy's ElementwiseKernel). Parameters are CuPy's
// "[raw] TYPE NAME" lists; TYPE is a dtype name or a one-letter placeholder resolved from the
// arguments and typedef'd for the operation. float16 and bfloat16 are CUDA's __half and
// __nv_bfloat16 (their operators take two of a kind: `x * (T)2.5f`, `(float)x + 1.0f`),
// complex64 and complex128 cuda::std::complex<float> and <double>; their headers are included
// when a parameter has such a type. Non-raw operands broadcast together; the
// operation sees each as one element (outputs as references) and `i`, the element's index in
// C order; a raw operand is a pointer-like view of the whole (C-contiguous) array with
// operator[] and size(). Outputs not passed are allocated with the broadcast shape.
class elementwise_kernel {
 public:
  elementwise_kernel(std::string in_params, std::string out_params, std::string operation,
                     std::string name = "kernel", std::string preamble = "",
                     std::vector<std::string> options = {});
  ~elementwise_kernel();
  elementwise_kernel(elementwise_kernel&&) noexcept;
  elementwise_kernel& operator=(elementwise_kernel&&) noexcept;

  // Inputs, then optionally every output.
  template <class... Args>
  kernel_outputs operator()(const Args&... args) const {
    return call({kernel_arg(args)...});
  }
  kernel_outputs call(const std::vector<kernel_arg>& args) const;

  struct state;

 private:
  std::unique_ptr<state> state_;
};

// A reduction from a map, a combine and a finishing expression (CuPy's ReductionKernel):
// `map_expr` turns one element of the inputs into a value of the reduce type, `reduce_expr`
// combines `a` and `b`, `post_map_expr` writes the outputs from the result `a`; `identity`
// starts every reduction. The reduce type is `reduce_type` (a dtype name or placeholder), by
// default the first output's type. It runs on the body of Jet's own reductions, which combine
// partial results in any order: `reduce_expr` must be associative and commutative, and
// `identity` its identity element (as CuPy also assumes).
class reduction_kernel {
 public:
  reduction_kernel(std::string in_params, std::string out_params, std::string map_expr,
                   std::string reduce_expr, std::string post_map_expr, std::string identity,
                   std::string name = "reduce_kernel", std::string reduce_type = "",
                   std::string preamble = "", std::vector<std::string> options = {});
  ~reduction_kernel();
  reduction_kernel(reduction_kernel&&) noexcept;
  reduction_kernel& operator=(reduction_kernel&&) noexcept;

  // Over every axis.
  template <class... Args>
  kernel_outputs operator()(const Args&... args) const {
    return call({kernel_arg(args)...});
  }
  // Inputs, then optionally the outputs, reduced over `axis` (NumPy's meaning, `{}` = all).
  kernel_outputs call(const std::vector<kernel_arg>& args, axes axis = {},
                      bool keepdims = false) const;

  struct state;

 private:
  std::unique_ptr<state> state_;
};

}  // namespace jet
