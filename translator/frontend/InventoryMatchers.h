// AST matchers that fill an Inventory (clang-facing; include only from clang code).
//
// Style follows clang-tidy / hipify-clang: one MatchCallback per concern, each
// registering its own matchers on a shared MatchFinder, so that the later translator
// can add rewriting callbacks beside them.
#pragma once

#include "frontend/Inventory.h"

#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/Basic/SourceLocation.h>

#include <memory>
#include <vector>

namespace clang {
class SourceManager;
class FunctionDecl;
}  // namespace clang

namespace ldcc::frontend {

// The user's position for a location: its macro expansion site, presumed (#line-aware).
SourcePos userPos(const clang::SourceManager &sm, clang::SourceLocation loc);
// Where the tokens at loc are written (differs from userPos inside macros).
SourcePos spellingPos(const clang::SourceManager &sm, clang::SourceLocation loc);

// True for a function clang compiles for the device: __global__, __device__ or
// __host__ __device__ (explicit or inferred, e.g. lambdas in device code).
bool isDeviceFunction(const clang::FunctionDecl &fn);

class InventoryCheck : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  explicit InventoryCheck(Inventory &inventory) : inventory_(inventory) {}
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &finder) = 0;

protected:
  Inventory &inventory_;
};

// Every __global__ function definition outside system headers (Thrust/CUB/... are
// system headers because CUDA's include dirs are -isystem / -internal-isystem).
class KernelCheck : public InventoryCheck {
public:
  using InventoryCheck::InventoryCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
};

// __syncthreads, __syncthreads_count/_and/_or, __syncwarp in kernels / device functions.
class BarrierIntrinsicCheck : public InventoryCheck {
public:
  using InventoryCheck::InventoryCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
};

// cooperative_groups: thread_block::sync() (a static member in CUDA 13, usually called
// as this_thread_block().sync() or block.sync()) and cooperative_groups::sync(block).
class CooperativeGroupsSyncCheck : public InventoryCheck {
public:
  using InventoryCheck::InventoryCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
};

// Owns the checks and the MatchFinder they are registered on.
class InventoryMatchers {
public:
  explicit InventoryMatchers(Inventory &inventory);
  clang::ast_matchers::MatchFinder &finder() { return finder_; }

private:
  clang::ast_matchers::MatchFinder finder_;
  std::vector<std::unique_ptr<InventoryCheck>> checks_;
};

}  // namespace ldcc::frontend
