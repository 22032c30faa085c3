// Jet built without NCCL: the distributed part says so (see nccl.hpp).
#include "src/distributed/nccl.hpp"

namespace jet::detail::nccl {
namespace {

[[noreturn]] void missing() { throw distributed::unavailable(missing_reason()); }

}  // namespace

std::string missing_reason() {
  return "Jet was built without NCCL (nccl.h and libnccl were not found beside the CUDA "
         "toolkit): jet::distributed is unavailable";
}
std::string version() { missing(); }
distributed::unique_id make_unique_id() { missing(); }
comm init_rank(const distributed::unique_id&, int, int) { missing(); }
std::vector<comm> init_all(const std::vector<int>&) { missing(); }
void destroy(const std::vector<comm>&) noexcept {}
void group_start() { missing(); }
void group_end() { missing(); }
void issue(comm, int, const call&, cudaStream_t) { missing(); }

}  // namespace jet::detail::nccl
