// NVRTC's output read back: the log with other files' text withheld, and the kernels an image
// defines.
#include <string>

#include "src/nvrtc/compile.hpp"
#include "src/nvrtc/output.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

TEST_CASE("the log keeps the source's own diagnostics and withholds other files' text",
          "[host][nvrtc]") {
  const std::string log =
      "k.cu(3): error: identifier \"x\" is undefined\n"
      "    y = x;\n"
      "        ^\n"
      "\n"
      "/etc/passwd(1): error: this declaration has no storage class or type specifier\n"
      "  root:x:0:0:root:/root:/bin/bash\n"
      "  ^\n"
      "          detected during instantiation of \"root\"\n"
      "\n"
      "secret(1).h(2): warning #20283-D: hunter2\n"
      "  hunter2\n"
      "\n"
      "__nv_name_map(2): error: identifier \"nothere\" is undefined\n"
      "  #pragma nv_mangled_name nothere\n"
      "\n"
      "3 errors detected in the compilation of \"k.cu\".";
  CHECK(jet::detail::log_of_own_source(log, "k", 100) ==
        "k.cu(3): error: identifier \"x\" is undefined\n"
        "    y = x;\n"
        "        ^\n"
        "\n"
        "/etc/passwd(1): error in an included file (its text is not shown)\n"
        "secret(1).h(2): warning #20283-D in an included file (its text is not shown)\n"
        "__nv_name_map(2): error: identifier \"nothere\" is undefined\n"
        "  #pragma nv_mangled_name nothere\n"
        "\n"
        "3 errors detected in the compilation of \"k.cu\".");
  // Another kernel's name makes k.cu a file of its own.
  CHECK(jet::detail::log_of_own_source(log, "other", 100).find("y = x") == std::string::npos);
  CHECK(jet::detail::log_of_own_source(log, "k", 2) ==
        "k.cu(3): error: identifier \"x\" is undefined\n"
        "    y = x;\n"
        "(8 more lines of the log are not shown)");
}

TEST_CASE("an image defines the kernels of its source, as cubin and as PTX", "[host][nvrtc]") {
  const jet::codegen::kernel_source source{
      "k",
      "extern \"C\" __device__ __noinline__ float twice(float x) { return 2 * x; }\n"
      "extern \"C\" __global__ void k(float* p) { p[0] = twice(p[1]); }\n"
      "template <class T> __global__ void t(T* p) { p[0] = 1; }\n"
      "template __global__ void t<int>(int*);\n"};
  for (const char* arch : {"sm_90", "sm_9999"}) {  // sm_9999: PTX of NVRTC's newest
    const jet::detail::compiled_kernel k = jet::detail::compile(source, arch);
    INFO(k.arch);
    CHECK(jet::detail::defines_kernel(k, "k"));
    CHECK(jet::detail::defines_kernel(k, "_Z1tIiEvPT_"));
    CHECK_FALSE(jet::detail::defines_kernel(k, "t"));
    CHECK_FALSE(jet::detail::defines_kernel(k, "twice"));
    CHECK_FALSE(jet::detail::defines_kernel(k, "nothere"));
  }
  jet::detail::compiled_kernel garbage = jet_test::sample_image();
  garbage.image.resize(100);
  CHECK_FALSE(jet::detail::defines_kernel(garbage, "k0"));
  CHECK(jet::detail::defines_kernel(jet_test::sample_image(), "k0"));
}
