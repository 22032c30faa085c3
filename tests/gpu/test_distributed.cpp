// jet::distributed through NCCL: every collective over every dtype it takes, over one rank and
// over every local GPU (the [multigpu] cases), each result against Jet's own single-device
// reduction of the ranks' operands; the errors; sharded arrays against the whole array; and
// ranks in separate processes (tests/gpu/distributed_rank.cpp). Hidden from discovery: ctest
// runs them as gpu.distributed and gpu.distributed_multi_device (two GPUs), skipped without
// NCCL (tests/support/main.cpp).
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

extern char** environ;

namespace {

namespace dist = jet::distributed;
using comms_t = std::vector<dist::communicator>;

constexpr jet::dtype all_dtypes[] = {jet::bool_,   jet::int8,      jet::int16,     jet::int32,
                                     jet::int64,   jet::uint8,     jet::uint16,    jet::uint32,
                                     jet::uint64,  jet::float16,   jet::bfloat16,  jet::float32,
                                     jet::float64, jet::complex64, jet::complex128};
constexpr dist::reduce_op all_ops[] = {dist::reduce_op::sum, dist::reduce_op::prod,
                                       dist::reduce_op::min, dist::reduce_op::max,
                                       dist::reduce_op::avg};

bool reduces(jet::dtype t, dist::reduce_op op) {
  const jet::dtype_kind k = jet::kind(t);
  if (op == dist::reduce_op::avg)
    return k == jet::dtype_kind::floating || k == jet::dtype_kind::complex;
  return k != jet::dtype_kind::complex || op == dist::reduce_op::sum;
}

// Rank r's operand of shape `s`: small values (products of two ranks stay exact in every
// dtype) that differ between ranks and elements, on the rank's device.
jet::array operand(const dist::communicator& c, jet::dtype t, const jet::shape& s) {
  const jet::device_guard on(c.device());
  const jet::expr i = jet::arange(s.product()).reshape(s);
  const jet::expr v = (i * (c.rank() + 1) + c.rank()) % 5 + 1;
  if (t == jet::bool_) return ((i + c.rank()) % 3 == 0).eval();
  if (jet::kind(t) == jet::dtype_kind::complex)
    return (v + v * std::complex<double>(0, 1) * (i % 2)).astype(t).eval();
  return v.astype(t).eval();
}

std::vector<jet::array> operands(const comms_t& comms, jet::dtype t, const jet::shape& s) {
  std::vector<jet::array> xs;
  for (const auto& c : comms) xs.push_back(operand(c, t, s));
  return xs;
}

// The ranks' operands stacked along a new axis 0 on device 0.
jet::array stacked(const std::vector<jet::array>& xs) {
  std::vector<jet::array> here;
  for (const auto& x : xs) here.push_back(x.to_device(0));
  return jet::stack(here, 0);
}

jet::array expected_reduction(const std::vector<jet::array>& xs, dist::reduce_op op) {
  const jet::array all = stacked(xs);
  const jet::dtype t = all.dtype();
  switch (op) {
    case dist::reduce_op::sum:
      return (t == jet::bool_ ? jet::any(all, 0) : jet::sum(all, 0, t)).eval();
    case dist::reduce_op::prod:
      return (t == jet::bool_ ? jet::all(all, 0) : jet::prod(all, 0, t)).eval();
    case dist::reduce_op::min: return jet::min(all, 0).eval();
    case dist::reduce_op::max: return jet::max(all, 0).eval();
    case dist::reduce_op::avg: return jet::mean(all, 0).astype(t).eval();
  }
  return all;
}

bool same(const jet::array& a, const jet::array& b) {
  return a.dtype() == b.dtype() && jet::array_equal(a.to_device(0), b.to_device(0));
}

// Rows [r * n, (r + 1) * n) of `a`.
jet::array rows(const jet::array& a, int r, std::int64_t n) {
  return a(jet::slice(r * n, (r + 1) * n));
}

void check_reductions(const comms_t& comms, jet::dtype t) {
  const int size = static_cast<int>(comms.size());
  const std::vector<jet::array> xs = operands(comms, t, {2 * std::int64_t{size}, 3});
  for (dist::reduce_op op : all_ops) {
    if (!reduces(t, op)) continue;
    INFO("dtype " << jet::name(t) << ", op " << static_cast<int>(op));
    const jet::array want = expected_reduction(xs, op);
    std::vector<jet::array> all(size), root(size), scattered(size);
    dist::group([&] {
      for (int r = 0; r < size; ++r) {
        all[r] = dist::all_reduce(comms[r], xs[r], op);
        root[r] = dist::reduce(comms[r], xs[r], size - 1, op);
        scattered[r] = dist::reduce_scatter(comms[r], xs[r], op);
      }
    });
    for (int r = 0; r < size; ++r) {
      CHECK(all[r].device() == comms[r].device());
      CHECK(same(all[r], want));
      CHECK(same(scattered[r], rows(want, r, 2)));
      if (r == size - 1)
        CHECK(same(root[r], want));
      else
        CHECK(root[r].size() == 0);
    }
  }
}

void check_movement(const comms_t& comms, jet::dtype t) {
  INFO("dtype " << jet::name(t));
  const int size = static_cast<int>(comms.size());
  const std::int64_t n = 2 * std::int64_t{size}, all_rows = n * size;
  const std::vector<jet::array> xs = operands(comms, t, {n, 3});
  std::vector<jet::array> cast(size), gathered(size), swapped(size), received(size), scalars(size);
  dist::group([&] {
    for (int r = 0; r < size; ++r) {
      const jet::expr x = r == 0 ? jet::expr(xs[r]) : jet::expr(jet::empty({n, 3}, t));
      cast[r] = dist::broadcast(comms[r], x, 0);
      gathered[r] = dist::all_gather(comms[r], xs[r]);
      swapped[r] = dist::all_to_all(comms[r], xs[r]);
      dist::send(comms[r], xs[r], (r + 1) % size);
      received[r] = dist::recv(comms[r], (r + size - 1) % size, {n, 3}, t);
      const jet::device_guard on(comms[r].device());
      scalars[r] = dist::all_gather(comms[r], xs[r](0, 0));
    }
  });
  std::vector<jet::array> firsts;
  for (const auto& x : xs) firsts.push_back(x(0, 0).reshape({1}));
  for (int r = 0; r < size; ++r) {
    CHECK(same(cast[r], xs[0]));
    CHECK(same(gathered[r], stacked(xs).reshape({all_rows, 3})));
    std::vector<jet::array> parts;
    for (int j = 0; j < size; ++j) parts.push_back(rows(xs[j].to_device(0), r, 2));
    CHECK(same(swapped[r], jet::concatenate(parts, 0)));
    CHECK(same(received[r], xs[(r + size - 1) % size]));
    CHECK(scalars[r].shape() == jet::shape{std::int64_t{size}});
    CHECK(same(scalars[r], stacked(firsts).reshape({std::int64_t{size}})));
  }
}

void check_collectives(const comms_t& comms) {
  for (jet::dtype t : all_dtypes) {
    check_reductions(comms, t);
    check_movement(comms, t);
  }
  // An expression is evaluated (one fused kernel) into the send buffer, a strided view copied.
  const int size = static_cast<int>(comms.size());
  const std::vector<jet::array> xs = operands(comms, jet::float32, {4, 6});
  std::vector<jet::array> fused(size), strided(size);
  dist::group([&] {
    for (int r = 0; r < size; ++r) {
      const jet::device_guard on(comms[r].device());
      fused[r] = dist::all_reduce(comms[r], jet::sin(xs[r]) * 2 + 1);
      strided[r] = dist::all_reduce(comms[r], xs[r].T(), dist::reduce_op::max);
    }
  });
  std::vector<jet::array> evaluated, transposed;
  for (int r = 0; r < size; ++r) {
    const jet::device_guard on(comms[r].device());
    evaluated.push_back((jet::sin(xs[r]) * 2 + 1).eval());
    transposed.push_back(xs[r].T().copy());
  }
  for (int r = 0; r < size; ++r) {
    CHECK(
        jet::allclose(fused[r].to_device(0), expected_reduction(evaluated, dist::reduce_op::sum)));
    CHECK(same(strided[r], expected_reduction(transposed, dist::reduce_op::max)));
  }
}

void check_sharded(const comms_t& comms) {
  const jet::array whole =
      (jet::arange(7 * 3).reshape({7, 3}) % 11 - 4).astype(jet::float32).eval();
  const dist::sharded_array x = dist::sharded_array::split(whole, comms);
  CHECK(x.shape() == jet::shape{7, 3});
  CHECK(x.dtype() == jet::float32);
  for (int r = 0; r < x.ranks(); ++r) CHECK(x.shard(r).device() == comms[r].device());
  CHECK(same(x.gather(), whole));
  CHECK(same(dist::sum(x), jet::sum(whole).eval()));
  CHECK(same(dist::sum(x, 0), jet::sum(whole, 0).eval()));
  CHECK(same(dist::sum(x, {0, 1}, true), jet::sum(whole, {0, 1}, true).eval()));
  CHECK(same(dist::prod(x, 0), jet::prod(whole, 0).eval()));
  CHECK(same(dist::min(x), jet::min(whole).eval()));
  CHECK(same(dist::max(x, 0, true), jet::max(whole, 0, true).eval()));
  CHECK(jet::allclose(dist::mean(x).to_device(0), jet::mean(whole)));
  const jet::array ints = jet::arange(10);
  CHECK(same(dist::mean(dist::sharded_array::split(ints, comms)), jet::mean(ints).eval()));
  // Elementwise work stays on each shard's device.
  const dist::sharded_array y =
      dist::map([](const jet::array& a, const jet::array& b) { return jet::sin(a) * b + 1; }, x, x);
  for (int r = 0; r < y.ranks(); ++r) CHECK(y.shard(r).device() == comms[r].device());
  CHECK(jet::allclose(y.gather(), jet::sin(whole) * whole + 1));
  const dist::sharded_array row_sums =
      dist::map([](const jet::array& a) { return jet::sum(a, 1); }, x);
  CHECK(same(row_sums.gather(), jet::sum(whole, 1).eval()));
  CHECK_THROWS_WITH(dist::sum(x, 1),
                    "distributed::sum: the axes leave axis 0 split across the ranks; reduce "
                    "shard-local with distributed::map instead");
  CHECK_THROWS_WITH(dist::map([](const jet::array& a) { return jet::sum(a, 0); }, x),
                    jet_test::contains("a map keeps axis 0"));
  CHECK_THROWS_WITH(dist::sharded_array::split(jet::array(jet::expr(1.0)), comms),
                    "sharded_array::split: a 0-d array has no axis 0 to split");
}

// One Lloyd step of k-means on `points` (n, 2) from `centers` (k, 2): each cluster's sum of
// its points and their count.
struct cluster_sums {
  jet::array sums, counts;
};
cluster_sums assign_points(const jet::array& points, const jet::array& centers) {
  const jet::slice all;
  const jet::array distances =
      jet::sum(jet::square(points(all, jet::newaxis, all) - centers(jet::newaxis, all, all)), 2);
  const jet::array labels = jet::argmin(distances, 1);
  const jet::array members =
      (labels(all, jet::newaxis) == jet::arange(centers.shape()[0])).astype(jet::float32);
  return {jet::matmul(members.T(), points), jet::sum(members, 0)};
}

// Data-parallel k-means: every rank assigns its shard's points, an all-reduce adds the ranks'
// sums and counts, and every rank then holds the same new centers. Against the same steps on
// the whole array on one device.
void check_kmeans(const comms_t& comms) {
  const std::int64_t n = 10007, k = 4;
  const jet::array t = jet::arange(n).astype(jet::float32);
  const jet::array points = jet::stack({jet::sin(t * 0.37f) * 3 + jet::floor(t / (n / 4)) * 4,
                                        jet::cos(t * 0.11f) * 2 - jet::floor(t / (n / 4)) * 3},
                                       1);
  const dist::sharded_array x = dist::sharded_array::split(points, comms);
  const int size = static_cast<int>(comms.size());
  jet::array whole_centers = points(jet::slice(0, k * (n / k), n / k));
  std::vector<jet::array> centers;
  for (const auto& c : comms) centers.push_back(whole_centers.to_device(c.device()));
  for (int step = 0; step < 5; ++step) {
    std::vector<cluster_sums> parts;
    for (int r = 0; r < size; ++r) {
      const jet::device_guard on(comms[r].device());
      parts.push_back(assign_points(x.shard(r), centers[r]));
    }
    dist::group([&] {
      for (int r = 0; r < size; ++r) {
        parts[r].sums = dist::all_reduce(comms[r], parts[r].sums);
        parts[r].counts = dist::all_reduce(comms[r], parts[r].counts);
      }
    });
    for (int r = 0; r < size; ++r) {
      const jet::device_guard on(comms[r].device());
      centers[r] = parts[r].sums / parts[r].counts(jet::slice(), jet::newaxis);
    }
    const cluster_sums whole = assign_points(points, whole_centers);
    whole_centers = whole.sums / whole.counts(jet::slice(), jet::newaxis);
    for (int r = 0; r < size; ++r)
      CHECK(jet::allclose(centers[r].to_device(0), whole_centers, 1e-4, 1e-5));
  }
}

}  // namespace

TEST_CASE("distributed: NCCL is there, and its version", "[gpu][.distributed]") {
  REQUIRE(dist::available());
  CHECK(dist::unavailable_reason().empty());
  CHECK(dist::nccl_version().find('.') != std::string::npos);
}

TEST_CASE("distributed: every collective and dtype over one rank", "[gpu][.distributed]") {
  const comms_t comms = dist::communicator::local({0});
  REQUIRE(comms.size() == 1);
  CHECK(comms[0].rank() == 0);
  CHECK(comms[0].size() == 1);
  CHECK(comms[0].device() == 0);
  CHECK(comms[0].all_local());
  check_collectives(comms);
}

TEST_CASE("distributed: a communicator made from a unique id", "[gpu][.distributed]") {
  const dist::communicator c(dist::make_unique_id(), 1, 0);
  CHECK(!c.all_local());
  check_collectives({c});
}

TEST_CASE("distributed: a sharded array and data-parallel k-means over one rank",
          "[gpu][.distributed]") {
  const comms_t comms = dist::communicator::local({0});
  check_sharded(comms);
  check_kmeans(comms);
}

TEST_CASE("distributed: errors name the call and the values", "[gpu][.distributed]") {
  const comms_t comms = dist::communicator::local({0});
  const dist::communicator& c = comms[0];
  const jet::array ints = jet::arange(4).astype(jet::int32);
  CHECK_THROWS_WITH(dist::all_reduce(c, ints, dist::reduce_op::avg),
                    "all_reduce: avg of int32 is not supported: avg needs a floating or complex "
                    "dtype (divide the sum instead)");
  CHECK_THROWS_AS(dist::all_reduce(c, ints, dist::reduce_op::avg), jet::dtype_error);
  CHECK_THROWS_WITH(dist::reduce_scatter(c, ints.astype(jet::complex64), dist::reduce_op::prod),
                    "reduce_scatter: prod of complex64 is not supported: complex values only sum "
                    "and average");
  CHECK_THROWS_WITH(dist::reduce(c, ints, 1),
                    "reduce: root 1 is not a rank of a communicator of 1 (ranks 0 to 0)");
  CHECK_THROWS_WITH(dist::recv(c, -1, {2}, jet::float32),
                    "recv: peer -1 is not a rank of a communicator of 1 (ranks 0 to 0)");
  CHECK_THROWS_WITH(dist::all_to_all(c, jet::expr(1.0)),
                    "all_to_all: an array of shape () does not split along axis 0 into 1 equal "
                    "parts (one a rank)");
  CHECK_THROWS_AS(dist::all_to_all(c, jet::expr(1.0)), jet::shape_error);
  CHECK_THROWS_WITH(
      dist::communicator::local({0, 0}),
      "communicator::local: device 0 is named twice in [0, 0]: a device can be one rank");
  CHECK_THROWS_AS(dist::communicator::local({jet::device::count()}), jet::value_error);
  CHECK_THROWS_WITH(
      dist::communicator(dist::unique_id{}, 2, 2),
      "communicator: rank 2 is outside [0, 2): a communicator of 2 ranks has ranks 0 to 1");
  // A send without its matching recv is refused before anything reaches NCCL, and a failed
  // group leaves nothing queued behind it.
  const jet::array x = jet::ones({4}, jet::float32);
  CHECK_THROWS_WITH(dist::group([&] {
                      dist::send(c, x, 0);
                      dist::recv(c, 0, {5}, jet::float32);
                    }),
                    "send 1 from rank 0 to rank 0: rank 0 sends send of float32 (4,), rank 0 "
                    "receives recv of float32 (5,)");
  CHECK_THROWS_WITH(dist::group([&] {
                      dist::all_reduce(c, x);
                      throw jet::value_error("stop");
                    }),
                    "stop");
  CHECK(same(dist::all_reduce(c, x), x));
}

TEST_CASE("distributed: every collective and dtype over every local GPU",
          "[gpu][.distributed][.multigpu]") {
  const comms_t comms = dist::communicator::local();
  REQUIRE(comms.size() >= 2);
  for (int r = 0; r < static_cast<int>(comms.size()); ++r) {
    CHECK(comms[r].rank() == r);
    CHECK(comms[r].device() == r);
  }
  check_collectives(comms);
}

TEST_CASE("distributed: sharded arrays and data-parallel k-means over every local GPU",
          "[gpu][.distributed][.multigpu]") {
  const comms_t comms = dist::communicator::local();
  check_sharded(comms);
  check_kmeans(comms);
  // A shard without rows takes part in min and max through another rank's partial result.
  const jet::array one_row = jet::asarray(std::vector<float>{3, -1, 2}, {1, 3});
  const dist::sharded_array x = dist::sharded_array::split(one_row, comms);
  CHECK(x.shard(1).shape()[0] == 0);
  CHECK(dist::min(x).item<float>() == -1);
  CHECK(same(dist::max(x, 0), one_row.max(0).eval()));
}

TEST_CASE("distributed: mismatched calls of local ranks raise, naming the ranks",
          "[gpu][.distributed][.multigpu]") {
  const comms_t comms = dist::communicator::local({0, 1});
  std::vector<jet::array> xs;
  for (const auto& c : comms) {
    const jet::device_guard on(c.device());
    xs.push_back(jet::ones({4 + c.rank()}, jet::float32));
  }
  CHECK_THROWS_WITH(dist::group([&] {
                      for (int r = 0; r < 2; ++r) dist::all_reduce(comms[r], xs[r]);
                    }),
                    "collective 1 of the group: rank 0 calls all_reduce of float32 (4,) (sum), "
                    "rank 1 calls all_reduce of float32 (5,) (sum); every rank of a communicator "
                    "must make the same calls with the same shapes and dtypes");
  CHECK_THROWS_WITH(dist::all_reduce(comms[1], xs[0]),
                    "all_reduce: the array is on device 0, rank 1 runs on device 1");
  // After the refusals, matching calls still run.
  std::vector<jet::array> sums(2);
  dist::group([&] {
    for (int r = 0; r < 2; ++r)
      sums[r] = dist::all_reduce(comms[r], xs[0].to_device(r)(jet::slice(0, 4)));
  });
  CHECK(same(sums[1], jet::full({4}, 2.0f)));
}

// Starts `size` processes of tests/gpu/distributed_rank.cpp joined by a fresh unique id, with
// JET_DISTRIBUTED_CHECK=1; true when every one exits 0.
bool run_ranks(int size, const char* mode) {
  jet_test::temp_dir dir;
  const std::string id_file = dir.path() + "/id";
  const dist::unique_id id = dist::make_unique_id();
  std::FILE* f = std::fopen(id_file.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(std::fwrite(id.bytes.data(), 1, id.bytes.size(), f) == id.bytes.size());
  std::fclose(f);
  const jet_test::scoped_env check("JET_DISTRIBUTED_CHECK", "1");
  std::vector<pid_t> ranks;
  for (int r = 0; r < size; ++r) {
    const std::string size_arg = std::to_string(size), rank_arg = std::to_string(r);
    std::vector<char*> argv{const_cast<char*>(JET_DISTRIBUTED_RANK),
                            const_cast<char*>(id_file.c_str()),
                            const_cast<char*>(size_arg.c_str()),
                            const_cast<char*>(rank_arg.c_str()),
                            const_cast<char*>(mode),
                            nullptr};
    if (*mode == 0) argv[4] = nullptr;
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, JET_DISTRIBUTED_RANK, nullptr, nullptr, argv.data(), environ) == 0);
    ranks.push_back(pid);
  }
  bool ok = true;
  for (int r = 0; r < size; ++r) {
    int status = 0;
    REQUIRE(waitpid(ranks[r], &status, 0) == ranks[r]);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  return ok;
}

TEST_CASE("distributed: one rank per process, joined by a unique id", "[gpu][.distributed]") {
  // As many processes as there are GPUs, two at most: one on a machine of one GPU.
  const int size = std::min(jet::device::count(), 2);
  CHECK(run_ranks(size, ""));
  // Across processes, JET_DISTRIBUTED_CHECK=1 refuses mismatched calls on every rank.
  if (size >= 2) CHECK(run_ranks(size, "mismatch"));
}
