// jet-cache path, list, show and stats: reading the cache without changing it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>

#include "src/cache/disk_cache.hpp"
#include "src/cache/inspect.hpp"
#include "tools/jet-cache/commands.hpp"
#include "tools/jet-cache/disassemble.hpp"
#include "tools/jet-cache/output.hpp"

namespace jet::cli {
namespace {

std::int64_t seconds(std::int64_t ns) { return ns / 1000000000; }

std::string join(const std::vector<std::string>& words, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i ? std::string(separator) : "") + words[i];
  return out;
}

void write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// The one entry whose key starts with the operand, as git resolves abbreviated hashes.
detail::cache_file resolve_key(const invocation& inv) {
  std::string prefix = inv.operands.at(0);
  std::transform(prefix.begin(), prefix.end(), prefix.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (prefix.empty() || prefix.size() > 64 ||
      !std::all_of(prefix.begin(), prefix.end(),
                   [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
    throw usage_error("'" + inv.operands[0] + "' is not a key: keys are up to 64 hex digits");
  const std::vector<detail::cache_file> matches = detail::find_entries(inv.dir, prefix);
  if (matches.empty())
    throw usage_error("no entry in " + inv.dir + " has a key starting with '" + prefix + "'");
  if (matches.size() > 1)
    throw usage_error(
        fmt::format("key prefix '{}' is ambiguous: {} entries match; give more digits", prefix,
                    matches.size()));
  return matches[0];
}

}  // namespace

int run_path(const invocation& inv) {
  fmt::print("{}\n", inv.dir);
  return 0;
}

int run_list(const invocation& inv) {
  const detail::cache_listing listing = detail::list_entries(inv.dir);
  std::string out;
  auto to = std::back_inserter(out);
  if (inv.json) {
    json entries = json::array(), bad = json::array();
    for (const detail::entry_info& e : listing.entries)
      entries.push_back({{"key", e.file.key},
                         {"name", e.header.name},
                         {"arch", e.header.arch},
                         {"bytes", e.file.bytes},
                         {"created", format_time(e.header.created)},
                         {"last_used", format_time(seconds(e.file.last_used_ns))},
                         {"nvrtc_version", e.header.nvrtc_version},
                         {"jet_version", e.header.jet_version}});
    for (const detail::bad_entry& b : listing.bad)
      bad.push_back({{"key", b.file.key}, {"path", b.file.path}, {"problem", b.problem}});
    print_json({{"directory", inv.dir}, {"entries", entries}, {"bad", bad}});
  } else if (!listing.entries.empty()) {
    std::size_t name_width = 4;
    for (const detail::entry_info& e : listing.entries)
      name_width = std::max(name_width, e.header.name.size());
    fmt::format_to(to, "{:<16}  {:<{}}  {:<10}  {:>9}  {:<20}  {}\n", "KEY", "NAME", name_width,
                   "ARCH", "SIZE", "CREATED", "LAST USED");
    for (const detail::entry_info& e : listing.entries)
      fmt::format_to(to, "{:<16}  {:<{}}  {:<10}  {:>9}  {:<20}  {}\n", e.file.key.substr(0, 16),
                     e.header.name, name_width, e.header.arch, format_bytes(e.file.bytes),
                     format_time(e.header.created), format_time(seconds(e.file.last_used_ns)));
  }
  write(out);
  if (!inv.json && !listing.bad.empty())
    fmt::print(stderr,
               "jet-cache list: {} entries or folders could not be read; 'jet-cache verify' "
               "names them\n",
               listing.bad.size());
  return listing.bad.empty() ? 0 : 1;
}

int run_show(const invocation& inv) {
  const detail::cache_file file = resolve_key(inv);
  detail::cache_entry entry;
  if (const detail::entry_check check = detail::read_entry(file.path, file.key, entry, false);
      !check) {
    fmt::print(stderr, "jet-cache show: entry {} is not usable: {}\n", file.path, check.problem);
    return 1;
  }
  const detail::entry_header& h = entry.header;
  const bool ptx = h.arch.rfind("compute_", 0) == 0;
  std::optional<std::string> machine_code;
  if (ptx)
    machine_code = std::string(entry.image.begin(), entry.image.end());
  else
    machine_code = disassemble(entry.image);
  const char* format = ptx ? "ptx" : "sass";
  if (inv.json) {
    print_json({{"key", h.key},
                {"path", file.path},
                {"name", h.name},
                {"arch", h.arch},
                {"format_version", detail::cache_format_version},
                {"nvrtc_version", h.nvrtc_version},
                {"jet_version", h.jet_version},
                {"created", format_time(h.created)},
                {"last_used", format_time(seconds(file.last_used_ns))},
                {"compile_ms", static_cast<double>(h.compile_us) / 1000.0},
                {"bytes", file.bytes},
                {"source_bytes", h.source_bytes},
                {"image_bytes", h.image_bytes},
                {"options", h.options},
                {"source", entry.source},
                {"machine_code",
                 machine_code ? json{{"format", format}, {"text", *machine_code}} : json()}});
    return 0;
  }
  std::string out;
  auto to = std::back_inserter(out);
  fmt::format_to(to, "key            {}\npath           {}\nkernel         {}\narch           {}\n",
                 h.key, file.path, h.name, h.arch);
  fmt::format_to(to, "format         {}\nnvrtc          {}\njet            {}\n",
                 detail::cache_format_version, h.nvrtc_version, h.jet_version);
  fmt::format_to(to, "created        {}\nlast used      {}\ncompile time   {:.1f} ms\n",
                 format_time(h.created), format_time(seconds(file.last_used_ns)),
                 static_cast<double>(h.compile_us) / 1000.0);
  fmt::format_to(to, "size           {} (source {} B, {} {} B)\noptions        {}\n",
                 format_bytes(file.bytes), h.source_bytes, ptx ? "PTX" : "cubin", h.image_bytes,
                 join(h.options, " "));
  fmt::format_to(to, "\n--- source ---\n{}\n", entry.source);
  if (machine_code)
    fmt::format_to(to, "\n--- machine code ({}) ---\n{}", ptx ? "PTX" : "cuobjdump -sass",
                   *machine_code);
  else
    fmt::format_to(to,
                   "\n--- machine code: cubin of {} B; put cuobjdump on PATH to see its SASS ---\n",
                   h.image_bytes);
  write(out);
  return 0;
}

int run_stats(const invocation& inv) {
  const detail::cache_listing listing = detail::list_entries(inv.dir);
  const detail::cache_settings settings = detail::settings_from_env();
  std::uint64_t bytes = 0;
  for (const detail::entry_info& e : listing.entries) bytes += e.file.bytes;
  for (const detail::bad_entry& b : listing.bad) bytes += b.file.bytes;
  // Entries are sorted most recently used first.
  const bool empty = listing.entries.empty();
  const std::string newest =
      empty ? "" : format_time(seconds(listing.entries.front().file.last_used_ns));
  const std::string oldest =
      empty ? "" : format_time(seconds(listing.entries.back().file.last_used_ns));
  if (inv.json) {
    print_json({{"directory", inv.dir},
                {"enabled", settings.enabled},
                {"entries", listing.entries.size()},
                {"bytes", bytes},
                {"bad_entries", listing.bad.size()},
                {"max_bytes", settings.max_bytes},
                {"oldest_use", empty ? json() : json(oldest)},
                {"newest_use", empty ? json() : json(newest)}});
    return 0;
  }
  std::string out;
  auto to = std::back_inserter(out);
  fmt::format_to(to, "directory      {}\ndisk cache     {}\nentries        {}\n", inv.dir,
                 settings.enabled ? "on" : "off (JET_CACHE=off)", listing.entries.size());
  fmt::format_to(
      to,
      "size           {} ({} bytes)\nlimit          {} (JET_CACHE_MAX_BYTES)\nbad entries    {}\n",
      format_bytes(bytes), bytes, format_bytes(settings.max_bytes), listing.bad.size());
  if (!empty) fmt::format_to(to, "oldest use     {}\nnewest use     {}\n", oldest, newest);
  write(out);
  return 0;
}

}  // namespace jet::cli
