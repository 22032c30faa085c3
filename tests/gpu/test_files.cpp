// jet::save and jet::load on the device: every file NumPy wrote (tests/host/data/npy, from
// generate_npy.py) loads with its values, dtype, shape and order; what Jet saves equals NumPy's
// file byte for byte; every dtype, views, expressions and bfloat16 round-trip; broken files
// raise io_error naming the file.
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/io.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

const std::string npy_dir = std::string(JET_TEST_DATA) + "/npy/";

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

// A fresh folder for this test's files, removed when the test ends.
struct scratch_dir {
  std::filesystem::path path;
  scratch_dir() {
    const char* tmp = std::getenv("TMPDIR");
    path = std::filesystem::path(tmp ? tmp : "/tmp") /
           ("jet-files-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path);
  }
  ~scratch_dir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

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
    CHECK(file_bytes(dir / f[0]) == file_bytes(npy_dir + f[0]));
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
  CHECK(file_bytes(dir / "fortran.npy").find("'fortran_order': True") != std::string::npos);
  CHECK(back.is_f_contiguous());
  CHECK(jet::array_equal(back, fortran));
  jet::save(dir / "expr.npy", jet::sin(m) * 2 + 1);
  CHECK(jet::allclose(jet::load(dir / "expr.npy"), jet::sin(m) * 2 + 1));
  const jet::array bf = jet::array(jet::linspace(-3.0, 3.0, 9)).astype(jet::bfloat16);
  jet::save(dir / "bf.npy", bf);
  CHECK(file_bytes(dir / "bf.npy").find("'descr': '<V2'") != std::string::npos);
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
  const std::string whole = file_bytes(npy_dir + "float64.npy");
  std::ofstream(dir / "short.npy", std::ios::binary) << whole.substr(0, whole.size() - 3);
  refused(dir / "short.npy", "truncated");
  std::ofstream(dir / "text.npy", std::ios::binary) << "hello, this is not an array file at all";
  refused(dir / "text.npy", "not a .npy file");
  CHECK_THROWS_AS(jet::save(dir / "no/such/folder/x.npy", jet::zeros({2})), jet::io_error);
}
