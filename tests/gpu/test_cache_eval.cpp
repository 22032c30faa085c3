// Evaluation goes through the kernel caches: memory, then disk, then NVRTC, which stores.
// Each section uses an expression no other test makes, so that its kernel is not already
// in this process's memory cache.
#include <cmath>
#include <filesystem>
#include <vector>

#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/cache/disk_cache.hpp"
#include "support/cache_support.hpp"

namespace {

std::size_t entry_files(const std::string& dir) {
  std::size_t count = 0;
  if (!std::filesystem::exists(dir)) return 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) ++count;
  return count;
}

// a*b - c/(a+2.5), evaluated and checked against the host.
void check_values(const jet::array& got, const std::vector<double>& a, const std::vector<double>& b,
                  const std::vector<double>& c) {
  const std::vector<double> v = got.to_vector<double>();
  REQUIRE(v.size() == a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double want = a[i] * b[i] - c[i] / (a[i] + 2.5);
    REQUIRE(std::abs(v[i] - want) <= 1e-12 * std::abs(want));
  }
}

}  // namespace

TEST_CASE("evaluation compiles once, stores, then loads from disk and memory", "[gpu][cache]") {
  jet_test::temp_dir dir;
  jet_test::scoped_env location("JET_CACHE_DIR", dir.path());
  jet_test::scoped_env on("JET_CACHE", std::nullopt);
  const std::vector<double> ha{0.5, -1.25, 3.0, 7.5, -0.125}, hb{2.0, 4.0, -1.0, 0.25, 9.0},
      hc{1.0, -3.0, 0.5, 2.0, -8.0};
  const jet::array a = jet::asarray(ha), b = jet::asarray(hb), c = jet::asarray(hc);

  SECTION("a miss compiles and stores one entry; the same expression then hits memory") {
    const jet::cache::statistics before = jet::cache::stats();
    check_values(a * b - c / (a + 2.5), ha, hb, hc);
    const jet::cache::statistics after = jet::cache::stats();
    CHECK(after.compiles == before.compiles + 1);
    CHECK(after.bytes_stored > before.bytes_stored);
    CHECK(entry_files(dir.path()) == 1);
    check_values(a * b - c / (a + 2.5), ha, hb, hc);
    CHECK(jet::cache::stats().memory_hits == after.memory_hits + 1);
    CHECK(jet::cache::stats().compiles == after.compiles);
  }
  SECTION("a kernel another process stored is loaded, not compiled") {
    const jet::expr e = jet::astype(a, jet::float32) * b - c / (a + 2.5);
    const jet::explanation plan = jet::explain(e);
    const jet::codegen::kernel_source source{plan.kernel_name, plan.source};
    const std::string arch = jet::device::arch();
    const jet::detail::compile_extras& extras = jet::codegen::jet_kernel_extras();
    REQUIRE(jet::detail::store_entry(dir.path(), jet::detail::identify(source, arch, extras),
                                     source, jet::detail::compile(source, arch, extras),
                                     std::uint64_t{1} << 30));
    const jet::cache::statistics before = jet::cache::stats();
    check_values(e, ha, hb, hc);
    const jet::cache::statistics after = jet::cache::stats();
    CHECK(after.disk_hits == before.disk_hits + 1);
    CHECK(after.compiles == before.compiles);
  }
  SECTION("with JET_CACHE=off nothing is written") {
    jet_test::scoped_env off("JET_CACHE", "off");
    const jet::cache::statistics before = jet::cache::stats();
    check_values(a * jet::astype(b, jet::float32) - c / (a + 2.5), ha, hb, hc);
    CHECK(jet::cache::stats().compiles == before.compiles + 1);
    CHECK(jet::cache::stats().disk_hits == before.disk_hits);
    CHECK(entry_files(dir.path()) == 0);
  }
}

TEST_CASE("expressions that differ only in their scalars share one compiled kernel",
          "[gpu][cache]") {
  jet_test::temp_dir dir;
  jet_test::scoped_env location("JET_CACHE_DIR", dir.path());
  const std::vector<double> host{0.5, -1.25, 3.0, 7.5, -0.125};
  const jet::array a = jet::asarray(host);
  // An expression no other test makes, so that its first evaluation compiles.
  const auto scaled = [&](double k) { return jet::array(jet::cosh(a) * k - a * 0.75); };
  const jet::cache::statistics before = jet::cache::stats();
  const std::vector<double> two = scaled(2.0).to_vector<double>();
  const jet::cache::statistics middle = jet::cache::stats();
  const std::vector<double> three = scaled(3.0).to_vector<double>();
  const jet::cache::statistics after = jet::cache::stats();
  CHECK(middle.compiles == before.compiles + 1);
  CHECK(after.compiles == middle.compiles);
  CHECK(after.memory_hits == middle.memory_hits + 1);
  for (std::size_t i = 0; i < host.size(); ++i) {
    const double want2 = std::cosh(host[i]) * 2.0 - host[i] * 0.75,
                 want3 = std::cosh(host[i]) * 3.0 - host[i] * 0.75;
    CHECK(std::abs(two[i] - want2) <= 1e-12 * std::abs(want2));
    CHECK(std::abs(three[i] - want3) <= 1e-12 * std::abs(want3));
  }
}
