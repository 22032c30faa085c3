// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3",
// SC'11): ten rounds of a keyed bijection of a 128-bit counter, giving four 32-bit words. Written
// once in the C++ that both NVRTC and the host compiler accept: codegen/CMakeLists.txt embeds it
// in the helpers of Jet's kernels (random draws fused into expressions, preamble_random.cpp),
// src/CMakeLists.txt in the random kernels' source, and the host tests compile it to check it
// against Random123's known answers. The includer defines JET_RNG_FN (`__device__
// __forceinline__`, or `inline` on the host). No includes here.
#ifndef JET_PHILOX_H
#define JET_PHILOX_H

struct jet_philox_block {
  unsigned int v[4];
};

JET_RNG_FN unsigned int jet_philox_mulhi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * b) >> 32);
}

JET_RNG_FN jet_philox_block jet_philox(const unsigned int counter[4], unsigned int k0,
                                       unsigned int k1) {
  unsigned int c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const unsigned int hi0 = jet_philox_mulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const unsigned int hi1 = jet_philox_mulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  jet_philox_block out = {{c0, c1, c2, c3}};
  return out;
}

#endif
