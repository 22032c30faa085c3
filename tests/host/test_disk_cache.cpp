// The disk cache: keys, round trips, damaged and unsafe entries, read-only folders,
// eviction, JET_CACHE=off. Each test works in its own folder.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "jet/cache.hpp"
#include "src/cache/directory.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/cache/inspect.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

namespace {

using jet::detail::entry_path;
using jet::detail::identify;
using jet::detail::kernel_identity;
using jet_test::image_for;
using jet_test::small_kernel;
using jet_test::temp_dir;

constexpr std::uint64_t unbounded = std::uint64_t{1} << 40;

// Stores small_kernel(n) with the shared image; returns its identity.
kernel_identity put(const std::string& dir, int n, std::uint64_t max_bytes = unbounded) {
  const auto source = small_kernel(n);
  const kernel_identity id = identify(source, "sm_90");
  REQUIRE(jet::detail::store_entry(dir, id, source, image_for(source), max_bytes));
  return id;
}

bool loads(const std::string& dir, const kernel_identity& id) {
  return jet::detail::load_entry(dir, id).has_value();
}

std::uint64_t bad_entries() { return jet::cache::stats().bad_entries; }

// Whether loading `id` misses and counts one bad entry.
bool counted_miss(const std::string& dir, const kernel_identity& id) {
  const std::uint64_t before = bad_entries();
  const bool hit = loads(dir, id);
  return !hit && bad_entries() == before + 1;
}

// Runs `body` in a child process that permission bits bind: as user nobody when the tests run
// as root, which ignores them. Returns the child's exit status.
int in_bound_child(const std::function<bool()>& body) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const bool bound = geteuid() != 0 || (setgid(65534) == 0 && setuid(65534) == 0);
    _exit(bound && body() ? 0 : 1);  // no Catch2 or static teardown in the child
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("the key covers source, name, arch and options", "[host][cache]") {
  const kernel_identity a = identify(small_kernel(1), "sm_90");
  CHECK(a.key.size() == 64);
  CHECK(jet::detail::is_entry_name(a.key));
  CHECK(a.key == identify(small_kernel(1), "sm_90").key);
  CHECK(a.target == "sm_90");
  CHECK(a.options == jet::detail::compile_options(small_kernel(1), "sm_90"));
  // Only a source that includes a header gets the toolkit's include folders.
  auto has_include_dir = [](const std::vector<std::string>& options) {
    return std::any_of(options.begin(), options.end(),
                       [](const std::string& o) { return o.rfind("-I", 0) == 0; });
  };
  CHECK(!has_include_dir(a.options));
  const jet::codegen::kernel_source with_header{
      "k", "#include <curand_kernel.h>\n" + small_kernel(1).source};
  CHECK(has_include_dir(identify(with_header, "sm_90").options));
  CHECK(a.key != identify(small_kernel(2), "sm_90").key);
  CHECK(a.key != identify(small_kernel(1), "sm_80").key);
  CHECK(a.key != identify({"other", small_kernel(1).source}, "sm_90").key);
}

TEST_CASE("a stored kernel loads back byte for byte, with counters", "[host][cache]") {
  const temp_dir dir;
  const std::string cache = dir / "kernels";
  const auto source = small_kernel(3);
  const jet::detail::compiled_kernel compiled = jet::detail::compile(source, "sm_90");
  const kernel_identity id = identify(source, "sm_90");
  CHECK_FALSE(jet::detail::load_entry(cache, id));

  const jet::cache::statistics before = jet::cache::stats();
  REQUIRE(jet::detail::store_entry(cache, id, source, compiled, unbounded));
  const auto loaded = jet::detail::load_entry(cache, id);
  REQUIRE(loaded);
  CHECK(loaded->name == "k3");
  CHECK(loaded->arch == compiled.arch);
  CHECK(loaded->image == compiled.image);
  const jet::cache::statistics after = jet::cache::stats();
  CHECK(after.disk_hits == before.disk_hits + 1);
  const auto file_size = std::filesystem::file_size(entry_path(cache, id.key));
  CHECK(after.bytes_stored == before.bytes_stored + file_size);
  CHECK(after.bytes_loaded == before.bytes_loaded + file_size);
  CHECK(after.bad_entries == before.bad_entries);

  // Created 0700, two levels deep, entry 0600.
  struct stat st {};
  REQUIRE(stat(cache.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(stat(entry_path(cache, id.key).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(entry_path(cache, id.key) == cache + "/" + id.key.substr(0, 2) + "/" + id.key);
}

TEST_CASE("corrupted, truncated, foreign, wrong-version and misplaced entries are counted misses",
          "[host][cache]") {
  const temp_dir dir;
  const kernel_identity id = put(dir.path(), 1);
  const std::string path = entry_path(dir.path(), id.key);
  const std::string good = jet_test::read_file(path);

  auto refused = [&](const std::string& bytes) {
    jet_test::write_file(path, bytes);
    return counted_miss(dir.path(), id);
  };
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 1;
  CHECK(refused(flipped));
  CHECK(refused(good.substr(0, good.size() / 2)));
  CHECK(refused(""));
  CHECK(refused("#!/bin/sh\necho a foreign file\n"));
  std::string newer = good;
  newer[8] = static_cast<char>(jet::detail::cache_format_version + 1);
  CHECK(refused(newer));
  const kernel_identity other = put(dir.path(), 2);
  CHECK(refused(jet_test::read_file(entry_path(dir.path(), other.key))));

  // Storing again replaces the bad file.
  put(dir.path(), 1);
  CHECK(loads(dir.path(), id));
}

TEST_CASE("an entry file of 64 GiB is a counted miss, refused before its body is read",
          "[host][cache]") {
  const temp_dir dir;
  const kernel_identity id = put(dir.path(), 1);
  const std::string path = entry_path(dir.path(), id.key);
  const std::string good = jet_test::read_file(path);
  constexpr std::uint64_t huge = std::uint64_t{64} << 30;  // sparse: costs no disk
  auto refused_as = [&](const std::string& bytes) {
    jet_test::write_file(path, bytes);
    std::filesystem::resize_file(path, huge);
    CHECK(counted_miss(dir.path(), id));  // once threw std::bad_alloc
    jet::detail::cache_entry entry;
    return jet::detail::read_entry(path, id.key, entry, false).problem;
  };
  CHECK(refused_as(good) == std::to_string(huge - good.size()) + " bytes too many");

  // A header whose image size makes the sizes agree with the file's: the bound refuses it.
  std::string claims = good;
  const std::size_t image_field = jet::detail::header_size(std::span(claims.data(), 16)) - 8;
  const std::uint64_t image = huge - good.size() + jet_test::sample_image().image.size();
  for (int i = 0; i < 8; ++i)
    claims[image_field + i] = static_cast<char>((image >> (8 * i)) & 0xff);
  CHECK(refused_as(claims) == std::to_string(huge) + " bytes, more than an entry may hold (" +
                                  std::to_string(jet::detail::max_entry_bytes) + ")");
  put(dir.path(), 1);
  CHECK(loads(dir.path(), id));
}

TEST_CASE("foreign files in the tree are ignored and never removed", "[host][cache]") {
  const temp_dir dir;
  const kernel_identity id = put(dir.path(), 1);
  jet_test::write_file(dir / "README", "my notes");
  jet_test::write_file(dir / (id.key.substr(0, 2) + "/notes.txt"), "more notes");
  std::filesystem::create_directory(dir / "zz");
  jet_test::write_file(dir / ("zz/" + id.key), "not in its folder");

  CHECK(jet::detail::scan_entries(dir.path()).size() == 1);
  CHECK(jet::detail::list_entries(dir.path()).entries.size() == 1);
  const jet::detail::verify_report report =
      jet::detail::verify(dir.path(), true, [](std::size_t, std::size_t) {});
  CHECK(report.checked == 1);
  CHECK(report.bad.empty());
  const jet::detail::removal cleared = jet::detail::clear(dir.path());
  CHECK(cleared.entries == 1);
  CHECK(std::filesystem::exists(dir / "README"));
  CHECK(std::filesystem::exists(dir / (id.key.substr(0, 2) + "/notes.txt")));
  CHECK(std::filesystem::exists(dir / ("zz/" + id.key)));
  CHECK_FALSE(std::filesystem::exists(entry_path(dir.path(), id.key)));
}

TEST_CASE("entries and folders writable by others, or owned by them, are never loaded",
          "[host][cache]") {
  const temp_dir dir;
  const kernel_identity id = put(dir.path(), 1);
  const std::string path = entry_path(dir.path(), id.key);
  const std::string folder = dir / id.key.substr(0, 2);
  REQUIRE(loads(dir.path(), id));

  auto refused_while = [&](const std::string& target, mode_t mode) {
    struct stat st {};
    REQUIRE(stat(target.c_str(), &st) == 0);
    REQUIRE(chmod(target.c_str(), mode) == 0);
    const bool refused = counted_miss(dir.path(), id);
    REQUIRE(chmod(target.c_str(), st.st_mode & 07777) == 0);
    return refused;
  };
  CHECK(refused_while(dir.path(), 0777));
  CHECK(refused_while(dir.path(), 0720));
  CHECK(refused_while(folder, 0702));
  CHECK(refused_while(path, 0666));
  CHECK(refused_while(path, 0620));
  CHECK(loads(dir.path(), id));

  // A symbolic link in place of the entry, even to a good entry, is refused.
  const kernel_identity other = put(dir.path(), 2);
  std::filesystem::rename(path, dir / "elsewhere");
  std::filesystem::create_symlink(entry_path(dir.path(), other.key), path);
  const std::uint64_t before = bad_entries();
  CHECK_FALSE(loads(dir.path(), id));
  CHECK(bad_entries() == before + 1);
  std::filesystem::remove(path);

  if (geteuid() == 0) {
    // Only root can give a file away; other users' files are refused like writable ones.
    const kernel_identity third = put(dir.path(), 3);
    REQUIRE(chown(entry_path(dir.path(), third.key).c_str(), 12345, 12345) == 0);
    CHECK_FALSE(loads(dir.path(), third));
  }
}

TEST_CASE("a folder that cannot be written warns once and the cache keeps working",
          "[host][cache]") {
  const temp_dir dir;
  // A regular file where a parent folder should be: no user, root included, can create the
  // cache there. (Permission bits do not stop root, which runs the tests in CI.)
  jet_test::write_file(dir / "file", "");
  const std::string blocked = dir / "file/kernels";
  const auto source = small_kernel(1);
  const kernel_identity id = identify(source, "sm_90");
  jet_test::captured_stderr err;
  CHECK_FALSE(jet::detail::store_entry(blocked, id, source, image_for(source), unbounded));
  CHECK_FALSE(jet::detail::store_entry(blocked, identify(small_kernel(2), "sm_90"), small_kernel(2),
                                       image_for(small_kernel(2)), unbounded));
  CHECK_FALSE(jet::detail::load_entry(blocked, id));
  const std::string warnings = err.finish();
  CHECK(jet_test::occurrences(warnings, "cannot write the kernel cache at " + blocked) == 1);
  CHECK(warnings.find("Not a directory") != std::string::npos);

  if (geteuid() != 0) {
    // A read-only folder (0500) holding an entry: loads go on, stores become no-ops.
    const kernel_identity stored = put(dir / "ro", 1);
    REQUIRE(chmod((dir / "ro").c_str(), 0500) == 0);
    REQUIRE(chmod((dir / ("ro/" + stored.key.substr(0, 2))).c_str(), 0500) == 0);
    jet_test::captured_stderr err2;
    CHECK_FALSE(jet::detail::store_entry(dir / "ro", identify(small_kernel(2), "sm_90"),
                                         small_kernel(2), image_for(small_kernel(2)), unbounded));
    CHECK(loads(dir / "ro", stored));
    CHECK(jet_test::occurrences(err2.finish(), "cannot write the kernel cache") == 1);
  } else {
    WARN(
        "running as root: chmod 0500 does not stop root's writes, so only the blocked-path case "
        "ran");
  }
}

TEST_CASE("a stray file where a subfolder belongs spoils that subfolder only", "[host][cache]") {
  const temp_dir dir;
  const auto source = small_kernel(1);
  const kernel_identity id = identify(source, "sm_90");
  jet_test::write_file(dir / id.key.substr(0, 2), "x");
  jet_test::captured_stderr err;
  CHECK_FALSE(jet::detail::store_entry(dir.path(), id, source, image_for(source), unbounded));
  int other = 2;  // a kernel whose key lands in another subfolder
  while (identify(small_kernel(other), "sm_90").key.substr(0, 2) == id.key.substr(0, 2)) ++other;
  const kernel_identity stored = put(dir.path(), other);
  CHECK(loads(dir.path(), stored));
  CHECK_FALSE(loads(dir.path(), id));
  const std::string warnings = err.finish();
  CHECK(warnings.find(dir / id.key.substr(0, 2) + " is not a folder") != std::string::npos);
  CHECK(warnings.find("cannot write the kernel cache") == std::string::npos);

  const auto report = jet::detail::verify(dir.path(), true, [](std::size_t, std::size_t) {});
  REQUIRE(report.bad.size() == 1);
  CHECK(report.bad[0].file.path == dir / id.key.substr(0, 2));
  CHECK(report.removed == 1);
  CHECK(put(dir.path(), 1).key == id.key);
}

TEST_CASE("eviction removes the least recently used entries, loads count as use", "[host][cache]") {
  const temp_dir dir;
  const kernel_identity a = put(dir.path(), 1), b = put(dir.path(), 2), c = put(dir.path(), 3);
  const std::uint64_t entry = std::filesystem::file_size(entry_path(dir.path(), a.key));
  REQUIRE(std::filesystem::file_size(entry_path(dir.path(), b.key)) == entry);
  jet_test::set_last_use(entry_path(dir.path(), a.key), 300);
  jet_test::set_last_use(entry_path(dir.path(), b.key), 200);
  jet_test::set_last_use(entry_path(dir.path(), c.key), 100);
  REQUIRE(loads(dir.path(), a));  // a is now the most recently used

  const std::uint64_t evictions = jet::cache::stats().evictions;
  const kernel_identity d = put(dir.path(), 4, 3 * entry);
  CHECK(jet::cache::stats().evictions == evictions + 1);
  CHECK_FALSE(std::filesystem::exists(entry_path(dir.path(), b.key)));
  CHECK(loads(dir.path(), a));
  CHECK(loads(dir.path(), c));
  CHECK(loads(dir.path(), d));

  jet_test::set_last_use(entry_path(dir.path(), a.key), 50);
  jet_test::set_last_use(entry_path(dir.path(), c.key), 60);
  jet_test::set_last_use(entry_path(dir.path(), d.key), 40);
  put(dir.path(), 5, 2 * entry);
  CHECK(jet::cache::stats().evictions == evictions + 3);
  CHECK_FALSE(std::filesystem::exists(entry_path(dir.path(), c.key)));
  CHECK_FALSE(std::filesystem::exists(entry_path(dir.path(), a.key)));
  CHECK(std::filesystem::exists(entry_path(dir.path(), d.key)));
}

TEST_CASE("prune by age and size, and clear", "[host][cache]") {
  const temp_dir dir;
  const kernel_identity a = put(dir.path(), 1), b = put(dir.path(), 2), c = put(dir.path(), 3);
  const std::uint64_t entry = std::filesystem::file_size(entry_path(dir.path(), a.key));
  jet_test::set_last_use(entry_path(dir.path(), a.key), 3 * 86400);
  jet_test::set_last_use(entry_path(dir.path(), b.key), 3600);
  jet_test::write_file(dir / (a.key.substr(0, 2) + "/.tmp-left-by-a-crash"), "partial");
  jet_test::set_last_use(dir / (a.key.substr(0, 2) + "/.tmp-left-by-a-crash"), 7200);

  jet::detail::removal r = jet::detail::prune(dir.path(), std::nullopt, std::chrono::hours(24));
  CHECK(r.entries == 1);
  CHECK(r.kept == 2);
  CHECK_FALSE(std::filesystem::exists(entry_path(dir.path(), a.key)));
  CHECK_FALSE(std::filesystem::exists(dir / (a.key.substr(0, 2) + "/.tmp-left-by-a-crash")));

  r = jet::detail::prune(dir.path(), entry, std::nullopt);
  CHECK(r.entries == 1);
  CHECK(r.kept_bytes == entry);
  CHECK(std::filesystem::exists(entry_path(dir.path(), c.key)));

  r = jet::detail::clear(dir.path());
  CHECK(r.entries == 1);
  CHECK(r.bytes == entry);
  CHECK(jet::detail::scan_entries(dir.path()).empty());
  CHECK_FALSE(std::filesystem::exists(dir / c.key.substr(0, 2)));
}

TEST_CASE("prune counts only what it removed: entries it cannot remove stay kept",
          "[host][cache]") {
  const temp_dir dir;
  const kernel_identity a = put(dir.path(), 1), b = put(dir.path(), 2);
  const std::uint64_t total = std::filesystem::file_size(entry_path(dir.path(), a.key)) +
                              std::filesystem::file_size(entry_path(dir.path(), b.key));
  // Subfolders no one may write, as on a read-only mount.
  REQUIRE(chmod(dir.path().c_str(), 0755) == 0);
  for (const kernel_identity& id : {a, b})
    REQUIRE(chmod((dir / id.key.substr(0, 2)).c_str(), 0555) == 0);
  // Eviction sets its size accounting to kept_bytes; it once believed everything was gone.
  CHECK(in_bound_child([&] {
          const jet::detail::removal r = jet::detail::prune(dir.path(), 0, std::nullopt);
          return r.entries == 0 && r.bytes == 0 && r.kept == 2 && r.kept_bytes == total &&
                 r.failures.size() == 2 &&
                 r.failures[0].problem == "cannot be removed: Permission denied";
        }) == 0);
  CHECK(std::filesystem::exists(entry_path(dir.path(), a.key)));
  CHECK(std::filesystem::exists(entry_path(dir.path(), b.key)));
}

TEST_CASE(
    "compile_or_load compiles once, then loads from disk, and JET_CACHE=off keeps the disk out",
    "[host][cache]") {
  const temp_dir dir;
  const jet_test::scoped_env cache_dir("JET_CACHE_DIR", dir / "kernels");
  const jet_test::scoped_env record("JET_CACHE_RECORD", std::nullopt);
  const auto source = small_kernel(11);
  {
    const jet_test::scoped_env on("JET_CACHE", std::nullopt);
    const jet::cache::statistics before = jet::cache::stats();
    const jet::detail::obtained_kernel first = jet::detail::compile_or_load(source, "sm_90");
    CHECK(first.origin == jet::detail::kernel_origin::compiler);
    const jet::detail::obtained_kernel second = jet::detail::compile_or_load(source, "sm_90");
    CHECK(second.origin == jet::detail::kernel_origin::disk);
    CHECK(second.compiled.image == first.compiled.image);
    CHECK(second.compiled.name == "k11");
    const jet::cache::statistics after = jet::cache::stats();
    CHECK(after.compiles == before.compiles + 1);
    CHECK(after.disk_hits == before.disk_hits + 1);
    CHECK(after.compile_ms > before.compile_ms);
  }
  {
    const jet_test::scoped_env off("JET_CACHE", "off");
    const jet_test::scoped_env elsewhere("JET_CACHE_DIR", dir / "unused");
    CHECK(jet::detail::compile_or_load(source, "sm_90").origin ==
          jet::detail::kernel_origin::compiler);
    CHECK_FALSE(std::filesystem::exists(dir / "unused"));
    CHECK(jet::cache::directory() == dir / "unused");
  }
}

TEST_CASE("cache settings come from the environment", "[host][cache]") {
  CHECK(jet::detail::parse_byte_size("1048576") == 1048576u);
  CHECK(jet::detail::parse_byte_size("512K") == 512u << 10);
  CHECK(jet::detail::parse_byte_size("64m") == 64u << 20);
  CHECK(jet::detail::parse_byte_size("2GiB") == std::uint64_t{2} << 30);
  CHECK(jet::detail::parse_byte_size("1GB") == std::uint64_t{1} << 30);
  CHECK_FALSE(jet::detail::parse_byte_size(""));
  CHECK_FALSE(jet::detail::parse_byte_size("G"));
  CHECK_FALSE(jet::detail::parse_byte_size("12Q"));
  CHECK_FALSE(jet::detail::parse_byte_size("99999999999999999999"));
  CHECK_FALSE(jet::detail::parse_byte_size("99999999999T"));

  const jet_test::scoped_env max("JET_CACHE_MAX_BYTES", "256M");
  const jet_test::scoped_env mode("JET_CACHE", "off");
  const jet_test::scoped_env record("JET_CACHE_RECORD", "/tmp/r.jsonl");
  const jet::detail::cache_settings s = jet::detail::settings_from_env();
  CHECK(s.max_bytes == 256u << 20);
  CHECK_FALSE(s.enabled);
  CHECK(s.record_file == "/tmp/r.jsonl");
  const jet_test::scoped_env unset_max("JET_CACHE_MAX_BYTES", std::nullopt);
  CHECK(jet::detail::settings_from_env().max_bytes == jet::detail::default_cache_max_bytes);
}

TEST_CASE("without HOME (unset, empty or relative) the kernels stay in memory, with a warning",
          "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  const jet_test::scoped_env on("JET_CACHE", std::nullopt);
  const jet_test::scoped_env no_dir("JET_CACHE_DIR", std::nullopt);
  const jet_test::scoped_env no_xdg("XDG_CACHE_HOME", "relative/xdg");  // ignored, as XDG says
  jet_test::captured_stderr err;
  for (const std::optional<std::string>& home : {std::optional<std::string>(), {""}, {"home"}}) {
    const jet_test::scoped_env set_home("HOME", home);
    CHECK(jet::detail::cache_directory().empty());
    CHECK(jet::cache::directory().empty());
    for (int round = 0; round < 2; ++round)
      CHECK(jet::detail::compile_or_load(jet_test::small_kernel(61), "sm_90").origin ==
            jet::detail::kernel_origin::compiler);
  }
  const std::string text = err.finish();
  std::filesystem::current_path(was);
  // Once the cache went to ./.cache with HOME unset, and to /.cache with HOME empty.
  CHECK(std::filesystem::is_empty(dir.path()));
  CHECK_FALSE(std::filesystem::exists("/.cache/jet"));
  CHECK(jet_test::occurrences(text,
                              "jet: no cache directory: JET_CACHE_DIR is unset, and "
                              "XDG_CACHE_HOME and HOME are unset, empty or relative; "
                              "kernels stay in memory for this process\n") == 1);
  const jet_test::scoped_env home("HOME", "/home/u");
  CHECK(jet::detail::cache_directory() == "/home/u/.cache/jet/kernels");
}
