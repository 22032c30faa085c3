// The checks of queued calls (checks.hpp): across the local ranks of one thread's group on the
// host, and across processes, when asked, through an all-gather of each rank's fingerprint.
#include "src/distributed/checks.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

#include "jet/device.hpp"
#include "jet/stream.hpp"

namespace jet::distributed {
namespace {

namespace nccl = jet::detail::nccl;

bool point_to_point(const pending& p) {
  return p.call.what == nccl::kind::send || p.call.what == nccl::kind::recv;
}

std::string describe(const pending& p) {
  std::string s = fmt::format("{} of {} {}", p.name, name(p.dtype), to_string(p.shape));
  if (p.call.what == nccl::kind::all_reduce || p.call.what == nccl::kind::reduce ||
      p.call.what == nccl::kind::reduce_scatter)
    s += fmt::format(" ({})", op_name(p.call.op));
  if (p.call.what == nccl::kind::reduce || p.call.what == nccl::kind::broadcast)
    s += fmt::format(" from root {}", p.call.peer);
  return s;
}

bool same_call(const pending& a, const pending& b) {
  return a.call.what == b.call.what && a.shape == b.shape && a.dtype == b.dtype &&
         a.call.op == b.call.op && a.call.peer == b.call.peer;
}

// The collectives of the ranks present, in order, must be the same call.
void check_collectives(const std::vector<std::vector<const pending*>>& ranks) {
  int first = -1;
  for (int r = 0; r < static_cast<int>(ranks.size()); ++r) {
    if (ranks[r].empty()) continue;
    if (first < 0) {
      first = r;
      continue;
    }
    const auto& a = ranks[first];
    const auto& b = ranks[r];
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      if (i < a.size() && i < b.size() && same_call(*a[i], *b[i])) continue;
      throw value_error(fmt::format(
          "collective {} of the group: rank {} calls {}, rank {} calls {}; every rank of a "
          "communicator must make the same calls with the same shapes and dtypes",
          i + 1, first, i < a.size() ? describe(*a[i]) : "nothing", r,
          i < b.size() ? describe(*b[i]) : "nothing"));
    }
  }
}

// Each send between ranks present must meet a recv of the same shape and dtype, in order.
void check_pairs(const std::vector<std::vector<const pending*>>& ranks) {
  const int n = static_cast<int>(ranks.size());
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to) {
      if (ranks[from].empty() || ranks[to].empty()) continue;
      std::vector<const pending*> sends, recvs;
      for (const pending* p : ranks[from])
        if (p->call.what == nccl::kind::send && p->call.peer == to) sends.push_back(p);
      for (const pending* p : ranks[to])
        if (p->call.what == nccl::kind::recv && p->call.peer == from) recvs.push_back(p);
      for (std::size_t i = 0; i < std::max(sends.size(), recvs.size()); ++i) {
        if (i < sends.size() && i < recvs.size() && sends[i]->shape == recvs[i]->shape &&
            sends[i]->dtype == recvs[i]->dtype)
          continue;
        throw value_error(
            fmt::format("send {} from rank {} to rank {}: rank {} sends {}, rank {} receives {}",
                        i + 1, from, to, from, i < sends.size() ? describe(*sends[i]) : "nothing",
                        to, i < recvs.size() ? describe(*recvs[i]) : "nothing"));
      }
    }
}

// The collectives queued for one rank, described in order.
std::string descriptions(const std::vector<pending>& calls, const communicator::state& rank) {
  std::string out;
  for (const pending& p : calls)
    if (&p.comm.get() == &rank && !point_to_point(p))
      out += (out.empty() ? "" : ", ") + describe(p);
  return out.empty() ? "none" : out;
}

}  // namespace

void check_local_ranks(const std::vector<pending>& calls) {
  std::map<const clique*, std::pair<std::vector<std::vector<const pending*>>,
                                    std::vector<std::vector<const pending*>>>>
      cliques;
  for (const pending& p : calls) {
    const communicator::state& s = p.comm.get();
    if (!s.clique->all_local) continue;
    auto& [collectives, pairs] = cliques[s.clique.get()];
    collectives.resize(s.size);
    pairs.resize(s.size);
    (point_to_point(p) ? pairs : collectives)[s.rank].push_back(&p);
  }
  for (const auto& [c, lists] : cliques) {
    check_collectives(lists.first);
    check_pairs(lists.second);
  }
}

const char* op_name(reduce_op op) {
  constexpr const char* names[] = {"sum", "prod", "min", "max", "avg"};
  return names[static_cast<int>(op)];
}

void check_across_processes(const std::vector<pending>& calls) {
  const char* flag = std::getenv("JET_DISTRIBUTED_CHECK");
  if (!flag || std::string(flag) == "0") return;
  // Each communicator's collectives here: their number and an FNV-1a hash of their descriptions.
  std::map<const communicator::state*, std::pair<std::uint64_t, std::uint64_t>> prints;
  for (const pending& p : calls) {
    const communicator::state& s = p.comm.get();
    if (s.clique->all_local || s.size == 1) continue;
    auto& [count, hash] = prints.try_emplace(&s, 0, 14695981039346656037ull).first->second;
    if (point_to_point(p)) continue;
    ++count;
    for (const char ch : describe(p) + ";")
      hash = (hash ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  }
  for (const auto& [s, print] : prints) {
    const jet::device_guard on(s->device);
    const array mine = asarray(std::vector<std::uint64_t>{print.first, print.second});
    const array all = empty({2 * std::int64_t{s->size}}, uint64);
    nccl::group_start();
    nccl::issue(s->comm, s->rank, {nccl::kind::all_gather, mine.data(), all.data(), 16},
                jet::current_stream());
    nccl::group_end();
    const std::vector<std::uint64_t> prints_of_all = all.to_vector<std::uint64_t>();
    for (int r = 0; r < s->size; ++r)
      if (prints_of_all[2 * r] != print.first || prints_of_all[2 * r + 1] != print.second)
        throw value_error(fmt::format(
            "JET_DISTRIBUTED_CHECK: rank {} makes other collectives than rank {} ({} and {} "
            "calls; rank {}'s: {}): every rank of a communicator must make the same calls with "
            "the same shapes and dtypes",
            r, s->rank, prints_of_all[2 * r], print.first, s->rank, descriptions(calls, *s)));
  }
}

}  // namespace jet::distributed
