// Arrays over made-up device addresses, for host tests of lowering passes that look at
// addresses (operand merging, alignment) but never read memory.
#pragma once

#include <cstdint>
#include <memory>

#include "jet/array.hpp"
#include "src/device/memory.hpp"

namespace jet_test {

// An array of `shape` at `address` plus `offset` elements, C-ordered over a buffer of `shape`
// elements (or of `strides` when given). The buffer forgets the address before it is freed.
inline jet::array fake_array(const jet::shape& shape, jet::dtype type, std::uintptr_t address,
                             std::int64_t offset = 0) {
  std::shared_ptr<jet::detail::buffer> memory(new jet::detail::buffer, [](jet::detail::buffer* b) {
    b->data = nullptr;
    delete b;
  });
  memory->data = reinterpret_cast<void*>(address);
  return jet::array(memory, type, shape, jet::contiguous_strides(shape), offset);
}

}  // namespace jet_test
