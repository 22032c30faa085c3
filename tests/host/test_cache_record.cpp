// Record files and warming: what a program used comes back, compiled, into another cache;
// a record is code from elsewhere, so warm checks it and shows little of what it reads.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

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
  k.source = {"k1", awkward};
  k.arch = "sm_90";
  k.options = {"-DX=\"y\""};
  REQUIRE(jet::detail::append_record(dir / "r.jsonl", k) == 0);
  jet_test::write_file(dir / "partial.jsonl",
                       jet_test::read_file(dir / "r.jsonl") + "{\"name\":\"cut short");
  const jet::detail::record_file back = jet::detail::read_records(dir / "partial.jsonl");
  REQUIRE(back.kernels.size() == 1);
  CHECK(back.kernels[0].source.name == "k1");
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
  CHECK(records.kernels[0].options ==
        jet::detail::compile_options(jet_test::small_kernel(21), "sm_90"));

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

TEST_CASE("warm shows no text of the files a record's source includes, and caps the log",
          "[host][cache]") {
  const jet_test::temp_dir dir;
  jet_test::write_file(dir / "secret.txt", "classified_token_3141 = 1\n");
  const jet_test::scoped_env secret("JET_TEST_SECRET", "environment_token_2718");
  const std::string record = dir / "record.jsonl";
  for (const std::string& file : {std::string("/proc/self/environ"), dir / "secret.txt"})
    REQUIRE(jet::detail::append_record(
                record, {{"leak", "#include \"" + file +
                                      "\"\nextern \"C\" __global__ void leak(float* p) {}\n"},
                         "sm_90",
                         {},
                         {}}) == 0);
  std::string many = "extern \"C\" __global__ void noisy(float* p) {\n";
  for (int k = 0; k < 100; ++k) many += "  undefined_" + std::to_string(k) + " = 1;\n";
  REQUIRE(jet::detail::append_record(record, {{"noisy", many + "}\n"}, "sm_90", {}, {}}) == 0);
  const jet_test::outcome o =
      jet_test::run(std::string(JET_CACHE_TOOL) + " warm " + record + " --dir " + (dir / "c"));
  INFO(o.err);
  CHECK(o.status == 1);
  CHECK(o.out.find(": 0 compiled, 0 already present, 3 failed") != std::string::npos);
  CHECK(o.err.find("environment_token_2718") == std::string::npos);
  CHECK(o.err.find("classified_token_3141") == std::string::npos);
  CHECK(o.err.find("/proc/self/environ(1): error in an included file (its text is not shown)") !=
        std::string::npos);
  CHECK(o.err.find(dir / "secret.txt(1): error in an included file (its text is not shown)") !=
        std::string::npos);
  // The record's own source is quoted as NVRTC quotes it, up to 40 lines of the log.
  CHECK(o.err.find("noisy.cu(2): error: identifier \"undefined_0\" is undefined\n"
                   "    undefined_0 = 1;") != std::string::npos);
  CHECK(o.err.find("undefined_99") == std::string::npos);
  CHECK(o.err.find("more lines of the log are not shown)") != std::string::npos);
  for (const char* help : {" --help", " warm --help"})
    CHECK(jet_test::run(std::string(JET_CACHE_TOOL) + help).out.find("A record file is code") !=
          std::string::npos);
}

TEST_CASE("warm refuses architectures NVRTC does not build and kernels the source lacks",
          "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string tool = JET_CACHE_TOOL;
  std::string known;
  for (int a : jet::detail::supported_archs())
    known += (known.empty() ? "sm_" : ", sm_") + std::to_string(a);
  const std::string builds = "NVRTC " + jet::detail::nvrtc_version() + " builds for " + known;
  const std::string record = dir / "record.jsonl";
  REQUIRE(jet::detail::append_record(record, {jet_test::small_kernel(41), "sm_90", {}, {}}) == 0);
  for (const char* arch : {"sm_1", "sm_50", "sm_9999"}) {
    const jet_test::outcome o =
        jet_test::run(tool + " warm " + record + " --arch " + arch + " --dir " + (dir / "c"));
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err.find("--arch " + std::string(arch) + ": " + builds + " only") != std::string::npos);
  }
  const std::string old = dir / "old.jsonl";
  REQUIRE(jet::detail::append_record(old, {jet_test::small_kernel(42), "sm_50", {}, {}}) == 0);
  const jet_test::outcome recorded = jet_test::run(tool + " warm " + old + " --dir " + (dir / "c"));
  CHECK(recorded.status == 1);
  CHECK(recorded.err.find("kernel k42 was recorded for 'sm_50', " + builds +
                          " only; give --arch") != std::string::npos);

  const std::string absent = dir / "absent.jsonl";
  const jet::codegen::kernel_source other{"nothere", jet_test::small_kernel(43).source};
  for (const char* arch : {"sm_90", "sm_9999"})  // a cubin, then PTX for an arch past NVRTC's
    REQUIRE(jet::detail::append_record(absent, {other, arch, {}, {}}) == 0);
  const jet_test::outcome missing =
      jet_test::run("JET_CACHE_DIR=" + (dir / "c") + " " + tool + " warm " + absent);
  INFO(missing.err);
  CHECK(missing.status == 1);
  CHECK(missing.err.find("nothere for sm_90: not stored: its source defines no kernel nothere "
                         "(an extern \"C\" __global__ function)") != std::string::npos);
  CHECK(missing.err.find("recorded for 'sm_9999', " + builds + " only") != std::string::npos);
  CHECK(jet::detail::scan_entries(dir / "c").empty());
}

TEST_CASE("warm refuses kernel names that are no C identifier", "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string source = jet_test::small_kernel(44).source;
  std::string lines;
  for (const char* name : {"k44\\u0000evil", "", "k 44", "caf\\u00e9"})
    lines += "{\"name\":\"" + std::string(name) + "\",\"arch\":\"sm_90\",\"options\":[]," +
             "\"source\":" + nlohmann::json(source).dump() + "}\n";
  jet_test::write_file(dir / "names.jsonl", lines);
  const jet::detail::record_file back = jet::detail::read_records(dir / "names.jsonl");
  CHECK(back.kernels.empty());
  REQUIRE(back.problems.size() == 4);
  CHECK(back.problems[0] == "line 1: the kernel name \"k44\\u0000evil\" is no C identifier");
  CHECK(back.problems[1] == "line 2: the kernel name \"\" is no C identifier");
  CHECK(back.problems[3] == "line 4: the kernel name \"caf\\u00e9\" is no C identifier");
  const jet_test::outcome o = jet_test::run(std::string(JET_CACHE_TOOL) + " warm " +
                                            (dir / "names.jsonl") + " --dir " + (dir / "c"));
  CHECK(o.status == 1);
  CHECK(o.out.find(": 0 compiled, 0 already present, 0 failed") != std::string::npos);
  CHECK(jet::detail::scan_entries(dir / "c").empty());
}

TEST_CASE("warm refuses a folder or subfolder Jet would not load from", "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string tool = JET_CACHE_TOOL;
  const std::string record = dir / "record.jsonl";
  const jet::codegen::kernel_source k = jet_test::small_kernel(45);
  REQUIRE(jet::detail::append_record(record, {k, "sm_90", {}, {}}) == 0);
  const std::string cache = dir / "c";
  const std::string sub = cache + "/" + jet::detail::identify(k, "sm_90").key.substr(0, 2);
  REQUIRE(jet::detail::make_directory(sub) == 0);
  const auto warm = [&] { return jet_test::run(tool + " warm " + record + " --dir " + cache); };

  REQUIRE(chmod(cache.c_str(), 0777) == 0);
  const jet_test::outcome open = warm();
  CHECK(open.status == 1);
  CHECK(open.err == "jet-cache: not warming " + cache +
                        ": it is writable by group or others (mode 0777), so Jet loads nothing "
                        "from it (chmod go-w to fix)\n");
  REQUIRE(chmod(cache.c_str(), 0700) == 0);
  REQUIRE(chmod(sub.c_str(), 0777) == 0);
  const jet_test::outcome open_sub = warm();
  CHECK(open_sub.status == 1);
  CHECK(open_sub.out.find(": 0 compiled, 0 already present, 1 failed") != std::string::npos);
  CHECK(open_sub.err.find("k45 for sm_90: not stored: " + sub +
                          " is writable by group or others (mode 0777), so Jet loads nothing "
                          "from it (chmod go-w to fix)") != std::string::npos);
  CHECK(jet::detail::scan_entries(cache).empty());
  REQUIRE(chmod(sub.c_str(), 0700) == 0);
  if (geteuid() == 0) {  // only root can give a folder away
    REQUIRE(chown(sub.c_str(), 65534, 65534) == 0);
    const jet_test::outcome foreign = warm();
    CHECK(foreign.status == 1);
    CHECK(foreign.err.find(sub + " is owned by another user (uid 65534), so Jet loads nothing "
                                 "from it (chown it to you or root to fix)") != std::string::npos);
    REQUIRE(chown(sub.c_str(), 0, 0) == 0);
  }
  CHECK(warm().status == 0);
  CHECK(jet::detail::load_entry(cache, jet::detail::identify(k, "sm_90")));
}
