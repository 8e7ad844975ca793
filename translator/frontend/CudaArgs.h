// The clang command line ldcc uses to parse a CUDA translation unit (DESIGN.md section 6).
//
// Clang-free header: the driver and the tests include it without clang's headers.
#pragma once

#include <string>
#include <vector>

namespace ldcc::frontend {

// CUDA source is parsed once per side. Kernels and __device__ functions are fully
// analysable in either side; the device side is the default for the inventory.
enum class CudaSide { Device, Host };

const char *toString(CudaSide side);

struct CudaParseOptions {
  CudaSide side = CudaSide::Device;
  std::string cudaPath;              // empty: defaultCudaPath()
  std::string resourceDir;           // empty: defaultResourceDir()
  std::string gpuArch = "sm_90";     // --cuda-gpu-arch
  std::string std = "c++17";         // -std
  std::vector<std::string> includeDirs;  // -I (user directories, not system)
  std::vector<std::string> defines;      // -D NAME or NAME=VALUE
  std::vector<std::string> extraArgs;    // appended verbatim, last
};

// The CUDA installation and clang resource directory baked in at configure time.
const std::string &defaultCudaPath();
const std::string &defaultResourceDir();

// A header only ldcc's parse includes (a virtual file the tools map at this path): declarations of
// CUDA's cache-hint intrinsics that clang's CUDA headers lack (clang 22: __ldca, __ldlu, __stcg,
// __stcs, __stwb), so a file that uses them translates. nvcc compiles the translation with CUDA's.
extern const char *const kParseOnlyHeaderPath;
extern const char *const kParseOnlyHeaderText;

// The compiler flags (no program name, no input file) for one side:
//   -x cuda -std=c++17 --cuda-path=<cuda> --cuda-gpu-arch=sm_90 -nocudalib
//   -Wno-unknown-cuda-version -isystem <cuda>/include/cccl
//   -Xclang -target-sdk-version=12.9 --cuda-device-only|--cuda-host-only
//   -resource-dir <dir> -include <kParseOnlyHeaderPath> -I... -D... <extraArgs>
std::vector<std::string> buildClangArgs(const CudaParseOptions &opts);

// A full command line: "clang", the flags above, then the input file.
std::vector<std::string> buildClangCommandLine(const CudaParseOptions &opts,
                                               const std::string &file);

}  // namespace ldcc::frontend
