// The translator front end: clang argument lists, and the exact kernel / sync-site
// inventory of each input under inputs/ (parsed with clang 22 against CUDA 13).
#include "frontend/CudaArgs.h"
#include "frontend/Scanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

using namespace ldcc::frontend;

namespace {

std::string input(const std::string &name) {
  return std::string(LDCC_TRANSLATOR_INPUTS) + "/" + name;
}

std::string baseName(const std::string &path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Comparable, printable views of the inventory.
struct K {
  std::string qualifiedName;
  std::string file;
  unsigned line, column;
  bool isTemplate;
  bool operator==(const K &o) const {
    return std::tie(qualifiedName, file, line, column, isTemplate) ==
           std::tie(o.qualifiedName, o.file, o.line, o.column, o.isTemplate);
  }
};
std::ostream &operator<<(std::ostream &os, const K &k) {
  return os << "kernel " << k.qualifiedName << " " << k.file << ":" << k.line << ":"
            << k.column << (k.isTemplate ? " template" : " plain");
}

struct S {
  std::string callee;
  std::string file;
  unsigned line, column;
  std::string function;
  bool inKernel;
  SyncScope scope = SyncScope::Block;
  bool inLambda = false;
  bool operator==(const S &o) const {
    return std::tie(callee, file, line, column, function, inKernel, scope, inLambda) ==
           std::tie(o.callee, o.file, o.line, o.column, o.function, o.inKernel, o.scope,
                    o.inLambda);
  }
};
std::ostream &operator<<(std::ostream &os, const S &s) {
  return os << "sync " << toString(s.scope) << " " << s.callee << " " << s.file << ":"
            << s.line << ":" << s.column << " in " << s.function
            << (s.inKernel ? " (kernel)" : " (device)") << (s.inLambda ? " lambda" : "");
}

std::vector<K> kernels(const ScanResult &r) {
  std::vector<K> out;
  for (const auto &k : r.inventory.kernels)
    out.push_back({k.qualifiedName, baseName(k.pos.file), k.pos.line, k.pos.column,
                   k.isTemplate});
  return out;
}

std::vector<S> sites(const ScanResult &r) {
  std::vector<S> out;
  for (const auto &s : r.inventory.syncSites)
    out.push_back({s.callee, baseName(s.pos.file), s.pos.line, s.pos.column, s.function,
                   s.inKernel, s.scope, s.inLambda});
  return out;
}

std::string diagnostics(const ScanResult &r) {
  std::string out;
  for (const auto &d : r.diagnostics) out += d.formatted() + "\n";
  return out;
}

ScanResult scan(const std::string &name, CudaSide side = CudaSide::Device,
                std::vector<std::string> includeDirs = {},
                std::vector<std::string> defines = {}) {
  ScanOptions opts;
  opts.parse.side = side;
  opts.parse.includeDirs = std::move(includeDirs);
  opts.parse.defines = std::move(defines);
  return scanFile(input(name), opts);
}

bool contains(const std::vector<std::string> &args, const std::vector<std::string> &seq) {
  return std::search(args.begin(), args.end(), seq.begin(), seq.end()) != args.end();
}

}  // namespace

// --- clang argument lists -------------------------------------------------------------

TEST(CudaArgs, DeviceSideHasTheCuda13Flags) {
  CudaParseOptions opts;
  opts.cudaPath = "/opt/cuda";
  opts.resourceDir = "/opt/clang/22";
  auto args = buildClangArgs(opts);
  const std::vector<std::string> expected = {
      "-x", "cuda", "-std=c++17", "--cuda-path=/opt/cuda", "--cuda-gpu-arch=sm_90",
      "-nocudalib", "-Wno-unknown-cuda-version", "-isystem", "/opt/cuda/include/cccl",
      "-Xclang", "-target-sdk-version=12.9", "--cuda-device-only",
      "-resource-dir", "/opt/clang/22", "-include", kParseOnlyHeaderPath};
  EXPECT_EQ(args, expected);
}

TEST(CudaArgs, HostSideAndUserFlags) {
  CudaParseOptions opts;
  opts.side = CudaSide::Host;
  opts.includeDirs = {"inc", "/abs/inc"};
  opts.defines = {"N=4", "FAST"};
  opts.extraArgs = {"-Wall"};
  auto args = buildClangArgs(opts);
  EXPECT_TRUE(contains(args, {"--cuda-host-only"}));
  EXPECT_FALSE(contains(args, {"--cuda-device-only"}));
  EXPECT_TRUE(contains(args, {"--cuda-path=" + defaultCudaPath()}));
  EXPECT_TRUE(contains(args, {"-resource-dir", defaultResourceDir()}));
  EXPECT_TRUE(contains(args, {"-Iinc", "-I/abs/inc", "-DN=4", "-DFAST", "-Wall"}));
  EXPECT_EQ(args.back(), "-Wall");
}

TEST(CudaArgs, CommandLineIsProgramFlagsFile) {
  auto cmd = buildClangCommandLine({}, "a.cu");
  ASSERT_GE(cmd.size(), 3u);
  EXPECT_EQ(cmd.front(), "clang");
  EXPECT_EQ(cmd.back(), "a.cu");
  EXPECT_FALSE(defaultCudaPath().empty());
  EXPECT_FALSE(defaultResourceDir().empty());
}

// --- inventory ----------------------------------------------------------------------

TEST(Inventory, SyncthreadsInALoop) {
  auto r = scan("sync_in_loop.cu");
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r), (std::vector<K>{
                            {"app::blockSum", "sync_in_loop.cu", 6, 17, false},
                            {"scale", "sync_in_loop.cu", 21, 17, false},
                        }));
  EXPECT_EQ(sites(r), (std::vector<S>{
                          {"__syncthreads", "sync_in_loop.cu", 11, 3, "app::blockSum", true},
                          {"__syncthreads", "sync_in_loop.cu", 14, 5, "app::blockSum", true},
                      }));
  EXPECT_EQ(r.inventory.kernels[0].name, "blockSum");
}

TEST(Inventory, TemplatedKernelListedOnceNotPerInstantiation) {
  auto r = scan("template_kernel.cu");
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r),
            (std::vector<K>{
                {"countNegative", "template_kernel.cu", 6, 17, true},
                {"countNegative", "template_kernel.cu", 16, 17, true},  // explicit spec.
            }));
  EXPECT_EQ(sites(r),
            (std::vector<S>{
                {"__syncthreads", "template_kernel.cu", 9, 3, "countNegative", true},
                {"__syncthreads_count", "template_kernel.cu", 10, 13, "countNegative", true},
            }));
}

TEST(Inventory, BarriersInDeviceHelpersLambdasAndMacros) {
  auto r = scan("device_helper.cu");
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r), (std::vector<K>{
                            {"reduceKernel", "device_helper.cu", 27, 17, false},
                            {"lambdaKernel", "device_helper.cu", 33, 17, false},
                        }));
  EXPECT_EQ(sites(r),
            (std::vector<S>{
                {"__syncwarp", "device_helper.cu", 11, 3, "warpSum", false, SyncScope::Warp},
                {"__syncthreads", "device_helper.cu", 19, 3, "blockReduce", false},
                {"__syncthreads", "device_helper.cu", 21, 3, "blockReduce", false},
                {"__syncthreads", "device_helper.cu", 36, 5, "lambdaKernel", true,
                 SyncScope::Block, /*inLambda=*/true},
            }));
  // The macro use is the site; the macro body is where it is spelled.
  const auto &macroSite = r.inventory.syncSites[2];
  EXPECT_EQ(macroSite.spelling.line, 6u);
  EXPECT_EQ(macroSite.spelling.column, 25u);
  EXPECT_EQ(r.inventory.syncSites[1].spelling.line, 19u);
}

TEST(Inventory, CooperativeGroupsThreadBlockSync) {
  auto r = scan("cooperative_groups.cu");
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r), (std::vector<K>{
                            {"shiftLeft", "cooperative_groups.cu", 10, 17, false},
                        }));
  const std::string member = "cooperative_groups::thread_block::sync";
  EXPECT_EQ(sites(r),
            (std::vector<S>{
                {member, "cooperative_groups.cu", 13, 3, "shiftLeft", true},
                {member, "cooperative_groups.cu", 16, 3, "shiftLeft", true},
                {"cooperative_groups::sync", "cooperative_groups.cu", 18, 3, "shiftLeft", true},
            }));
}

TEST(Inventory, SyncthreadsPredicateForms) {
  auto r = scan("syncthreads_count.cu");
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r), (std::vector<K>{{"vote", "syncthreads_count.cu", 4, 17, false}}));
  EXPECT_EQ(sites(r),
            (std::vector<S>{
                {"__syncthreads_count", "syncthreads_count.cu", 6, 15, "vote", true},
                {"__syncthreads_and", "syncthreads_count.cu", 7, 13, "vote", true},
                {"__syncthreads_or", "syncthreads_count.cu", 8, 13, "vote", true},
            }));
}

TEST(Inventory, ThrustAndCubKernelsAreNotListed) {
  auto r = scan("thrust_cub.cu");
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r), (std::vector<K>{{"blockSums", "thrust_cub.cu", 10, 17, false}}));
  EXPECT_EQ(sites(r), (std::vector<S>{
                          {"__syncthreads", "thrust_cub.cu", 15, 3, "blockSums", true},
                      }));
}

TEST(Inventory, ThrustAndCubParseOnTheHostSideToo) {
  auto device = scan("thrust_cub.cu", CudaSide::Device);
  auto host = scan("thrust_cub.cu", CudaSide::Host);
  ASSERT_TRUE(host.ok) << diagnostics(host);
  EXPECT_EQ(kernels(host), kernels(device));
  EXPECT_EQ(sites(host), sites(device));
}

TEST(Inventory, HostSideSeesTheSameDeviceCode) {
  for (const char *name : {"device_helper.cu", "template_kernel.cu", "cooperative_groups.cu"}) {
    auto device = scan(name, CudaSide::Device);
    auto host = scan(name, CudaSide::Host);
    ASSERT_TRUE(host.ok) << name << "\n" << diagnostics(host);
    EXPECT_EQ(kernels(host), kernels(device)) << name;
    EXPECT_EQ(sites(host), sites(device)) << name;
  }
}

TEST(Inventory, UserIncludeDirsAndDefines) {
  auto r = scan("needs_flags.cu", CudaSide::Device, {input("include")}, {"LDCC_WITH_KERNEL=1"});
  ASSERT_TRUE(r.ok) << diagnostics(r);
  EXPECT_EQ(kernels(r), (std::vector<K>{{"staged", "needs_flags.cu", 5, 17, false}}));
  // A user header is user code, even though it is not the main file.
  EXPECT_EQ(sites(r), (std::vector<S>{
                          {"__syncthreads", "user_barrier.cuh", 6, 3, "stage", false},
                      }));

  auto noDefine = scan("needs_flags.cu", CudaSide::Device, {input("include")});
  ASSERT_TRUE(noDefine.ok) << diagnostics(noDefine);
  EXPECT_TRUE(noDefine.inventory.kernels.empty());

  auto noInclude = scan("needs_flags.cu");
  EXPECT_FALSE(noInclude.ok);
  EXPECT_NE(diagnostics(noInclude).find("needs_flags.cu:2:"), std::string::npos)
      << diagnostics(noInclude);
}

// --- failures -----------------------------------------------------------------------

TEST(Errors, MissingFileIsAnErrorNotACrash) {
  auto r = scan("does_not_exist.cu");
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.errorCount(), 1u);
  EXPECT_EQ(baseName(r.diagnostics[0].pos.file), "does_not_exist.cu");
  EXPECT_NE(r.diagnostics[0].formatted().find("no such file or directory"), std::string::npos);
}

TEST(Errors, SyntaxErrorHasFileAndLine) {
  auto r = scan("syntax_error.cu");
  EXPECT_FALSE(r.ok);
  ASSERT_GE(r.errorCount(), 1u);
  const auto &d = r.diagnostics[0];
  EXPECT_EQ(d.level, Diagnostic::Level::Error);
  EXPECT_EQ(baseName(d.pos.file), "syntax_error.cu");
  EXPECT_EQ(d.pos.line, 4u);
  EXPECT_NE(d.message.find("expected ';'"), std::string::npos) << d.message;
  // The kernel was still seen (clang recovers); the caller decides what to trust.
  EXPECT_EQ(kernels(r), (std::vector<K>{{"broken", "syntax_error.cu", 3, 17, false}}));
}
