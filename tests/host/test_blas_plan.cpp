// codegen/blas_plan against a column-major BLAS emulator. The emulator does what cuBLAS documents
// for gemm, strided-batched gemm and gemv (column-major storage, N/T/C operations, leading
// dimensions and increments it checks as cuBLAS does, strided batches), reading and writing a
// host buffer that stands for device memory. Every plan, run the way src/linalg/matmul.cpp runs it
// (copies and staging included), must give numpy.matmul's result over operands of every layout,
// write nothing outside the output view and nothing twice. Values are small complex integers,
// so sums are exact.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codegen/linalg/blas_plan.hpp"
#include "jet/shape.hpp"
#include "support/catch.hpp"
#include "support/matmul_indexing.hpp"

namespace {

using cd = std::complex<double>;
using jet::codegen::blas_op;
using jet::codegen::blas_plan;

const cd poison(999, -999);

// An operand or result in host memory standing for device memory: a buffer and a view of it.
struct host_view {
  std::vector<cd> buffer;
  jet::shape extents, strides;
  std::int64_t offset = 0;
  bool conjugate = false;

  jet::codegen::matrix_layout layout() const { return {extents, strides, conjugate}; }
  std::int64_t where(std::int64_t flat) const {  // buffer index of the element at C-order `flat`
    std::int64_t at = offset;
    for (int d = extents.size() - 1; d >= 0; --d) {
      at += (flat % extents[d]) * strides[d];
      flat /= extents[d];
    }
    return at;
  }
  cd value(std::int64_t flat) const {
    const cd v = buffer.at(static_cast<std::size_t>(where(flat)));
    return conjugate ? std::conj(v) : v;
  }
};

enum class layout { c, f, swapped, padded, strided, reversed, broadcast };
constexpr layout all_layouts[] = {layout::c,        layout::f,       layout::swapped,
                                  layout::padded,   layout::strided, layout::reversed,
                                  layout::broadcast};

const char* name(layout l) {
  switch (l) {
    case layout::c: return "C order";
    case layout::f: return "F order";
    case layout::swapped: return "last two axes transposed";
    case layout::padded: return "padded rows";
    case layout::strided: return "every other column";
    case layout::reversed: return "last axis reversed";
    case layout::broadcast: return "first axis broadcast";
  }
  return "?";
}

jet::shape c_strides(const jet::shape& s) {
  jet::shape out = jet::shape::filled(s.size(), 1);
  for (int d = s.size() - 2; d >= 0; --d) out[d] = out[d + 1] * std::max<std::int64_t>(s[d + 1], 1);
  return out;
}

// A view of shape s laid out as l over a buffer of random small complex integers (or poison).
host_view make_view(std::mt19937& rng, const jet::shape& s, layout l, bool random_values = true) {
  host_view v;
  v.extents = s;
  v.strides = c_strides(s);
  const int n = s.size(), last = n - 1;
  if (n > 0) {
    switch (l) {
      case layout::c: break;
      case layout::f:
        v.strides[0] = 1;
        for (int d = 1; d < n; ++d)
          v.strides[d] = v.strides[d - 1] * std::max<std::int64_t>(s[d - 1], 1);
        break;
      case layout::swapped:
        if (n >= 2) {
          jet::shape base = s;
          std::swap(base[last], base[last - 1]);
          v.strides = c_strides(base);
          std::swap(v.strides[last], v.strides[last - 1]);
        }
        break;
      case layout::padded: {
        jet::shape base = s;
        base[last] += 3;
        v.strides = c_strides(base);
        v.offset = 2;
        break;
      }
      case layout::strided: {
        jet::shape base = s;
        base[last] *= 2;
        v.strides = c_strides(base);
        v.strides[last] = 2;
        break;
      }
      case layout::reversed:
        v.strides[last] = -1;
        v.offset = std::max<std::int64_t>(s[last] - 1, 0);
        break;
      case layout::broadcast: {
        jet::shape rest;
        for (int d = 1; d < n; ++d) rest.push_back(s[d]);
        const jet::shape inner = c_strides(rest);
        v.strides[0] = 0;
        for (int d = 1; d < n; ++d) v.strides[d] = inner[d - 1];
        break;
      }
    }
  }
  std::int64_t top = v.offset;
  for (int d = 0; d < n; ++d)
    if (s[d] > 0 && v.strides[d] > 0) top += (s[d] - 1) * v.strides[d];
  v.buffer.assign(static_cast<std::size_t>(top + 3), poison);
  std::uniform_int_distribution<int> small(-3, 3);
  if (random_values)
    for (cd& x : v.buffer) x = cd(small(rng), small(rng));
  return v;
}

// The same values as a C-ordered view, conjugation applied: what src/linalg/matmul.cpp's copy
// makes.
host_view c_ordered(const host_view& x) {
  host_view out;
  out.extents = x.extents;
  out.strides = c_strides(x.extents);
  for (std::int64_t i = 0; i < x.extents.product(); ++i) out.buffer.push_back(x.value(i));
  if (out.buffer.empty()) out.buffer.push_back(poison);
  return out;
}

// numpy.matmul over the operands' logical values, in C order of the result.
std::vector<cd> reference(const host_view& a, const host_view& b) {
  const jet_test::matmul_indexing at(a.extents, b.extents);
  std::vector<cd> out;
  for (std::int64_t p = 0; p < at.batch.product(); ++p)
    for (std::int64_t i = 0; i < at.m; ++i)
      for (std::int64_t j = 0; j < at.n; ++j) {
        cd sum = 0;
        for (std::int64_t l = 0; l < at.k; ++l)
          sum += a.value(at.a_index(p, i, l)) * b.value(at.b_index(p, l, j));
        out.push_back(sum);
      }
  return out;
}

// ---- The emulator: cuBLAS's documented semantics over host buffers ----------------------

cd read(const host_view& x, std::int64_t at, blas_op op) {
  const cd v = x.buffer.at(static_cast<std::size_t>(at));
  return op == blas_op::conjugate_transpose ? std::conj(v) : v;
}

// op(X)(i, l) for column-major storage at `base` with leading dimension ld.
cd element(const host_view& x, std::int64_t base, std::int64_t ld, blas_op op, std::int64_t i,
           std::int64_t l) {
  return op == blas_op::none ? read(x, base + i + l * ld, op) : read(x, base + l + i * ld, op);
}

struct emulator {
  std::vector<int> writes;  // per element of the output buffer

  void store(host_view& out, std::int64_t at, cd v) {
    out.buffer.at(static_cast<std::size_t>(at)) = v;
    ++writes.at(static_cast<std::size_t>(at));
  }

  void gemm(const blas_plan& p, const host_view& A, std::int64_t a0, const host_view& B,
            std::int64_t b0, host_view& C, std::int64_t c0) {
    REQUIRE(p.m >= 1);
    REQUIRE(p.n >= 1);
    REQUIRE(p.k >= 1);
    REQUIRE(p.first.ld >= std::max<std::int64_t>(1, p.first.op == blas_op::none ? p.m : p.k));
    REQUIRE(p.second.ld >= std::max<std::int64_t>(1, p.second.op == blas_op::none ? p.k : p.n));
    REQUIRE(p.out.ld >= std::max<std::int64_t>(1, p.m));
    REQUIRE(p.out.op == blas_op::none);
    for (std::int64_t i = 0; i < p.m; ++i)
      for (std::int64_t j = 0; j < p.n; ++j) {
        cd sum = 0;
        for (std::int64_t l = 0; l < p.k; ++l)
          sum += element(A, a0, p.first.ld, p.first.op, i, l) *
                 element(B, b0, p.second.ld, p.second.op, l, j);
        store(C, c0 + i + j * p.out.ld, sum);
      }
  }

  // y = op(A) x with A stored m x n: x has n elements and y m for N, the other way for T and C.
  void gemv(const blas_plan& p, const host_view& A, std::int64_t a0, const host_view& x,
            std::int64_t x0, host_view& y, std::int64_t y0) {
    REQUIRE(p.m >= 1);
    REQUIRE(p.n >= 1);
    REQUIRE(p.first.ld >= std::max<std::int64_t>(1, p.m));
    REQUIRE(p.second.ld != 0);
    REQUIRE(p.out.ld != 0);
    const bool plain = p.first.op == blas_op::none;
    const std::int64_t rows = plain ? p.m : p.n, length = plain ? p.n : p.m;
    for (std::int64_t i = 0; i < rows; ++i) {
      cd sum = 0;
      for (std::int64_t j = 0; j < length; ++j)
        sum += element(A, a0, p.first.ld, p.first.op, i, j) *
               read(x, x0 + j * p.second.ld, blas_op::none);
      store(y, y0 + i * p.out.ld, sum);
    }
  }

  void run(const blas_plan& p, const host_view& a, const host_view& b, host_view& out) {
    const host_view& first = p.swapped ? b : a;
    const host_view& second = p.swapped ? a : b;
    REQUIRE(p.batch >= 1);
    jet::codegen::for_each_call(p, [&](std::int64_t f, std::int64_t s, std::int64_t o) {
      for (std::int64_t q = 0; q < p.batch; ++q) {
        const std::int64_t a0 = first.offset + f + q * p.first.batch_stride;
        const std::int64_t b0 = second.offset + s + q * p.second.batch_stride;
        const std::int64_t c0 = out.offset + o + q * p.out.batch_stride;
        if (p.what == blas_plan::kind::gemm)
          gemm(p, first, a0, second, b0, out, c0);
        else
          gemv(p, first, a0, second, b0, out, c0);
      }
    });
  }
};

struct outcome {
  int copies = 0;
  bool staged = false;
  blas_plan plan;  // the plan that ran
};

// What src/linalg/matmul.cpp's blas_product does, over host views.
outcome run_matmul(host_view a, host_view b, host_view& out) {
  outcome r;
  blas_plan p = jet::codegen::plan_matmul(a.layout(), b.layout(), out.layout());
  if (p.stage_out) {
    host_view staged = c_ordered(out);
    r = run_matmul(a, b, staged);
    for (std::int64_t i = 0; i < out.extents.product(); ++i)
      out.buffer.at(static_cast<std::size_t>(out.where(i))) = staged.value(i);
    r.staged = true;
    return r;
  }
  if (p.copy_a) a = c_ordered(a), ++r.copies;
  if (p.copy_b) b = c_ordered(b), ++r.copies;
  if (r.copies > 0) p = jet::codegen::plan_matmul(a.layout(), b.layout(), out.layout());
  REQUIRE_FALSE(p.copy_a);
  REQUIRE_FALSE(p.copy_b);
  REQUIRE_FALSE(p.stage_out);
  if (p.what == blas_plan::kind::zeros)
    for (std::int64_t i = 0; i < out.extents.product(); ++i)
      out.buffer.at(static_cast<std::size_t>(out.where(i))) = 0;
  if (p.what == blas_plan::kind::gemm || p.what == blas_plan::kind::gemv) {
    emulator e;
    e.writes.assign(out.buffer.size(), 0);
    e.run(p, a, b, out);
    REQUIRE(std::count_if(e.writes.begin(), e.writes.end(), [](int w) { return w > 1; }) == 0);
  }
  r.plan = p;
  return r;
}

// Runs matmul(a, b) into `out` and checks every element, and that nothing outside `out` changed.
outcome check_matmul(const host_view& a, const host_view& b, host_view out) {
  const std::vector<cd> want = reference(a, b);
  std::vector<bool> in_view(out.buffer.size(), false);
  for (std::int64_t i = 0; i < out.extents.product(); ++i)
    in_view.at(static_cast<std::size_t>(out.where(i))) = true;
  const outcome r = run_matmul(a, b, out);
  REQUIRE(static_cast<std::int64_t>(want.size()) == out.extents.product());
  std::int64_t wrong = -1, stray = -1;
  for (std::int64_t i = 0; i < out.extents.product() && wrong < 0; ++i)
    if (out.value(i) != want[static_cast<std::size_t>(i)]) wrong = i;
  for (std::size_t i = 0; i < out.buffer.size() && stray < 0; ++i)
    if (!in_view[i] && out.buffer[i] != poison) stray = static_cast<std::int64_t>(i);
  INFO("first wrong element " << wrong << ", first write outside the view at " << stray);
  REQUIRE(wrong < 0);
  REQUIRE(stray < 0);
  return r;
}

jet::shape matmul_result(const jet::shape& a, const jet::shape& b) {
  const jet::shape as = a.size() == 1 ? jet::shape{1, a[0]} : a,
                   bs = b.size() == 1 ? jet::shape{b[0], 1} : b;
  jet::shape batch_a, batch_b;
  for (int d = 0; d + 2 < as.size(); ++d) batch_a.push_back(as[d]);
  for (int d = 0; d + 2 < bs.size(); ++d) batch_b.push_back(bs[d]);
  jet::shape out = jet::broadcast_shapes(batch_a, batch_b);
  if (a.size() > 1) out.push_back(as[as.size() - 2]);
  if (b.size() > 1) out.push_back(bs.back());
  return out;
}

struct case_spec {
  jet::shape a, b;
  layout la = layout::c, lb = layout::c, lo = layout::c;
  bool conj_a = false, conj_b = false;
};

outcome check_case(const case_spec& c, std::uint32_t seed = 1) {
  std::mt19937 rng(seed);
  host_view a = make_view(rng, c.a, c.la), b = make_view(rng, c.b, c.lb);
  a.conjugate = c.conj_a;
  b.conjugate = c.conj_b;
  const host_view out = make_view(rng, matmul_result(c.a, c.b), c.lo, false);
  INFO(jet::to_string(c.a) << " " << name(c.la) << (c.conj_a ? " conj" : "") << " @ "
                           << jet::to_string(c.b) << " " << name(c.lb) << (c.conj_b ? " conj" : "")
                           << " -> " << name(c.lo));
  return check_matmul(a, b, out);
}

}  // namespace

TEST_CASE("transposed, F-ordered and padded operands map to flags and leading dimensions",
          "[host][linalg]") {
  for (layout la : {layout::c, layout::f, layout::swapped, layout::padded})
    for (layout lb : {layout::c, layout::f, layout::swapped, layout::padded}) {
      const outcome r = check_case({{5, 4}, {4, 3}, la, lb});
      CHECK(r.copies == 0);
      CHECK_FALSE(r.staged);
      CHECK(r.plan.what == blas_plan::kind::gemm);
      CHECK(r.plan.calls() == 1);
      CHECK(r.plan.batch == 1);
    }
  // A @ B.T, both C-ordered: B is read transposed in place.
  const outcome abt = check_case({{5, 4}, {4, 3}, layout::c, layout::swapped});
  CHECK(abt.copies == 0);
  CHECK(abt.plan.swapped);
  CHECK(abt.plan.first.op == blas_op::transpose);
  CHECK(abt.plan.second.op == blas_op::none);
  CHECK(abt.plan.m == 3);
  CHECK(abt.plan.n == 5);
  CHECK(abt.plan.first.ld == 4);
}

TEST_CASE("a conjugated transposed view is CUBLAS_OP_C, other conjugates are copied",
          "[host][linalg]") {
  const outcome ct =
      check_case({{5, 4}, {4, 3}, layout::c, layout::swapped, layout::c, false, true});
  CHECK(ct.copies == 0);
  CHECK(ct.plan.first.op == blas_op::conjugate_transpose);
  const outcome both =
      check_case({{5, 4}, {4, 3}, layout::swapped, layout::swapped, layout::c, true, true});
  CHECK(both.copies == 0);
  CHECK(check_case({{5, 4}, {4, 3}, layout::c, layout::c, layout::c, false, true}).copies == 1);
  // Into an F-ordered output the roles turn round: a conjugated C-ordered operand reads as C.
  CHECK(check_case({{5, 4}, {4, 3}, layout::c, layout::c, layout::swapped, true, true}).copies ==
        0);
  // vdot: a conjugated vector times a vector is a gemv with CUBLAS_OP_C.
  const outcome vdot = check_case({{6}, {6}, layout::c, layout::c, layout::c, true, false});
  CHECK(vdot.copies == 0);
  CHECK(vdot.plan.what == blas_plan::kind::gemv);
  CHECK(vdot.plan.first.op == blas_op::conjugate_transpose);
}

TEST_CASE("layouts cuBLAS cannot read are copied once, and only those", "[host][linalg]") {
  CHECK(check_case({{5, 4}, {4, 3}, layout::strided, layout::c}).copies == 1);
  CHECK(check_case({{5, 4}, {4, 3}, layout::c, layout::reversed}).copies == 1);
  CHECK(check_case({{5, 4}, {4, 3}, layout::broadcast, layout::strided}).copies == 2);
  const outcome out = check_case({{5, 4}, {4, 3}, layout::c, layout::c, layout::strided});
  CHECK(out.staged);
  CHECK(out.copies == 0);
  CHECK_FALSE(check_case({{5, 4}, {4, 3}, layout::c, layout::c, layout::f}).staged);
}

TEST_CASE("matrix-vector products are gemv calls", "[host][linalg]") {
  for (layout la : all_layouts)
    for (layout lb : all_layouts) {
      const bool copies_expected = la == layout::strided || la == layout::reversed ||
                                   la == layout::broadcast || lb == layout::strided ||
                                   lb == layout::reversed || lb == layout::broadcast;
      const outcome mv = check_case({{5, 4}, {4}, la, lb});
      CHECK(mv.plan.what == blas_plan::kind::gemv);
      if (!copies_expected) CHECK(mv.copies == 0);
      const outcome vm = check_case({{4}, {4, 3}, lb, la});
      CHECK(vm.plan.what == blas_plan::kind::gemv);
      if (!copies_expected) CHECK(vm.copies == 0);
    }
  const outcome batched = check_case({{3, 5, 4}, {4}, layout::c, layout::c});
  CHECK(batched.plan.what == blas_plan::kind::gemv);
  CHECK(batched.plan.batch == 3);
  CHECK(batched.plan.calls() == 1);
  CHECK(check_case({{2, 1, 4}, {2, 4, 6}}).plan.what == blas_plan::kind::gemv);
}

TEST_CASE("batches become one strided-batched call where the axes merge", "[host][linalg]") {
  const outcome plain = check_case({{6, 5, 4}, {6, 4, 3}});
  CHECK(plain.plan.batch == 6);
  CHECK(plain.plan.calls() == 1);
  const outcome merged = check_case({{2, 3, 5, 4}, {2, 3, 4, 3}});
  CHECK(merged.plan.batch == 6);
  CHECK(merged.plan.calls() == 1);
  const outcome shared = check_case({{6, 5, 4}, {4, 3}});  // b's batch stride is 0
  CHECK(shared.plan.batch == 6);
  CHECK(shared.plan.calls() == 1);
  CHECK(shared.copies == 0);
  const outcome broadcast = check_case({{1, 5, 4}, {6, 4, 3}, layout::broadcast});
  CHECK(broadcast.plan.calls() == 1);
  CHECK(broadcast.copies == 0);
  // (2,1) against (1,3) batch axes cannot merge: a loop of strided-batched calls.
  const outcome crossed = check_case({{2, 1, 5, 4}, {3, 4, 3}});
  CHECK(crossed.plan.batch == 3);
  CHECK(crossed.plan.calls() == 2);
  CHECK(crossed.copies == 0);
  // A reversed batch axis is copied.
  std::mt19937 rng(7);
  host_view a = make_view(rng, {3, 5, 4}, layout::c), b = make_view(rng, {3, 4, 2}, layout::c);
  a.strides[0] = -20;
  a.offset = 40;
  const outcome reversed = check_matmul(a, b, make_view(rng, {3, 5, 2}, layout::c, false));
  CHECK(reversed.copies == 1);
}

TEST_CASE("empty products and k = 0", "[host][linalg]") {
  CHECK(check_case({{0, 4}, {4, 3}}).plan.what == blas_plan::kind::nothing);
  CHECK(check_case({{5, 4}, {4, 0}}).plan.what == blas_plan::kind::nothing);
  CHECK(check_case({{0, 5, 4}, {4, 3}}).plan.what == blas_plan::kind::nothing);
  CHECK(check_case({{5, 0}, {0, 3}}).plan.what == blas_plan::kind::zeros);
  CHECK(check_case({{0}, {0}}).plan.what == blas_plan::kind::zeros);
  CHECK(check_case({{1, 1}, {1, 1}}).plan.what == blas_plan::kind::gemv);
}

TEST_CASE("random shapes, layouts and conjugations match numpy.matmul", "[host][linalg]") {
  std::mt19937 rng(20261201);
  const std::int64_t extents[] = {0, 1, 1, 2, 3, 5};
  const std::int64_t batch_extents[] = {1, 2, 3};
  auto pick = [&](auto const& list) {
    return list[std::uniform_int_distribution<std::size_t>(0, std::size(list) - 1)(rng)];
  };
  int seen[4] = {}, copied = 0, staged = 0, looped = 0, conjugated = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const std::int64_t m = pick(extents), k = pick(extents), n = pick(extents);
    case_spec c;
    const int kind_a = std::uniform_int_distribution<int>(0, 3)(rng),
              kind_b = std::uniform_int_distribution<int>(0, 3)(rng);
    // 0: 1-D; 1: a matrix; 2, 3: one or two batch axes.
    for (int d = 2; d <= kind_a; ++d) c.a.push_back(pick(batch_extents));
    for (int d = 2; d <= kind_b; ++d) c.b.push_back(pick(batch_extents));
    if (kind_a == 0) {
      c.a.push_back(k);
    } else {
      c.a.push_back(m);
      c.a.push_back(k);
    }
    c.b.push_back(k);
    if (kind_b != 0) c.b.push_back(n);
    // Batch axes that do not broadcast become 1 on one side.
    for (int d = 0; d + 2 < c.a.size() && d + 2 < c.b.size(); ++d) {
      const int da = c.a.size() - 3 - d, db = c.b.size() - 3 - d;
      if (c.a[da] != c.b[db] && c.a[da] != 1 && c.b[db] != 1) c.b[db] = 1;
    }
    c.la = pick(all_layouts);
    c.lb = pick(all_layouts);
    c.lo = pick(all_layouts);
    if (c.lo == layout::broadcast) c.lo = layout::c;  // an output cannot be a broadcast view
    c.conj_a = std::bernoulli_distribution(0.3)(rng);
    c.conj_b = std::bernoulli_distribution(0.3)(rng);
    INFO("trial " << trial);
    const outcome r = check_case(c, static_cast<std::uint32_t>(trial));
    ++seen[static_cast<int>(r.plan.what)];
    copied += r.copies > 0;
    staged += r.staged;
    looped += r.plan.calls() > 1;
    conjugated += r.plan.first.op == blas_op::conjugate_transpose;
  }
  // The trials reach every kind of plan.
  for (int kind = 0; kind < 4; ++kind) CHECK(seen[kind] > 50);
  CHECK(copied > 100);
  CHECK(staged > 100);
  CHECK(looped > 10);
  CHECK(conjugated > 50);
}
