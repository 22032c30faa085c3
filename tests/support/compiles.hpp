// Host tests of rendered kernels: NVRTC compiles what jet::explain shows, with the options the
// pipeline gives Jet's kernels; no GPU needed.
#pragma once

#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"

namespace jet_test {

inline void check_compiles(const jet::expr& e) {
  const jet::explanation x = jet::explain(e);
  INFO(x.source);
  const jet::detail::compiled_kernel k =
      jet::detail::compile({x.kernel_name, x.source}, "sm_90", jet::codegen::jet_kernel_extras());
  CHECK(!k.image.empty());
  CHECK(k.arch == "sm_90");
}

}  // namespace jet_test
