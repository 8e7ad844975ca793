// Writes the checked clone of one kernel or __device__ function as source text (DESIGN.md
// section 6): the original text with the analysis' edits applied in a Rewriter of its own, so the
// original definition stays untouched in the output. Clang-facing header.
#pragma once

#include "rewrite/FunctionAnalysis.h"
#include "rewrite/GlobalTargets.h"

#include <clang/Rewrite/Core/Rewriter.h>

#include <string>
#include <vector>

namespace ldcc::translator {

// Tables shared by every clone of a translation unit; emitted once at the top of the output.
struct TranslationUnitTables {
  struct Site {
    std::string file;
    unsigned line = 0, column = 0;
    std::string what;
  };
  std::vector<Site> sites;
  std::vector<std::string> locals;             // "function: name"
  std::vector<const clang::VarDecl *> helperShared;  // slot -> variable
  unsigned addSite(const clang::SourceManager &sm, clang::SourceLocation loc, std::string what);
  unsigned slotOf(const clang::VarDecl *var);
};

// The two clones of a kernel or helper (DESIGN.md sections 4 and 6):
//   Checked: level W's and deterministic mode's, with the sites: the locals hoisted, a site at every
//     barrier, helper call and return, re-executions jumping back (ThreadState);
//   Blocks: level B's, the original body with the memory hooks only: barriers and returns as written
//     (BlockRunState, kernels/include/ldcc/kernels/block_run.cuh).
// Checked: level W's and deterministic mode's clone, its copies anywhere; CheckedInShared: the same clone
// for copies in dynamic shared memory, whose accesses to them compile to shared-memory instructions
// (writeClone makes its text with the Checked one: CloneText::inSharedText); Blocks: level B's.
enum class CloneKind { Checked, CheckedInShared, Blocks };

struct CloneText {
  std::string text;              // the whole clone definition (empty when refused)
  std::string inSharedText;      // kernels with shared variables, Checked: the CheckedInShared clone
  std::string preamble;          // namespace-scope declarations the clone needs before it
  Refusal refusal;               // set when the clone cannot be written after all
  std::vector<std::string> targetNames;  // kernels: shared variables in layout order
};

std::string cloneName(const clang::FunctionDecl *fn, CloneKind kind = CloneKind::Checked);
// A kernel parameter pack whose pattern is a const template parameter (`const Ps... xs`). The
// translation drops that const in the kernel and its clones: a parameter's own const is not part of
// the kernel's type, the clone's pack must be assignable (rebase_param), and GCC (the host compiler)
// rejects converting such a kernel to the launch wrappers' function pointers.
bool constTemplatePack(const clang::ParmVarDecl *param);
// The `const` tokens of a declaration from `begin` up to `end` (file locations).
std::vector<clang::SourceLocation> constTokens(const clang::SourceManager &sm, const clang::LangOptions &lang,
                                               clang::SourceLocation begin, clang::SourceLocation end);
// The definition or declaration with its template header, if any.
clang::SourceRange wholeDefinition(const clang::FunctionDecl *fn);

// `globals`: for kernels, the pointers to rebase and the __device__ variables the query describes.
// `maxThreads`: for kernels, the most threads a block of theirs has (the clone's __launch_bounds__).
// A Blocks clone registers nothing in `tables` and describes nothing (the checked clone's query does).
CloneText writeClone(const FunctionFacts &facts, const TranslationUnitAnalysis &tu, TranslationUnitTables &tables,
                     clang::ASTContext &ctx, CloneKind kind, const KernelGlobals *globals = nullptr,
                     unsigned maxThreads = 1024);

// The first declaration of `fn` with the clone's name and extra parameter, no body.
std::string writeClonePrototype(const clang::FunctionDecl *decl, bool isKernel, clang::ASTContext &ctx,
                                Refusal &refusal, CloneKind kind, unsigned maxThreads = 1024);

}  // namespace ldcc::translator
