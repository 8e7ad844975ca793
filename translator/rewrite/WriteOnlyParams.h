// Which pointer parameters a kernel only ever stores through: no thread of it can read what another
// block wrote there, so level B needs no re-execution over memory only they point into (DESIGN.md
// section 4; the runtime adds that no other pointer argument points into the same allocation).
// Clang-facing header.
#pragma once

#include "rewrite/FunctionAnalysis.h"

#include <set>

namespace ldcc::translator {

// The indices of the kernel's write-only pointer parameters. A parameter is write-only when every use
// of it in the kernel is the base of a plain assignment's left-hand side (`p[i] = v`, `p[i].x = v`,
// `*p = v`, `p->x = v`); any other use (a load, `+=`, a call argument, arithmetic, a copy into a
// variable) leaves it out. None is write-only when the kernel could read global memory other than
// through its pointer parameters, where the runtime could not see the aliasing: a parameter whose type
// holds pointers (a struct with pointer fields, a pointer to pointers), a global variable in device
// memory or one holding pointers, an integer cast to a pointer, a texture or surface, inline PTX with
// 64-bit or pointer operands, or a call whose callee is unknown; in the kernel or any user function
// it calls.
std::set<unsigned> writeOnlyParams(clang::ASTContext &ctx, const TranslationUnitAnalysis &tu,
                                   const clang::FunctionDecl *kernel);

}  // namespace ldcc::translator
