#include "rewrite/WriteOnlyParams.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <set>

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
// bytes it then stores (an update in place), a load alone (an update in place only where the thread
// then stores the same element, see storedAfterLoad), or anything else.
enum class UseKind { kStore, kUpdate, kLoad, kOther };

struct ParamUse {
  UseKind kind = UseKind::kOther;
  const Expr *element = nullptr;    // the element lvalue: p[i], *p, p->x, p[i].x, p[i].a[k]
  const Stmt *statement = nullptr;  // kStore, kUpdate: the assignment with its cleanups
};

// What this use of a pointer parameter does: the base of an assignment's left-hand side whose value
// nothing reads, a plain one (kStore), or a compound assignment, ++ or -- (kUpdate: it reads only the
// bytes it stores); or the base of a scalar load of an element (kLoad).
ParamUse classifyUse(const DeclRefExpr *use, const ParentMap &parents) {
  const ParamUse other;
  const Stmt *loaded = parentSkippingParens(parents, use);
  const auto *cast = dyn_cast_or_null<ImplicitCastExpr>(loaded);
  if (!cast || cast->getCastKind() != CK_LValueToRValue) return other;
  const Stmt *access = parentSkippingParens(parents, cast);
  const Expr *lvalue = nullptr;
  if (const auto *subscript = dyn_cast_or_null<ArraySubscriptExpr>(access); subscript && sameExpr(subscript->getBase(), use))
    lvalue = subscript;
  else if (const auto *deref = dyn_cast_or_null<UnaryOperator>(access);
           deref && deref->getOpcode() == UO_Deref && sameExpr(deref->getSubExpr(), use))
    lvalue = deref;
  else if (const auto *member = dyn_cast_or_null<MemberExpr>(access); member && member->isArrow() && sameExpr(member->getBase(), use))
    lvalue = member;
  if (!lvalue) return other;
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
  if (const auto *load = dyn_cast_or_null<ImplicitCastExpr>(assignment); load && load->getCastKind() == CK_LValueToRValue)
    return ParamUse{UseKind::kLoad, lvalue, nullptr};
  UseKind kind = UseKind::kStore;
  if (const auto *op = dyn_cast_or_null<BinaryOperator>(assignment)) {
    if (!op->isAssignmentOp() || op->getLHS()->IgnoreParens() != lvalue) return other;
    if (op->isCompoundAssignmentOp()) kind = UseKind::kUpdate;
  } else if (const auto *op = dyn_cast_or_null<UnaryOperator>(assignment)) {
    if (!op->isIncrementDecrementOp() || op->getSubExpr()->IgnoreParens() != lvalue) return other;
    kind = UseKind::kUpdate;
  } else if (const auto *call = dyn_cast_or_null<CXXOperatorCallExpr>(assignment)) {
    // The implicit assignment of a trivially copyable struct (float4, ...): a store of every byte.
    const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getCalleeDecl());
    if (call->getOperator() != OO_Equal || call->getNumArgs() != 2 || call->getArg(0)->IgnoreParens() != lvalue ||
        !method || !method->isTrivial())
      return other;
  } else {
    return other;
  }
  // The assignment's own value is not used (`a = p[i] = v` would read p[i]).
  const Stmt *context = parentSkippingParens(parents, assignment);
  while (context && isa<ExprWithCleanups>(context)) {  // the temporaries of `p[i] = make_float4(...)`
    assignment = context;
    context = parentSkippingParens(parents, context);
  }
  const ParamUse stored{kind, lvalue, assignment};
  if (!context || !isa<Expr>(context)) return stored;
  const auto *comma = dyn_cast<BinaryOperator>(context);
  return comma && comma->getOpcode() == BO_Comma && comma->getLHS()->IgnoreParens() == assignment ? stored : other;
}

bool isArrayDecay(const Expr *e) {
  const auto *cast = dyn_cast<ImplicitCastExpr>(e->IgnoreParens());
  return cast && cast->getCastKind() == CK_ArrayToPointerDecay;
}

// Whether two element lvalues of pointer parameter `param` name the same element whenever the variables
// in them (collected into `variables`) hold the same values: built alike from the parameter, literals,
// integer locals, threadIdx and its kind, arithmetic, casts, fields and subscripts. Memory is accessed
// only along the element itself (`value` false): an index or a pointer computed by loading (p[q[i]],
// *(p + p[0])) may name another element when the store evaluates it again. Anything else (a call, a
// load from other memory) compares unequal.
bool sameElement(const Expr *a, const Expr *b, const ParmVarDecl *param, std::set<const VarDecl *> &variables,
                 bool value = false) {
  a = a->IgnoreParens();
  b = b->IgnoreParens();
  if (a->getStmtClass() != b->getStmtClass()) return false;
  if (const auto *x = dyn_cast<ArraySubscriptExpr>(a)) {
    const auto *y = cast<ArraySubscriptExpr>(b);
    return !value && sameElement(x->getBase(), y->getBase(), param, variables, !isArrayDecay(x->getBase())) &&
           sameElement(x->getIdx(), y->getIdx(), param, variables, true);
  }
  if (const auto *x = dyn_cast<UnaryOperator>(a)) {
    const auto *y = cast<UnaryOperator>(b);
    const UnaryOperatorKind op = x->getOpcode();
    const bool pure = (op == UO_Deref && !value) || op == UO_Plus || op == UO_Minus || op == UO_Not || op == UO_LNot;
    return pure && op == y->getOpcode() && sameElement(x->getSubExpr(), y->getSubExpr(), param, variables, true);
  }
  if (const auto *x = dyn_cast<BinaryOperator>(a)) {
    const auto *y = cast<BinaryOperator>(b);
    return !x->isAssignmentOp() && x->getOpcode() != BO_Comma && x->getOpcode() == y->getOpcode() &&
           sameElement(x->getLHS(), y->getLHS(), param, variables, true) &&
           sameElement(x->getRHS(), y->getRHS(), param, variables, true);
  }
  if (const auto *x = dyn_cast<MemberExpr>(a)) {
    const auto *y = cast<MemberExpr>(b);
    return !value && x->getMemberDecl() == y->getMemberDecl() && x->isArrow() == y->isArrow() &&
           sameElement(x->getBase(), y->getBase(), param, variables, x->isArrow());
  }
  if (const auto *x = dyn_cast<CastExpr>(a)) {
    const auto *y = cast<CastExpr>(b);
    const CastKind kind = x->getCastKind();
    const bool pure = kind == CK_LValueToRValue || kind == CK_IntegralCast || kind == CK_NoOp ||
                      kind == CK_IntegralToBoolean || kind == CK_ArrayToPointerDecay;
    return pure && kind == y->getCastKind() && x->getType() == y->getType() &&
           sameElement(x->getSubExpr(), y->getSubExpr(), param, variables, value);
  }
  if (const auto *x = dyn_cast<DeclRefExpr>(a)) {
    const ValueDecl *decl = x->getDecl();
    if (decl != cast<DeclRefExpr>(b)->getDecl()) return false;
    if (isa<EnumConstantDecl>(decl)) return true;
    const auto *var = dyn_cast<VarDecl>(decl);
    if (!var || !var->hasLocalStorage() || var->getType()->isReferenceType() || var->getType().isVolatileQualified())
      return false;
    // The parameter is the only pointer: through any other the element's index would load memory.
    if (!var->getType()->isIntegralOrEnumerationType() && var != param) return false;
    variables.insert(var);
    return true;
  }
  if (const auto *x = dyn_cast<IntegerLiteral>(a))
    return x->getType() == b->getType() && x->getValue() == cast<IntegerLiteral>(b)->getValue();
  if (const auto *x = dyn_cast<CharacterLiteral>(a)) return x->getValue() == cast<CharacterLiteral>(b)->getValue();
  if (const auto *x = dyn_cast<PseudoObjectExpr>(a)) {
    const MSPropertyDecl *px = nullptr, *py = nullptr;
    const VarDecl *vx = builtinIndexVariable(x, px), *vy = builtinIndexVariable(cast<PseudoObjectExpr>(b), py);
    return vx && vx == vy && px == py;
  }
  return false;
}

// A constructor or destructor that runs user code: neither trivial nor from a system header.
bool userSpecialMember(const CXXMethodDecl *m) {
  return m && !m->isTrivial() && !inSystemHeader(m->getASTContext(), m->getLocation());
}

// Whether a statement may leave the statement list it is in other than at its end, or keep the
// thread from getting there: a jump, inline PTX (`exit`), a throw, or a call of a user function, a
// lambda or through a pointer, a user constructor or destructor (a local's, at the end of its scope;
// a temporary's), new or delete (any may hold these, or change a local a lambda captured).
bool mayLeave(const Stmt *s, const TranslationUnitAnalysis &tu) {
  if (!s) return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt, AsmStmt, CXXThrowExpr, CoreturnStmt,
          CXXNewExpr, CXXDeleteExpr>(s))
    return true;
  if (const auto *call = dyn_cast<CallExpr>(s)) {
    const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
    if (tu.userCallee(call) || !call->getDirectCallee() || (method && method->getParent()->isLambda())) return true;
  }
  if (const auto *construct = dyn_cast<CXXConstructExpr>(s); construct && userSpecialMember(construct->getConstructor()))
    return true;
  if (const auto *temporary = dyn_cast<CXXBindTemporaryExpr>(s);
      temporary && userSpecialMember(temporary->getTemporary()->getDestructor()))
    return true;
  if (const auto *decl = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : decl->decls()) {
      const auto *var = dyn_cast<VarDecl>(d);
      const CXXRecordDecl *record = var ? var->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl() : nullptr;
      if (record && record->hasDefinition() && userSpecialMember(record->getDestructor())) return true;
    }
  }
  for (const Stmt *child : s->children())
    if (mayLeave(child, tu)) return true;
  return false;
}

// The statement of `list` that `s` is in (s itself, or one it is nested in), or null; null too where
// a lambda lies between (its body runs when the lambda is called).
const Stmt *statementOf(const Stmt *s, const CompoundStmt *list, const ParentMap &parents) {
  while (s) {
    const Stmt *parent = parents.getParent(s);
    if (parent == list) return s;
    if (isa_and_nonnull<LambdaExpr>(parent)) return nullptr;
    s = parent;
  }
  return nullptr;
}

bool insideLambda(const Stmt *s, const ParentMap &parents) {
  for (const Stmt *up = parents.getParent(s); up; up = parents.getParent(up))
    if (isa<LambdaExpr>(up)) return true;
  return false;
}

// Whether the thread that loads `loaded` then stores the same element, by `store` (an assignment that
// is a statement of its own, sameElement's `variables` in its left-hand side): the load is in that
// statement or in an earlier one of the same list; nothing from the load's statement to the store
// leaves the list (mayLeave); and no variable of the element changes there: each of their references
// in those statements is a load, and none has its address taken anywhere.
bool storedAfterLoad(const Expr *loaded, const Stmt *store, const std::set<const VarDecl *> &variables,
                     const ParentMap &parents, const VariableUses &uses, const TranslationUnitAnalysis &tu) {
  const auto *list = dyn_cast_or_null<CompoundStmt>(parents.getParent(store));
  const Stmt *first = list ? statementOf(loaded, list, parents) : nullptr;
  if (!first) return false;
  std::set<const Stmt *> between;
  for (const Stmt *s : list->body()) {
    if (s == first || !between.empty()) between.insert(s);
    if (s == store) break;
  }
  if (!between.count(store)) return false;  // the load comes after the store
  for (const Stmt *s : between)
    if (mayLeave(s, tu)) return false;
  for (const VarDecl *var : variables) {
    const auto found = uses.find(var);
    if (found == uses.end()) continue;
    for (const DeclRefExpr *ref : found->second) {
      const auto *read = dyn_cast_or_null<ImplicitCastExpr>(parentSkippingParens(parents, ref));
      if (read && read->getCastKind() == CK_LValueToRValue) continue;
      // A write: fine outside the statements between the load and the store, unless it takes the address.
      const Stmt *at = parentSkippingParens(parents, ref);
      const auto *assigned = dyn_cast_or_null<BinaryOperator>(at);
      const auto *stepped = dyn_cast_or_null<UnaryOperator>(at);
      const bool written = (assigned && assigned->isAssignmentOp() && sameExpr(assigned->getLHS(), ref)) ||
                           (stepped && stepped->isIncrementDecrementOp());
      // In a lambda: it may run anywhere its closure is called.
      const Stmt *where = statementOf(ref, list, parents);
      if (!written || between.count(where) || (!where && insideLambda(ref, parents))) return false;
    }
  }
  return true;
}

// Whether the kernel could read global memory other than through its pointer parameters, where the
// runtime cannot see which allocation: a parameter whose type holds pointers, a texture or surface,
// or what HiddenReads finds in it or a user function it calls.
bool readsBeyondPointerParams(ASTContext &ctx, const TranslationUnitAnalysis &tu, const FunctionDecl *kernel) {
  for (const ParmVarDecl *p : kernel->parameters()) {
    const QualType type = p->getType();
    if (isTextureOrSurface(type)) return true;
    if (type->isPointerType() ? holdsPointer(type->getPointeeType()) : holdsPointer(type)) return true;
  }
  HiddenReads hidden(ctx, tu);
  hidden.scan(kernel);
  hidden.scanCallees();
  return hidden.found;
}

}  // namespace

StoredParams storedParams(ASTContext &ctx, const TranslationUnitAnalysis &tu, const FunctionDecl *kernel) {
  StoredParams out;
  if (!kernel || !kernel->hasBody()) return out;
  // A template is analysed uninstantiated: there `p[i] += t` with a dependent `t` may become a call
  // of a user operator that reads other memory, and a dependent conversion may read it too.
  if (kernel->isTemplated() || readsBeyondPointerParams(ctx, tu, kernel)) return out;

  const Stmt *body = kernel->getBody();
  const ParentMap parents(const_cast<Stmt *>(body));
  const VariableUses uses = variableUses(body);
  for (const ParmVarDecl *p : kernel->parameters()) {
    const QualType type = p->getType();
    if (!type->isPointerType() || type->getPointeeType().isConstQualified()) continue;
    const auto found = uses.find(p);
    if (found == uses.end() || found->second.empty()) continue;  // never written: not a target anyway
    std::vector<ParamUse> classified;
    for (const DeclRefExpr *use : found->second) classified.push_back(classifyUse(use, parents));
    bool storesOnly = true, updates = false;
    for (const ParamUse &use : classified) {
      bool ok = use.kind != UseKind::kOther;
      if (use.kind == UseKind::kLoad)  // `if (p[i] != c) ...; p[i] = c;`: loads an element it stores
        ok = std::any_of(classified.begin(), classified.end(), [&](const ParamUse &store) {
          std::set<const VarDecl *> variables;
          return (store.kind == UseKind::kStore || store.kind == UseKind::kUpdate) &&
                 sameElement(use.element, store.element, p, variables) &&
                 storedAfterLoad(use.element, store.statement, variables, parents, uses, tu);
        });
      storesOnly = storesOnly && ok;
      updates = updates || use.kind == UseKind::kUpdate || use.kind == UseKind::kLoad;
    }
    if (storesOnly) (updates ? out.updatedInPlace : out.writeOnly).insert(p->getFunctionScopeIndex());
  }
  return out;
}

ParamLoads paramLoads(ASTContext &ctx, const TranslationUnitAnalysis &tu, const FunctionDecl *kernel) {
  ParamLoads out;
  if (!kernel || !kernel->hasBody() || kernel->isTemplated() || readsBeyondPointerParams(ctx, tu, kernel)) return out;
  out.always = 0;
  const SourceManager &sm = ctx.getSourceManager();
  const Stmt *body = kernel->getBody();
  const ParentMap parents(const_cast<Stmt *>(body));
  const VariableUses uses = variableUses(body);
  for (const ParmVarDecl *p : kernel->parameters()) {
    if (!p->getType()->isPointerType()) continue;
    const auto found = uses.find(p);
    if (found == uses.end()) continue;
    const unsigned index = p->getFunctionScopeIndex();
    const unsigned bit = index < kMarkedParams ? 1u << index : kUnknownLoads;
    for (const DeclRefExpr *use : found->second) {
      const UseKind kind = classifyUse(use, parents).kind;
      if (kind == UseKind::kStore) continue;
      // A mark is written at the parameter's own token: in this file, not in a macro, and run where
      // the load runs (a lambda's body runs where it is called, with its own ldcc_loaded out of reach).
      const SourceLocation at = use->getLocation();
      const bool markable = (kind == UseKind::kLoad || kind == UseKind::kUpdate) && index < kMarkedParams &&
                            at.isFileID() && sm.isInMainFile(at) && !insideLambda(use, parents);
      if (markable) out.marks.emplace_back(use, bit);
      else out.always |= bit;
    }
  }
  return out;
}

}  // namespace ldcc::translator
