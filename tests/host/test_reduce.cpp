// Reductions against NumPy 2 without a GPU: data/reductions.csv is NumPy's own result dtypes,
// shapes and refusals, written by data/generate_reductions.py; reductions over placeholders
// only build nodes. Then the error messages, and that every kind of reduction kernel renders
// and compiles with NVRTC.
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

// One line of reductions.csv, by column (see generate_reductions.py).
struct table_row {
  std::string kind, name, shape, dtype, dtype_arg, axis, keepdims, result, out;
  std::string line;
};

std::vector<table_row> read_table() {
  std::ifstream in(JET_TEST_DATA "/reductions.csv");
  if (!in) throw std::runtime_error("cannot open " JET_TEST_DATA "/reductions.csv");
  std::vector<table_row> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    table_row r;
    r.line = line;
    std::istringstream fields(line);
    for (std::string* field : {&r.kind, &r.name, &r.shape, &r.dtype, &r.dtype_arg, &r.axis,
                               &r.keepdims, &r.result, &r.out})
      std::getline(fields, *field, ',');
    rows.push_back(std::move(r));
  }
  return rows;
}

const std::vector<table_row>& table() {
  static const std::vector<table_row> rows = read_table();
  return rows;
}

// The integers of "2 3 4" or "(0 2)".
std::vector<std::int64_t> integers_in(const std::string& spelled) {
  std::istringstream in(spelled.front() == '(' ? spelled.substr(1, spelled.size() - 2) : spelled);
  std::vector<std::int64_t> out;
  for (std::int64_t v; in >> v;) out.push_back(v);
  return out;
}

jet::shape shape_from(const std::string& spelled) {
  const std::vector<std::int64_t> extents = integers_in(spelled);
  return jet::shape(std::span<const std::int64_t>(extents));
}

// "none", "-1", "(0 2)" or "()" as Jet's axis argument.
jet::axes axes_from(const std::string& spelled) {
  if (spelled == "none") return {};
  if (spelled.front() != '(') return jet::axes(std::stoi(spelled));
  std::vector<int> list;
  for (std::int64_t a : integers_in(spelled)) list.push_back(static_cast<int>(a));
  switch (list.size()) {
    case 0: return jet::axes(std::initializer_list<int>{});
    case 1: return jet::axes({list[0]});
    case 2: return jet::axes({list[0], list[1]});
    case 3: return jet::axes({list[0], list[1], list[2]});
    default: FAIL("axis list too long in the table: " << spelled); return {};
  }
}

using reduction = std::function<jet::expr(const jet::expr&, jet::axes, bool)>;
using reduction_to = std::function<jet::expr(const jet::expr&, jet::axes, jet::dtype, bool)>;

#define JET_REDUCTION(fn)                                                         \
  {                                                                               \
#fn, [](const jet::expr& a, jet::axes x, bool k) { return jet::fn(a, x, k); } \
  }
#define JET_REDUCTION_TO(fn)                                                                       \
  {                                                                                                \
#fn, [](const jet::expr& a, jet::axes x, jet::dtype t, bool k) { return jet::fn(a, x, t, k); } \
  }
const std::map<std::string, reduction> reductions = {
    JET_REDUCTION(sum),
    JET_REDUCTION(prod),
    JET_REDUCTION(mean),
    JET_REDUCTION(min),
    JET_REDUCTION(max),
    JET_REDUCTION(argmin),
    JET_REDUCTION(argmax),
    JET_REDUCTION(all),
    JET_REDUCTION(any),
    JET_REDUCTION(ptp),
    JET_REDUCTION(count_nonzero),
    JET_REDUCTION(nansum),
    JET_REDUCTION(nanmean),
    JET_REDUCTION(nanmin),
    JET_REDUCTION(nanmax),
    {"var", [](const jet::expr& a, jet::axes x, bool k) { return jet::var(a, x, 0, k); }},
    {"std", [](const jet::expr& a, jet::axes x, bool k) { return jet::std(a, x, 0, k); }},
};
const std::map<std::string, reduction_to> reductions_to = {
    JET_REDUCTION_TO(sum),  JET_REDUCTION_TO(prod),    JET_REDUCTION_TO(nansum),
    JET_REDUCTION_TO(mean), JET_REDUCTION_TO(nanmean),
};
#undef JET_REDUCTION
#undef JET_REDUCTION_TO

// numpy.linalg.norm's ord as the table spells it.
jet::expr norm(const jet::expr& a, const std::string& ord, jet::axes axis, bool keepdims) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (ord == "none") return jet::linalg::norm(a, std::nullopt, axis, keepdims);
  if (ord == "fro") return jet::linalg::norm(a, "fro", axis, keepdims);
  const double p = ord == "inf" ? inf : ord == "-inf" ? -inf : std::stod(ord);
  return jet::linalg::norm(a, p, axis, keepdims);
}

// A row's result as the table spells it: "dtype,(extents)" or "error,kind".
std::string outcome(const std::function<jet::expr()>& build) {
  try {
    const jet::expr e = build();
    std::string extents;
    for (std::int64_t n : e.shape()) extents += (extents.empty() ? "" : " ") + std::to_string(n);
    return std::string(jet::name(e.dtype())) + ",(" + extents + ")";
  } catch (const jet::index_error&) {
    return "error,index_error";
  } catch (const jet::value_error&) {
    return "error,value_error";
  } catch (const jet::dtype_error&) {
    return "error,dtype_error";
  } catch (const jet::error& e) {
    return std::string("error,other jet::error: ") + e.what();
  }
}

// Jet's outcome for a row, with every dtype name mapped through rename.
std::string jet_outcome(const table_row& r, const std::function<std::string(std::string)>& rename) {
  const jet::array input =
      jet::placeholder(shape_from(r.shape), jet::dtype_from_name(rename(r.dtype)));
  const jet::axes axis = axes_from(r.axis);
  const bool keepdims = r.keepdims == "true";
  return outcome([&]() -> jet::expr {
    if (r.kind == "norm") return norm(input, r.name, axis, keepdims);
    if (r.dtype_arg.empty()) return reductions.at(r.name)(input, axis, keepdims);
    return reductions_to.at(r.name)(input, axis, jet::dtype_from_name(rename(r.dtype_arg)),
                                    keepdims);
  });
}

// The row's expected outcome; "error,error" means any jet::error kind, so `got` stands.
std::string wanted(const std::string& got, const table_row& r,
                   const std::function<std::string(std::string)>& rename) {
  if (r.result == "error" && r.out == "error" && got.rfind("error,", 0) == 0) return got;
  return rename(r.result) + "," + r.out;
}

std::string same_name(std::string name) { return name; }
// bfloat16 is not in NumPy; it follows NumPy's float16 rules.
std::string float16_as_bfloat16(std::string name) { return name == "float16" ? "bfloat16" : name; }

}  // namespace

TEST_CASE("reduction result dtypes, shapes and refusals match NumPy", "[host][reduce]") {
  REQUIRE(table().size() > 9000);
  for (const table_row& r : table()) {
    INFO(r.line);
    const std::string got = jet_outcome(r, same_name);
    CHECK(got == wanted(got, r, same_name));
  }
}

TEST_CASE("bfloat16 reductions follow NumPy's float16 rows", "[host][reduce]") {
  int rows = 0;
  for (const table_row& r : table()) {
    if (r.dtype != "float16" && r.dtype_arg != "float16") continue;
    ++rows;
    INFO(r.line << " with float16 read as bfloat16");
    const std::string got = jet_outcome(r, float16_as_bfloat16);
    CHECK(got == wanted(got, r, float16_as_bfloat16));
  }
  CHECK(rows > 500);
  const jet::array half = jet::placeholder({4, 5}, jet::bfloat16);
  CHECK(jet::sum(half).dtype() == jet::bfloat16);
  CHECK(jet::var(half, 1).dtype() == jet::bfloat16);
  CHECK(jet::linalg::norm(half).dtype() == jet::bfloat16);
  CHECK(jet::sum(half, 0, jet::float32).dtype() == jet::float32);
}

TEST_CASE("full reductions are 0-d and member forms match the free functions", "[host][reduce]") {
  const jet::array x = jet::placeholder({3, 5, 2}, jet::int16);
  const jet::expr e = x * 2;
  for (const jet::expr& full : {jet::sum(x), x.sum(), e.max(), jet::argmin(e), jet::mean(x)}) {
    CHECK(full.ndim() == 0);
    CHECK(full.size() == 1);
  }
  using member = jet::expr (jet::expr::*)(jet::axes, bool) const;
  const std::map<std::string, member> members = {
      {"sum", &jet::expr::sum},       {"prod", &jet::expr::prod},     {"mean", &jet::expr::mean},
      {"min", &jet::expr::min},       {"max", &jet::expr::max},       {"ptp", &jet::expr::ptp},
      {"argmin", &jet::expr::argmin}, {"argmax", &jet::expr::argmax}, {"all", &jet::expr::all},
      {"any", &jet::expr::any},
  };
  for (const auto& [name, fn] : members) {
    INFO(name);
    const jet::expr free = reductions.at(name)(e, -2, true);
    const jet::expr from_expr = (e.*fn)(-2, true);
    CHECK(from_expr.dtype() == free.dtype());
    CHECK(jet::to_string(from_expr.shape()) == jet::to_string(free.shape()));
  }
  CHECK(x.sum(1).dtype() == jet::int64);
  CHECK(jet::to_string(x.sum(1).shape()) == "(3,2)");
  CHECK(jet::to_string(x.max({0, 2}, true).shape()) == "(1,5,1)");
  CHECK(x.mean().dtype() == jet::float64);
  CHECK(x.argmax(-1).dtype() == jet::int64);
  CHECK(x.all(0).dtype() == jet::bool_);
  CHECK(x.var(1, 1).dtype() == jet::float64);
  CHECK(jet::to_string(x.std(1, 1, true).shape()) == "(3,1,2)");
  CHECK(jet::to_string(e.var({0, 1}, 0, true).shape()) == "(1,1,2)");
  CHECK(jet::to_string(jet::std(x, {}, 1, true).shape()) == "(1,1,1)");
  CHECK(jet::amin(x, 1).dtype() == jet::int16);
  CHECK(jet::amax(x, 1).dtype() == jet::int16);
}

TEST_CASE("matrix norms that need singular values are refused", "[host][reduce]") {
  const jet::array m = jet::placeholder({3, 4}, jet::float32);
  const jet::array t = jet::placeholder({2, 3, 4}, jet::float32);
  CHECK_THROWS_AS(jet::linalg::norm(m, 2.0), jet::value_error);
  CHECK_THROWS_AS(jet::linalg::norm(m, -2.0), jet::value_error);
  CHECK_THROWS_AS(jet::linalg::norm(m, "nuc"), jet::value_error);
  CHECK_THROWS_AS(jet::linalg::norm(t, 2.0, {0, 2}), jet::value_error);
  CHECK_THROWS_AS(jet::linalg::norm(t, "nuc", {2, 1}), jet::value_error);
  CHECK_THROWS_AS(jet::linalg::norm(m, "bogus"), jet::value_error);
}

TEST_CASE("reduction errors name what was wrong", "[host][reduce]") {
  const jet::array x = jet::placeholder({2, 3, 4}, jet::float32);
  CHECK_THROWS_WITH(jet::sum(x, 3),
                    jet_test::contains("axis 3 is out of bounds for array of dimension 3"));
  CHECK_THROWS_WITH(jet::max(x, -4),
                    jet_test::contains("axis -4 is out of bounds for array of dimension 3"));
  CHECK_THROWS_WITH(jet::mean(x, {1, 5}), jet_test::contains("axis 5"));
  CHECK_THROWS_WITH(jet::sum(x, {0, -3}), jet_test::contains("duplicate"));
  CHECK_THROWS_WITH(jet::argmax(x, {0, 1}), jet_test::contains("axis"));

  const jet::array empty = jet::placeholder({2, 0, 4}, jet::float32);
  CHECK_THROWS_WITH(jet::min(empty, 1), jet_test::contains("zero-size array"));
  CHECK_THROWS_WITH(jet::nanmax(empty), jet_test::contains("zero-size array"));
  CHECK_THROWS_WITH(jet::argmin(empty, 1), jet_test::contains("argmin"));
  CHECK_THROWS_WITH(jet::argmin(empty, 1), jet_test::contains("empty"));
  CHECK_THROWS_WITH(jet::ptp(jet::placeholder({3}, jet::bool_)), jet_test::contains("bool"));
  // NumPy's ptp takes the max first: an empty bool array is a ValueError, not a TypeError.
  CHECK_THROWS_AS(jet::ptp(jet::placeholder({0}, jet::bool_), 0), jet::value_error);
  CHECK_THROWS_WITH(jet::ptp(jet::placeholder({0}, jet::bool_), 0),
                    jet_test::contains("reduction operation maximum"));
  CHECK_THROWS_WITH(jet::linalg::norm(x, "fro", 1), jet_test::contains("fro"));
  CHECK_THROWS_WITH(jet::linalg::norm(x, 1.0), jet_test::contains("dimensions"));
}

namespace {

// What a reduction kernel is fed: a (5,6,7) view of a placeholder, laid out in one of four ways.
struct kernel_layout {
  const char* what;
  std::function<jet::array(jet::dtype)> make;
  jet::axes axis, single_axis;  // single_axis for argmin/argmax
};

const jet::slice all_of;
const kernel_layout kernel_layouts[] = {
    {"contiguous, full reduction",
     [](jet::dtype t) {
       return jet::placeholder({5, 6, 7}, t);
     },
     jet::axes(), jet::axes()},
    {"transposed, inner axis",
     [](jet::dtype t) {
       return jet::placeholder({7, 6, 5}, t).T();
     },
     jet::axes(-1), jet::axes(-1)},
    {"sliced with a step, outer axes",
     [](jet::dtype t) {
       return jet::placeholder({10, 6, 9}, t)(jet::slice(jet::none, jet::none, 2), all_of,
                                              jet::slice(1, 8));
     },
     jet::axes({0, 2}), jet::axes(0)},
    {"broadcast, middle axis",
     [](jet::dtype t) {
       return jet::placeholder({5, 1, 7}, t).broadcast_to({5, 6, 7});
     },
     jet::axes(1), jet::axes(1)},
};

void compiles(const jet::expr& e) {
  const jet::explanation x = jet::explain(e);
  INFO(x.source);
  CHECK(!x.kernel_name.empty());
  CHECK(x.source.find(x.kernel_name) != std::string::npos);
  CHECK(x.binary_bytes > 0);
}

const jet::dtype kernel_dtypes[] = {jet::bool_,     jet::int8,      jet::uint32,  jet::int64,
                                    jet::float16,   jet::bfloat16,  jet::float32, jet::float64,
                                    jet::complex64, jet::complex128};

}  // namespace

TEST_CASE("reduction kernels of every kind, dtype class and layout compile",
          "[host][reduce][render]") {
  int k = 0;
  for (const auto& [name, reduce] : reductions) {
    for (const kernel_layout& l : kernel_layouts) {
      // Each (reduction, layout) pair takes the next dtype, so all of them turn up.
      const jet::dtype t = kernel_dtypes[k++ % std::size(kernel_dtypes)];
      if (name == "ptp" && t == jet::bool_) continue;
      const bool one_axis = name == "argmin" || name == "argmax";
      INFO(name << " of " << jet::name(t) << ", " << l.what);
      compiles(reduce(l.make(t), one_axis ? l.single_axis : l.axis, false));
    }
  }
}

TEST_CASE("reductions of every dtype, norms, fused inputs and dtype arguments compile",
          "[host][reduce][render]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    const jet::array a = jet::placeholder({33, 17}, t);
    compiles(jet::sum(a, 1));
    compiles(jet::max(a, 0, true));
    compiles(jet::argmin(a));
  }
  const jet::array m = jet::placeholder({9, 31}, jet::float32);
  const jet::array z = jet::placeholder({9, 31}, jet::complex64);
  for (const char* ord : {"none", "1", "-1", "2", "inf", "-inf", "0", "3"}) {
    INFO("vector norm, ord " << ord);
    compiles(norm(m, ord, 1, false));
    compiles(norm(z.T(), ord, 0, false));
  }
  for (const char* ord : {"none", "fro", "1", "-1", "inf", "-inf"}) {
    INFO("matrix norm, ord " << ord);
    compiles(norm(m, ord, {}, false));
    compiles(norm(z, ord, {1, 0}, true));
  }
  const jet::array b = jet::placeholder({31}, jet::float32);
  compiles(jet::sum(m * b, 1));
  compiles(jet::mean(jet::sin(m) + b));
  compiles(jet::var(m * 2.0f + 1.0f, 0, 1));
  compiles(jet::std(m(jet::slice(jet::none, jet::none, -1)), {}, 1, true));
  compiles(jet::sum(jet::placeholder({40}, jet::int8), {}, jet::float32));
  compiles(jet::mean(jet::placeholder({8, 40}, jet::int32), 1, jet::float32));
  compiles(jet::count_nonzero(m > b));
}

TEST_CASE("reductions load 16-byte vectors only where the reduced axis is contiguous",
          "[host][reduce][render]") {
  const jet::array a = jet::placeholder({1000, 64}, jet::float32);
  const jet::array column = jet::placeholder({1000, 1}, jet::float32);
  const auto vectorized = [](const jet::explanation& x, const std::string& vector) {
    INFO(x.source);
    return x.source.find(vector + " x0[") != std::string::npos;
  };
  const jet::explanation rows = jet::explain(jet::sum(a, 1));
  CHECK(vectorized(rows, "jet_vec<float, 4>"));
  CHECK(rows.operands.find("in0: float32, strided, unit inner stride") != std::string::npos);
  // The column operand is the same for every element of a row: one load, no vector.
  const jet::explanation mixed = jet::explain(jet::sum(a * column, 1));
  CHECK(vectorized(mixed, "jet_vec<float, 4>"));
  CHECK(mixed.operands.find("in1: float32, strided, broadcast inner axis") != std::string::npos);
  CHECK(vectorized(jet::explain(jet::max(jet::placeholder({7, 300}, jet::float64), 1)),
                   "jet_vec<double, 2>"));
  CHECK(vectorized(jet::explain(jet::sum(jet::placeholder({1 << 20}, jet::int8))),
                   "jet_vec<signed char, 16>"));
  // A strided reduced axis, the columns layout and 16-byte elements take the scalar loop, and
  // the key tells them from the vectorized kernel.
  const jet::explanation every_other =
      jet::explain(jet::sum(a(jet::slice(), jet::slice(jet::none, jet::none, 2)), 1));
  CHECK_FALSE(vectorized(every_other, "jet_vec<float, 4>"));
  CHECK(every_other.key != rows.key);
  CHECK_FALSE(vectorized(jet::explain(jet::sum(a, 0)), "jet_vec<float, 4>"));
  CHECK(jet::explain(jet::sum(jet::placeholder({9, 64}, jet::complex128), 1)).source.find(" x0[") ==
        std::string::npos);
}
