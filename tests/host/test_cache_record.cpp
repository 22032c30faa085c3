// Record files and warming: what a program used comes back, compiled, into another cache.
#include <cerrno>
#include <filesystem>
#include <string>

#include "jet/error.hpp"
#include "src/cache/directory.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/cache/record.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

TEST_CASE("a record line round-trips any source text", "[host][cache]") {
  const jet_test::temp_dir dir;
  jet::detail::recorded_kernel k;
  std::string awkward = "quote \" backslash \\ newline \n tab \t nul";
  awkward += '\0';
  for (int c = 1; c < 32; ++c) awkward += static_cast<char>(c);
  awkward += "\xc3\xa9 end";
  k.source = {"k\"1", awkward};
  k.arch = "sm_90";
  k.options = {"-DX=\"y\""};
  REQUIRE(jet::detail::append_record(dir / "r.jsonl", k) == 0);
  jet_test::write_file(dir / "partial.jsonl",
                       jet_test::read_file(dir / "r.jsonl") + "{\"name\":\"cut short");
  const jet::detail::record_file back = jet::detail::read_records(dir / "partial.jsonl");
  REQUIRE(back.kernels.size() == 1);
  CHECK(back.kernels[0].source.name == "k\"1");
  CHECK(back.kernels[0].source.source == awkward);
  CHECK(back.kernels[0].options == k.options);
  REQUIRE(back.problems.size() == 1);
  CHECK(back.problems[0].rfind("line 2: invalid JSON", 0) == 0);
  CHECK_THROWS_AS(jet::detail::read_records(dir / "missing.jsonl"), jet::cache_error);
}

TEST_CASE("a source that is not UTF-8 is not recorded, and says why", "[host][cache]") {
  const jet_test::temp_dir dir;
  jet::detail::recorded_kernel k;
  k.source = {"latin1", "// caf\xe9\n"};
  k.arch = "sm_90";
  CHECK(jet::detail::append_record(dir / "r.jsonl", k) == EILSEQ);
  CHECK_FALSE(std::filesystem::exists(dir / "r.jsonl"));
  jet_test::write_file(dir / "fields.jsonl",
                       "{\"name\":\"k\",\"arch\":\"sm_90\",\"options\":[1],\"source\":\"\"}\n");
  const jet::detail::record_file back = jet::detail::read_records(dir / "fields.jsonl");
  CHECK(back.kernels.empty());
  REQUIRE(back.problems.size() == 1);
  CHECK(back.problems[0].rfind("line 1: not a kernel record", 0) == 0);
}

TEST_CASE("record -> warm -> every recorded key is in the new cache", "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string record = dir / "record.jsonl";
  {
    const jet_test::scoped_env cache_dir("JET_CACHE_DIR", dir / "first");
    const jet_test::scoped_env on("JET_CACHE", std::nullopt);
    const jet_test::scoped_env recording("JET_CACHE_RECORD", record);
    for (int n : {21, 22, 23}) jet::detail::compile_or_load(jet_test::small_kernel(n), "sm_90");
    // A disk hit is recorded too: the record lists what ran, whether or not it compiled.
    CHECK(jet::detail::compile_or_load(jet_test::small_kernel(21), "sm_90").origin ==
          jet::detail::kernel_origin::disk);
  }
  const jet::detail::record_file records = jet::detail::read_records(record);
  REQUIRE(records.kernels.size() == 4);
  CHECK(records.kernels[0].source.name == "k21");
  CHECK(records.kernels[0].arch == "sm_90");
  CHECK(records.kernels[0].options == jet::detail::compile_options("sm_90"));

  const std::string tool = JET_CACHE_TOOL;
  const std::string warm = tool + " warm " + record + " --arch sm_90 --dir " + (dir / "second");
  const jet_test::outcome first = jet_test::run(warm);
  INFO(first.err);
  CHECK(first.status == 0);
  CHECK(first.out == "warmed " + (dir / "second") +
                         ": 3 compiled, 0 already present, 0 failed (1 repeated records)\n");
  for (int n : {21, 22, 23})
    CHECK(jet::detail::load_entry(dir / "second",
                                  jet::detail::identify(jet_test::small_kernel(n), "sm_90")));
  const jet_test::outcome again = jet_test::run(warm);
  CHECK(again.status == 0);
  CHECK(again.out.find(": 0 compiled, 3 already present, 0 failed") != std::string::npos);
}

TEST_CASE("a user kernel's options and name expressions are recorded and warmed", "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string record = dir / "record.jsonl";
  const jet::codegen::kernel_source source{
      "raw_module", "template <class T> __global__ void scale(T* x) { x[0] *= T(OFFSET); }\n"};
  const jet::detail::compile_extras extras{{"-DOFFSET=2"}, {"scale<float>"}};
  {
    const jet_test::scoped_env cache_dir("JET_CACHE_DIR", dir / "first");
    const jet_test::scoped_env on("JET_CACHE", std::nullopt);
    const jet_test::scoped_env recording("JET_CACHE_RECORD", record);
    jet::detail::compile_or_load(source, "sm_90", extras);
  }
  const jet::detail::record_file records = jet::detail::read_records(record);
  REQUIRE(records.kernels.size() == 1);
  CHECK(records.kernels[0].extras.options == extras.options);
  CHECK(records.kernels[0].extras.name_expressions == extras.name_expressions);

  const std::string tool = JET_CACHE_TOOL;
  const jet_test::outcome warmed =
      jet_test::run(tool + " warm " + record + " --arch sm_90 --dir " + (dir / "second"));
  INFO(warmed.err);
  CHECK(warmed.status == 0);
  const auto entry =
      jet::detail::load_entry(dir / "second", jet::detail::identify(source, "sm_90", extras));
  REQUIRE(entry);
  CHECK(entry->lowered_names.size() == 1);
}

TEST_CASE("warm replaces damaged entries, warning once per process, and fails on bad kernels",
          "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string record = dir / "record.jsonl";
  for (int n : {31, 32})
    REQUIRE(jet::detail::append_record(record, {jet_test::small_kernel(n), "sm_90", {}, {}}) == 0);
  for (int n : {31, 32}) {
    const auto id = jet::detail::identify(jet_test::small_kernel(n), "sm_90");
    REQUIRE(jet::detail::make_directory(dir / ("cache/" + id.key.substr(0, 2))) == 0);
    jet_test::write_file(jet::detail::entry_path(dir / "cache", id.key), "damaged");
  }
  const std::string tool = JET_CACHE_TOOL;
  const jet_test::outcome fixed =
      jet_test::run(tool + " warm " + record + " --dir " + (dir / "cache"));
  CHECK(fixed.status == 0);
  CHECK(fixed.out.find(": 2 compiled, 0 already present") != std::string::npos);
  CHECK(jet_test::occurrences(fixed.err, "ignoring damaged kernel cache entry") == 1);
  for (int n : {31, 32})
    CHECK(jet::detail::load_entry(dir / "cache",
                                  jet::detail::identify(jet_test::small_kernel(n), "sm_90")));

  REQUIRE(jet::detail::append_record(
              record, {{"broken", "extern \"C\" __global__ void broken() { undefined_name; }"},
                       "sm_90",
                       {},
                       {}}) == 0);
  const jet_test::outcome failed =
      jet_test::run(tool + " warm " + record + " --dir " + (dir / "cache"));
  CHECK(failed.status == 1);
  CHECK(failed.err.find("broken for sm_90: NVRTC could not compile kernel broken") !=
        std::string::npos);
  CHECK(failed.err.find("undefined_name") != std::string::npos);

  const std::string odd = dir / "odd-arch.jsonl";
  REQUIRE(jet::detail::append_record(odd, {jet_test::small_kernel(33), "gpu", {}, {}}) == 0);
  const jet_test::outcome no_arch =
      jet_test::run(tool + " warm " + odd + " --dir " + (dir / "cache"));
  CHECK(no_arch.status == 1);
  CHECK(no_arch.err.find("kernel k33 was recorded for 'gpu', not a GPU architecture") !=
        std::string::npos);
  CHECK(jet_test::run(tool + " warm " + odd + " --arch sm_90 --dir " + (dir / "cache")).status ==
        0);
}
