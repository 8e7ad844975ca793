// Which global memory a kernel writes (DESIGN.md sections 2 and 6), found by tracing every store and
// atomic of the kernel and of the helpers it calls back to its root: a pointer parameter, a pointer
// field of a by-value struct parameter, or a `__device__` variable. The runtime privatizes only
// these; read-only data is never copied. A store through a pointer that was loaded from memory
// cannot be traced to an allocation the runtime knows, so it makes the kernel run unchecked.
// Clang-facing header.
#pragma once

#include "rewrite/FunctionAnalysis.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ldcc::translator {

// A pointer the kernel is handed: a pointer parameter, or a pointer field (at any depth) of a
// by-value struct parameter.
struct KernelPointer {
  unsigned param = 0;
  std::vector<const clang::FieldDecl *> fields;  // empty: the parameter itself
  std::string access;                            // "out", "b.out": the clone's expression and the report name
  long long offset = -1;                         // bytes into the parameter; -1: unknown (dependent type)
  unsigned long long elementSize = 0;            // sizeof the pointee; 0: unknown
  bool assignable = true;                        // the clone can rebase it (nothing const on the way)
  bool written = false;
  bool writeOnly = false;       // written, and only ever stored through (storedParams): a parameter itself
  bool updatedInPlace = false;  // written, and only stored through or updated in place (storedParams)
};

struct KernelGlobals {
  std::vector<KernelPointer> pointers;              // every pointer the clone rebases
  // Const parameters holding a written pointer (`float* const out`, `const Args a`), and const generic
  // ones (`const P in`, below): the clone renames each and rebases a mutable copy under its name.
  std::set<unsigned> constParams;
  // Parameters whose type is a template parameter (`P in`), and packs (`Ts... xs`): the clone rebases
  // each where its instantiation makes it a pointer (::ldcc::rt::rebase_param), so a read through one
  // that points into a written target reads the unit's copy. Stores through them refuse the kernel
  // (the host does not know them as pointers, so memory only they reach gets no copies).
  std::vector<unsigned> genericParams;
  std::vector<const clang::VarDecl *> deviceVars;   // written __device__ variables, in query order
  // Set where a written pointer cannot be rebased (a `T* const` member of a struct parameter): its
  // stores would bypass the copies the checker compares, so the kernel runs unchecked.
  Refusal refusal;
};

class RootTracer;

// Written-ness for every function of the translation unit. Construct after the unit analysis;
// it records refusals (pointers loaded from memory and written through) in the facts.
class GlobalTargetAnalysis {
public:
  GlobalTargetAnalysis(clang::ASTContext &ctx, TranslationUnitAnalysis &tu);
  KernelGlobals of(const FunctionFacts &kernel) const;

  struct Root {
    // This: the object a member function is called on (with fields: a pointer read from them).
    enum Kind { Param, DeviceVar, This, Unknown } kind = Unknown;
    unsigned param = 0;
    std::vector<const clang::FieldDecl *> fields;
    bool byReference = false;  // a reference parameter: the caller's argument is the lvalue
    const clang::VarDecl *var = nullptr;
    bool operator<(const Root &o) const;
  };

private:
  // What a function's returned pointer or reference designates (`*countPtr() = 7`, `g.at(r, c) = v`);
  // loaded: a pointer it read from memory; fromInteger: one it made from an integer (RootTracer).
  struct Returned {
    std::vector<Root> roots;
    bool loaded = false;
    bool fromInteger = false;
  };
  std::vector<Root> writesOf(const FunctionFacts &facts);
  Returned returnsOf(const FunctionFacts &facts);
  RootTracer tracerFor(const clang::FunctionDecl *fn);
  clang::ASTContext &ctx_;
  TranslationUnitAnalysis &tu_;
  std::map<const clang::FunctionDecl *, std::vector<Root>> writes_;
  std::map<const clang::FunctionDecl *, Returned> returns_;
};

}  // namespace ldcc::translator
