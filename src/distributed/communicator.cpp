// Communicators: one rank joined by a unique id, or every local device at once (state.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "jet/device.hpp"
#include "src/distributed/state.hpp"

namespace jet::distributed {

bool available() { return jet::detail::nccl::missing_reason().empty(); }
std::string unavailable_reason() { return jet::detail::nccl::missing_reason(); }
std::string nccl_version() { return jet::detail::nccl::version(); }
unique_id make_unique_id() { return jet::detail::nccl::make_unique_id(); }

communicator::communicator(const unique_id& id, int size, int rank) {
  if (size < 1 || rank < 0 || rank >= size)
    throw value_error(fmt::format(
        "communicator: rank {} is outside [0, {}): a communicator of {} ranks has ranks 0 to {}",
        rank, size, size, size - 1));
  auto c = std::make_shared<clique>();
  const int device = jet::device::current_id();
  c->comms.push_back(jet::detail::nccl::init_rank(id, size, rank));
  state_ = std::make_shared<state>(state{c, c->comms[0], rank, size, device});
}

std::vector<communicator> communicator::local(const std::vector<int>& devices) {
  std::vector<int> ids = devices;
  if (ids.empty())
    for (int d = 0; d < jet::device::count(); ++d) ids.push_back(d);
  if (ids.empty())
    throw value_error("communicator::local: there is no CUDA device to make a rank of (" +
                      jet::device::unavailable_reason() + ")");
  for (std::size_t i = 0; i < ids.size(); ++i) {
    jet::device::get(ids[i]);  // jet::value_error for a device that does not exist
    if (std::count(ids.begin(), ids.end(), ids[i]) > 1)
      throw value_error(fmt::format(
          "communicator::local: device {} is named twice in [{}]: a device can be one rank", ids[i],
          fmt::join(ids, ", ")));
  }
  auto c = std::make_shared<clique>();
  c->comms = jet::detail::nccl::init_all(ids);
  c->all_local = true;
  std::vector<communicator> ranks;
  const int size = static_cast<int>(ids.size());
  for (int r = 0; r < size; ++r)
    ranks.push_back(communicator(std::make_shared<state>(state{c, c->comms[r], r, size, ids[r]})));
  return ranks;
}

int communicator::rank() const { return state_->rank; }
int communicator::size() const { return state_->size; }
int communicator::device() const { return state_->device; }
bool communicator::all_local() const { return state_->clique->all_local; }

}  // namespace jet::distributed
