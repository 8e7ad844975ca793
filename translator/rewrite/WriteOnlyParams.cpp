#include "rewrite/WriteOnlyParams.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>

using namespace clang;

namespace ldcc::translator {

namespace {

// Texture and surface objects are integers that read memory where no pointer shows it.
bool isTextureOrSurface(QualType type) {
  const std::string spelled = type.getAsString();
  for (const char *name : {"cudaTextureObject_t", "cudaSurfaceObject_t", "texture<", "surface<"})
    if (spelled.find(name) != std::string::npos) return true;
  return false;
}

// Finds, in a function and every user function it calls, a way to read global memory that does not
// go through the kernel's pointer parameters.
class HiddenReads : public RecursiveASTVisitor<HiddenReads> {
public:
  HiddenReads(ASTContext &ctx, const TranslationUnitAnalysis &tu) : ctx_(ctx), tu_(tu) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool found = false;

  void scan(const FunctionDecl *fn) {
    if (found || !fn || !fn->hasBody() || !scanned_.insert(fn).second) return;
    TraverseStmt(fn->getBody());
  }

  bool VisitDeclRefExpr(DeclRefExpr *e) {
    const auto *v = dyn_cast<VarDecl>(e->getDecl());
    if (!v || !v->hasGlobalStorage() || v->hasAttr<CUDASharedAttr>()) return true;
    const QualType type = v->getType();
    if (holdsPointer(type) || isTextureOrSurface(type)) return fail();
    // Constants (folded, or in constant memory) hold no copy of a buffer the kernel writes.
    if (v->hasAttr<CUDAConstantAttr>() || type.isConstQualified()) return true;
    return fail();
  }
  bool VisitCastExpr(CastExpr *e) {
    return e->getCastKind() == CK_IntegralToPointer ? fail() : true;
  }
  // PTX that may take an address: a pointer or 64-bit operand.
  bool VisitGCCAsmStmt(GCCAsmStmt *s) {
    for (unsigned i = 0; i < s->getNumInputs(); ++i) {
      const QualType t = s->getInputExpr(i)->getType();
      if (t->isDependentType() || t->isPointerType() || (t->isIntegerType() && ctx_.getTypeSize(t) >= 64)) return fail();
    }
    return true;
  }
  bool VisitMSAsmStmt(MSAsmStmt *) { return fail(); }
  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *user = tu_.userCallee(call);
    const auto *direct = dyn_cast_or_null<FunctionDecl>(call->getCalleeDecl());
    if (!user && !direct) return fail();  // through a function pointer, or unresolved
    const FunctionDecl *callee = user ? user : direct;
    const std::string name = callee->getNameAsString();
    if (name.rfind("tex", 0) == 0 || name.rfind("surf", 0) == 0) return fail();
    if (user) pending_.push_back(user);
    return true;
  }

  void scanCallees() {
    while (!found && !pending_.empty()) {
      const FunctionDecl *next = pending_.back();
      pending_.pop_back();
      scan(next);
    }
  }

private:
  bool fail() {
    found = true;
    return false;  // stops the traversal
  }
  ASTContext &ctx_;
  const TranslationUnitAnalysis &tu_;
  std::set<const FunctionDecl *> scanned_;
  std::vector<const FunctionDecl *> pending_;
};

const Stmt *parentSkippingParens(const ParentMap &parents, const Stmt *s) {
  const Stmt *p = parents.getParent(s);
  while (p && isa<ParenExpr>(p)) p = parents.getParent(p);
  return p;
}

bool sameExpr(const Expr *a, const Stmt *b) { return a && a->IgnoreParenImpCasts() == b; }

// How a pointer parameter's use accesses the memory it points to: only a store, a load of exactly the
// bytes it then stores (an update in place), or anything else.
enum class UseKind { kStore, kUpdate, kOther };

// Whether this use of a pointer parameter is the base of an assignment's left-hand side whose value
// nothing reads: a plain one (kStore), or a compound assignment, ++ or -- (kUpdate: it reads only the
// bytes it stores).
UseKind storeUse(const DeclRefExpr *use, const ParentMap &parents) {
  constexpr UseKind kOther = UseKind::kOther;
  const Stmt *loaded = parentSkippingParens(parents, use);
  const auto *cast = dyn_cast_or_null<ImplicitCastExpr>(loaded);
  if (!cast || cast->getCastKind() != CK_LValueToRValue) return kOther;
  const Stmt *access = parentSkippingParens(parents, cast);
  const Stmt *lvalue = nullptr;
  if (const auto *subscript = dyn_cast_or_null<ArraySubscriptExpr>(access); subscript && sameExpr(subscript->getBase(), use))
    lvalue = subscript;
  else if (const auto *deref = dyn_cast_or_null<UnaryOperator>(access);
           deref && deref->getOpcode() == UO_Deref && sameExpr(deref->getSubExpr(), use))
    lvalue = deref;
  else if (const auto *member = dyn_cast_or_null<MemberExpr>(access); member && member->isArrow() && sameExpr(member->getBase(), use))
    lvalue = member;
  if (!lvalue) return kOther;
  // Fields and array members of the element: p[i].x = v, p[i].a[k] = v.
  for (const Stmt *up = parentSkippingParens(parents, lvalue); up; up = parentSkippingParens(parents, lvalue)) {
    if (const auto *member = dyn_cast<MemberExpr>(up); member && !member->isArrow() && sameExpr(member->getBase(), lvalue)) {
      lvalue = member;
      continue;
    }
    if (const auto *decay = dyn_cast<ImplicitCastExpr>(up); decay && decay->getCastKind() == CK_ArrayToPointerDecay) {
      const auto *subscript = dyn_cast_or_null<ArraySubscriptExpr>(parentSkippingParens(parents, decay));
      if (subscript && sameExpr(subscript->getBase(), lvalue)) {
        lvalue = subscript;
        continue;
      }
    }
    break;
  }
  const Stmt *assignment = parentSkippingParens(parents, lvalue);
  UseKind kind = UseKind::kStore;
  if (const auto *op = dyn_cast_or_null<BinaryOperator>(assignment)) {
    if (!op->isAssignmentOp() || op->getLHS()->IgnoreParens() != lvalue) return kOther;
    if (op->isCompoundAssignmentOp()) kind = UseKind::kUpdate;
  } else if (const auto *op = dyn_cast_or_null<UnaryOperator>(assignment)) {
    if (!op->isIncrementDecrementOp() || op->getSubExpr()->IgnoreParens() != lvalue) return kOther;
    kind = UseKind::kUpdate;
  } else if (const auto *call = dyn_cast_or_null<CXXOperatorCallExpr>(assignment)) {
    // The implicit assignment of a trivially copyable struct (float4, ...): a store of every byte.
    const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getCalleeDecl());
    if (call->getOperator() != OO_Equal || call->getNumArgs() != 2 || call->getArg(0)->IgnoreParens() != lvalue ||
        !method || !method->isTrivial())
      return kOther;
  } else {
    return kOther;
  }
  // The assignment's own value is not used (`a = p[i] = v` would read p[i]).
  const Stmt *context = parentSkippingParens(parents, assignment);
  while (context && isa<ExprWithCleanups>(context)) {  // the temporaries of `p[i] = make_float4(...)`
    assignment = context;
    context = parentSkippingParens(parents, context);
  }
  if (!context || !isa<Expr>(context)) return kind;
  const auto *comma = dyn_cast<BinaryOperator>(context);
  return comma && comma->getOpcode() == BO_Comma && comma->getLHS()->IgnoreParens() == assignment ? kind : kOther;
}

}  // namespace

StoredParams storedParams(ASTContext &ctx, const TranslationUnitAnalysis &tu, const FunctionDecl *kernel) {
  StoredParams out;
  if (!kernel || !kernel->hasBody()) return out;
  // A template is analysed uninstantiated: there `p[i] += t` with a dependent `t` may become a call
  // of a user operator that reads other memory, and a dependent conversion may read it too.
  if (kernel->isTemplated()) return out;
  for (const ParmVarDecl *p : kernel->parameters()) {
    const QualType type = p->getType();
    if (isTextureOrSurface(type)) return {};
    if (type->isPointerType() ? holdsPointer(type->getPointeeType()) : holdsPointer(type)) return {};
  }
  HiddenReads hidden(ctx, tu);
  hidden.scan(kernel);
  hidden.scanCallees();
  if (hidden.found) return {};

  const Stmt *body = kernel->getBody();
  const ParentMap parents(const_cast<Stmt *>(body));
  const VariableUses uses = variableUses(body);
  for (const ParmVarDecl *p : kernel->parameters()) {
    const QualType type = p->getType();
    if (!type->isPointerType() || type->getPointeeType().isConstQualified()) continue;
    const auto found = uses.find(p);
    if (found == uses.end() || found->second.empty()) continue;  // never written: not a target anyway
    bool storesOnly = true, updates = false;
    for (const DeclRefExpr *use : found->second) {
      const UseKind kind = storeUse(use, parents);
      storesOnly = storesOnly && kind != UseKind::kOther;
      updates = updates || kind == UseKind::kUpdate;
    }
    if (storesOnly) (updates ? out.updatedInPlace : out.writeOnly).insert(p->getFunctionScopeIndex());
  }
  return out;
}

}  // namespace ldcc::translator
