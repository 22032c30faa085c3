// jet-cache, run as a user would: every subcommand, its --json output read back, its errors.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/cache/directory.hpp"
#include "src/cache/disk_cache.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

namespace {

using jet_test::outcome;
using jet_test::run;
using json = nlohmann::json;

const std::string tool = JET_CACHE_TOOL;

// A cache folder holding small_kernel(n) for each n, stored with the shared image.
struct filled_cache {
  jet_test::temp_dir dir;
  std::vector<jet::detail::kernel_identity> ids;

  explicit filled_cache(std::vector<int> kernels) {
    for (int n : kernels) {
      const auto source = jet_test::small_kernel(n);
      ids.push_back(jet::detail::identify(source, "sm_90"));
      REQUIRE(jet::detail::store_entry(dir.path(), ids.back(), source, jet_test::image_for(source),
                                       1u << 30));
    }
  }
  std::string path(std::size_t i) const { return jet::detail::entry_path(dir.path(), ids[i].key); }
  outcome cli(const std::string& arguments) const {
    return run(tool + " " + arguments + " --dir " + dir.path());
  }
  // cli() as a user whom permission bits bind: as nobody when the tests run as root, which
  // ignores them. To nobody, root's folders are safe to load from when others cannot write.
  outcome cli_bound(const std::string& arguments) const {
    const std::string nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    return run((geteuid() == 0 ? nobody : "") + tool + " " + arguments + " --dir " + dir.path());
  }
};

json parsed(const outcome& o) {
  INFO(o.out << o.err);
  REQUIRE(o.status <= 1);
  return json::parse(o.out);
}

}  // namespace

TEST_CASE("jet-cache path follows JET_CACHE_DIR, XDG_CACHE_HOME, then HOME", "[host][cli]") {
  CHECK(run("JET_CACHE_DIR=/tmp/jc " + tool + " path").out == "/tmp/jc\n");
  CHECK(run("env -u JET_CACHE_DIR XDG_CACHE_HOME=/tmp/xdg " + tool + " path").out ==
        "/tmp/xdg/jet/kernels\n");
  CHECK(run("env -u JET_CACHE_DIR -u XDG_CACHE_HOME HOME=/home/u " + tool + " path").out ==
        "/home/u/.cache/jet/kernels\n");
  CHECK(run(tool + " path --dir /elsewhere").out == "/elsewhere\n");
  // Without a HOME to go by (unset, empty or relative), there is no cache folder to name.
  for (const char* home : {"-u HOME", "HOME=", "HOME=relative"}) {
    const outcome o =
        run("env -u JET_CACHE_DIR -u XDG_CACHE_HOME " + std::string(home) + " " + tool + " list");
    INFO(home);
    CHECK(o.status == 2);
    CHECK(o.err.rfind("jet-cache: no cache directory: JET_CACHE_DIR is unset, and XDG_CACHE_HOME "
                      "and HOME are unset, empty or relative; give --dir\n",
                      0) == 0);
  }
  CHECK(run("env -u JET_CACHE_DIR -u HOME " + tool + " path --dir /elsewhere").out ==
        "/elsewhere\n");
  CHECK(run("env -u JET_CACHE_DIR XDG_CACHE_HOME=rel HOME=/home/u " + tool + " path").out ==
        "/home/u/.cache/jet/kernels\n");
}

TEST_CASE("jet-cache list shows every entry, most recently used first", "[host][cli]") {
  const filled_cache cache({1, 2, 3});
  jet_test::set_last_use(cache.path(0), 30);
  jet_test::set_last_use(cache.path(1), 20);
  jet_test::set_last_use(cache.path(2), 10);
  const outcome text = cache.cli("list");
  CHECK(text.status == 0);
  CHECK(text.out.rfind("KEY ", 0) == 0);
  CHECK(text.out.find("LAST USED") != std::string::npos);
  CHECK(text.out.find("\n" + cache.ids[2].key.substr(0, 16) + "  k3  ") <
        text.out.find(cache.ids[0].key.substr(0, 16)));

  const json v = parsed(cache.cli("list --json"));
  CHECK(v["directory"].get<std::string>() == cache.dir.path());
  const auto& entries = v["entries"];
  REQUIRE(entries.size() == 3);
  CHECK(entries[0]["key"].get<std::string>() == cache.ids[2].key);
  CHECK(entries[0]["name"].get<std::string>() == "k3");
  CHECK(entries[2]["name"].get<std::string>() == "k1");
  CHECK(entries[0]["arch"].get<std::string>() == "sm_90");
  CHECK(entries[0]["bytes"].get<double>() ==
        static_cast<double>(std::filesystem::file_size(cache.path(2))));
  CHECK(entries[0]["created"].get<std::string>().size() == 20);
  CHECK(v["bad"].empty());

  jet_test::write_file(cache.path(1), "garbage");
  const outcome damaged = cache.cli("list --json");
  CHECK(parsed(damaged)["entries"].size() == 2);
  CHECK(parsed(damaged)["bad"].at(0)["problem"].get<std::string>() == "not a Jet cache entry");
  const outcome listed = cache.cli("list");
  CHECK(listed.status == 1);
  CHECK(listed.err.find("1 entries or folders could not be read") != std::string::npos);

  const jet_test::temp_dir empty;
  CHECK(run(tool + " list --dir " + empty.path()).out.empty());
  CHECK(parsed(run("JET_CACHE_DIR=" + (empty / "none") + " " + tool + " list --json"))["entries"]
            .empty());
}

TEST_CASE("jet-cache show finds an entry by unique prefix and disassembles with cuobjdump",
          "[host][cli]") {
  const filled_cache cache({1, 2});
  const std::string& key = cache.ids[0].key;
  const outcome text = cache.cli("show " + key.substr(0, 6));
  CHECK(text.status == 0);
  CHECK(text.out.rfind("key            " + key + "\n", 0) == 0);
  CHECK(text.out.find("options        --gpu-architecture=sm_90 -std=c++17\n") != std::string::npos);
  CHECK(text.out.find("--- source ---\n" + jet_test::small_kernel(1).source) != std::string::npos);

  const json v = parsed(cache.cli("show " + key.substr(0, 8) + " --json"));
  CHECK(v["key"].get<std::string>() == key);
  CHECK(v["name"].get<std::string>() == "k1");
  CHECK(v["source"].get<std::string>() == jet_test::small_kernel(1).source);
  CHECK(v["options"].at(0).get<std::string>() == "--gpu-architecture=sm_90");
  CHECK(v["image_bytes"].get<double>() ==
        static_cast<double>(jet_test::sample_image().image.size()));

  // A stand-in cuobjdump that reports its arguments and the size of the file it was given.
  const jet_test::temp_dir bin;
  jet_test::write_file(bin / "cuobjdump", "#!/bin/sh\necho \"SASS $1 $(wc -c < \"$2\")\"\n");
  REQUIRE(chmod((bin / "cuobjdump").c_str(), 0755) == 0);
  const json sass = parsed(run("PATH=" + bin.path() + ":$PATH " + tool + " show " + key +
                               " --json --dir " + cache.dir.path()));
  CHECK(sass["machine_code"]["format"].get<std::string>() == "sass");
  CHECK(sass["machine_code"]["text"].get<std::string>() ==
        "SASS -sass " + std::to_string(jet_test::sample_image().image.size()) + "\n");
  const outcome no_tool =
      run("PATH=/nonexistent " + tool + " show " + key + " --dir " + cache.dir.path());
  CHECK(no_tool.out.find("put cuobjdump on PATH") != std::string::npos);

  jet_test::write_file(cache.path(1), "garbage");
  const outcome bad = cache.cli("show " + cache.ids[1].key);
  CHECK(bad.status == 1);
  CHECK(bad.err.find("not a Jet cache entry") != std::string::npos);
}

TEST_CASE("jet-cache show rejects unknown, ambiguous and malformed keys with status 2",
          "[host][cli]") {
  // Enough entries that some pair shares a first digit.
  const filled_cache cache({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18});
  std::string shared;
  for (std::size_t i = 0; i < cache.ids.size() && shared.empty(); ++i)
    for (std::size_t j = i + 1; j < cache.ids.size(); ++j)
      if (cache.ids[i].key[0] == cache.ids[j].key[0]) shared = cache.ids[i].key.substr(0, 1);
  REQUIRE(!shared.empty());
  const outcome ambiguous = cache.cli("show " + shared);
  CHECK(ambiguous.status == 2);
  CHECK(ambiguous.err.find("key prefix '" + shared + "' is ambiguous") != std::string::npos);

  std::string unknown = cache.ids[0].key;
  unknown[10] = unknown[10] == '0' ? '1' : '0';
  const outcome missing = cache.cli("show " + unknown.substr(0, 12));
  CHECK(missing.status == 2);
  CHECK(missing.err.find("no entry in " + cache.dir.path() + " has a key starting with") !=
        std::string::npos);
  const outcome malformed = cache.cli("show xyz");
  CHECK(malformed.status == 2);
  CHECK(malformed.err.find("'xyz' is not a key") != std::string::npos);
  CHECK(cache.cli("show").status == 2);
  CHECK(cache.cli("show " + cache.ids[0].key.substr(0, 6) + " extra").status == 2);
}

TEST_CASE("jet-cache stats counts entries, bytes and unreadable entries", "[host][cli]") {
  const filled_cache cache({1, 2, 3});
  const std::uint64_t total = std::filesystem::file_size(cache.path(0)) +
                              std::filesystem::file_size(cache.path(1)) +
                              std::filesystem::file_size(cache.path(2));
  const json v =
      parsed(run("JET_CACHE_MAX_BYTES=64M " + tool + " stats --json --dir " + cache.dir.path()));
  CHECK(v["entries"].get<double>() == 3);
  CHECK(v["bytes"].get<double>() == static_cast<double>(total));
  CHECK(v["bad_entries"].get<double>() == 0);
  CHECK(v["max_bytes"].get<double>() == 64 << 20);
  CHECK(v["oldest_use"].get<std::string>().size() == 20);

  jet_test::write_file(cache.path(0), "junk");
  const json after = parsed(cache.cli("stats --json"));
  CHECK(after["entries"].get<double>() == 2);
  CHECK(after["bad_entries"].get<double>() == 1);
  const outcome text = cache.cli("stats");
  CHECK(text.status == 0);
  CHECK(text.out.find("entries        2\n") != std::string::npos);
  CHECK(text.out.find("bad entries    1\n") != std::string::npos);

  const jet_test::temp_dir empty;
  CHECK(parsed(run(tool + " stats --json --dir " + empty.path()))["oldest_use"].is_null());
}

TEST_CASE("jet-cache verify finds bad entries and unsafe folders, and --fix removes the entries",
          "[host][cli]") {
  const filled_cache cache({1, 2, 3});
  const outcome clean = cache.cli("verify");
  CHECK(clean.status == 0);
  CHECK(clean.out == "checked 3 entries: 0 bad\n");

  std::string flipped = jet_test::read_file(cache.path(1));
  flipped[flipped.size() - 40] ^= 1;
  jet_test::write_file(cache.path(1), flipped);
  const outcome found = cache.cli("verify --json");
  CHECK(found.status == 1);
  const json v = parsed(found);
  CHECK(v["checked"].get<double>() == 3);
  REQUIRE(v["bad"].size() == 1);
  CHECK(v["bad"][0]["key"].get<std::string>() == cache.ids[1].key);
  CHECK(v["bad"][0]["problem"].get<std::string>() == "checksum mismatch");
  CHECK(v["ok"] == false);

  const outcome fixed = cache.cli("verify --fix");
  CHECK(fixed.status == 0);
  CHECK(fixed.out.find("bad " + cache.ids[1].key + ": checksum mismatch (removed)") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(cache.path(1)));
  CHECK(cache.cli("verify").status == 0);

  REQUIRE(chmod(cache.dir.path().c_str(), 0777) == 0);
  const outcome unsafe = cache.cli("verify");
  CHECK(unsafe.status == 1);
  CHECK(unsafe.out.find("unsafe folder: " + cache.dir.path() +
                        " is writable by group or others (mode 0777)") != std::string::npos);
  const outcome refused = cache.cli("verify --fix");
  CHECK(refused.status == 1);
  CHECK(refused.err.find("not fixing " + cache.dir.path() +
                         ": it is writable by group or others (mode 0777)") != std::string::npos);
  REQUIRE(chmod(cache.dir.path().c_str(), 0700) == 0);
  REQUIRE(chmod(cache.path(0).c_str(), 0666) == 0);
  CHECK(parsed(cache.cli("verify --json"))["bad"].at(0)["problem"].get<std::string>() ==
        "writable by group or others (mode 0666)");
}

TEST_CASE("jet-cache verify reports an entry of 64 GiB and --fix removes it", "[host][cli]") {
  const filled_cache cache({1, 2});
  std::filesystem::resize_file(cache.path(0), std::uint64_t{64} << 30);  // sparse: no disk
  // It once died of std::bad_alloc with no report, and --fix could not remove the entry.
  const outcome found = cache.cli("verify");
  CHECK(found.status == 1);
  CHECK(found.out.find("bad " + cache.ids[0].key + ": ") != std::string::npos);
  CHECK(found.out.find("checked 2 entries: 1 bad\n") != std::string::npos);
  const outcome fixed = cache.cli("verify --fix");
  CHECK(fixed.status == 0);
  CHECK_FALSE(std::filesystem::exists(cache.path(0)));
  CHECK(std::filesystem::exists(cache.path(1)));
}

TEST_CASE("jet-cache prune and clear", "[host][cli]") {
  const filled_cache cache({1, 2, 3, 4});
  const std::uint64_t entry = std::filesystem::file_size(cache.path(0));
  jet_test::set_last_use(cache.path(0), 10 * 86400);
  jet_test::set_last_use(cache.path(1), 3 * 3600);
  jet_test::set_last_use(cache.path(2), 60);
  const outcome old = cache.cli("prune --older-than 7d");
  CHECK(old.status == 0);
  CHECK(old.out.rfind("removed 1 entries", 0) == 0);
  CHECK_FALSE(std::filesystem::exists(cache.path(0)));
  CHECK(cache.cli("prune --older-than=2h").out.rfind("removed 1 entries", 0) == 0);
  // The longest duration there is keeps every entry (it once overflowed into "all are old").
  CHECK(cache.cli("prune --older-than 15250w").out.rfind("removed 0 entries", 0) == 0);
  const outcome sized = cache.cli("prune --max-bytes " + std::to_string(entry));
  CHECK(sized.out.rfind("removed 1 entries (", 0) == 0);
  CHECK(sized.out.find("; 1 entries (") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(cache.path(2)));
  CHECK(std::filesystem::exists(cache.path(3)));

  jet_test::write_file(cache.dir / "keep-me", "a user's file");
  const outcome cleared = cache.cli("clear");
  CHECK(cleared.status == 0);
  CHECK(cleared.out.rfind("removed 1 entries", 0) == 0);
  CHECK(std::filesystem::exists(cache.dir / "keep-me"));
  CHECK(parsed(cache.cli("list --json"))["entries"].empty());
}

TEST_CASE("jet-cache prune and clear count what they removed and exit 1 when entries remain",
          "[host][cli]") {
  const filled_cache cache({1, 2});
  // Subfolders no one may write, as on a read-only mount.
  REQUIRE(chmod(cache.dir.path().c_str(), 0755) == 0);
  for (const auto& id : cache.ids)
    REQUIRE(chmod((cache.dir / id.key.substr(0, 2)).c_str(), 0555) == 0);
  for (const char* command : {"prune --max-bytes 1", "clear"}) {
    const outcome o = cache.cli_bound(command);
    INFO(command << "\n" << o.out << o.err);
    // Both once said they removed what they could not ("0 entries left"), with exit status 0.
    CHECK(o.status == 1);
    CHECK(o.out.rfind("removed 0 entries (0 B)", 0) == 0);
    CHECK(o.out.find("; 2 entries (") != std::string::npos);
    CHECK(o.err.find(cache.path(0) + " cannot be removed: Permission denied\n") !=
          std::string::npos);
  }
  CHECK(std::filesystem::exists(cache.path(0)));
  CHECK(std::filesystem::exists(cache.path(1)));
}

TEST_CASE("jet-cache verify, list and clear name links and folders where entries belong",
          "[host][cli]") {
  const filled_cache cache({1, 2, 3});
  // Entry 0 a link to entry 1; entry 2 a folder, which no one, root included, can unlink.
  std::filesystem::remove(cache.path(0));
  std::filesystem::create_symlink(cache.path(1), cache.path(0));
  std::filesystem::remove(cache.path(2));
  std::filesystem::create_directory(cache.path(2));
  jet_test::write_file(cache.path(2) + "/inside", "x");
  // verify once said "checked 1 entries: 0 bad", exit 0, as the runtime counted both bad.
  const outcome found = cache.cli("verify");
  CHECK(found.status == 1);
  CHECK(found.out.find("bad " + cache.ids[0].key + ": a symbolic link\n") != std::string::npos);
  CHECK(found.out.find("bad " + cache.ids[2].key + ": not a regular file\n") != std::string::npos);
  CHECK(found.out.find("checked 1 entries: 2 bad\n") != std::string::npos);
  const outcome listed = cache.cli("list --json");
  CHECK(listed.status == 1);
  CHECK(parsed(listed)["bad"].size() == 2);
  const outcome fixed = cache.cli("verify --fix --json");
  CHECK(fixed.status == 1);  // the folder stays
  CHECK(parsed(fixed)["removed"].get<double>() == 1);
  CHECK_FALSE(std::filesystem::is_symlink(cache.path(0)));
  CHECK(std::filesystem::exists(cache.path(1)));
  const outcome cleared = cache.cli("clear");
  CHECK(cleared.status == 1);
  CHECK(cleared.err.find(cache.path(2) + " cannot be removed: Is a directory\n") !=
        std::string::npos);
}

TEST_CASE("jet-cache verify, list, prune and clear name a subfolder they cannot read",
          "[host][cli]") {
  const filled_cache cache({1});
  const std::string sub = cache.dir / cache.ids[0].key.substr(0, 2);
  REQUIRE(chmod(cache.dir.path().c_str(), 0755) == 0);
  REQUIRE(chmod(sub.c_str(), 0) == 0);
  // Each once skipped it: "checked 0 entries: 0 bad", exit 0.
  const outcome verified = cache.cli_bound("verify");
  CHECK(verified.status == 1);
  CHECK(verified.out.find("bad " + sub + ": cannot be read: Permission denied\n") !=
        std::string::npos);
  const outcome listed = cache.cli_bound("list --json");
  CHECK(listed.status == 1);
  CHECK(parsed(listed)["bad"].at(0)["path"].get<std::string>() == sub);
  for (const char* command : {"prune --max-bytes 1", "clear"}) {
    const outcome o = cache.cli_bound(command);
    INFO(command << "\n" << o.err);
    CHECK(o.status == 1);
    CHECK(o.err.find(sub + " cannot be read: Permission denied\n") != std::string::npos);
  }
}

TEST_CASE("jet-cache refuses a --dir that does not exist or is not a folder, exit 2",
          "[host][cli]") {
  const jet_test::temp_dir dir;
  jet_test::write_file(dir / "file", "");
  // They once read either as an empty cache ("checked 0 entries", exit 0).
  for (const char* command :
       {"list", "show 00", "stats", "verify", "prune --max-bytes 1", "clear"}) {
    const outcome missing = run(tool + " " + command + " --dir " + (dir / "none"));
    const outcome file = run(tool + " " + command + " --dir " + (dir / "file"));
    INFO(command << "\n" << missing.err << file.err);
    CHECK(missing.status == 2);
    CHECK(missing.err.find("jet-cache: --dir " + (dir / "none") + " does not exist\n") !=
          std::string::npos);
    CHECK(file.status == 2);
    CHECK(file.err.find("jet-cache: --dir " + (dir / "file") + " is not a folder\n") !=
          std::string::npos);
  }
  const outcome env_file = run("JET_CACHE_DIR=" + (dir / "file") + " " + tool + " verify");
  CHECK(env_file.status == 2);
  CHECK(env_file.err.find("the cache directory " + (dir / "file") + " is not a folder") !=
        std::string::npos);
  CHECK(run(tool + " path --dir " + (dir / "none")).status == 0);
}

TEST_CASE("jet-cache never follows a symlinked subfolder, nor changes a folder others can write",
          "[host][cli]") {
  const filled_cache cache({1});
  const jet_test::temp_dir victim;
  const std::string sub = cache.ids[0].key.substr(0, 2) == "ab" ? "cd" : "ab";
  const std::string key_like = sub + std::string(62, 'c');
  jet_test::write_file(victim / key_like, "a file outside the cache");
  jet_test::write_file(victim / ".tmp-old", "another");
  jet_test::set_last_use(victim / ".tmp-old", 2 * 3600);
  REQUIRE(symlink(victim.path().c_str(), (cache.dir / sub).c_str()) == 0);
  CHECK(cache.cli("prune --max-bytes 1").out.rfind("removed 1 entries", 0) == 0);
  CHECK(cache.cli("clear").status == 0);
  // verify reports the link as a bad subfolder; --fix removes the link, not what it points at.
  const outcome fixed = cache.cli("verify --fix");
  CHECK(fixed.status == 0);
  CHECK(fixed.out.find("not a folder, where Jet keeps a subfolder of entries (removed)") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::is_symlink(cache.dir / sub));
  CHECK(std::filesystem::exists(victim / key_like));
  CHECK(std::filesystem::exists(victim / ".tmp-old"));

  REQUIRE(chmod(cache.dir.path().c_str(), 0777) == 0);
  for (const char* command : {"prune --max-bytes 1", "clear"}) {
    const outcome o = cache.cli(command);
    INFO(command << "\n" << o.err);
    CHECK(o.status == 1);
    CHECK(o.err.find("is writable by group or others (mode 0777), so Jet loads nothing from it "
                     "(chmod go-w to fix)") != std::string::npos);
  }
  REQUIRE(chmod(cache.dir.path().c_str(), 0700) == 0);
}

TEST_CASE("jet-cache exits 2 on usage errors and 0 on --help", "[host][cli]") {
  CHECK(run(tool).status == 2);
  const outcome bad = run(tool + " frobnicate");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(run(tool + " --help").status == 0);
  for (const char* command :
       {"path", "list", "show", "stats", "verify", "prune", "clear", "warm"}) {
    const outcome help = run(tool + " " + command + " --help");
    INFO(command);
    CHECK(help.status == 0);
    CHECK(help.out.rfind(std::string("usage: jet-cache ") + command, 0) == 0);
  }
  const std::vector<std::pair<std::string, std::string>> mistakes = {
      {"list --fix", "'list' takes no --fix option"},
      {"list --frob", "unknown option '--frob'"},
      {"list extra", "'list' does not take 'extra'"},
      {"prune", "prune needs --max-bytes, --older-than, or both"},
      {"prune --max-bytes lots", "--max-bytes wants a size"},
      {"prune --older-than 3y", "'3y' is not a duration"},
      {"prune --older-than 20000w", "'20000w' is longer than jet-cache can count: at most 15250w"},
      {"prune --older-than 5000000h", "at most 2562047h"},
      {"prune --older-than 99999999999", "at most 9223372036s"},
      {"prune --older-than w", "'w' is not a duration"},
      {"prune --max-bytes", "--max-bytes needs a value"},
      {"list --json=yes", "--json takes no value"},
      {"list --dir=", "--dir needs a folder"},
      {"warm", "usage: jet-cache warm FILE"},
      {"warm /nonexistent/record.jsonl", "cannot read record file /nonexistent/record.jsonl"},
      {"warm x --arch ninety", "--arch wants a GPU architecture such as sm_90, not 'ninety'"},
  };
  for (const auto& [arguments, message] : mistakes) {
    const outcome o = run(tool + " " + arguments);
    INFO(arguments << "\n" << o.err);
    CHECK(o.status == 2);
    CHECK(o.err.find(message) != std::string::npos);
  }
}

TEST_CASE("jet-cache list --json stays JSON for names with a NUL or bytes that are not UTF-8",
          "[host][cli]") {
  // warm refuses such names; an entry file written by other means may still hold one.
  const jet_test::temp_dir dir;
  for (const std::string& name : {std::string("k\0x", 3), std::string("k\xff\xc3")}) {
    const jet::codegen::kernel_source source{name, jet_test::small_kernel(1).source};
    REQUIRE(jet::detail::store_entry(dir.path(), jet::detail::identify(source, "sm_90"), source,
                                     jet_test::image_for(source), 1u << 30));
  }
  const outcome o = run(tool + " list --json --dir " + dir.path());
  CHECK(o.status == 0);
  std::vector<std::string> names;
  const json listed = parsed(o);
  for (const json& e : listed["entries"]) names.push_back(e["name"].get<std::string>());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{std::string("k\0x", 3), "k\xef\xbf\xbd\xef\xbf\xbd"});
}
