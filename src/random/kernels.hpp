// The kernels behind the distributions cuRAND's host API lacks, and the sort and gather that
// choice, permutation and shuffle need. Their source (device_params.hpp, device_algorithms.hpp
// and the entry points in kernels.cpp) runs as fixed kernel plans through the pipeline's
// driver: the memory cache, the disk cache, NVRTC. All run on the current stream and take
// contiguous arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/render/kernel_source.hpp"
#include "jet/array.hpp"

namespace jet::random::detail {

// device_params.hpp and device_algorithms.hpp as one string, embedded by src/CMakeLists.txt.
extern const char* const device_code;

// Every random kernel's name, and its source: the host tests compile them all with NVRTC.
std::vector<std::string> kernel_names();
codegen::kernel_source kernel_source(const std::string& name);

// Samplers: each element draws from its own Philox stream keyed by `key`, four uint32 words
// drawn from the generator for this launch.
void launch_gamma(const array& out_f64, const array& key, double shape, double scale);
void launch_gamma_f32(const array& out_f32, const array& key, double shape, double scale);
void launch_beta(const array& out_f64, const array& key, double a, double b);
void launch_poisson(const array& out_i64, const array& key, double lam);
void launch_binomial(const array& out_i64, const array& key, std::int64_t trials, double p);
// low + a uniform integer below `range` (0 stands for 2^64), modulo 2^64.
void launch_below(const array& out_u64, const array& key, std::uint64_t low, std::uint64_t range);

// out[i] = the first index of `cdf` whose value exceeds u[i]; cdf ascends to exactly 1 and
// every u is below 1.
void search_sorted(const array& out_i64, const array& u_f64, const array& cdf_f64);
// out = `positions` (int32 or int64), sorted stably by the uint32 `keys`, with each run of
// equal keys shuffled from the streams of `key`: a uniformly random permutation's last step.
void untie(const array& out_i64, const array& key, const array& keys_u32, const array& positions);
// Row r of `out` = row rows[r] of `in`, both C-contiguous with equal rows; rows is int64.
void gather_rows(const array& out, const array& in, const array& rows);

}  // namespace jet::random::detail
