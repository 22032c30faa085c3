// Parameter blocks of the random kernels (src/random/kernels.cpp). Every member is 8 bytes,
// so the host compiler and NVRTC lay the structs out alike: the host fills one and the kernel
// takes it by value. src/CMakeLists.txt embeds this file in the kernels' source, which is why
// it guards itself with a macro and includes nothing.
#ifndef JET_RANDOM_PARAMS_HPP
#define JET_RANDOM_PARAMS_HPP

// `key` points at four 32-bit words drawn from the cuRAND generator for this launch: the
// Philox key of every element's stream and a word that separates launches further.
struct jet_rng_gamma_params {
  double* out;
  const unsigned int* key;
  long long n;
  double shape;
  double scale;
};

struct jet_rng_gamma_f32_params {
  float* out;
  const unsigned int* key;
  long long n;
  double shape;
  double scale;
};

struct jet_rng_beta_params {
  double* out;
  const unsigned int* key;
  long long n;
  double a;
  double b;
};

struct jet_rng_poisson_params {
  long long* out;
  const unsigned int* key;
  long long n;
  double lam;
};

struct jet_rng_binomial_params {
  long long* out;
  const unsigned int* key;
  long long n;
  long long trials;
  double p;
};

// out[i] = low + a uniform integer below `range` (0 stands for 2^64), modulo 2^64.
struct jet_rng_below_params {
  unsigned long long* out;
  const unsigned int* key;
  long long n;
  unsigned long long low;
  unsigned long long range;
};

// out[i] = the first index of `cdf` (ascending, last element 1) whose value exceeds u[i].
struct jet_rng_search_params {
  long long* out;
  const double* u;
  const double* cdf;
  long long n;
  long long categories;
};

// A permutation's last step: `positions` (int32, or int64 where `wide`) sorted by the uint32
// `keys` (stably), with each run of equal keys shuffled, written to out as int64.
struct jet_rng_untie_params {
  long long* out;
  const unsigned int* key;
  long long n;
  const unsigned int* keys;
  const void* positions;
  long long wide;
};

// out row r = in row rows[r], rows of `row_units` units of the kernel's unit type.
struct jet_rng_gather_params {
  void* out;
  const void* in;
  const long long* rows;
  long long units;
  long long row_units;
};

#endif
