// How long fresh host memory takes to be made usable: to_vector's floor (bench/NOTES.md, 28th
// session). A host program: g++ -O2 -std=c++20 -pthread bench/probes/host_memory.cpp
#include <sys/mman.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
using clk = std::chrono::steady_clock;
const std::size_t n = std::size_t{64} << 20, bytes = n * 4;
template <class F>
double med(F f) {
  std::vector<double> t;
  for (int i = 0; i < 7; ++i) {
    auto a = clk::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(clk::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[3];
}
void touch_parallel(char* p, int threads) {
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([=] {
      std::size_t a = bytes / threads * t, b = t + 1 == threads ? bytes : bytes / threads * (t + 1);
      std::memset(p + a, 0, b - a);
    });
  for (auto& t : ts) t.join();
}
int main() {
  volatile float sink = 0;
  double v = med([&] {
    std::vector<float> x(n);
    sink = sink + x[n / 2];
  });
  double m = med([&] {
    char* p = (char*)std::malloc(bytes);
    std::memset(p, 0, bytes);
    sink = sink + p[7];
    std::free(p);
  });
  double hot = 0;
  {
    char* p = (char*)std::malloc(bytes);
    std::memset(p, 1, bytes);
    hot = med([&] {
      std::memset(p, 0, bytes);
      sink = sink + p[9];
    });
    std::free(p);
  }
  double huge = med([&] {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(p, bytes, MADV_HUGEPAGE);
    std::memset(p, 0, bytes);
    sink = sink + ((char*)p)[5];
    munmap(p, bytes);
  });
  double par8 = med([&] {
    char* p = (char*)std::malloc(bytes);
    touch_parallel(p, 8);
    sink = sink + p[3];
    std::free(p);
  });
  double par8h = med([&] {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(p, bytes, MADV_HUGEPAGE);
    touch_parallel((char*)p, 8);
    sink = sink + ((char*)p)[5];
    munmap(p, bytes);
  });
  // reserve, MADV_POPULATE_WRITE on 8 threads (over MADV_HUGEPAGE or not), then resize.
  auto populated_vector = [&](bool huge) {
    std::vector<float> x;
    x.reserve(n);
    auto b = reinterpret_cast<std::uintptr_t>(x.data()), e = b + bytes;
    b = (b + 4095) & ~std::uintptr_t{4095};
    if (huge) madvise((void*)b, e - b, MADV_HUGEPAGE);
    std::vector<std::thread> ts;
    const int T = 8;
    std::size_t len = ((e - b) / T + 4095) & ~std::size_t{4095};
    for (int t = 0; t < T; ++t)
      ts.emplace_back([=] {
        std::uintptr_t a = b + len * t;
        if (a < e)
          madvise((void*)a, std::min<std::uintptr_t>(len, e - a) & ~std::uintptr_t{4095},
                  MADV_POPULATE_WRITE);
      });
    for (auto& t : ts) t.join();
    x.resize(n);
    sink = sink + x[n / 3];
  };
  double resv = med([&] { populated_vector(true); });
  double resv4k = med([&] { populated_vector(false); });
  {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string l;
    std::getline(f, l);
    std::cout << "THP: " << l << std::endl;
  }
  auto gb = [](double ms) { return bytes / (ms * 1e6); };
  std::printf("vector<float>(64M) value-init: %.1f ms (%.1f GB/s)\n", v, gb(v));
  std::printf("malloc+memset fresh: %.1f ms (%.1f GB/s)\n", m, gb(m));
  std::printf("memset of touched memory: %.1f ms (%.1f GB/s)\n", hot, gb(hot));
  std::printf("mmap+MADV_HUGEPAGE+memset: %.1f ms (%.1f GB/s)\n", huge, gb(huge));
  std::printf("malloc+8-thread first touch: %.1f ms (%.1f GB/s)\n", par8, gb(par8));
  std::printf("reserve+HUGEPAGE+8-thread POPULATE_WRITE+resize: %.1f ms (%.1f GB/s)\n", resv,
              gb(resv));
  std::printf("reserve+8-thread POPULATE_WRITE+resize (4K): %.1f ms (%.1f GB/s)\n", resv4k,
              gb(resv4k));
  std::printf("mmap+MADV_HUGEPAGE+8-thread touch: %.1f ms (%.1f GB/s)\n", par8h, gb(par8h));
}
