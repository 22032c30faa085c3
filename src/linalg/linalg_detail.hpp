// Shared by the linalg sources: the cuBLAS calls a blas_plan names (src/linalg/blas.cpp), the
// counters behind jet::linalg::stats(), and how products treat placeholders.
#pragma once

#include <atomic>
#include <cstdint>

#include "codegen/linalg/blas_plan.hpp"
#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet::detail {

struct linalg_counters {
  std::atomic<std::int64_t> gemm{0}, gemm_batched{0}, gemv{0}, integer_kernels{0}, copies{0};
};
linalg_counters& linalg_counts();

// Runs a gemm or gemv plan (no copies or staging left in it) on the current stream: `a` and
// `b` are the operands it was planned for, `out` the result; all three have out's dtype, one of
// float16, bfloat16, float32, float64, complex64, complex128.
void run_blas(const codegen::blas_plan& plan, const array& a, const array& b, const array& out);

// A jet::placeholder, alone or conjugated. Products of placeholders are placeholders of the
// result's shape and dtype, so that code can be planned (and shape rules tested) without a GPU.
bool is_placeholder(const expr& e);

}  // namespace jet::detail
