// One rank of a communicator spanning processes, for test_distributed.cpp:
// `jet_distributed_rank ID_FILE SIZE RANK [mismatch]` joins with the unique id in ID_FILE on
// device RANK % count, checks an all-reduce, an all-gather and a broadcast against the values
// every rank computes alike, and exits 0 when all hold (1 and a message otherwise). With
// `mismatch` (and JET_DISTRIBUTED_CHECK=1), each rank all-reduces a different length instead,
// and exits 0 when that raises the check's error naming another rank.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "jet/jet.hpp"

namespace {

namespace dist = jet::distributed;

// Rank r's operand: i + r for i in [0, 6).
std::vector<float> operand(int r) {
  std::vector<float> v(6);
  for (int i = 0; i < 6; ++i) v[i] = static_cast<float>(i + r);
  return v;
}

// Rank r all-reduces 6 + r elements: the check must refuse before NCCL waits forever.
int mismatch(const dist::communicator& c) {
  try {
    dist::all_reduce(c, jet::ones({6 + c.rank()}, jet::float32));
  } catch (const jet::value_error& e) {
    const std::string other = "rank " + std::to_string(c.rank() == 0 ? 1 : 0) + " makes other";
    if (std::string(e.what()).find(other) != std::string::npos) return 0;
    std::fprintf(stderr, "rank %d: unexpected message: %s\n", c.rank(), e.what());
    return 1;
  }
  std::fprintf(stderr, "rank %d: mismatched all-reduces were not refused\n", c.rank());
  return 1;
}

int run(const char* id_file, int size, int rank, bool mismatched) {
  dist::unique_id id;
  std::FILE* f = std::fopen(id_file, "rb");
  if (!f || std::fread(id.bytes.data(), 1, id.bytes.size(), f) != id.bytes.size()) {
    std::fprintf(stderr, "rank %d: cannot read the unique id from %s\n", rank, id_file);
    return 1;
  }
  std::fclose(f);
  const jet::device_guard on(rank % jet::device::count());
  const dist::communicator c(id, size, rank);
  if (mismatched) return mismatch(c);
  const jet::array x = jet::asarray(operand(rank));
  const std::vector<float> sum = dist::all_reduce(c, x * 2).to_vector<float>();
  const std::vector<float> gathered = dist::all_gather(c, x).to_vector<float>();
  const std::vector<float> root = dist::broadcast(c, x, size - 1).to_vector<float>();
  bool ok = c.rank() == rank && c.size() == size && !c.all_local();
  for (int i = 0; i < 6; ++i) {
    float want = 0;
    for (int r = 0; r < size; ++r) want += 2 * operand(r)[i];
    ok = ok && sum[i] == want && root[i] == operand(size - 1)[i];
    for (int r = 0; r < size; ++r) ok = ok && gathered[r * 6 + i] == operand(r)[i];
  }
  if (!ok) std::fprintf(stderr, "rank %d of %d: a collective gave wrong values\n", rank, size);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: %s ID_FILE SIZE RANK [mismatch]\n", argv[0]);
    return 2;
  }
  try {
    return run(argv[1], std::atoi(argv[2]), std::atoi(argv[3]),
               argc == 5 && std::string(argv[4]) == "mismatch");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %s: %s\n", argv[3], e.what());
    return 1;
  }
}
