#include "rewrite/FunctionAnalysis.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/CharInfo.h>
#include <clang/Basic/SourceManager.h>

#include <cstring>
#include <functional>

using namespace clang;

namespace ldcc::translator {

// ---- small helpers ------------------------------------------------------------------------------

std::string calleeName(const CallExpr *call) {
  if (const FunctionDecl *fd = call->getDirectCallee()) return fd->getNameAsString();
  const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ul = dyn_cast<UnresolvedLookupExpr>(callee)) return ul->getName().getAsString();
  if (const auto *um = dyn_cast<UnresolvedMemberExpr>(callee)) return um->getMemberName().getAsString();
  if (const auto *dm = dyn_cast<CXXDependentScopeMemberExpr>(callee)) return dm->getMember().getAsString();
  if (const auto *me = dyn_cast<MemberExpr>(callee)) return me->getMemberDecl()->getNameAsString();
  return "";
}

const FunctionDecl *definitionOf(const FunctionDecl *fn) {
  if (!fn) return nullptr;
  if (const FunctionDecl *pattern = fn->getTemplateInstantiationPattern()) fn = pattern;
  const FunctionDecl *def = nullptr;
  if (fn->hasBody(def)) return def;
  return nullptr;
}

const DeclStmt *declStmtOf(ASTContext &ctx, const VarDecl *var) {
  DynTypedNodeList parents = ctx.getParents(*var);
  return parents.empty() ? nullptr : parents[0].get<DeclStmt>();
}

VariableUses variableUses(const Stmt *body) {
  struct Collector : RecursiveASTVisitor<Collector> {
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      if (const VarDecl *v = referencedVariable(ref)) uses[v].push_back(ref);
      return true;
    }
    VariableUses uses;
  } collector;
  collector.TraverseStmt(const_cast<Stmt *>(body));
  return collector.uses;
}

const VarDecl *referencedVariable(const DeclRefExpr *ref) {
  if (const auto *binding = dyn_cast<BindingDecl>(ref->getDecl()))
    return dyn_cast_or_null<VarDecl>(binding->getDecomposedDecl());
  return dyn_cast<VarDecl>(ref->getDecl());
}

std::string localName(const VarDecl *var) {
  const auto *decomposition = dyn_cast<DecompositionDecl>(var);
  if (!decomposition) return var->getNameAsString();
  std::string names;
  for (const BindingDecl *b : decomposition->bindings()) names += (names.empty() ? "" : ", ") + b->getNameAsString();
  return "[" + names + "]";
}

namespace {

// Whether a type names an alias declared inside a function (`using real = float;` in a kernel): the
// clones declare their variables at the function's top, above it.
bool namesLocalAlias(QualType type) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool VisitTypedefType(TypedefType *t) {
      found = found || t->getDecl()->getDeclContext()->isFunctionOrMethod();
      return true;
    }
    bool found = false;
  } finder;
  finder.TraverseType(type);
  return finder.found;
}

// A hoisted local's printed type with the locals it names renamed as the clone renames them
// (`float buf[M]` after `constexpr int M`, `decltype(v) w`): only names its declaration's type
// refers to are replaced, as whole words.
std::string withRenamedLocals(std::string type, const VarDecl *var, const std::vector<LocalPlan> &planned) {
  const TypeSourceInfo *tsi = var->getTypeSourceInfo();
  if (!tsi) return type;
  struct Refs : RecursiveASTVisitor<Refs> {
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      if (const auto *v = dyn_cast<VarDecl>(ref->getDecl())) named.insert(v);
      return true;
    }
    std::set<const VarDecl *> named;
  } refs;
  refs.TraverseTypeLoc(tsi->getTypeLoc());
  for (const LocalPlan &p : planned) {
    if (!refs.named.count(p.var) || isa<DecompositionDecl>(p.var)) continue;
    const std::string name = p.var->getNameAsString();
    for (size_t at = type.find(name); at != std::string::npos; at = type.find(name, at)) {
      const bool whole = (at == 0 || !isAsciiIdentifierContinue(type[at - 1])) &&
                         (at + name.size() == type.size() || !isAsciiIdentifierContinue(type[at + name.size()]));
      if (!whole) {
        at += name.size();
        continue;
      }
      type.replace(at, name.size(), p.newName);
      at += p.newName.size();
    }
  }
  return type;
}

}  // namespace

std::string printType(QualType type, const ASTContext &ctx) {
  if (!type->isDependentType() && namesLocalAlias(type)) type = type.getCanonicalType();
  PrintingPolicy pp(ctx.getLangOpts());
  pp.SuppressUnwrittenScope = true;
  pp.FullyQualifiedName = true;
  pp.SuppressScope = false;
  pp.PrintAsCanonical = false;
  return type.getAsString(pp);
}

bool writableThrough(QualType param) {
  if (param->isPointerType()) return !param->getPointeeType().isConstQualified() && !param->getPointeeType()->isFunctionType();
  return param->isLValueReferenceType() && !param.getNonReferenceType().isConstQualified() &&
         !param.getNonReferenceType()->isFunctionType();
}

bool isDeviceVariable(const VarDecl *v) {
  return v && v->hasGlobalStorage() && !v->isStaticLocal() && v->getDeclContext()->isFileContext() &&
         v->hasAttr<CUDADeviceAttr>() && !v->hasAttr<CUDASharedAttr>() && !v->hasAttr<CUDAConstantAttr>() &&
         !v->getType().isConstQualified();
}

bool holdsPointer(QualType t, int depth) {
  t = t.getCanonicalType();
  if (t->isDependentType() || t->isPointerType() || t->isReferenceType() || t->isMemberPointerType()) return true;
  if (const auto *a = dyn_cast<ArrayType>(t.getTypePtr())) return holdsPointer(a->getElementType(), depth);
  const RecordDecl *record = t->getAsRecordDecl();
  if (!record) return false;
  if (depth > 4 || !record->getDefinition()) return true;
  record = record->getDefinition();
  if (const auto *cxx = dyn_cast<CXXRecordDecl>(record)) {
    if (cxx->isPolymorphic()) return true;  // its vtable pointer
    for (const CXXBaseSpecifier &base : cxx->bases())
      if (holdsPointer(base.getType(), depth + 1)) return true;
  }
  for (const FieldDecl *f : record->fields())
    if (holdsPointer(f->getType(), depth + 1)) return true;
  return false;
}

bool isBuiltinIndexVariable(const VarDecl *var) {
  const std::string name = var->getNameAsString();
  return name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim";
}

bool inSystemHeader(const ASTContext &ctx, SourceLocation loc) {
  return loc.isInvalid() || ctx.getSourceManager().isInSystemHeader(ctx.getSourceManager().getExpansionLoc(loc));
}

const std::set<std::string> &atomicNames() {
  static const std::set<std::string> names = {
      "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
      "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicAdd_block", "atomicSub_block",
      "atomicExch_block", "atomicMin_block", "atomicMax_block", "atomicCAS_block", "atomicAnd_block",
      "atomicOr_block", "atomicXor_block"};
  return names;
}

const VarDecl *builtinIndexVariable(const PseudoObjectExpr *e, const MSPropertyDecl *&property) {
  const auto *ref = dyn_cast<MSPropertyRefExpr>(e->getSyntacticForm());
  if (!ref) return nullptr;
  const Expr *base = ref->getBaseExpr()->IgnoreImpCasts();
  if (const auto *opaque = dyn_cast<OpaqueValueExpr>(base)) base = opaque->getSourceExpr()->IgnoreImpCasts();
  const auto *ref_to_variable = dyn_cast<DeclRefExpr>(base);
  const auto *var = ref_to_variable ? dyn_cast<VarDecl>(ref_to_variable->getDecl()) : nullptr;
  if (!var || !isBuiltinIndexVariable(var)) return nullptr;
  property = ref->getPropertyDecl();
  return var;
}

namespace {

bool inNamespace(const Decl *d, llvm::StringRef name) {
  for (const DeclContext *dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (const auto *ns = dyn_cast<NamespaceDecl>(dc))
      if (ns->getIdentifier() && ns->getName() == name && ns->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}

const FunctionDecl *calleeDecl(const CallExpr *call) {
  if (const FunctionDecl *fd = call->getDirectCallee()) return fd;
  const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ul = dyn_cast<UnresolvedLookupExpr>(callee))
    for (const NamedDecl *d : ul->decls()) {
      d = d->getUnderlyingDecl();
      if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d)) return ft->getTemplatedDecl();
      if (const auto *fd = dyn_cast<FunctionDecl>(d)) return fd;
    }
  return nullptr;
}

// True when every function the call may name is declared outside system headers (a template's
// unresolved call lists each overload it may pick).
bool onlyUserCandidates(const ASTContext &ctx, const CallExpr *call) {
  if (const FunctionDecl *fd = call->getDirectCallee()) return !inSystemHeader(ctx, fd->getLocation());
  const auto *ul = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts());
  if (!ul || ul->decls().empty()) return false;
  for (const NamedDecl *d : ul->decls())
    if (inSystemHeader(ctx, d->getUnderlyingDecl()->getLocation())) return false;
  return true;
}

// The variable an address is computed from: &a[i].f, p + i, ... -> a or p.
const Expr *rootOf(const Expr *e) {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto *op = dyn_cast<UnaryOperator>(e); op && (op->getOpcode() == UO_AddrOf || op->getOpcode() == UO_Deref))
      e = op->getSubExpr();
    else if (const auto *as = dyn_cast<ArraySubscriptExpr>(e)) e = as->getBase();
    else if (const auto *me = dyn_cast<MemberExpr>(e)) e = me->getBase();
    else if (const auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->isAdditiveOp())
      e = bo->getLHS()->getType()->isPointerType() ? bo->getLHS() : bo->getRHS();
    else if (const auto *c = dyn_cast<CastExpr>(e)) e = c->getSubExpr();
    else return e;
  }
}

// A local variable of the function (not static, not a reference, not __shared__): what is stored in
// it stays in the thread's frame.
const VarDecl *localVariable(const Expr *e) {
  const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !var->isLocalVarDeclOrParm() || var->isStaticLocal() || var->getType()->isReferenceType() ||
      var->hasAttr<CUDASharedAttr>())
    return nullptr;
  return var;
}

// An argument that is a local variable holding no address, or its address (sincosf(x, &s, &c)):
// the callee writes the caller's frame, not memory other threads see.
bool isLocalObject(const Expr *arg) {
  const Expr *e = arg->IgnoreParenImpCasts();
  if (const auto *op = dyn_cast<UnaryOperator>(e); op && op->getOpcode() == UO_AddrOf) e = op->getSubExpr();
  const VarDecl *var = localVariable(e);
  return var && !holdsPointer(var->getType());
}

// An operator call that stores into its first operand (=, op=, ++, --): that operand, else null.
const Expr *storedOperand(const CXXOperatorCallExpr *op) {
  const OverloadedOperatorKind k = op->getOperator();
  if (op->getNumArgs() >= 1 && (op->isAssignmentOp() || k == OO_PlusPlus || k == OO_MinusMinus)) return op->getArg(0);
  return nullptr;
}

// A pointer or lvalue reference parameter to non-const data (other than a local's), or a non-const
// member function other than an assignment operator (whose store addStore hooks): the callee may
// store through it.
bool mayWriteThroughArguments(const CallExpr *call, const FunctionDecl *fd) {
  const auto *md = dyn_cast<CXXMethodDecl>(fd);
  if (md && md->isInstance() && !md->isConst() && isa<CXXMemberCallExpr>(call)) return true;
  // cuda::atomic_ref and the like write through a const member function.
  if (md && md->getParent()->getName().contains("atomic")) return true;
  // An operator that is a member takes its object as argument 0.
  const unsigned first = md && md->isInstance() && isa<CXXOperatorCallExpr>(call) ? 1 : 0;
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    // Not by value, nor by rvalue reference: a temporary (a = f(...) of float3 & co.).
    if (!writableThrough(fd->getParamDecl(i)->getType())) continue;
    if (i + first < call->getNumArgs() && isLocalObject(call->getArg(i + first))) continue;
    return true;
  }
  return fd->isVariadic() && call->getNumArgs() > fd->getNumParams();
}

// Calls whose results differ between two executions of the same region by nature.
bool isNondeterministicCall(const CallExpr *call) {
  static const std::set<std::string> names = {"clock", "clock64", "__clock", "__clock64", "__globaltimer",
                                              "__activemask", "globaltimer"};
  return names.count(calleeName(call)) > 0;
}

BarrierKind barrierKind(const std::string &name) {
  if (name == "__syncthreads_count") return BarrierKind::Count;
  if (name == "__syncthreads_and") return BarrierKind::And;
  if (name == "__syncthreads_or") return BarrierKind::Or;
  return BarrierKind::Plain;
}

// __syncthreads family or a cooperative-groups block sync; "what" is set for reports.
bool isBlockBarrier(const CallExpr *call, std::string &what) {
  const std::string name = calleeName(call);
  if (name == "__syncthreads" || name == "__syncthreads_count" || name == "__syncthreads_and" ||
      name == "__syncthreads_or") {
    what = name + "()";
    return true;
  }
  if (name != "sync") return false;
  const FunctionDecl *fd = calleeDecl(call);
  if (!fd || !inNamespace(fd, "cooperative_groups")) return false;
  if (const auto *md = dyn_cast<CXXMethodDecl>(fd)) {
    if (md->getParent()->getName() == "thread_block") {
      what = "thread_block::sync()";
      return true;
    }
    return false;
  }
  if (call->getNumArgs() == 1) {
    const QualType t = call->getArg(0)->getType();
    if (const auto *rd = t->getAsCXXRecordDecl(); rd && rd->getName() == "thread_block") {
      what = "cooperative_groups::sync()";
      return true;
    }
  }
  return false;
}

// A synchronization the checker cannot place (a site needs the whole block at one barrier): the
// reason it is refused, or "". A thread_group's sync() may be the block's (the Programming Guide's
// reduce_sum(cg::thread_group g, ...)); a tile's or a coalesced group's is a warp's, which level W
// does not need.
std::string unplaceableSync(const CallExpr *call) {
  const std::string name = calleeName(call);
  if (name.rfind("__barrier_sync", 0) == 0 || name == "__barrier_arrive")
    return "a named barrier (" + name + ")";
  const FunctionDecl *fd = calleeDecl(call);
  if (!fd || !inNamespace(fd, "cooperative_groups")) return "";
  if (name == "barrier_arrive" || name == "barrier_wait") return "a split barrier (" + name + ")";
  if (name != "sync") return "";
  const CXXRecordDecl *group = nullptr;
  if (const auto *md = dyn_cast<CXXMethodDecl>(fd)) group = md->getParent();
  else if (call->getNumArgs() == 1) group = call->getArg(0)->getType()->getAsCXXRecordDecl();
  if (group && group->getName() == "thread_group")
    return "a sync() of a cooperative_groups::thread_group, which may be the whole block";
  return "";
}

bool isGridSync(const CallExpr *call) {
  const std::string name = calleeName(call);
  const FunctionDecl *fd = calleeDecl(call);
  if (!fd || !inNamespace(fd, "cooperative_groups")) return false;
  if (name == "this_grid" || name == "this_multi_grid") return true;
  if (const auto *md = dyn_cast<CXXMethodDecl>(fd))
    return name == "sync" && md->getParent()->getName().contains("grid");
  return false;
}

}  // namespace

// ---- per-function analysis ----------------------------------------------------------------------

namespace {

class FunctionAnalyzer : public RecursiveASTVisitor<FunctionAnalyzer> {
public:
  FunctionAnalyzer(ASTContext &ctx, FunctionFacts &facts) : ctx_(ctx), facts_(facts) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseLambdaExpr(LambdaExpr *lambda) {
    // Lambdas run inside the caller's region; one that synchronizes, stores through pointers or
    // does atomics would need the clone's context inside it.
    LambdaScan scan;
    scan.TraverseStmt(lambda->getBody());
    if (scan.effect) refuse("a lambda with barriers, atomics or stores to memory", lambda->getBeginLoc());
    for (const CallExpr *call : callsIn(lambda->getBody())) enclosedCalls.push_back(call);
    // A generic lambda's dependent calls (`red.reduce(v)` on an `auto&`) resolve in its call
    // operator's specializations.
    if (const FunctionTemplateDecl *op = lambda->getCallOperator()->getDescribedFunctionTemplate())
      for (const FunctionDecl *spec : op->specializations())
        if (spec->getBody())
          for (const CallExpr *call : callsIn(spec->getBody())) enclosedCalls.push_back(call);
    // The variables it names are the function's: a __device__ or file-scope __shared__ one gets the
    // clone's reference to its copy, which the lambda captures (CloneWriter, captureCloneReferences).
    struct Names : RecursiveASTVisitor<Names> {
      bool VisitDeclRefExpr(DeclRefExpr *ref) { return outer->VisitDeclRefExpr(ref); }
      FunctionAnalyzer *outer;
    } names;
    names.outer = this;
    names.TraverseStmt(lambda->getBody());
    return true;
  }

  // A class defined inside the function: its member functions are not this function's code (their
  // returns are not its exits, their statements cannot reach the clone's state). One that synchronizes,
  // stores through pointers or does atomics would need that state, as a lambda would.
  // A __shared__ variable it names would be the clone's local reference to this warp's copy, which a
  // local class cannot use.
  bool TraverseCXXRecordDecl(CXXRecordDecl *record) {
    struct SharedUse : RecursiveASTVisitor<SharedUse> {
      bool VisitDeclRefExpr(DeclRefExpr *ref) {
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && var->hasAttr<CUDASharedAttr>()) found = true;
        return true;
      }
      bool found = false;
    };
    for (Decl *member : record->decls()) {
      if (auto *nested = dyn_cast<CXXRecordDecl>(member)) {
        TraverseCXXRecordDecl(nested);
        continue;
      }
      const FunctionDecl *method = dyn_cast<FunctionDecl>(member);
      if (const auto *pattern = dyn_cast<FunctionTemplateDecl>(member)) method = pattern->getTemplatedDecl();
      if (!method || !method->hasBody()) continue;
      LambdaScan scan;
      scan.TraverseStmt(method->getBody());
      for (const CallExpr *call : callsIn(method->getBody())) enclosedCalls.push_back(call);
      SharedUse shared;
      shared.TraverseStmt(method->getBody());
      if (scan.effect || shared.found) {
        refuse("a member function of a class defined in the function that synchronizes, stores to memory, does "
               "atomics or uses a __shared__ variable",
               method->getLocation());
        break;
      }
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *call) {
    std::string what;
    const std::string name = calleeName(call);
    const bool atomicName = name.rfind("atomic", 0) == 0 || name.rfind("__atomic", 0) == 0;
    if (isBlockBarrier(call, what)) {
      addBarrier(call, what);
    } else if (isGridSync(call)) {
      refuse("grid-wide synchronization", call->getBeginLoc());
    } else if (const std::string why = unplaceableSync(call); !why.empty()) {
      refuse(why, call->getBeginLoc());
    } else if (atomicName && onlyUserCandidates(ctx_, call)) {
      // A function of the user's own named like CUDA's atomics (`atomicMaxFloat`, a CAS loop) is
      // cloned like any other helper.
      calls.push_back(call);
    } else if (atomicNames().count(name)) {
      facts_.atomics.push_back(call);
      if (atomicOrderShows(call, name)) facts_.orderedAtomics.push_back(call);
      else facts_.discardedAtomics.push_back(call);
    } else if (atomicName) {
      refuse("the atomic operation " + name + " (ldcc checks atomicAdd, atomicCAS and the other atomics of device scope or "
             "block scope)",
             call->getBeginLoc());
    } else if (const auto *md = dyn_cast_or_null<CXXMethodDecl>(calleeDecl(call));
               md && inSystemHeader(ctx_, md->getLocation()) && md->getParent()->getName().contains("atomic")) {
      // libcu++'s atomics act on the memory they refer to behind the hooks: as copies, the units'
      // operations would not see each other, and their sums would show as races.
      // Named by the object's class (`atomic_ref`), not the base that declares the member.
      const auto *member = dyn_cast<CXXMemberCallExpr>(call);
      QualType type = member ? member->getImplicitObjectArgument()->IgnoreImpCasts()->getType() : QualType();
      if (!type.isNull() && type->isPointerType()) type = type->getPointeeType();
      const CXXRecordDecl *object = type.isNull() ? nullptr : type->getAsCXXRecordDecl();
      refuse("a libcu++ atomic (" + (object ? object : md->getParent())->getNameAsString() + "::" + md->getNameAsString() +
                 "; ldcc checks CUDA's atomic functions, atomicAdd and the others)",
             call->getBeginLoc());
    } else if (name == "printf") {
      facts_.printfs.push_back(call);
    } else if ((name == "clock" || name == "clock64") && call->getNumArgs() == 0) {
      facts_.clocks.push_back(call);
    } else if (name == "malloc" || name == "free" || name == "__trap" || name == "asm") {
      refuse("a call of " + name, call->getBeginLoc());
    } else if (name.rfind("surf", 0) == 0 && name.find("write") != std::string::npos) {
      // A CUDA array behind a surface object is memory the checker does not privatize.
      refuse("a surface write (" + name + ")", call->getBeginLoc());
    } else {
      const FunctionDecl *fd = calleeDecl(call);
      if (fd && (inSystemHeader(ctx_, fd->getLocation()) || !fd->isDefined()) && mayWriteThroughArguments(call, fd))
        facts_.untracedStores.push_back(call);
      if (fd && inSystemHeader(ctx_, fd->getLocation())) {
        if (const auto *md = dyn_cast<CXXMethodDecl>(fd);
            md && inNamespace(md, "cub") && md->getParent()->getName().starts_with("Block"))
          refuse("the CUB block primitive " + md->getParent()->getNameAsString() + " (it synchronizes the block)",
                 call->getBeginLoc());
      } else if (fd) {
        calls.push_back(call);
      }
    }
    return true;
  }

  // A loop that waits for another thread's write (`while (*flag == 0);` on a volatile flag, a lock taken
  // with atomicCAS, a chained scan's wait on the previous block): each unit would wait on its own copy,
  // which the writer never reaches (DESIGN.md section 8: flag protocols and locks are refused).
  // Also an endless loop (`for (;;)`, `while (true)`) left where an `if` on such a read breaks out, and
  // a loop polling an atomic that changes nothing (`atomicAdd(&arrived, 0)`: a hand-made grid barrier).
  bool VisitWhileStmt(WhileStmt *loop) { return refuseSpinWait(loop, loop->getCond(), loop->getBody()); }
  bool VisitDoStmt(DoStmt *loop) { return refuseSpinWait(loop, loop->getCond(), loop->getBody()); }
  bool VisitForStmt(ForStmt *loop) { return refuseSpinWait(loop, loop->getCond(), loop->getBody()); }
  bool refuseSpinWait(const Stmt *loop, const Expr *cond, const Stmt *body) {
    struct Exits : RecursiveASTVisitor<Exits> {
      std::vector<const Expr *> conditions;  // of the ifs that leave the loop
      bool polls = false;                    // an atomic load
      bool VisitIfStmt(IfStmt *branch) {
        struct Leaves : RecursiveASTVisitor<Leaves> {
          bool found = false;
          bool VisitBreakStmt(BreakStmt *) { return !(found = true); }
          bool VisitReturnStmt(ReturnStmt *) { return !(found = true); }
          bool VisitGotoStmt(GotoStmt *) { return !(found = true); }
        } leaves;
        leaves.TraverseStmt(branch->getThen());
        if (branch->getElse()) leaves.TraverseStmt(branch->getElse());
        if (leaves.found) conditions.push_back(branch->getCond());
        return true;
      }
      bool VisitCallExpr(CallExpr *call) {
        polls = polls || isAtomicLoad(call);
        return true;
      }
    } exits;
    if (body) exits.TraverseStmt(const_cast<Stmt *>(body));
    bool always = !cond;
    if (cond && !cond->isValueDependent()) {
      bool value = false;
      always = cond->EvaluateAsBooleanCondition(value, ctx_) && value;
    }
    if (exits.polls) {
      refuse("a loop that waits on memory other threads write (an atomic that changes nothing, polled)", loop->getBeginLoc());
      return true;
    }
    if (always)
      for (const Expr *exit : exits.conditions)
        if (waitsOnOthers(loop, exit)) {
          refuse("a loop that waits on memory other threads write (a volatile flag or an atomic where it breaks out, or "
                 "in a function it calls there)",
                 exit->getBeginLoc());
          return true;
        }
    if (cond && waitsOnOthers(loop, cond))
      refuse("a loop that waits on memory other threads write (a volatile flag or an atomic in its condition, or in a "
             "function it calls)",
             cond->getBeginLoc());
    return true;
  }
  // An atomic's name without its scope (`atomicAdd_block` -> `atomicAdd`).
  static std::string unscopedAtomic(const CallExpr *call) {
    std::string name = calleeName(call);
    for (const char *scope : {"_block", "_system"})
      if (name.size() > strlen(scope) && name.compare(name.size() - strlen(scope), std::string::npos, scope) == 0)
        name.resize(name.size() - strlen(scope));
    return name;
  }
  // A counter's next value (`while ((i = atomicAdd(&next, 1)) < n)`, a work queue): the loop ends by its
  // own progress, whatever the others do. Exchanges and compare-and-swaps in a condition are locks.
  static bool takesTicket(const CallExpr *call) {
    const std::string name = unscopedAtomic(call);
    return (name == "atomicAdd" || name == "atomicSub" || name == "atomicInc" || name == "atomicDec") && !isAtomicLoad(call);
  }
  // An atomic operation that only reads: adds, subtracts, ors or xors 0, or swaps a value for itself.
  static bool isAtomicLoad(const CallExpr *call) {
    const std::string name = unscopedAtomic(call);
    const auto zero = [](const Expr *e) {
      const auto *literal = dyn_cast<IntegerLiteral>(e->IgnoreParenImpCasts());
      return literal && literal->getValue() == 0;
    };
    if ((name == "atomicAdd" || name == "atomicSub" || name == "atomicOr" || name == "atomicXor") && call->getNumArgs() == 2)
      return zero(call->getArg(1));
    if (name == "atomicCAS" && call->getNumArgs() == 3) {
      const auto *a = dyn_cast<DeclRefExpr>(call->getArg(1)->IgnoreParenImpCasts());
      const auto *b = dyn_cast<DeclRefExpr>(call->getArg(2)->IgnoreParenImpCasts());
      return (a && b && a->getDecl() == b->getDecl()) || (zero(call->getArg(1)) && zero(call->getArg(2)));
    }
    return false;
  }
  // Whether a loop's condition (or an exit's) reads a volatile non-local or calls an atomic, there or
  // in a function it calls.
  static bool waitsOnOthers(const Stmt *loop, const Expr *cond) {
    // In the condition, and in the user functions it calls (`while (!ready(flag))`).
    struct Finder : RecursiveASTVisitor<Finder> {
      const Stmt *loop = nullptr;
      bool found = false;
      std::set<const FunctionDecl *> entered;
      bool VisitImplicitCastExpr(ImplicitCastExpr *cast) {
        const Expr *read = cast->getSubExpr();
        if (cast->getCastKind() == CK_LValueToRValue && read->getType().isVolatileQualified()) {
          const auto *ref = dyn_cast<DeclRefExpr>(read->IgnoreParens());
          const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
          found = found || !var || !var->hasLocalStorage();
        }
        return true;
      }
      bool VisitCallExpr(CallExpr *call) {
        found = found || (atomicNames().count(calleeName(call)) > 0 && !retriesOwnUpdate(call, loop) &&
                          !takesTicket(call));
        const FunctionDecl *callee = call->getDirectCallee();
        const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
        if (definition && definition->getBody() && entered.insert(definition).second) TraverseStmt(definition->getBody());
        return true;
      }
      // A load inline PTX makes as another thread's store may change it (`ld.volatile`, `ld.acquire`, `ld.relaxed`).
      bool VisitGCCAsmStmt(GCCAsmStmt *asmStmt) {
        const std::string text = asmStmt->getAsmString();
        found = found || (text.find("ld.") != std::string::npos &&
                          (text.find(".volatile") != std::string::npos || text.find(".acquire") != std::string::npos ||
                           text.find(".relaxed") != std::string::npos));
        return true;
      }
    } finder;
    finder.loop = loop;
    finder.TraverseStmt(const_cast<Expr *>(cond));
    return finder.found;
  }
  // A compare-and-swap update written in a loop's condition (`while ((old = atomicCAS(p, a, f(a))) != a)
  // a = old;`) expects a local the loop itself assigns: it retries after its own failed attempt, and
  // waits for no other thread (a lock's `atomicCAS(&lock, 0, 1)` expects a value only another changes).
  static bool retriesOwnUpdate(const CallExpr *call, const Stmt *loop) {
    const std::string name = calleeName(call);
    if (name != "atomicCAS" && name != "atomicCAS_block") return false;
    const auto *ref = call->getNumArgs() == 3 ? dyn_cast<DeclRefExpr>(call->getArg(1)->IgnoreParenImpCasts()) : nullptr;
    const auto *expected = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!expected || !expected->hasLocalStorage()) return false;
    struct Assigned : RecursiveASTVisitor<Assigned> {
      const VarDecl *var = nullptr;
      bool found = false;
      bool VisitBinaryOperator(BinaryOperator *op) {
        if (op->isAssignmentOp())
          if (const auto *lhs = dyn_cast<DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts())) found = found || lhs->getDecl() == var;
        return true;
      }
    } assigned;
    assigned.var = expected;
    assigned.TraverseStmt(const_cast<Stmt *>(loop));
    return assigned.found;
  }

  // Placement new runs a constructor whose stores no hook sees (into whatever memory it is given).
  bool VisitCXXNewExpr(CXXNewExpr *e) {
    if (e->getNumPlacementArgs() > 0) facts_.untracedStores.push_back(e);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *ret) {
    facts_.returns.push_back(ret);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *op) {
    if (op->isAssignmentOp()) addStore(op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *op) {
    if (op->isIncrementDecrementOp()) addStore(op->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *op) {
    if (const Expr *stored = storedOperand(op)) addStore(stored);
    return true;
  }

  bool VisitVarDecl(VarDecl *var) {
    if (var->hasAttr<CUDASharedAttr>() && var->isLocalVarDeclOrParm()) facts_.sharedLocals.push_back(var);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (var && var->hasAttr<CUDASharedAttr>() && !var->isLocalVarDeclOrParm()) {
      if (std::find(facts_.sharedGlobals.begin(), facts_.sharedGlobals.end(), var) == facts_.sharedGlobals.end())
        facts_.sharedGlobals.push_back(var);
    }
    if (isDeviceVariable(var) && !inSystemHeader(ctx_, var->getLocation()) &&
        std::find(facts_.deviceVars.begin(), facts_.deviceVars.end(), var) == facts_.deviceVars.end()) {
      if (ref->hasQualifier()) refuse("a qualified use of the __device__ variable " + var->getNameAsString(), ref->getBeginLoc());
      facts_.deviceVars.push_back(var);
    }
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *as) {
    const std::string text = as->getAsmString();
    for (const char *bad : {"st.", "atom", "red.", "bar.", "barrier", "cp.async"})
      if (text.find(bad) != std::string::npos) {
        refuse("inline PTX that stores, synchronizes or does atomics", as->getBeginLoc());
        return true;
      }
    for (unsigned i = 0; i < as->getNumOutputs(); ++i)
      if (const auto *ref = dyn_cast<DeclRefExpr>(as->getOutputExpr(i)->IgnoreParenImpCasts()))
        if (const auto *v = dyn_cast<VarDecl>(ref->getDecl())) facts_.asmOutputs.insert(v);
    return true;
  }

  void refuse(const std::string &reason, SourceLocation where) {
    if (!facts_.refusal.refused()) facts_.refusal = Refusal{reason, where};
  }

  std::vector<const CallExpr *> calls;  // user callees; sorted out once every function is known
  // Calls made in its lambdas and in the member functions of its local classes, whose bodies its
  // clones do not rewrite: one that reaches a function that has a clone refuses it (propagate).
  std::vector<const CallExpr *> enclosedCalls;

  // Integer add, sub, min, max, and, or, xor whose result is discarded end with the same value in any
  // order (as long as one variable sees one kind: warpTurnsReason); anything else (a used result,
  // inc, dec, exch, CAS, floating point) may not.
  bool atomicOrderShows(const CallExpr *call, std::string name) const {
    if (const size_t scope = name.find("_block"); scope != std::string::npos) name.erase(scope);
    // atomicInc/atomicDec with different limits do not commute.
    static const std::set<std::string> commutative = {"atomicAdd", "atomicSub", "atomicMin", "atomicMax",
                                                      "atomicAnd", "atomicOr",  "atomicXor"};
    if (!commutative.count(name) || call->getNumArgs() == 0) return true;
    const QualType target = call->getArg(0)->IgnoreParenImpCasts()->getType();
    if (!target->isPointerType() || !target->getPointeeType()->isIntegerType()) return true;
    // The value is discarded when the call is a whole statement (perhaps cast to void).
    const Stmt *node = call;
    while (true) {
      DynTypedNodeList parents = ctx_.getParents(*node);
      if (parents.empty()) return true;
      if (const auto *e = parents[0].get<Expr>()) {
        const auto *c = dyn_cast<CStyleCastExpr>(e);
        if (!isa<ParenExpr>(e) && !isa<ImplicitCastExpr>(e) && !isa<ExprWithCleanups>(e) && !(c && c->getType()->isVoidType()))
          return true;
        node = e;
        continue;
      }
      const Stmt *parent = parents[0].get<Stmt>();
      if (!parent) return true;
      if (isa<CompoundStmt>(parent) || isa<LabelStmt>(parent) || isa<SwitchCase>(parent)) return false;
      if (const auto *is = dyn_cast<IfStmt>(parent)) return is->getThen() != node && is->getElse() != node;
      if (const auto *fs = dyn_cast<ForStmt>(parent)) return fs->getBody() != node && fs->getInc() != node;
      if (const auto *ws = dyn_cast<WhileStmt>(parent)) return ws->getBody() != node;
      if (const auto *ds = dyn_cast<DoStmt>(parent)) return ds->getBody() != node;
      return true;
    }
  }

private:
  // A lambda's body is not rewritten: any store it makes to memory other than locals, or call that
  // may make one, is an effect no hook would see.
  struct LambdaScan : RecursiveASTVisitor<LambdaScan> {
    bool VisitCallExpr(CallExpr *call) {
      std::string what;
      const std::string name = calleeName(call);
      const FunctionDecl *fd = calleeDecl(call);
      if (isBlockBarrier(call, what) || name.rfind("atomic", 0) == 0 || (fd && mayWriteThroughArguments(call, fd)))
        effect = true;
      if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call))
        if (const Expr *stored = storedOperand(op); stored && !localVariable(stored)) effect = true;
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *op) {
      if (op->isAssignmentOp() && !localVariable(op->getLHS())) effect = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *op) {
      if (op->isIncrementDecrementOp() && !localVariable(op->getSubExpr())) effect = true;
      return true;
    }
    bool effect = false;
  };

  // The statement the call is part of, and whether it sits in a condition we can rewrite.
  void addBarrier(const CallExpr *call, const std::string &what) {
    Barrier b;
    b.call = call;
    b.what = what;
    const std::string name = calleeName(call);
    b.kind = barrierKind(name);
    if (b.kind != BarrierKind::Plain) b.predicate = call->getNumArgs() ? call->getArg(0) : nullptr;
    const Stmt *node = call;
    while (true) {
      DynTypedNodeList parents = ctx_.getParents(*node);
      if (parents.empty()) return refuse("a barrier outside any statement", call->getBeginLoc());
      const Stmt *parent = parents[0].get<Stmt>();
      if (!parent) {
        // A declaration: the statement is its DeclStmt.
        const Decl *d = parents[0].get<Decl>();
        DynTypedNodeList up = d ? ctx_.getParents(*d) : DynTypedNodeList(DynTypedNode());
        const Stmt *ds = up.empty() ? nullptr : up[0].get<Stmt>();
        if (!ds || !isa<DeclStmt>(ds)) return refuse("a barrier in an initializer it cannot move", call->getBeginLoc());
        node = ds;
        parent = nullptr;
        DynTypedNodeList up2 = ctx_.getParents(*ds);
        parent = up2.empty() ? nullptr : up2[0].get<Stmt>();
        if (!parent || isa<CompoundStmt>(parent)) break;
        return refuse("a barrier in a declaration that is not a statement of a block", call->getBeginLoc());
      }
      if (isa<ConditionalOperator>(parent) || isa<LambdaExpr>(parent) ||
          (isa<BinaryOperator>(parent) && cast<BinaryOperator>(parent)->isLogicalOp()))
        return refuse("a barrier evaluated conditionally inside an expression", call->getBeginLoc());
      if (const auto *ws = dyn_cast<WhileStmt>(parent)) {
        if (ws->getCond() == node || ws->getConditionVariableDeclStmt() == node) {
          if (!isa<CompoundStmt>(ws->getBody()))
            return refuse("a barrier in the condition of a while loop without braces", call->getBeginLoc());
          b.inWhileCondition = true;
          node = ws;
          break;
        }
        break;
      }
      if (const auto *fs = dyn_cast<ForStmt>(parent)) {
        if (fs->getCond() == node || fs->getInc() == node || fs->getInit() == node)
          return refuse("a barrier in the header of a for loop", call->getBeginLoc());
        break;
      }
      if (const auto *ds = dyn_cast<DoStmt>(parent)) {
        if (ds->getCond() == node) return refuse("a barrier in the condition of a do-while loop", call->getBeginLoc());
        break;
      }
      if (const auto *ss = dyn_cast<SwitchStmt>(parent)) {
        if (ss->getCond() == node) return refuse("a barrier in a switch condition", call->getBeginLoc());
        break;
      }
      if (const auto *is = dyn_cast<IfStmt>(parent)) {
        if (is->getCond() == node) node = is;  // barrier in the condition: the site precedes the if
        break;
      }
      if (isa<CompoundStmt>(parent) || isa<SwitchCase>(parent) || isa<LabelStmt>(parent)) break;
      node = parent;
    }
    const Stmt *statement = node;
    if (b.kind == BarrierKind::Plain && !isa<Expr>(statement))
      return refuse("a barrier inside a larger statement", call->getBeginLoc());
    if (b.kind == BarrierKind::Plain && cast<Expr>(statement)->IgnoreImplicit()->IgnoreParens() != call &&
        !isa<CXXMemberCallExpr>(call))
      return refuse("a barrier inside a larger expression", call->getBeginLoc());
    if (b.predicate && b.predicate->HasSideEffects(ctx_, false))
      return refuse("a barrier predicate with side effects", call->getBeginLoc());
    // Each site keeps one barrier result (bar_count & co.): two in a statement would both read the last.
    for (const Barrier &other : facts_.barriers)
      if (other.statement == statement) return refuse("two barriers in one statement", call->getBeginLoc());
    b.statement = statement;
    facts_.barriers.push_back(b);
  }

  // A store needs the undo hook unless it writes a local or a privatized shared variable.
  void addStore(const Expr *lhs) {
    const Expr *e = lhs->IgnoreParens();
    while (true) {
      e = e->IgnoreParens();
      if (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) {
        e = ic->getSubExpr();
        continue;
      }
      if (const auto *me = dyn_cast<MemberExpr>(e)) {
        if (me->isArrow()) break;
        e = me->getBase();
        continue;
      }
      if (const auto *as = dyn_cast<ArraySubscriptExpr>(e)) {
        const Expr *base = as->getBase()->IgnoreParens();
        if (const auto *ic = dyn_cast<ImplicitCastExpr>(base); ic && ic->getCastKind() == CK_ArrayToPointerDecay) {
          e = ic->getSubExpr();
          continue;
        }
        break;
      }
      if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
        const auto *var = dyn_cast<VarDecl>(ref->getDecl());
        const bool privatizedShared = var && var->hasAttr<CUDASharedAttr>() && !var->getType()->isReferenceType();
        if (localVariable(e) || privatizedShared) return;
        break;
      }
      break;
    }
    if (const auto *fd = lhs->IgnoreParenImpCasts(); isa<MemberExpr>(fd))
      if (const auto *field = dyn_cast<FieldDecl>(cast<MemberExpr>(fd)->getMemberDecl()); field && field->isBitField())
        return refuse("a store to a bit-field through a pointer", lhs->getBeginLoc());
    facts_.hookedStores.push_back(lhs);
  }

  ASTContext &ctx_;
  FunctionFacts &facts_;
};

// ---- locals ---------------------------------------------------------------------------------------

// The statement whose extent is the variable's scope: its block, or the for loop of its init.
const Stmt *scopeOf(ASTContext &ctx, const VarDecl *var) {
  DynTypedNodeList parents = ctx.getParents(*var);
  const Stmt *ds = parents.empty() ? nullptr : parents[0].get<Stmt>();
  if (!ds) return nullptr;
  DynTypedNodeList up = ctx.getParents(*ds);
  return up.empty() ? nullptr : up[0].get<Stmt>();
}


// A hoisted local is declared empty at function scope and assigned where it was declared: its type
// needs an accessible default constructor and copy assignment (no const or reference members).
bool declarableThenAssignable(QualType type) {
  const QualType element = type->isArrayType() ? QualType(type->getBaseElementTypeUnsafe(), 0) : type;
  const auto *rd = element->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition()) return true;
  for (const FieldDecl *f : rd->fields())
    if (f->getType().isConstQualified() || f->getType()->isReferenceType() ||
        !declarableThenAssignable(f->getType().getCanonicalType()))
      return false;
  for (const CXXConstructorDecl *c : rd->ctors())
    if (c->isDefaultConstructor() && (c->getAccess() != AS_public || c->isDeleted())) return false;
  if (!rd->hasDefaultConstructor() && !rd->needsImplicitDefaultConstructor()) return false;
  for (const CXXMethodDecl *m : rd->methods())
    if (m->isCopyAssignmentOperator() && (m->isDeleted() || m->getAccess() != AS_public)) return false;
  for (const CXXBaseSpecifier &b : rd->bases())
    if (!declarableThenAssignable(b.getType().getCanonicalType())) return false;
  return true;
}

// The variables declared at `loc` in `body` (a template's instantiation of its pattern's variable).
std::vector<const VarDecl *> varsAt(const Stmt *body, SourceLocation loc) {
  struct Vars : RecursiveASTVisitor<Vars> {
    bool VisitVarDecl(VarDecl *v) {
      if (v->getLocation() == loc) found.push_back(v);
      return true;
    }
    SourceLocation loc;
    std::vector<const VarDecl *> found;
  } vars;
  vars.loc = loc;
  if (body) vars.TraverseStmt(const_cast<Stmt *>(body));
  return vars.found;
}

// Whether a lambda in `body` captures `var` (by name or by a default).
bool capturedByLambda(const Stmt *body, const VarDecl *var) {
  struct Lambdas : RecursiveASTVisitor<Lambdas> {
    bool VisitLambdaExpr(LambdaExpr *lambda) {
      for (const LambdaCapture &c : lambda->captures())
        if (c.capturesVariable() && c.getCapturedVar() == var) found = true;
      return true;
    }
    const VarDecl *var;
    bool found = false;
  } lambdas;
  lambdas.var = var;
  lambdas.TraverseStmt(const_cast<Stmt *>(body));
  return lambdas.found;
}

// Whether a reference initialized by `init` binds a temporary (`const float& t = a + b;`, whose
// lifetime the reference extends): a pointer to it would dangle.
// Also a part of one (`make(x).a`, `make(x).arr[1]`), an xvalue, and, cautiously, any temporary the
// initializer makes.
bool bindsTemporary(const Expr *init) {
  const Expr *e = init;
  if (const auto *full = dyn_cast<FullExpr>(e)) e = full->getSubExpr();
  if (!e->isLValue()) return true;
  struct Temporaries : RecursiveASTVisitor<Temporaries> {
    bool VisitMaterializeTemporaryExpr(MaterializeTemporaryExpr *) { return !(found = true); }
    bool found = false;
  } temporaries;
  temporaries.TraverseStmt(const_cast<Expr *>(init));
  return temporaries.found;
}

// The right-hand sides assigned to each local variable.
struct Assignments : RecursiveASTVisitor<Assignments> {
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitBinaryOperator(BinaryOperator *op) {
    if (op->isAssignmentOp())
      if (const auto *ref = dyn_cast<DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts()))
        if (const VarDecl *v = referencedVariable(ref)) assignments[v].push_back(op->getRHS());
    return true;
  }
  std::map<const VarDecl *, std::vector<const Expr *>> assignments;
};

// Read as a value only (never assigned, incremented, address-taken or bound to a reference).
bool onlyRead(ASTContext &ctx, const std::vector<const DeclRefExpr *> &uses) {
  for (const DeclRefExpr *ref : uses) {
    const Stmt *node = ref;
    while (true) {
      DynTypedNodeList parents = ctx.getParents(*node);
      const Stmt *p = parents.empty() ? nullptr : parents[0].get<Stmt>();
      // The initializer of a reference to const (`const float& y = x;`) reads it.
      if (const auto *bound = parents.empty() ? nullptr : parents[0].get<VarDecl>();
          bound && bound->getType()->isLValueReferenceType() && bound->getType()->getPointeeType().isConstQualified())
        break;
      if (!p) return false;
      if (isa<ParenExpr>(p)) {
        node = p;
        continue;
      }
      if (const auto *ic = dyn_cast<ImplicitCastExpr>(p)) {
        if (ic->getCastKind() == CK_LValueToRValue) break;
        if (ic->getCastKind() == CK_NoOp) { node = p; continue; }
        // An array of const elements (a member of a const struct parameter, `p.w[i]`) read in place.
        if (ic->getCastKind() == CK_ArrayToPointerDecay && ic->getType()->getPointeeType().isConstQualified()) break;
        return false;
      }
      if (const auto *me = dyn_cast<MemberExpr>(p)) {
        // A static or const member function, or a field read further up.
        if (const auto *md = dyn_cast<CXXMethodDecl>(me->getMemberDecl())) {
          if (md->isStatic() || md->isConst()) break;
          return false;
        }
        node = p;
        continue;
      }
      if (const auto *call = dyn_cast<CallExpr>(p)) {
        // An argument bound to a `const T&` parameter (cg::sync(block), tiled_partition<32>(block)).
        const FunctionDecl *fd = call->getDirectCallee();
        bool constRef = false;
        for (unsigned i = 0; fd && i < call->getNumArgs() && i < fd->getNumParams(); ++i)
          if (call->getArg(i) == node) {
            const QualType pt = fd->getParamDecl(i)->getType();
            constRef = pt->isReferenceType() && pt->getPointeeType().isConstQualified();
          }
        if (constRef) break;
        return false;
      }
      if (isa<CXXConstructExpr>(p)) {
        const auto *ce = cast<CXXConstructExpr>(p);
        if (ce->getConstructor()->isCopyOrMoveConstructor()) break;
        return false;
      }
      if (isa<DependentScopeDeclRefExpr>(p) || isa<CXXDependentScopeMemberExpr>(p)) return false;
      return false;
    }
  }
  return true;
}

// Only constants, parameters that never change, already-moved locals, built-in variables
// (threadIdx...) and calls of functions from system headers such as cooperative_groups.
struct InvariantCheck : RecursiveASTVisitor<InvariantCheck> {
  InvariantCheck(ASTContext &c, const std::set<const VarDecl *> &ok) : ctx(c), allowed(ok) {}
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    const VarDecl *v = referencedVariable(ref);
    if (!v) return true;
    // Memory can change between the function's start and the declaration: only parameters that
    // never change, moved locals, constants and the built-in index variables are invariant.
    if (v->isLocalVarDeclOrParm() && !v->isStaticLocal()) {
      if (!allowed.count(v)) invariant = false;
    } else if (isBuiltinIndexVariable(v) || v->getNameAsString() == "warpSize") {
      // threadIdx & co.
    } else if (!v->getType().isConstQualified() || v->hasAttr<CUDASharedAttr>() || v->hasAttr<CUDADeviceAttr>()) {
      invariant = false;
    }
    return true;
  }
  // Reads through pointers and arrays see memory that may change before the declaration runs.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *) {
    invariant = false;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *op) {
    if (op->getOpcode() == UO_Deref) invariant = false;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *me) {
    if (me->isArrow()) invariant = false;
    return true;
  }
  // A library function of values only: one given a pointer may read what it points to (__ldg, memcmp),
  // and texture and surface fetches read memory through a handle.
  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *fd = call->getDirectCallee();
    std::string what;
    const std::string name = calleeName(call);
    bool takesAddress = false;
    for (const Expr *arg : call->arguments()) takesAddress |= arg->getType()->isPointerType() || arg->getType()->isArrayType();
    if (!fd || !inSystemHeader(ctx, fd->getLocation()) || isNondeterministicCall(call) || isBlockBarrier(call, what) ||
        name.rfind("atomic", 0) == 0 || takesAddress || name.rfind("tex", 0) == 0 || name.rfind("surf", 0) == 0)
      invariant = false;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *ce) {
    if (!inSystemHeader(ctx, ce->getConstructor()->getLocation()) && !ce->getConstructor()->isTrivial())
      invariant = false;
    return true;
  }
  bool VisitStmt(Stmt *s) {
    if (isa<UnresolvedLookupExpr>(s) || isa<CXXDependentScopeMemberExpr>(s) || isa<UnresolvedMemberExpr>(s))
      invariant = false;
    return true;
  }
  ASTContext &ctx;
  const std::set<const VarDecl *> &allowed;
  bool invariant = true;
};

struct NondeterminismCheck : RecursiveASTVisitor<NondeterminismCheck> {
  explicit NondeterminismCheck(const std::set<const VarDecl *> &bad) : excluded(bad) {}
  bool VisitCallExpr(CallExpr *call) {
    if (isNondeterministicCall(call)) found = true;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (const VarDecl *v = referencedVariable(ref); v && excluded.count(v)) found = true;
    return true;
  }
  const std::set<const VarDecl *> &excluded;
  bool found = false;
};

}  // namespace

TranslationUnitAnalysis::TranslationUnitAnalysis(ASTContext &ctx) : ctx_(ctx) {
  struct Collector : RecursiveASTVisitor<Collector> {
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitFunctionDecl(FunctionDecl *fn) {
      if (!fn->doesThisDeclarationHaveABody() || fn->isTemplateInstantiation()) return true;
      if (fn->getTemplateSpecializationKind() == TSK_ExplicitSpecialization) return true;
      if (inSystemHeader(*ctx, fn->getLocation())) return true;
      const bool kernel = fn->hasAttr<CUDAGlobalAttr>();
      const bool device = fn->hasAttr<CUDADeviceAttr>();
      if (!kernel && !device) return true;
      if (const auto *md = dyn_cast<CXXMethodDecl>(fn); md && md->getParent()->isLambda()) return true;
      FunctionFacts f;
      f.fn = fn;
      f.isKernel = kernel;
      out->push_back(f);
      return true;
    }
    ASTContext *ctx;
    std::vector<FunctionFacts> *out;
  } collector;
  collector.ctx = &ctx;
  collector.out = &functions_;
  collector.TraverseDecl(ctx.getTranslationUnitDecl());
  for (size_t i = 0; i < functions_.size(); ++i) index_[functions_[i].fn] = i;
  for (FunctionFacts &f : functions_) analyzeFunction(f);
  propagate();
  for (FunctionFacts &f : functions_)
    if (f.isKernel || needsClone_.count(f.fn)) planLocals(f);
}

const FunctionFacts *TranslationUnitAnalysis::facts(const FunctionDecl *fn) const {
  auto it = index_.find(fn);
  return it == index_.end() ? nullptr : &functions_[it->second];
}

bool TranslationUnitAnalysis::needsClone(const FunctionDecl *fn) const { return needsClone_.count(fn) > 0; }
bool TranslationUnitAnalysis::synchronizes(const FunctionDecl *fn) const { return synchronizes_.count(fn) > 0; }
bool TranslationUnitAnalysis::makesAtomics(const FunctionDecl *kernel) const {
  bool found = false;
  forEachReached(kernel, [&](const FunctionFacts &f) { found = found || !f.atomics.empty(); });
  return found;
}

Refusal TranslationUnitAnalysis::warpTurnsReason(const FunctionDecl *kernel) const {
  if (auto it = untracedStore_.find(kernel); it != untracedStore_.end()) {
    if (const auto *call = dyn_cast<CallExpr>(it->second))
      return Refusal{"a call of " + calleeName(call) + ", which may store where no hook sees it", call->getBeginLoc()};
    return Refusal{"a placement new, whose constructor stores where no hook sees it", it->second->getBeginLoc()};
  }
  Refusal why;
  std::map<const ValueDecl *, const CallExpr *> kindOf;  // per variable (null: unknown), its first atomic
  forEachReached(kernel, [&](const FunctionFacts &f) {
    if (!why.refused() && !f.orderedAtomics.empty())
      why = Refusal{"the order of " + calleeName(f.orderedAtomics[0]) + "s shows in the results",
                    f.orderedAtomics[0]->getBeginLoc()};
    if (!why.refused() && !f.printfs.empty())
      why = Refusal{"the order of device printf's lines shows in the output", f.printfs[0]->getBeginLoc()};
    for (const CallExpr *call : f.discardedAtomics) {
      // Two kinds of atomic on one variable do not commute; memory whose variable is unknown may be
      // any variable's.
      const ValueDecl *var = nullptr;
      if (const auto *ref = dyn_cast<DeclRefExpr>(rootOf(call->getArg(0)))) var = ref->getDecl();
      kindOf.emplace(var, call);
      for (const auto &[other, first] : kindOf) {
        if (why.refused() || calleeName(first) == calleeName(call) || (other != var && other && var)) continue;
        why = Refusal{"different atomic operations (" + calleeName(first) + ", " + calleeName(call) + ") on one variable",
                      call->getBeginLoc()};
      }
    }
  });
  return why;
}

const FunctionDecl *TranslationUnitAnalysis::userCallee(const CallExpr *call) const {
  const FunctionDecl *def = definitionOf(calleeDecl(call));
  return def && index_.count(def) ? def : nullptr;
}

void TranslationUnitAnalysis::analyzeFunction(FunctionFacts &facts) {
  FunctionAnalyzer analyzer(ctx_, facts);
  analyzer.TraverseStmt(facts.fn->getBody());
  // A template's barrier may show only in its instantiations (`template <typename Group> void
  // gsync(Group& g) { g.sync(); }` with a thread_block): the pattern, which the clone is written from,
  // has no site for it.
  if (const FunctionTemplateDecl *tmpl = facts.fn->getDescribedFunctionTemplate(); tmpl && !facts.refusal.refused()) {
    const SourceManager &sm = ctx_.getSourceManager();
    std::set<SourceLocation> sites;
    for (const Barrier &b : facts.barriers) sites.insert(sm.getExpansionLoc(b.call->getBeginLoc()));
    for (const FunctionDecl *instance : tmpl->specializations())
      for (const CallExpr *call : instance->getBody() ? callsIn(instance->getBody()) : std::vector<const CallExpr *>{}) {
        std::string what;
        std::string why = unplaceableSync(call);
        if (why.empty() && isBlockBarrier(call, what) && !sites.count(sm.getExpansionLoc(call->getBeginLoc())))
          why = "a barrier that depends on a template parameter (" + what + " in " + instance->getNameAsString() + ")";
        if (why.empty()) continue;
        facts.instantiationSyncs = true;
        if (!facts.refusal.refused()) facts.refusal = Refusal{why, call->getBeginLoc()};
      }
  }
  userCalls_[&facts] = analyzer.calls;
  enclosedCalls_[&facts] = analyzer.enclosedCalls;
}

std::vector<const CallExpr *> callsIn(const Stmt *body) {
  struct Calls : RecursiveASTVisitor<Calls> {
    bool VisitCallExpr(CallExpr *call) {
      found.push_back(call);
      return true;
    }
    std::vector<const CallExpr *> found;
  } calls;
  calls.TraverseStmt(const_cast<Stmt *>(body));
  return calls.found;
}

std::vector<const VarDecl *> FunctionFacts::dynamicSharedVars() const {
  std::vector<const VarDecl *> out;
  for (const DynamicSharedUse &u : dynamicSharedUses)
    if (std::find(out.begin(), out.end(), u.var) == out.end()) out.push_back(u.var);
  return out;
}

namespace {

// The extern __shared__ array whose address is all a function returns (after declaring it), or null.
const VarDecl *accessedDynamicShared(const FunctionFacts &f, bool makesCalls) {
  if (f.isKernel || f.refusal.refused() || makesCalls || f.sharedLocals.size() != 1 || !f.barriers.empty() ||
      !f.hookedStores.empty() || !f.atomics.empty() || !f.printfs.empty() || !f.clocks.empty() ||
      !f.sharedGlobals.empty() || !f.deviceVars.empty() || !f.untracedStores.empty() ||
      !f.fn->getReturnType()->isPointerType() || f.fn->getNumParams() > 0)
    return nullptr;
  const VarDecl *array = f.sharedLocals[0];
  if (!array->hasExternalStorage() || !array->getType()->isIncompleteArrayType() || array->getType()->isDependentType())
    return nullptr;
  const auto *body = dyn_cast_or_null<CompoundStmt>(f.fn->getBody());
  if (!body) return nullptr;
  unsigned returns = 0;
  for (const Stmt *s : body->body()) {
    if (const auto *ds = dyn_cast<DeclStmt>(s); ds && ds->isSingleDecl() && ds->getSingleDecl() == array) continue;
    // The array's own address, through casts only (`return tile + 32;` is something else).
    const auto *ret = dyn_cast<ReturnStmt>(s);
    const Expr *value = ret && ret->getRetValue() ? ret->getRetValue()->IgnoreParenCasts() : nullptr;
    if (const auto *addr = dyn_cast_or_null<UnaryOperator>(value); addr && addr->getOpcode() == UO_AddrOf)
      if (const auto *first = dyn_cast<ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParens())) {
        const auto *zero = dyn_cast<IntegerLiteral>(first->getIdx()->IgnoreParenImpCasts());
        value = zero && zero->getValue() == 0 ? first->getBase()->IgnoreParenCasts() : nullptr;
      }
    const auto *ref = dyn_cast_or_null<DeclRefExpr>(value);
    if (!ref || ref->getDecl() != array) return nullptr;
    ++returns;
  }
  return returns == 1 ? array : nullptr;
}

// Whether evaluating `e` reads memory other than the function's own locals, leaving out the calls
// `hoisted` (they run before the statement, where C++ evaluates `e` first: `s[0] << f(s)`).
bool readsMemory(const Expr *e, const std::set<const Stmt *> &hoisted) {
  struct Finder : RecursiveASTVisitor<Finder> {
    explicit Finder(const std::set<const Stmt *> &hoisted) : hoisted(hoisted) {}
    const std::set<const Stmt *> &hoisted;
    bool found = false;
    bool TraverseStmt(Stmt *s) { return hoisted.count(s) || RecursiveASTVisitor::TraverseStmt(s); }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *) { return !(found = true); }
    bool VisitUnaryOperator(UnaryOperator *u) { return !(found = found || u->getOpcode() == UO_Deref); }
    bool VisitMemberExpr(MemberExpr *m) { return !(found = found || m->isArrow()); }
    bool VisitCXXThisExpr(CXXThisExpr *) { return !(found = true); }
    bool VisitDeclRefExpr(DeclRefExpr *r) {
      const auto *v = dyn_cast<VarDecl>(r->getDecl());
      return !(found = found || (v && !v->isLocalVarDeclOrParm() && !isBuiltinIndexVariable(v)));
    }
  } finder(hoisted);
  finder.TraverseStmt(const_cast<Expr *>(e));
  return finder.found;
}

}  // namespace

void TranslationUnitAnalysis::findDynamicSharedUses() {
  for (FunctionFacts &f : functions_) f.dynamicSharedAccessor = accessedDynamicShared(f, !userCalls_[&f].empty());
  for (FunctionFacts &f : functions_) {
    std::set<SourceLocation> seen;  // a template's instantiations repeat its pattern's uses
    auto record = [&](const CallExpr *call) {
      const FunctionDecl *callee = userCallee(call);
      const FunctionFacts *accessor = callee ? facts(callee) : nullptr;
      if (!accessor || !accessor->dynamicSharedAccessor) return;
      DynamicSharedUse use;
      use.var = accessor->dynamicSharedAccessor;
      use.conversion = isa<CXXConversionDecl>(callee);
      const auto *member = dyn_cast<CXXMemberCallExpr>(call);
      use.expr = use.conversion && member ? member->getImplicitObjectArgument() : call;
      if (use.conversion && !member) return;
      if (seen.insert(use.expr->getBeginLoc()).second) f.dynamicSharedUses.push_back(use);
    };
    for (const auto *calls : {&userCalls_[&f], &enclosedCalls_[&f]})
      for (const CallExpr *call : *calls) record(call);
    // A template's conversions resolve only in its instantiations (`T* s = SharedMemory<T>();`), whose
    // expressions are spelled where the pattern's are.
    if (const FunctionTemplateDecl *tmpl = f.fn->getDescribedFunctionTemplate())
      for (const FunctionDecl *instance : tmpl->specializations())
        if (const Stmt *body = instance->getBody())
          for (const CallExpr *call : callsIn(body)) record(call);
  }
}

// Where a call of a synchronizing helper goes in its caller's clone (propagate): the statement its
// sites go around, whether its value is hoisted into a temporary, and why it cannot be checked.
TranslationUnitAnalysis::HelperCallPlacement TranslationUnitAnalysis::placeHelperCall(const FunctionFacts &f, const CallExpr *call,
                                                                                      const FunctionDecl *callee) const {
  // A synchronizing helper: `f(args);`, or a local given a value computed from the call
  // (`T mean = f(args) / n;`, `mean = 2 * f(args);`). Its sites go before and after the
  // statement, and a re-execution resumes after it: so what the statement does besides the
  // call may only be that assignment. Where it does more with the value (a store, `out[i] =
  // f(x);`, a call that may write memory with it, the condition of an `if` or a `switch`), the
  // call is hoisted (HelperCall::hoisted): the clone gives a temporary its value first, and the
  // statement, which then runs after the resume point, reads the temporary. Operands beside the
  // call: no store and no call of a user function (library math and blockDim.x are fine) but of
  // another synchronizing helper, hoisted too (propagate: every call in such a statement is, in
  // source order).
  const auto pureOperand = [&](const Expr *e) {
    if (e->HasSideEffects(ctx_, false)) return false;
    for (const CallExpr *c : callsIn(e))
      if (const FunctionDecl *fd = calleeDecl(c);
          (!fd || !inSystemHeader(ctx_, fd->getLocation())) && !synchronizes_.count(userCallee(c)))
        return false;
    return true;
  };
  const auto toLocal = [](const Expr *lhs) {
    const auto *ref = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
    const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    return var && var->isLocalVarDeclOrParm() && !var->getType()->isReferenceType();
  };
  const auto inList = [&](const Stmt *s) {
    DynTypedNodeList up = ctx_.getParents(*s);
    return !up.empty() && up[0].get<CompoundStmt>();
  };
  // A call that takes the value and may do anything with it (atomicAdd(&sum, f(x)), a store in a
  // user function) must run again in a re-execution. Library functions of values (sqrtf) and
  // user functions that write nothing need not.
  const auto mayWrite = [&](const FunctionDecl *fd) {
    if (!fd) return true;
    if (const FunctionDecl *user = definitionOf(fd); user && !inSystemHeader(ctx_, user->getLocation()))
      return needsClone_.count(user) > 0;
    for (const ParmVarDecl *param : fd->parameters())
      if (param->getType()->isPointerType() || param->getType()->isReferenceType()) return true;
    return fd->getReturnType()->isVoidType();
  };
  // The same for a call: in a template, of whichever overload its lookup finds (sqrt(v) of a T).
  const auto callMayWrite = [&](const CallExpr *c) {
    if (const FunctionDecl *fd = c->getDirectCallee()) return mayWrite(fd);
    const auto *lookup = dyn_cast<UnresolvedLookupExpr>(c->getCallee()->IgnoreParenImpCasts());
    if (!lookup || lookup->getNumDecls() == 0) return true;
    for (const NamedDecl *d : lookup->decls()) {
      const NamedDecl *under = d->getUnderlyingDecl();
      const auto *fd = dyn_cast<FunctionDecl>(under);
      if (const auto *ft = dyn_cast<FunctionTemplateDecl>(under)) fd = ft->getTemplatedDecl();
      if (!fd || mayWrite(fd)) return true;
    }
    return false;
  };
  const auto isBarrier = [&](const Stmt *s) {
    return std::any_of(f.barriers.begin(), f.barriers.end(), [&](const Barrier &b) { return b.call == s; });
  };
  HelperCallPlacement out;
  out.call = HelperCall{call, nullptr, callee, false};
  const Stmt *node = call;
  const Stmt *&statement = out.call.statement;
  bool &hoisted = out.call.hoisted;
  std::string &why = out.why;
  for (const CallExpr *inner : callsIn(call))
    if (inner != call && synchronizes_.count(userCallee(inner))) why = "with an argument that calls a function that synchronizes";
  while (why.empty()) {
    DynTypedNodeList parents = ctx_.getParents(*node);
    if (parents.empty()) break;
    if (const Stmt *p = parents[0].get<Stmt>()) {
      if (isa<CompoundStmt>(p)) {
        statement = node;
        break;
      }
      if (isa<ExprWithCleanups>(p) || isa<ImplicitCastExpr>(p) || isa<ParenExpr>(p) ||
          isa<MaterializeTemporaryExpr>(p) || isa<CXXBindTemporaryExpr>(p)) {
        node = p;
        continue;
      }
      const auto *bo = dyn_cast<BinaryOperator>(p);
      const auto *op = dyn_cast<CXXOperatorCallExpr>(p);
      if ((bo && bo->isAssignmentOp()) || (op && op->isAssignmentOp())) {
        // C++17 evaluates an assignment's right operand first: a store may follow the call.
        const Expr *lhs = bo ? bo->getLHS() : op->getArg(0);
        if (lhs == node) {
          why = "whose value is assigned to";
          break;
        }
        if (!toLocal(lhs)) {
          const auto *method = op ? dyn_cast_or_null<CXXMethodDecl>(op->getCalleeDecl()) : nullptr;
          if (!pureOperand(lhs) || (op && mayWrite(method) && !(method && method->isTrivial()))) {
            why = "stored by an assignment that does more than store";
            break;
          }
          hoisted = true;
        }
        node = p;
        continue;
      }
      if (const auto *is = dyn_cast<IfStmt>(p); is && is->getCond() == node) {
        if (!is->getInit() && !is->getConditionVariable() && inList(is)) {
          statement = is;
          hoisted = true;
        }
        break;
      }
      if (const auto *ss = dyn_cast<SwitchStmt>(p); ss && ss->getCond() == node) {
        if (!ss->getInit() && !ss->getConditionVariable() && inList(ss)) {
          statement = ss;
          hoisted = true;
        }
        break;
      }
      const auto *uo = dyn_cast<UnaryOperator>(p);
      if (isa<AbstractConditionalOperator>(p) || (bo && bo->isLogicalOp()) || isa<LambdaExpr>(p) ||
          isa<StmtExpr>(p) || (uo && uo->isIncrementDecrementOp())) {
        why = "made conditionally";
        break;
      }
      if (isa<UnaryExprOrTypeTraitExpr>(p) || isa<CXXNoexceptExpr>(p) || isa<CXXTypeidExpr>(p)) {
        why = "in an operand that is not evaluated";
        break;
      }
      if (isBarrier(p)) {
        why = "in the predicate of a barrier";
        break;
      }
      if (isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<DoStmt>(p) || isa<CXXForRangeStmt>(p)) {
        why = "in the header of a loop";
        break;
      }
      bool othersPure = true;
      for (const Stmt *child : p->children())
        if (const auto *e = dyn_cast_or_null<Expr>(child); e && child != node && !pureOperand(e)) othersPure = false;
      if (!isa<Expr>(p) || !othersPure) {
        why = isa<Expr>(p) ? "beside a store or a call of another user function in one statement"
                           : "in a statement other than an expression, a declaration, an if or a switch";
        break;
      }
      // What C++ evaluates before the call: the left operand of << and >>, a subscript's base.
      if (bo && (bo->getOpcode() == BO_Shl || bo->getOpcode() == BO_Shr) && bo->getRHS()->IgnoreParens() == node)
        out.evaluatedBefore.push_back(bo->getLHS());
      if (const auto *sub = dyn_cast<ArraySubscriptExpr>(p); sub && sub->getIdx()->IgnoreParens() == node)
        out.evaluatedBefore.push_back(sub->getBase());
      if (const auto *c = dyn_cast<CallExpr>(p); c && callMayWrite(c)) hoisted = true;
      if (const auto *c = dyn_cast<CXXConstructExpr>(p); c && !c->getConstructor()->isTrivial() && mayWrite(c->getConstructor()))
        hoisted = true;
      node = p;
      continue;
    }
    if (const Decl *d = parents[0].get<Decl>()) {
      const auto *var = dyn_cast<VarDecl>(d);
      DynTypedNodeList up = ctx_.getParents(*d);
      const auto *ds = up.empty() ? nullptr : up[0].get<DeclStmt>();
      if (var && ds && ds->isSingleDecl() && inList(ds)) statement = ds;
    }
    break;
  }
  // The temporary of a hoisted call: a value the clone can declare before it runs, by a name its
  // scope knows (not a type local to a function).
  const QualType value = call->getType();
  const TagDecl *tag = value->getAsTagDecl();
  const auto *record = value->getAsCXXRecordDecl();
  out.declarable = call->isPRValue() && !value->isDependentType() && !value->isVoidType() &&
                          (!tag || (tag->getIdentifier() && !tag->getDeclContext()->isFunctionOrMethod())) &&
                          (!record || (record->hasTrivialDefaultConstructor() && record->isTriviallyCopyable()));
  return out;
}

void TranslationUnitAnalysis::propagate() {
  findDynamicSharedUses();
  // A template's calls that resolve only where it is instantiated (`acc += v` with a T whose
  // operator+= is a user function, `acc.add(v)`) are not in its pattern, which the analysis reads:
  // its instantiations in this file name them. They count as its calls for what it reaches, and one
  // to a function that writes memory or synchronizes refuses the template below (the pattern's text
  // does not name the callee, so no call can be redirected to a checked copy).
  std::map<const FunctionFacts *, std::vector<const CallExpr *>> instantiationCalls;
  for (const FunctionFacts &f : functions_) {
    const FunctionTemplateDecl *tmpl = f.fn->getDescribedFunctionTemplate();
    if (!tmpl) continue;
    // What the pattern names: its resolved callees, and the names of its calls of free user functions
    // (`put(p, v)` on a dependent p: the clone renames such a call, so its text reaches the checked
    // copy of whichever overload an instantiation picks; a call whose only candidate where the
    // template is written is a system function is not renamed, and names nothing).
    std::set<const FunctionDecl *> named;
    std::set<std::string> namedFree;
    for (const CallExpr *call : userCalls_[&f]) {
      if (const FunctionDecl *callee = userCallee(call)) named.insert(callee);
      if (isa<UnresolvedLookupExpr, DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()) && !isa<CXXOperatorCallExpr>(call))
        namedFree.insert(calleeName(call));
    }
    const auto reachedByName = [&](const FunctionDecl *callee) {
      return !isa<CXXMethodDecl>(callee) && !callee->isOverloadedOperator() && namedFree.count(callee->getNameAsString());
    };
    for (const FunctionDecl *instance : tmpl->specializations())
      if (const Stmt *body = instance->getBody())
        for (const CallExpr *call : callsIn(body))
          if (const FunctionDecl *callee = userCallee(call);
              callee && callee != f.fn && !reachedByName(callee) && named.insert(callee).second)
            instantiationCalls[&f].push_back(call);
  }
  for (const FunctionFacts &f : functions_) {
    if (!f.barriers.empty() || f.instantiationSyncs) synchronizes_.insert(f.fn);
    if (f.hasOwnEffects()) needsClone_.insert(f.fn);
    if (!f.untracedStores.empty()) untracedStore_[f.fn] = f.untracedStores[0];
    // A callee defined here that has no facts (an explicit specialization, a lambda's operator()):
    // never cloned, so its stores are not hooked either.
    for (const CallExpr *call : userCalls_[&f])
      if (const FunctionDecl *fd = calleeDecl(call); fd && !userCallee(call) && mayWriteThroughArguments(call, fd))
        untracedStore_.emplace(f.fn, call);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (FunctionFacts &f : functions_)
      for (const auto *calls : {&userCalls_[&f], &instantiationCalls[&f]})
        for (const CallExpr *call : *calls) {
          const FunctionDecl *callee = userCallee(call);
          if (!callee) continue;
          if (synchronizes_.count(callee) && synchronizes_.insert(f.fn).second) changed = true;
          if (needsClone_.count(callee) && needsClone_.insert(f.fn).second) changed = true;
          if (auto it = untracedStore_.find(callee); it != untracedStore_.end() && untracedStore_.emplace(f.fn, it->second).second)
            changed = true;
        }
  }
  // An overloaded operator or conversion is called without its name (`a += b`): a call cannot be
  // redirected to a checked copy of it, so one that needs a copy refuses, and so do its callers.
  for (FunctionFacts &f : functions_)
    if ((f.fn->isOverloadedOperator() || isa<CXXConversionDecl>(f.fn)) && needsClone_.count(f.fn) && !f.refusal.refused())
      f.refusal = Refusal{"an overloaded operator or conversion that synchronizes or writes memory (" +
                              f.fn->getNameAsString() + ")",
                          f.fn->getLocation()};
  // A lambda's or a local class's calls reach the original functions (only the uses of the dynamic
  // shared memory through an accessor are rewritten there): one that needs a clone would act on the
  // program's memory instead of the unit's copies, and could not synchronize with the others.
  for (FunctionFacts &f : functions_)
    for (const CallExpr *call : enclosedCalls_[&f]) {
      const FunctionDecl *callee = userCallee(call);
      if (f.refusal.refused() || !callee || !needsClone_.count(callee)) continue;
      f.refusal = Refusal{"a lambda or a member function of a local class that calls " + callee->getNameAsString() +
                              ", which synchronizes or writes memory",
                          call->getBeginLoc()};
    }
  // A friend of a class may use its private members, which its checked copies (not friends) could not.
  for (FunctionFacts &f : functions_) {
    if (f.refusal.refused() || !(f.isKernel || needsClone_.count(f.fn))) continue;
    std::vector<const Decl *> declarations(f.fn->redecls_begin(), f.fn->redecls_end());
    if (const FunctionTemplateDecl *tmpl = f.fn->getDescribedFunctionTemplate())
      declarations.insert(declarations.end(), tmpl->redecls_begin(), tmpl->redecls_end());
    for (const Decl *d : declarations)
      if (d->getFriendObjectKind() != Decl::FOK_None) {
        f.refusal = Refusal{"a function declared a friend of a class (its checked copies would not be friends)",
                            d->getLocation()};
        break;
      }
  }
  // A refused function refuses its callers, transitively, whether it has a clone or not: one that only
  // reads (no clone) may still wait on memory other threads write, or store through inline PTX.
  for (bool changed = true; changed;) {
    changed = false;
    for (FunctionFacts &f : functions_)
      for (const auto *calls : {&userCalls_[&f], &enclosedCalls_[&f]})
        for (const CallExpr *call : *calls) {
          const FunctionDecl *callee = userCallee(call);
          const FunctionFacts *cf = callee ? facts(callee) : nullptr;
          if (f.refusal.refused() || !cf || cf == &f || !cf->refusal.refused()) continue;
          f.refusal = Refusal{"it calls " + callee->getNameAsString() + ", which cannot be checked: " + cf->refusal.reason,
                              call->getBeginLoc()};
          changed = true;
        }
  }
  enclosedCalls_.clear();
  for (FunctionFacts &f : functions_) {
    for (const CallExpr *call : instantiationCalls[&f]) {
      const FunctionDecl *callee = userCallee(call);
      if (f.refusal.refused() || !needsClone_.count(callee)) continue;
      f.refusal = Refusal{"a call that its template arguments resolve to " + callee->getQualifiedNameAsString() +
                              ", which synchronizes or writes memory",
                          call->getBeginLoc()};
    }
  }
  for (FunctionFacts &f : functions_) {
    std::vector<HelperCallPlacement> placements;
    for (const CallExpr *call : userCalls_[&f]) {
      const FunctionDecl *callee = userCallee(call);
      if (callee && !needsClone_.count(callee)) f.unclonedCalls.push_back(call);
      if (!callee || !needsClone_.count(callee)) continue;
      if (const FunctionFacts *cf = facts(callee); cf && cf->refusal.refused() && !f.refusal.refused())
        f.refusal = Refusal{"it calls " + callee->getNameAsString() + ", which cannot be checked: " + cf->refusal.reason,
                            call->getBeginLoc()};
      if (isa<CXXMethodDecl>(callee) && !f.refusal.refused())
        f.refusal = Refusal{"a member function that synchronizes or writes memory (" + callee->getNameAsString() + ")",
                            call->getBeginLoc()};
      if (!synchronizes_.count(callee)) {
        f.clonedCalls.push_back(call);
        continue;
      }
      placements.push_back(placeHelperCall(f, call, callee));
    }
    // Several calls in one statement (`blockSum(x) + blockSum(y)`) are each hoisted, in source order.
    std::stable_sort(placements.begin(), placements.end(), [&](const HelperCallPlacement &a, const HelperCallPlacement &b) {
      return ctx_.getSourceManager().isBeforeInTranslationUnit(a.call.call->getBeginLoc(), b.call.call->getBeginLoc());
    });
    std::map<const Stmt *, std::set<const Stmt *>> callsInStatement;
    std::map<SourceLocation, unsigned> callsSpelledAt;  // a macro that expands its argument twice: SQ(f(x))
    for (const HelperCallPlacement &p : placements) {
      if (p.why.empty() && p.call.statement) callsInStatement[p.call.statement].insert(p.call.call);
      ++callsSpelledAt[ctx_.getSourceManager().getSpellingLoc(p.call.call->getBeginLoc())];
    }
    for (HelperCallPlacement &p : placements) {
      const CallExpr *call = p.call.call;
      const Stmt *statement = p.call.statement;
      if (statement && callsInStatement[statement].size() > 1) p.call.hoisted = true;
      std::string why = p.why;
      if (why.empty() && callsSpelledAt[ctx_.getSourceManager().getSpellingLoc(call->getBeginLoc())] > 1)
        why = "spelled once in a macro that expands to several such calls";
      // A declaration turned into a braced or constructor initialization of a temporary (a local that
      // lives across a barrier) is rewritten from its text, which the hoisted call's edit overlaps.
      if (const auto *ds = dyn_cast_or_null<DeclStmt>(statement); why.empty() && ds && p.call.hoisted)
        for (const Decl *d : ds->decls())
          if (const auto *v = dyn_cast<VarDecl>(d);
              v && v->hasInit() && (v->getInitStyle() != VarDecl::CInit || isa<InitListExpr>(v->getInit()->IgnoreImplicit())))
            why = "inside a braced or constructor initializer";
      if (why.empty() && statement && p.call.hoisted && !p.declarable)
        why = "inside a larger statement, with a value it cannot keep in a temporary (a reference, a type local to a "
              "function or depending on a template parameter)";
      // What C++ evaluates before the call reads memory after it, unless it is inside another call of
      // the statement (`f(in[0]) << f(in[1])`: with two, all are hoisted, in source order).
      const bool readBefore = std::any_of(p.evaluatedBefore.begin(), p.evaluatedBefore.end(), [&](const Expr *e) {
        return readsMemory(e, callsInStatement[statement]);
      });
      if (why.empty() && statement && p.call.hoisted && readBefore)
        why = "after an operand that C++ evaluates first and that reads memory (`s[0] << f(s)`)";
      bool sideEffects = false;
      for (const Expr *arg : call->arguments()) sideEffects |= arg->HasSideEffects(ctx_, false);
      if (why.empty() && sideEffects) why = "with arguments that have side effects";
      if (why.empty() && !statement) why = "in a statement other than an expression, a declaration, an if or a switch";
      if (!why.empty()) {
        if (!f.refusal.refused())
          f.refusal = Refusal{"a call of " + p.call.callee->getNameAsString() + " (which synchronizes) " + why,
                              call->getBeginLoc()};
        continue;
      }
      f.helperCalls.push_back(p.call);
    }
  }
  userCalls_.clear();
}

bool TranslationUnitAnalysis::lambdaBecomesFunctionPointer(const LambdaExpr *lambda) const {
  const SourceManager &sm = ctx_.getSourceManager();
  if (!convertedLambdas_) {
    struct Conversions : RecursiveASTVisitor<Conversions> {
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitMemberExpr(MemberExpr *member) {
        const auto *conversion = dyn_cast<CXXConversionDecl>(member->getMemberDecl());
        if (conversion && conversion->getParent()->isLambda())
          offsets.insert(sm->getFileOffset(sm->getExpansionLoc(conversion->getParent()->getLocation())));
        return true;
      }
      const SourceManager *sm;
      std::set<unsigned> offsets;
    } conversions;
    conversions.sm = &sm;
    conversions.TraverseDecl(ctx_.getTranslationUnitDecl());
    convertedLambdas_ = std::move(conversions.offsets);
  }
  return convertedLambdas_->count(sm.getFileOffset(sm.getExpansionLoc(lambda->getLambdaClass()->getLocation()))) > 0;
}

// How each binding of a structured binding names its part of the hidden variable (LocalPlan::parts);
// why it cannot be hoisted, or "".
std::string TranslationUnitAnalysis::planBindings(const DecompositionDecl &decomposition, LocalPlan &plan) const {
  if (decomposition.getType()->isReferenceType()) {
    // The hoisted pointer would outlive a temporary the reference extends.
    const Expr *init = decomposition.getInit();
    if (!init || bindsTemporary(init)) return "binds a reference to a temporary";
    plan.bindsReference = true;
  }
  const size_t count = decomposition.bindings().size();
  size_t k = 0;
  for (const BindingDecl *b : decomposition.bindings()) {
    const Expr *part = b->getBinding() ? b->getBinding()->IgnoreImplicit() : nullptr;
    if (b->getHoldingVar()) {  // tuple-like: get<k>, through the runtime (region_check.cuh, binding)
      if (count > 6) return "binds more than 6 names of a tuple-like type";
      plan.parts[b] = "::ldcc::rt::binding<" + std::to_string(k) + ", " + std::to_string(count) + ">(@)";
    } else if (const auto *member = dyn_cast_or_null<MemberExpr>(part)) {
      plan.parts[b] = "(@." + member->getMemberDecl()->getNameAsString() + ")";
    } else if (const auto *element = dyn_cast_or_null<ArraySubscriptExpr>(part)) {
      Expr::EvalResult index;
      if (!element->getIdx()->EvaluateAsInt(index, ctx_)) return "binds an element it cannot name";
      plan.parts[b] = "(@[" + std::to_string(index.Val.getInt().getExtValue()) + "])";
    } else {
      return "binds a part it cannot name";
    }
    ++k;
  }
  return "";
}

void TranslationUnitAnalysis::planLocals(FunctionFacts &facts) {
  const SourceManager &sm = ctx_.getSourceManager();
  // Where a jump back may land: at every barrier, before and after every synchronizing call.
  std::vector<SourceLocation> resumePoints;
  for (const Barrier &b : facts.barriers) resumePoints.push_back(b.statement->getBeginLoc());
  for (const HelperCall &h : facts.helperCalls) {
    resumePoints.push_back(h.statement->getBeginLoc());
    if (!h.hoisted) resumePoints.push_back(h.statement->getEndLoc());  // a hoisted call resumes before it
  }

  VariableUses uses = variableUses(facts.fn->getBody());
  Assignments refs;
  refs.TraverseStmt(facts.fn->getBody());

  std::set<const VarDecl *> invariantOk;
  for (const ParmVarDecl *p : facts.fn->parameters()) {
    // A reference parameter names memory that may change before a declaration runs (a helper's
    // `const float& x` bound to shared memory another warp stores to before the barrier).
    if (!onlyRead(ctx_, uses[p])) {
      // What a reference parameter names (memory, or a caller's local) a re-execution of this function's
      // regions cannot restore: the function's frame cannot hold it.
      if (p->getType()->isReferenceType() && (!facts.barriers.empty() || !facts.helperCalls.empty())) {
        if (!facts.refusal.refused())
          facts.refusal = Refusal{"the reference parameter '" + p->getNameAsString() +
                                      "' of a function that synchronizes is written or bound to a reference that is not const",
                                  p->getLocation()};
        continue;
      }
      facts.modifiedParams.push_back(p);
    } else if (!p->getType()->isReferenceType()) {
      invariantOk.insert(p);
    }
  }

  // Locals whose scope contains a resume point after their declaration, in source order.
  struct LocalCollector : RecursiveASTVisitor<LocalCollector> {
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitVarDecl(VarDecl *v) {
      if (v->isLocalVarDecl() && !v->isStaticLocal() && !v->hasAttr<CUDASharedAttr>()) vars.push_back(v);
      return true;
    }
    std::vector<const VarDecl *> vars;
  } collector;
  collector.TraverseStmt(facts.fn->getBody());

  int counter = 0;
  for (const VarDecl *var : collector.vars) {
    const Stmt *scope = scopeOf(ctx_, var);
    if (!scope) {
      if (!facts.refusal.refused()) facts.refusal = Refusal{"a variable declared in a condition", var->getLocation()};
      continue;
    }
    const SourceRange range = scope->getSourceRange();
    bool crosses = false;
    for (SourceLocation point : resumePoints)
      if (sm.isBeforeInTranslationUnit(var->getLocation(), point) && sm.isBeforeInTranslationUnit(point, range.getEnd()) &&
          sm.isBeforeInTranslationUnit(range.getBegin(), point))
        crosses = true;
    if (!crosses) continue;
    if (!isa<CompoundStmt>(scope) && !isa<ForStmt>(scope)) {
      // A range-based for's variables (its own and the implicit range and iterators) are assigned by
      // the loop itself: there is no declaration to turn into an assignment.
      const char *why = isa<CXXForRangeStmt>(scope)
                            ? "a range-based for loop whose body synchronizes (an index loop can be checked)"
                            : "a variable declared in a condition that lives across a barrier";
      if (!facts.refusal.refused()) facts.refusal = Refusal{why, var->getLocation()};
      continue;
    }
    LocalPlan plan;
    plan.var = var;
    const auto *decomposition = dyn_cast<DecompositionDecl>(var);
    plan.newName = decomposition ? "ldcc_bindings" + std::to_string(++counter)
                                 : var->getNameAsString() + "__ldcc" + std::to_string(++counter);
    if (decomposition) {
      if (const std::string why = planBindings(*decomposition, plan); !why.empty()) {
        if (!facts.refusal.refused())
          facts.refusal = Refusal{"the structured binding " + localName(var) + " lives across a barrier and " + why,
                                  var->getLocation()};
        continue;
      }
    }
    // A reference local (`float& r = s[i];`, `const Params& p = all[b];`) is hoisted as a pointer to
    // what it names, each use reading through it; it is never rebound, whatever is stored through it.
    const bool reference = !decomposition && var->getType()->isReferenceType();
    if (reference) {
      const Expr *init = var->getInit();
      // In a template, what the initializer binds shows in each instantiation (`const float& v = *in;`
      // binds a converted temporary where in is an int*).
      bool temporary = init && bindsTemporary(init);
      if (const FunctionTemplateDecl *tmpl = facts.fn->getDescribedFunctionTemplate(); tmpl && init && !temporary)
        for (const FunctionDecl *instance : tmpl->specializations())
          for (const VarDecl *same : varsAt(instance->getBody(), var->getLocation()))
            temporary = temporary || !same->getInit() || bindsTemporary(same->getInit());
      bool callsSync = false;
      for (const CallExpr *call : init ? callsIn(init) : std::vector<const CallExpr *>{})
        callsSync = callsSync || synchronizes_.count(userCallee(call));
      const char *why = !init || var->getInitStyle() != VarDecl::CInit ? "is not initialized by `= value`"
                        : var->getType()->isRValueReferenceType() ? "is an rvalue reference"
                        : temporary                               ? "binds a temporary or a part of one"
                        : var->getType()->getPointeeType()->isFunctionType() ? "names a function"
                        : callsSync                                           ? "calls a function that synchronizes"
                        : capturedByLambda(facts.fn->getBody(), var)          ? "is captured by a lambda"
                                                                              : nullptr;
      if (why) {
        if (!facts.refusal.refused())
          facts.refusal = Refusal{"the reference '" + localName(var) + "' lives across a barrier and " + why,
                                  var->getLocation()};
        continue;
      }
    }
    const DeclStmt *ds = declStmtOf(ctx_, var);
    // A const object with a mutable member (`const M m{}; ... m.hits++;`) changes: it is saved in the
    // frame like any local a re-execution must restore.
    const CXXRecordDecl *record = var->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    const bool mutableInside = record && record->hasDefinition() && record->hasMutableFields();
    // A cooperative group (`auto tile = cg::tiled_partition<32>(block);`) is a handle no call changes,
    // its shuffles and votes included.
    const bool groupHandle = record && inNamespace(record, "cooperative_groups");
    const bool immutable = reference || groupHandle || (var->getType().isConstQualified() && !mutableInside) ||
                           (!mutableInside && onlyRead(ctx_, uses[var]));
    // A structured binding is always hoisted: its bindings are rewritten to parts of one variable.
    bool invariant = !decomposition && var->hasInit() && ds && ds->isSingleDecl() && !isa<ForStmt>(scope);
    if (invariant) {
      InvariantCheck check(ctx_, invariantOk);
      check.TraverseStmt(const_cast<Expr *>(var->getInit()));
      invariant = check.invariant;
    }
    // A declaration moved whole keeps its type's spelling, which may name an alias declared below.
    if (immutable && invariant && !namesLocalAlias(var->getType())) {
      plan.kind = LocalKind::Moved;
      invariantOk.insert(var);
    } else {
      plan.kind = LocalKind::Hoisted;
      QualType t = var->getType();
      // A reference moved whole stays one; hoisted, it becomes a pointer.
      if (reference) plan.bindsReference = true;
      if (decomposition || reference) {
        // The hidden variable or the reference is the clone's own: it may drop const, and a reference
        // becomes a pointer.
        t = plan.bindsReference ? ctx_.getPointerType(t.getNonReferenceType()) : t;
        t.removeLocalConst();
      }
      const QualType canonical = t.getCanonicalType();
      const bool dependentAuto = t->getContainedAutoType() && (t->isUndeducedType() || t->isDependentType());
      const bool localClass = canonical->getAsTagDecl() && canonical->getAsTagDecl()->getDeclContext()->isFunctionOrMethod();
      // A const array (`const float w[2] = {s[a], s[b]};`) is hoisted with elements that are not const
      // and read as const, as a const class local is; a volatile one keeps the refusal.
      const bool constArray = canonical->isArrayType() && canonical.isConstQualified();
      if (constArray) {
        Qualifiers elementQualifiers;
        const QualType unqualified = ctx_.getUnqualifiedArrayType(t, elementQualifiers);
        if (!elementQualifiers.hasVolatile()) t = unqualified;
      }
      // A const local of a template's type parameter (`const T total = ...`) is hoisted as T: its
      // instantiations are scalars as a rule, and one that cannot be assigned does not compile.
      const char *unmovable =
          t->isReferenceType()                                  ? "a reference"
          : dependentAuto                                       ? "its type is a dependent auto"
          : localClass                                          ? "its type is local to a function"
          : constArray && t.getCanonicalType().isConstQualified() ? "a const volatile array"
          : t.isConstQualified() && !t->isScalarType() && !t->isDependentType() && !canonical->isRecordType()
              ? "a const of a type it cannot assign"
              : nullptr;
      if (unmovable) {
        if (!facts.refusal.refused())
          facts.refusal = Refusal{"the local '" + localName(var) +
                                      "' lives across a barrier and cannot be moved to function scope (" + unmovable + ")",
                                  var->getLocation()};
        continue;
      }
      if (!declarableThenAssignable(canonical)) {
        if (!facts.refusal.refused())
          facts.refusal = Refusal{"the local '" + localName(var) +
                                      "' lives across a barrier and its type cannot be default-constructed and "
                                      "assigned at function scope",
                                  var->getLocation()};
        continue;
      }
      plan.asConst = constArray || (t.isConstQualified() && canonical->isRecordType());
      t.removeLocalConst();
      // A const an alias carries (`using CP = const Pair; CP q = ...;`): the type as it is, without it.
      if (t.isConstQualified() && !t->isDependentType()) t = canonical.getUnqualifiedType();
      plan.type = withRenamedLocals(printType(t, ctx_), var, facts.locals);
    }
    facts.locals.push_back(plan);
  }

  // Values that differ between executions by nature are not compared (nor anything computed from them).
  std::set<const VarDecl *> excluded = facts.asmOutputs;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto &[var, rhss] : refs.assignments) {
      if (excluded.count(var)) continue;
      NondeterminismCheck check(excluded);
      for (const Expr *rhs : rhss) check.TraverseStmt(const_cast<Expr *>(rhs));
      if (check.found) changed = excluded.insert(var).second || changed;
    }
    for (const LocalPlan &p : facts.locals) {
      if (excluded.count(p.var) || !p.var->hasInit()) continue;
      NondeterminismCheck check(excluded);
      check.TraverseStmt(const_cast<Expr *>(p.var->getInit()));
      if (check.found) changed = excluded.insert(p.var).second || changed;
    }
  }
  for (LocalPlan &p : facts.locals) p.compared = !excluded.count(p.var);
  for (const ParmVarDecl *p : facts.modifiedParams)
    if (excluded.count(p)) facts.uncomparedParams.insert(p);
}

void TranslationUnitAnalysis::forEachReached(const FunctionDecl *kernel,
                                             const std::function<void(const FunctionFacts &)> &visit) const {
  std::set<const FunctionDecl *> seen;
  std::function<void(const FunctionDecl *)> walk = [&](const FunctionDecl *fn) {
    if (!seen.insert(fn).second) return;
    const FunctionFacts *f = facts(fn);
    if (!f) return;
    visit(*f);
    for (const HelperCall &h : f->helperCalls) walk(h.callee);
    for (const CallExpr *c : f->clonedCalls)
      if (const FunctionDecl *callee = userCallee(c)) walk(callee);
  };
  walk(kernel);
}

std::vector<const VarDecl *> TranslationUnitAnalysis::helperSharedOf(const FunctionDecl *kernel) const {
  std::vector<const VarDecl *> out;
  forEachReached(kernel, [&](const FunctionFacts &f) {
    if (f.fn != kernel) out.insert(out.end(), f.sharedLocals.begin(), f.sharedLocals.end());
  });
  return out;
}

std::vector<const VarDecl *> TranslationUnitAnalysis::dynamicSharedOf(const FunctionDecl *kernel) const {
  std::vector<const VarDecl *> out;
  forEachReached(kernel, [&](const FunctionFacts &f) {
    for (const VarDecl *v : f.dynamicSharedVars())
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  });
  return out;
}

std::vector<const VarDecl *> TranslationUnitAnalysis::deviceVarsReachedFrom(const FunctionDecl *kernel) const {
  std::vector<const VarDecl *> out;
  forEachReached(kernel, [&](const FunctionFacts &f) {
    for (const VarDecl *v : f.deviceVars)
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  });
  return out;
}

void TranslationUnitAnalysis::refuse(const FunctionDecl *fn, const Refusal &why) {
  auto it = index_.find(fn);
  if (it != index_.end() && !functions_[it->second].refusal.refused()) functions_[it->second].refusal = why;
}

}  // namespace ldcc::translator
