// Launch-time proofs of race freedom, the translator's half (the runtime's is ldcc/proof.h).
//
// The LD paper (section 5.1) leaves out of checking the variables "with affine array indices that can
// be easily analyzed statically". Here every access of a kernel to memory it writes (a pointer
// parameter's allocation, a __shared__ variable) is described as an affine form over threadIdx,
// blockIdx and the trips of its `for` loops, with coefficients that depend only on the launch: its
// grid, block and scalar arguments and literals, evaluated at launch with the kernel's own C types. The
// result is a host function that gives the runtime those forms for one launch; the runtime decides.
//
// Whatever the forms cannot describe exactly keeps the kernel checked: an access through a pointer of
// unknown origin (loaded from memory, a modified pointer), a pointer to written memory handed to a
// function or stored, a __device__ variable, inline PTX, a call of a function that may touch memory, a
// template. Guards of the form `threadIdx.x == c` (and <, <=, >, >=) narrow the threads of an access;
// other conditions are ignored, which only adds accesses.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <string>

namespace ldcc::translator {

struct AffineProof {
  bool ok = false;
  std::string reason;    // !ok: why the kernel has no proof ("a store through a pointer loaded from memory")
  std::string function;  // ok: the definition of a host function `bool <name>(const ProofInput&, const AllocationLookup&)`
  bool deterministic = false;  // ok: a proven launch's result is also a function of its input alone
};

AffineProof proveAffine(clang::ASTContext &ctx, const clang::FunctionDecl *kernel, const std::string &name);

}  // namespace ldcc::translator
