#include "frontend/CudaArgs.h"

#ifndef LDCC_CLANG_RESOURCE_DIR
#error "LDCC_CLANG_RESOURCE_DIR must be defined by the build (translator/CMakeLists.txt)"
#endif
#ifndef LDCC_CUDA_PATH
#error "LDCC_CUDA_PATH must be defined by the build (translator/CMakeLists.txt)"
#endif

namespace ldcc::frontend {

const char *toString(CudaSide side) {
  return side == CudaSide::Device ? "device" : "host";
}

const std::string &defaultCudaPath() {
  static const std::string path = LDCC_CUDA_PATH;
  return path;
}

const std::string &defaultResourceDir() {
  static const std::string dir = LDCC_CLANG_RESOURCE_DIR;
  return dir;
}

const char *const kParseOnlyHeaderPath = "/ldcc-parse-only/cache_hint_intrinsics.h";
// Templates: any pointee the CUDA overloads take; a system header, so calls of them are stores and
// loads no hook sees (FunctionAnalysis: untraced stores), as __stwt's are.
const char *const kParseOnlyHeaderText = R"(#pragma clang system_header
#pragma once
template <class T> __attribute__((device)) T __ldca(const T *);
template <class T> __attribute__((device)) T __ldlu(const T *);
template <class T, class V> __attribute__((device)) void __stcg(T *, V);
template <class T, class V> __attribute__((device)) void __stcs(T *, V);
template <class T, class V> __attribute__((device)) void __stwb(T *, V);
)";

std::vector<std::string> buildClangArgs(const CudaParseOptions &opts) {
  const std::string &cuda = opts.cudaPath.empty() ? defaultCudaPath() : opts.cudaPath;
  const std::string &resource =
      opts.resourceDir.empty() ? defaultResourceDir() : opts.resourceDir;

  std::vector<std::string> args = {
      "-x", "cuda",
      "-std=" + opts.std,
      "--cuda-path=" + cuda,
      "--cuda-gpu-arch=" + opts.gpuArch,
      // No libdevice bitcode needed for parsing; CUDA 13 is newer than clang 22 knows.
      "-nocudalib",
      "-Wno-unknown-cuda-version",
      // CUDA 13 keeps Thrust/CUB/libcu++ under include/cccl. -isystem keeps them system
      // headers, which is how their kernels are kept out of the inventory.
      "-isystem", cuda + "/include/cccl",
      // The driver passes the SDK version only to the host-side cc1. Without it the
      // device-side Sema lowers <<<...>>> to the pre-9.2 cudaConfigureCall, which CUDA 13
      // no longer declares ("use of undeclared identifier cudaConfigureCall" in Thrust).
      "-Xclang", "-target-sdk-version=12.9",
      opts.side == CudaSide::Device ? "--cuda-device-only" : "--cuda-host-only",
      "-resource-dir", resource,
      "-include", kParseOnlyHeaderPath,
  };
  for (const auto &dir : opts.includeDirs) args.push_back("-I" + dir);
  for (const auto &def : opts.defines) args.push_back("-D" + def);
  args.insert(args.end(), opts.extraArgs.begin(), opts.extraArgs.end());
  return args;
}

std::vector<std::string> buildClangCommandLine(const CudaParseOptions &opts,
                                               const std::string &file) {
  std::vector<std::string> cmd = {"clang"};
  auto flags = buildClangArgs(opts);
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  cmd.push_back(file);
  return cmd;
}

}  // namespace ldcc::frontend
