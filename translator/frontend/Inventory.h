// What the translator needs to know about a CUDA translation unit before it rewrites
// anything: the user kernels and the synchronization sites (DESIGN.md sections 2, 6).
//
// Clang-free header.
#pragma once

#include <string>
#include <vector>

namespace ldcc::frontend {

// A position as the user sees it (presumed location of the macro expansion site).
struct SourcePos {
  std::string file;  // as clang names it (absolute when the input path was absolute)
  unsigned line = 0;
  unsigned column = 0;
};

// One user __global__ function definition (never one from a system header).
struct KernelInfo {
  std::string name;           // unqualified: "reduce"
  std::string qualifiedName;  // with namespaces: "app::reduce"
  SourcePos pos;              // of the name in the definition
  bool isTemplate = false;    // a function template, or an explicit specialization of one
};

// The level a synchronization point separates regions at (DESIGN.md section 2).
enum class SyncScope {
  Block,  // __syncthreads, _count/_and/_or, cooperative_groups thread_block sync
  Warp,   // __syncwarp
};

const char *toString(SyncScope scope);

// One call of a barrier in user code, inside a kernel or a __device__ function
// (including __host__ __device__ functions and lambdas inside them).
struct SyncSite {
  SyncScope scope = SyncScope::Block;
  std::string callee;         // "__syncthreads", "__syncthreads_count", "__syncwarp",
                              // "cooperative_groups::thread_block::sync",
                              // "cooperative_groups::sync"
  SourcePos pos;              // of the call (the macro use site if it is in a macro)
  SourcePos spelling;         // where the call's tokens are written (== pos unless in a
                              // macro; two barriers in one macro differ only here)
  std::string function;       // qualified name of the enclosing kernel / device function
                              // (the template, never an instantiation; for a lambda, the
                              // function that contains the lambda)
  bool inKernel = false;      // the enclosing function is __global__
  bool inLambda = false;      // the call is inside a lambda body
};

struct Inventory {
  std::vector<KernelInfo> kernels;  // sorted by position, unique
  std::vector<SyncSite> syncSites;  // sorted by position, unique

  // Sort both lists by (file, line, column) and drop duplicates (a call in a template
  // is seen once per instantiation).
  void normalize();
};

// One diagnostic clang emitted while parsing.
struct Diagnostic {
  enum class Level { Note, Remark, Warning, Error, Fatal };
  Level level = Level::Error;
  SourcePos pos;        // file empty / line 0 when the diagnostic has no location
  std::string message;  // clang's text, without "file:line:col: error: "
  std::string formatted() const;  // "file:line:col: error: message"
};

const char *toString(Diagnostic::Level level);

}  // namespace ldcc::frontend
