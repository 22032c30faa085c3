// jet::save and jet::load on the device: every file NumPy wrote (tests/host/data/npy, from
// generate_npy.py) loads with its values, dtype, shape and order; what Jet saves equals NumPy's
// file byte for byte; every dtype, views, expressions and bfloat16 round-trip; broken files
// raise io_error naming the file; .npz archives, text tables and host transfers of odd sizes.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/io.hpp"
#include "jet/jet.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

namespace {

const std::string npy_dir = std::string(JET_TEST_DATA) + "/npy/";

using jet_test::read_file;
using scratch_dir = jet_test::temp_dir;

std::vector<std::string> fields(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

// The table's values compared with the loaded array's, exactly, in the widest type of their kind.
void check_values(const jet::array& a, const std::vector<std::string>& expected) {
  REQUIRE(a.size() == static_cast<std::int64_t>(expected.size()));
  const jet::dtype_kind k = jet::kind(a.dtype());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i << " expected " << expected[i]);
    if (k == jet::dtype_kind::unsigned_int) {
      CHECK(a.ravel().astype(jet::uint64).to_vector<std::uint64_t>()[i] ==
            std::stoull(expected[i]));
    } else if (k == jet::dtype_kind::signed_int) {
      CHECK(a.ravel().astype(jet::int64).to_vector<std::int64_t>()[i] == std::stoll(expected[i]));
    } else {
      const auto slash = expected[i].find('/');
      const std::complex<double> want(
          std::stod(expected[i].substr(0, slash)),
          slash == std::string::npos ? 0.0 : std::stod(expected[i].substr(slash + 1)));
      CHECK(a.ravel().astype(jet::complex128).to_vector<std::complex<double>>()[i] == want);
    }
  }
}

}  // namespace

TEST_CASE("files NumPy saved load onto the device with their values and order", "[gpu][io]") {
  const auto rows = jet_test::read_table(npy_dir + "files.tsv");
  REQUIRE(rows.size() >= 20);
  for (const auto& f : rows) {
    INFO(f[0]);
    const jet::array a = jet::load(npy_dir + f[0]);
    CHECK(jet::name(a.dtype()) == f[1]);
    jet::shape want;
    for (const std::string& n : fields(f[2])) want.push_back(std::stoll(n));
    CHECK(a.shape() == want);
    if (f[3] == "1") CHECK((a.is_f_contiguous() && !a.is_c_contiguous()));
    check_values(a, f.size() > 5 ? fields(f[5]) : std::vector<std::string>{});
  }
}

TEST_CASE("jet::save writes the bytes NumPy's save wrote", "[gpu][io]") {
  const scratch_dir dir;
  for (const auto& f : jet_test::read_table(npy_dir + "files.tsv")) {
    if (f[4] == "1" || f[0].find("_v") != std::string::npos) continue;  // Jet writes 1.0, native
    INFO(f[0]);
    jet::save(dir / f[0], jet::load(npy_dir + f[0]));
    CHECK(read_file(dir / f[0]) == read_file(npy_dir + f[0]));
  }
}

TEST_CASE("every dtype, views, expressions and bfloat16 round-trip through a file", "[gpu][io]") {
  const scratch_dir dir;
  const jet::array base = jet::random::uniform(-50.0, 50.0, {5, 7}, jet::float64);
  for (int d = 0; d < jet::dtype_count; ++d) {
    const auto t = static_cast<jet::dtype>(d);
    INFO(jet::name(t));
    const jet::array x = base.astype(t);
    jet::save(dir / "x.npy", x);
    const jet::array y = jet::load(dir / "x.npy");
    CHECK(y.dtype() == t);
    CHECK(y.shape() == x.shape());
    CHECK(jet::array_equal(x, y));
  }
  const jet::array m = jet::arange(60.0f).reshape({3, 4, 5});
  const jet::array view = m(jet::slice(), jet::slice(1, 4), jet::slice(0, 5, 2));
  jet::save(dir / "view.npy", view);
  CHECK(jet::array_equal(jet::load(dir / "view.npy"), view));
  const jet::array fortran = m.T();
  jet::save(dir / "fortran.npy", fortran);
  const jet::array back = jet::load(dir / "fortran.npy");
  CHECK(read_file(dir / "fortran.npy").find("'fortran_order': True") != std::string::npos);
  CHECK(back.is_f_contiguous());
  CHECK(jet::array_equal(back, fortran));
  jet::save(dir / "expr.npy", jet::sin(m) * 2 + 1);
  CHECK(jet::allclose(jet::load(dir / "expr.npy"), jet::sin(m) * 2 + 1));
  const jet::array bf = jet::array(jet::linspace(-3.0, 3.0, 9)).astype(jet::bfloat16);
  jet::save(dir / "bf.npy", bf);
  CHECK(read_file(dir / "bf.npy").find("'descr': '<V2'") != std::string::npos);
  CHECK(jet::array_equal(jet::load(dir / "bf.npy"), bf));
  jet::save(dir / "empty.npy", jet::zeros({0, 3}, jet::int16));
  CHECK(jet::load(dir / "empty.npy").shape() == jet::shape{0, 3});
}

TEST_CASE("missing, truncated and corrupt files raise io_error naming the file", "[gpu][io]") {
  const scratch_dir dir;
  const auto refused = [](const std::string& path, const std::string& why) {
    INFO(why);
    try {
      (void)jet::load(path);
      FAIL("loaded " << path);
    } catch (const jet::io_error& e) {
      CHECK(std::string(e.what()).find(path) != std::string::npos);
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused(dir / "absent.npy", "cannot open");
  const std::string whole = read_file(npy_dir + "float64.npy");
  std::ofstream(dir / "short.npy", std::ios::binary) << whole.substr(0, whole.size() - 3);
  refused(dir / "short.npy", "truncated");
  std::ofstream(dir / "text.npy", std::ios::binary) << "hello, this is not an array file at all";
  refused(dir / "text.npy", "not a .npy file");
  CHECK_THROWS_AS(jet::save(dir / "no/such/folder/x.npy", jet::zeros({2})), jet::io_error);
}

TEST_CASE("npz archives NumPy wrote load by name, and savez archives read back", "[gpu][io]") {
  const jet::npz_file f = jet::load_npz(npy_dir + "arrays.npz");
  CHECK(f.files() == std::vector<std::string>{"x", "flag", "arr_0"});
  CHECK(f.contains("flag"));
  CHECK_FALSE(f.contains("y"));
  CHECK(f["x"].to_vector<float>() == std::vector<float>{1.5f, -2.0f});
  CHECK(f["flag"].to_vector<bool>() == std::vector<bool>{true, false});
  CHECK(f["arr_0"].shape() == jet::shape{2, 3});
  CHECK(f["arr_0"].to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5});
  CHECK_THROWS_AS(f["y"], jet::index_error);
  const jet::npz_file c = jet::load_npz(npy_dir + "compressed.npz");
  CHECK(jet::allclose(c["a"], jet::linspace(0.0, 1.0, 1000), 0, 0));
  CHECK(c["b"].dtype() == jet::int16);

  const scratch_dir dir;
  const jet::array x = jet::arange(12.0f).reshape({3, 4});
  jet::savez(dir / "plain.npz", {x, x.T(), x * 2});
  const jet::npz_file plain = jet::load_npz(dir / "plain.npz");
  CHECK(plain.files() == std::vector<std::string>{"arr_0", "arr_1", "arr_2"});
  CHECK(jet::array_equal(plain["arr_1"], x.T()));
  CHECK(jet::array_equal(plain["arr_2"], x * 2));
  const jet::array big = jet::zeros({1 << 20}, jet::float64);
  jet::savez_compressed(dir / "small.npz", {{"zeros", big}, {"x", x}});
  CHECK(std::filesystem::file_size(dir / std::string("small.npz")) < 100000);
  const jet::npz_file small = jet::load_npz(dir / "small.npz");
  CHECK(small.files() == std::vector<std::string>{"zeros", "x"});
  CHECK(jet::array_equal(small["zeros"], big));
  CHECK_THROWS_AS(jet::savez(dir / "twice.npz", {{"a", x}, {"a", x}}), jet::value_error);
}

TEST_CASE("broken archives and archives passed to load raise io_error", "[gpu][io]") {
  CHECK_THROWS_AS(jet::load(npy_dir + "arrays.npz"), jet::io_error);
  CHECK_THROWS_WITH(jet::load(npy_dir + "arrays.npz"), jet_test::contains("jet::load_npz"));
  CHECK_THROWS_AS(jet::load_npz(npy_dir + "broken.npz")["a"], jet::io_error);
  CHECK_THROWS_WITH(jet::load_npz(npy_dir + "broken.npz")["a"], jet_test::contains("broken.npz"));
  CHECK_THROWS_WITH(jet::load_npz(npy_dir + "float32.npy"), jet_test::contains("not a zip"));
}

TEST_CASE("savetxt writes NumPy's text and loadtxt reads tables as NumPy does", "[gpu][io]") {
  const scratch_dir dir;
  const auto same = [&](const std::string& name, const jet::expr& a,
                        const jet::savetxt_options& o) {
    INFO(name);
    jet::savetxt(dir / name, a, o);
    CHECK(read_file(dir / name) == read_file(npy_dir + name));
  };
  const std::vector<double> floats{1.5, -2.25, 1e-300, 3.141592653589793, 100.0, -7.0};
  same("floats.txt", jet::asarray(floats, {2, 3}), {});
  const std::vector<std::complex<double>> complex{{1, 2}, {3, -4}, {-0.0, -0.5}, {2, 0}};
  jet::savetxt_options c;
  c.fmt = "%.3f";
  c.header = "re im\nsecond line";
  c.footer = "end";
  same("complex.txt", jet::asarray(complex, {2, 2}), c);
  jet::savetxt_options ints;
  ints.fmt = "%d";
  ints.delimiter = ",";
  same("ints.txt", jet::asarray({1, -2, 300}), ints);
  jet::savetxt_options row;
  row.fmt = "%d|%.2f";
  same("row_format.txt", jet::asarray({1.0, 2.5, 3.0, 4.25}, {2, 2}), row);
  CHECK_THROWS_AS(jet::savetxt(dir / "x.txt", jet::zeros({2, 2, 2})), jet::value_error);
  row.fmt = "%d %d %d";
  CHECK_THROWS_AS(jet::savetxt(dir / "x.txt", jet::zeros({2, 2}), row), jet::value_error);

  const jet::array t = jet::loadtxt(npy_dir + "table.txt");
  CHECK(t.shape() == jet::shape{3, 3});
  const std::vector<double> v = t.to_vector<double>();
  CHECK(std::vector<double>(v.begin(), v.end() - 1) ==
        std::vector<double>{1, 2.5, -3, 4, 50, 6, 7, 8});
  CHECK(std::isnan(v.back()));
  jet::loadtxt_options o;
  o.usecols = {0, -2};
  o.max_rows = 2;
  CHECK(jet::loadtxt(npy_dir + "table.txt", jet::float32, o).shape() == jet::shape{2, 2});
  o = {};
  o.usecols = {0};
  CHECK(jet::loadtxt(npy_dir + "table.txt", jet::int32, o).to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{1, 4, 7});
  jet::loadtxt_options commas;
  commas.delimiter = ",";
  CHECK(jet::loadtxt(npy_dir + "ints.txt", jet::int64, commas).shape() == jet::shape{3});
  const jet::array z = jet::loadtxt(npy_dir + "complex.txt", jet::complex128);
  CHECK(z.to_vector<std::complex<double>>() == complex);
  commas.ndmin = 2;
  CHECK(jet::loadtxt(npy_dir + "ints.txt", jet::int64, commas).shape() == jet::shape{3, 1});
  std::ofstream(dir / "one.txt") << "5\n";
  CHECK(jet::loadtxt(dir / "one.txt").ndim() == 0);
  std::ofstream(dir / "bad.txt") << "1 2 3\n4 x 5\n";
  CHECK_THROWS_WITH(jet::loadtxt(dir / "bad.txt"),
                    jet_test::contains("could not convert string 'x' to float64"));
  std::ofstream(dir / "ragged.txt") << "1 2 3\n4 5\n";
  CHECK_THROWS_WITH(jet::loadtxt(dir / "ragged.txt"),
                    jet_test::contains("number of columns changed from 3 to 2"));
  CHECK_THROWS_AS(jet::loadtxt(dir / "absent.txt"), jet::io_error);
}

TEST_CASE("host transfers of odd sizes, staged, pinned and plain, keep every byte", "[gpu][io]") {
  // Around the size where pageable copies start going through the pinned buffers (16 MiB),
  // and over several lanes of 8 MiB chunks with a short last one.
  for (const std::size_t n : {std::size_t{1}, std::size_t{(16 << 20) - 1}, std::size_t{16 << 20},
                              std::size_t{(40 << 20) + 5}}) {
    INFO(n << " bytes");
    std::vector<std::uint8_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
    const jet::array d = jet::asarray(host);
    CHECK(jet::sum(d.astype(jet::uint64)).item<std::uint64_t>() ==
          std::accumulate(host.begin(), host.end(), std::uint64_t{0}));
    CHECK(d.to_vector<std::uint8_t>() == host);
    std::vector<std::uint8_t, jet::pinned_allocator<std::uint8_t>> pinned(host.begin(), host.end());
    const jet::array p = jet::asarray(pinned);
    std::fill(pinned.begin(), pinned.end(), 0);
    p.to_host(std::span<std::uint8_t>(pinned.data(), pinned.size()));
    CHECK(std::equal(pinned.begin(), pinned.end(), host.begin()));
  }
  // A strided view and a dtype conversion on the way out of a large array.
  const jet::array x = jet::arange(std::int64_t{12} << 20).astype(jet::float32);
  const std::vector<double> every_third =
      x(jet::slice(jet::none, jet::none, 3)).to_vector<double>();
  CHECK(every_third.size() == (std::size_t{4} << 20));
  CHECK(every_third.back() == static_cast<double>((std::int64_t{12} << 20) - 3));
}
