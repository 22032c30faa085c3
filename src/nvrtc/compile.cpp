// The NVRTC stage.
#include "src/nvrtc/compile.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>

#include "jet/error.hpp"

namespace jet::detail {
namespace {

// Every NVRTC call's status goes through this.
void check_nvrtc(nvrtcResult status, const char* call) {
  if (status != NVRTC_SUCCESS)
    throw error(std::string(call) + " failed: " + nvrtcGetErrorString(status));
}

int arch_number(const std::string& arch) {
  const auto digits = arch.find_first_of("0123456789");
  return digits == std::string::npos ? 0 : std::stoi(arch.substr(digits));
}

std::string numbered(const std::string& source) {
  std::istringstream in(source);
  std::ostringstream out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) out << n << "\t" << line << "\n";
  return out.str();
}

struct program_deleter {
  void operator()(nvrtcProgram* p) const {
    nvrtcDestroyProgram(p);
    delete p;
  }
};

// The toolkit's include folders (curand_kernel.h, cuda/std/...) as "-I" options. Never
// destroyed, like the other lists a compile reads: a compile thread may still run at exit.
const std::vector<std::string>& toolkit_include_options() {
  static const auto* const options = new std::vector<std::string>([] {
    const char* env = std::getenv("JET_CUDA_INCLUDE_DIR");
    const std::string dir = env && *env ? env : JET_CUDA_INCLUDE_DIR;
    std::vector<std::string> list{"-I" + dir};
    if (std::filesystem::is_directory(dir + "/cccl")) list.push_back("-I" + dir + "/cccl");
    return list;
  }());
  return *options;
}

bool includes_headers(const codegen::kernel_source& source) {
  return source.source.find("#include") != std::string::npos;
}

// NVRTC takes -pch (automatic precompiled headers) from CUDA 12.8 on.
bool automatic_pch() {
  static const bool supported = [] {
    int major = 0, minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return major > 12 || (major == 12 && minor >= 8);
  }();
  return supported;
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

const std::vector<int>& supported_archs() {
  static const auto* const archs = new std::vector<int>([] {  // never destroyed (see above)
    int count = 0;
    check_nvrtc(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
    std::vector<int> list(static_cast<std::size_t>(count));
    check_nvrtc(nvrtcGetSupportedArchs(list.data()), "nvrtcGetSupportedArchs");
    std::sort(list.begin(), list.end());
    return list;
  }());
  return *archs;
}

std::string program_file_name(const std::string& name) { return name + ".cu"; }

std::string compile_target(const std::string& arch) {
  const std::vector<int>& archs = supported_archs();
  const int wanted = arch_number(arch);
  for (int a : archs)
    if (a == wanted) return "sm_" + std::to_string(a);
  return "compute_" + std::to_string(archs.empty() ? wanted : archs.back());
}

std::vector<std::string> compile_options(const codegen::kernel_source& source,
                                         const std::string& arch, const compile_extras& extras) {
  std::vector<std::string> options{"--gpu-architecture=" + compile_target(arch), "-std=c++17"};
  if (includes_headers(source))
    options.insert(options.end(), toolkit_include_options().begin(),
                   toolkit_include_options().end());
  options.insert(options.end(), extras.options.begin(), extras.options.end());
  return options;
}

compiled_kernel compile(const codegen::kernel_source& source, const std::string& arch,
                        const compile_extras& extras) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<nvrtcProgram, program_deleter> program(new nvrtcProgram{});
  check_nvrtc(nvrtcCreateProgram(program.get(), source.source.c_str(),
                                 program_file_name(source.name).c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  for (const std::string& e : extras.name_expressions)
    check_nvrtc(nvrtcAddNameExpression(*program, e.c_str()), "nvrtcAddNameExpression");
  std::vector<std::string> options = compile_options(source, arch, extras);
  // Sources that include headers (user kernels: curand_kernel.h alone parses for ~1.5 s) use
  // NVRTC's automatic precompiled headers, so that later kernels of the process including the
  // same headers skip the parse. NVRTC keeps them in a temporary folder while the process
  // lives, and compiles without them where it cannot write one.
  if (automatic_pch() && includes_headers(source) &&
      std::find(options.begin(), options.end(), "-pch") == options.end())
    options.push_back("-pch");
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult result =
      nvrtcCompileProgram(*program, static_cast<int>(argv.size()), argv.data());

  compiled_kernel out;
  out.name = source.name;
  out.arch = compile_target(arch);
  std::size_t log_size = 0;
  check_nvrtc(nvrtcGetProgramLogSize(*program, &log_size), "nvrtcGetProgramLogSize");
  out.log.resize(log_size);
  check_nvrtc(nvrtcGetProgramLog(*program, out.log.data()), "nvrtcGetProgramLog");
  while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  if (result != NVRTC_SUCCESS) {
    throw compile_error("NVRTC could not compile kernel " + source.name + ": " +
                            nvrtcGetErrorString(result) + "\n" + out.log + "\n--- source ---\n" +
                            numbered(source.source),
                        out.log, numbered(source.source));
  }
  for (const std::string& e : extras.name_expressions) {
    const char* lowered = nullptr;
    check_nvrtc(nvrtcGetLoweredName(*program, e.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered_names.emplace_back(lowered);
  }
  const bool ptx = out.arch.rfind("compute_", 0) == 0;
  std::size_t size = 0;
  if (ptx) {
    check_nvrtc(nvrtcGetPTXSize(*program, &size), "nvrtcGetPTXSize");
    out.image.resize(size);
    check_nvrtc(nvrtcGetPTX(*program, out.image.data()), "nvrtcGetPTX");
  } else {
    check_nvrtc(nvrtcGetCUBINSize(*program, &size), "nvrtcGetCUBINSize");
    out.image.resize(size);
    check_nvrtc(nvrtcGetCUBIN(*program, out.image.data()), "nvrtcGetCUBIN");
  }
  out.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace jet::detail
