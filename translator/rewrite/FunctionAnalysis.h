// What the checked clone of one kernel or __device__ function must change (DESIGN.md section 6),
// found on the function's AST (the template pattern for templates). Clang-facing header.
//
// One analysis per concern, each a method of FunctionAnalyzer:
//   sites      barriers (__syncthreads, _count/_and/_or, cooperative-groups block sync), calls of
//              helpers that synchronize, kernel returns;
//   locals     which locals must move to function scope so that a jump back to a site is legal,
//              which of them a checkpoint saves and the register comparison compares;
//   memory     __shared__ variables to privatize, stores the block must be able to undo, atomics,
//              printf;
//   refusals   constructs the checker cannot run safely: the kernel then runs unchecked.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ldcc::translator {

enum class BarrierKind { Plain, Count, And, Or };

struct Barrier {
  const clang::CallExpr *call = nullptr;
  const clang::Stmt *statement = nullptr;  // the full statement around the call
  BarrierKind kind = BarrierKind::Plain;
  const clang::Expr *predicate = nullptr;  // _count/_and/_or
  bool inWhileCondition = false;           // while (__syncthreads_or(p)) { ... }
  std::string what;                        // as the user wrote it, for reports
};

// A call of a function that synchronizes the block, as a statement of its own, or the value of a
// local. `hoisted`: the statement does more with the value (`out[i] = f(x);`, `if (f(x) == n)`,
// `g(f(x));`), so the clone first gives a temporary the call's value in a statement of its own, and
// the statement reads the temporary.
struct HelperCall {
  const clang::CallExpr *call = nullptr;
  const clang::Stmt *statement = nullptr;
  const clang::FunctionDecl *callee = nullptr;
  bool hoisted = false;
};

enum class LocalKind {
  Moved,    // immutable, invariant initializer: the whole declaration moves to function scope
  Hoisted,  // declared at function scope, initialized in place, saved by every checkpoint
};

struct LocalPlan {
  const clang::VarDecl *var = nullptr;
  LocalKind kind = LocalKind::Hoisted;
  std::string newName;
  std::string type;      // printed, without top-level const (Hoisted)
  bool compared = true;  // false: its value differs between executions by nature (clock(), ...)
  // A structured binding (`auto [a, b] = e;`, the var a DecompositionDecl): the hidden variable is
  // hoisted as newName, a pointer to what it names where it is a reference (bindsReference), and each
  // binding is rewritten to its part of it, `@` standing for the hidden variable: "(@.a)", "(@[1])",
  // "::ldcc::rt::binding<1, 2>(@)" (tuple-like). A hoisted reference local is a pointer too, each use
  // reading through it.
  bool bindsReference = false;
  // A const local of class or array type, hoisted without its const: its uses read
  // `::ldcc::rt::as_const(newName)`.
  bool asConst = false;
  std::map<const clang::BindingDecl *, std::string> parts;
};

struct Refusal {
  std::string reason;
  clang::SourceLocation where;
  bool refused() const { return !reason.empty(); }
};

// A use of the dynamic shared memory through an accessor (FunctionFacts::dynamicSharedAccessor): the
// clones put their reference to the array's copy in place of `expr`.
struct DynamicSharedUse {
  const clang::Expr *expr = nullptr;       // the call, or the object a conversion is called on
  const clang::VarDecl *var = nullptr;     // the accessor's extern __shared__ array
  bool conversion = false;                 // `T* p = SharedMemory<T>();`: the object converts to T*
};

struct FunctionFacts {
  const clang::FunctionDecl *fn = nullptr;  // the definition (template pattern for templates)
  bool isKernel = false;
  Refusal refusal;

  std::vector<Barrier> barriers;
  std::vector<HelperCall> helperCalls;                 // callees that synchronize
  std::vector<const clang::CallExpr *> clonedCalls;    // other callees that have a clone
  // Callees without a clone (they only read, or store where no hook sees: GlobalTargets traces what).
  std::vector<const clang::CallExpr *> unclonedCalls;
  std::vector<const clang::ReturnStmt *> returns;      // the exit site (kernels), return sites (helpers)
  std::vector<const clang::Expr *> hookedStores;       // left-hand sides
  std::vector<const clang::CallExpr *> atomics;
  std::vector<const clang::CallExpr *> printfs;
  std::vector<const clang::CallExpr *> clocks;        // clock(), clock64(): fixed values in level B
  std::vector<const clang::VarDecl *> sharedLocals;    // __shared__ declared in this function
  std::vector<const clang::VarDecl *> sharedGlobals;   // file-scope __shared__ it uses
  std::vector<const clang::VarDecl *> deviceVars;      // __device__ variables it uses (redirected)
  std::vector<const clang::ParmVarDecl *> modifiedParams;   // saved by checkpoints
  std::set<const clang::ParmVarDecl *> uncomparedParams;   // ... but not compared (clock() & co.)
  std::vector<LocalPlan> locals;
  std::set<const clang::VarDecl *> asmOutputs;         // written by inline PTX: never compared
  // Calls of functions without a body here (system headers, other translation units) that may write
  // through a pointer or reference argument: stores no hook sees (memcpy, __stwt, ...).
  std::vector<const clang::Expr *> untracedStores;  // calls, and placement new
  // Atomic operations whose order shows in the results: the returned value is used, or the operation
  // is an exchange, a compare-and-swap or on floating point.
  std::vector<const clang::CallExpr *> orderedAtomics;
  std::vector<const clang::CallExpr *> discardedAtomics;  // the other atomics
  // Set when the function only returns the address of its `extern __shared__` array (the CUDA samples'
  // `SharedMemory<T>` conversion, `template <class T> T* dynamicShared()`): it has no clone; its
  // callers' clones use their reference to that array's copy instead (dynamicSharedUses).
  const clang::VarDecl *dynamicSharedAccessor = nullptr;
  std::vector<DynamicSharedUse> dynamicSharedUses;

  // A template whose instantiations synchronize where its pattern shows no barrier (refused: its
  // callers are refused with it).
  bool instantiationSyncs = false;
  bool hasOwnEffects() const {  // something a clone must change, before looking at callees
    return !barriers.empty() || instantiationSyncs || !hookedStores.empty() || !atomics.empty() || !printfs.empty() || !clocks.empty() ||
           (!sharedLocals.empty() && !dynamicSharedAccessor) || !sharedGlobals.empty() || !deviceVars.empty() ||
           !dynamicSharedUses.empty();
  }
  // The accessors' arrays this function uses, each once, in order of first use.
  std::vector<const clang::VarDecl *> dynamicSharedVars() const;
};

// The user functions of a translation unit and what each needs.
class TranslationUnitAnalysis {
public:
  explicit TranslationUnitAnalysis(clang::ASTContext &ctx);

  // Kernels and device functions defined outside system headers, in source order.
  const std::vector<FunctionFacts> &functions() const { return functions_; }
  const FunctionFacts *facts(const clang::FunctionDecl *fn) const;
  bool needsClone(const clang::FunctionDecl *fn) const;     // called through its clone
  bool synchronizes(const clang::FunctionDecl *fn) const;   // contains a barrier (transitively)
  // Why deterministic mode must run the warps of this kernel's blocks in turn rather than each on
  // its own copy of global memory (not refused() when they need not): a call in untracedStores made by
  // it or a user function it calls (transitively), or in its clone an atomic in orderedAtomics, two
  // kinds of discarded atomic on one variable, or a device printf (the order of its lines).
  Refusal warpTurnsReason(const clang::FunctionDecl *kernel) const;
  bool makesAtomics(const clang::FunctionDecl *kernel) const;  // in its clone or a cloned helper
  // The user definition a call reaches (through templates and unresolved lookups), or null.
  const clang::FunctionDecl *userCallee(const clang::CallExpr *call) const;
  // Every __shared__ variable of a kernel's clone, own first, then those of synchronizing or
  // cloned helpers it reaches (each once).
  std::vector<const clang::VarDecl *> helperSharedOf(const clang::FunctionDecl *kernel) const;
  // The accessors' extern __shared__ arrays a kernel's clone or the helpers it reaches use, each once.
  std::vector<const clang::VarDecl *> dynamicSharedOf(const clang::FunctionDecl *kernel) const;
  // Every __device__ variable a kernel's clone or the cloned helpers it reaches use, each once.
  std::vector<const clang::VarDecl *> deviceVarsReachedFrom(const clang::FunctionDecl *kernel) const;
  // Whether a lambda's closure type becomes a function pointer anywhere in the translation unit
  // (`float (*f)(int) = at;`, `+[] {...}`, inside a template it is passed to): with captures it could not.
  bool lambdaBecomesFunctionPointer(const clang::LambdaExpr *lambda) const;
  // Records a refusal found by a later analysis (the first one stays).
  void refuse(const clang::FunctionDecl *fn, const Refusal &why);

private:
  void analyzeFunction(FunctionFacts &facts);
  void planLocals(FunctionFacts &facts);
  std::string planBindings(const clang::DecompositionDecl &decomposition, LocalPlan &plan) const;
  void propagate();
  struct HelperCallPlacement {
    HelperCall call;
    bool declarable = false;  // its value can be kept in a temporary of the frame
    // Operands C++ evaluates before it (`s[0]` in `s[0] << f(s)`): a hoisted call must not move ahead
    // of one that reads memory.
    std::vector<const clang::Expr *> evaluatedBefore;
    std::string why;          // why it cannot be checked where it is, or ""
  };
  HelperCallPlacement placeHelperCall(const FunctionFacts &f, const clang::CallExpr *call,
                                      const clang::FunctionDecl *callee) const;
  void findDynamicSharedUses();
  // Calls `visit` on the kernel and every user function its clone reaches through clones, once each.
  void forEachReached(const clang::FunctionDecl *kernel, const std::function<void(const FunctionFacts &)> &visit) const;
  clang::ASTContext &ctx_;
  std::vector<FunctionFacts> functions_;
  std::map<const clang::FunctionDecl *, size_t> index_;
  std::set<const clang::FunctionDecl *> needsClone_, synchronizes_;
  std::map<const clang::FunctionDecl *, const clang::Expr *> untracedStore_;  // the first one it reaches
  std::map<const FunctionFacts *, std::vector<const clang::CallExpr *>> userCalls_;  // until propagate()
  mutable std::optional<std::set<unsigned>> convertedLambdas_;  // file offsets of those lambdas, once asked
  // Calls in lambdas and local classes' member functions (FunctionAnalyzer::enclosedCalls), until propagate().
  std::map<const FunctionFacts *, std::vector<const clang::CallExpr *>> enclosedCalls_;
};

// Helpers shared by the analysis and the rewriting.
using VariableUses = std::map<const clang::VarDecl *, std::vector<const clang::DeclRefExpr *>>;
VariableUses variableUses(const clang::Stmt *body);  // every reference to a variable, by variable
// The variable a reference names. A structured binding's is its decomposition's (`auto [a, b] = e;`
// declares one hidden variable, and `a` and `b` name parts of it).
const clang::VarDecl *referencedVariable(const clang::DeclRefExpr *ref);
// A local's name for messages and the table of compared locals: `[a, b]` for a structured binding.
std::string localName(const clang::VarDecl *var);
// Every call in `body`, operator and member calls included.
std::vector<const clang::CallExpr *> callsIn(const clang::Stmt *body);
const clang::DeclStmt *declStmtOf(clang::ASTContext &ctx, const clang::VarDecl *var);
std::string calleeName(const clang::CallExpr *call);
const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *fn);
std::string printType(clang::QualType type, const clang::ASTContext &ctx);
// A namespace-scope variable in global memory that may be written: __device__, not __shared__,
// __constant__ or const.
// A parameter a callee may write through: a pointer to non-const, or a non-const lvalue reference.
bool writableThrough(clang::QualType param);
bool isDeviceVariable(const clang::VarDecl *var);
// Whether a value of the type may hold an address: a pointer or reference, or an array or class with
// one inside (bases and a vtable pointer included); dependent, incomplete or deeply nested types may.
bool holdsPointer(clang::QualType type, int depth = 0);
// threadIdx, blockIdx, blockDim or gridDim: CUDA's built-in index variables, fixed for the thread.
bool isBuiltinIndexVariable(const clang::VarDecl *var);
// threadIdx.x and its kind (the variable, and its component as `property`); null for anything else.
const clang::VarDecl *builtinIndexVariable(const clang::PseudoObjectExpr *e, const clang::MSPropertyDecl *&property);
// CUDA's atomic read-modify-write functions (atomicAdd, ..., their _block forms).
const std::set<std::string> &atomicNames();
// Whether a location is in a system header (the CUDA toolkit, the C++ library), or unknown.
bool inSystemHeader(const clang::ASTContext &ctx, clang::SourceLocation loc);

}  // namespace ldcc::translator
