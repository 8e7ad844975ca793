// Which pointer parameters a kernel only ever stores through, or updates in place: no thread of it
// reads bytes there that it does not store itself, so where the blocks' stores are disjoint no block
// can read what another wrote, and level B needs no re-execution over memory only they point into
// (DESIGN.md section 4; the runtime adds that no other pointer argument points into the same
// allocation).
// Clang-facing header.
#pragma once

#include "rewrite/FunctionAnalysis.h"

#include <set>
#include <utility>
#include <vector>

namespace ldcc::translator {

// A parameter is write-only when every use of it in the kernel is the base of a plain assignment's
// left-hand side (`p[i] = v`, `p[i].x = v`, `*p = v`, `p->x = v`), and updated in place when every use
// is the base of a plain or compound assignment's, or of ++ or --, or of a load the thread follows with
// a store to the same element, at least one not plain (`p[i] += v`, `p[i].x++`,
// `if (p[i] != c) ...; p[i] = c;`): each load of it reads bytes the same thread then stores. Such a
// load and its store must name the element alike, from locals no statement between them changes
// (nor anything takes the address of), threadIdx and the like, literals and arithmetic; the store is a
// statement of its own, in the list that holds the load's statement or is that statement, and nothing
// from the load to the store may leave the list (a jump, inline PTX, a call of a user function, a user
// constructor or destructor). Any
// other use (another load, a call argument, arithmetic, a copy into a variable, an assignment whose
// value is used) leaves it out,
// and a kernel template has neither kind (its operators and conversions are not resolved yet). None is write-only when the kernel could read global memory other than
// through its pointer parameters, where the runtime could not see the aliasing: a parameter whose type
// holds pointers (a struct with pointer fields, a pointer to pointers), a global variable in device
// memory or one holding pointers, an integer cast to a pointer, a texture or surface, inline PTX with
// 64-bit or pointer operands, or a call whose callee is unknown; in the kernel or any user function
// it calls.
struct StoredParams {
  std::set<unsigned> writeOnly;       // parameter indices
  std::set<unsigned> updatedInPlace;  // disjoint from writeOnly
};
StoredParams storedParams(clang::ASTContext &ctx, const TranslationUnitAnalysis &tu, const clang::FunctionDecl *kernel);

// Which pointer parameters a thread of the checked clone loaded through in a region, as bits of
// `ldcc_loaded` (bit i: parameter i; ::ldcc::rt::kUnknownLoads, bit 31: any memory). Level W commits a
// region without re-execution when no parameter the block loaded through points into a global target
// it stored to (DESIGN.md section 4: no unit then read what another wrote).
// A load of an element of a parameter (`p[i]`, `*p`, `p->x`, `p[i].x`, the read of `p[i] += v`) gets a
// mark, `(ldcc_loaded |= 1u << i, p)[i]`; a parameter with any other use (a copy, arithmetic on it, a
// call argument, an address taken) or a use a mark cannot be written at (in a macro, a lambda, another
// file) is loaded in every region (`always`). Where the kernel could read global memory other than
// through its pointer parameters (readsBeyondPointerParams), or is a template (its element types and
// operators are not resolved), every region loads anything: `always` is kUnknownLoads, no marks.
constexpr unsigned kMarkedParams = 31;
constexpr unsigned kUnknownLoads = 1u << 31;
struct ParamLoads {
  unsigned always = kUnknownLoads;
  std::vector<std::pair<const clang::DeclRefExpr *, unsigned>> marks;  // a load's parameter, its bit
};
ParamLoads paramLoads(clang::ASTContext &ctx, const TranslationUnitAnalysis &tu, const clang::FunctionDecl *kernel);

}  // namespace ldcc::translator
