#include "rewrite/GlobalTargets.h"

#include "rewrite/WriteOnlyParams.h"

#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <functional>
#include <set>
#include <tuple>

using namespace clang;

namespace ldcc::translator {

bool GlobalTargetAnalysis::Root::operator<(const Root &o) const {
  return std::tie(kind, param, fields, byReference, var) < std::tie(o.kind, o.param, o.fields, o.byReference, o.var);
}

namespace {

using Root = GlobalTargetAnalysis::Root;

// A parameter the host does not know as a pointer, though an instantiation may make it one: a pack,
// or one whose type is a template parameter or depends on one (`P p`, `Args<T> a`).
bool genericParam(const ParmVarDecl *param) {
  const QualType type = param->getType().getNonReferenceType();
  return param->isParameterPack() || (type->isDependentType() && !type->isPointerType());
}

// The values a local pointer variable takes: its initializer and every plain assignment to it.
using Assignments = std::map<const VarDecl *, std::vector<const Expr *>>;

Assignments assignmentsIn(const Stmt *body) {
  struct Collector : RecursiveASTVisitor<Collector> {
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitVarDecl(VarDecl *v) {
      if (v->hasInit()) out[v].push_back(v->getInit());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *op) {
      if (op->getOpcode() == BO_Assign)
        if (const auto *ref = dyn_cast<DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts()))
          if (const auto *v = dyn_cast<VarDecl>(ref->getDecl())) out[v].push_back(op->getRHS());
      return true;
    }
    Assignments out;
  } collector;
  collector.TraverseStmt(const_cast<Stmt *>(body));
  return collector.out;
}

// Traces lvalues and pointer values of one function back to their roots.
class RootTracer {
public:
  explicit RootTracer(const FunctionDecl *fn) : assigned_(assignmentsIn(fn->getBody())) {}

  // The roots of the memory an lvalue designates. `loaded` is set where a pointer read from memory
  // (not a parameter or local) is on the way.
  void lvalue(const Expr *e, std::set<Root> &out) {
    e = e->IgnoreParens();
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) return lvalue(ic->getSubExpr(), out);
    if (const auto *as = dyn_cast<ArraySubscriptExpr>(e)) {
      const Expr *base = as->getBase()->IgnoreParens();
      if (const auto *ic = dyn_cast<ImplicitCastExpr>(base); ic && ic->getCastKind() == CK_ArrayToPointerDecay)
        return lvalue(ic->getSubExpr(), out);
      return pointer(as->getBase(), out);
    }
    if (const auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) return pointer(uo->getSubExpr(), out);
    if (const auto *me = dyn_cast<MemberExpr>(e)) {
      if (me->isArrow()) return pointer(me->getBase(), out);
      return lvalue(me->getBase(), out);
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *v = dyn_cast<VarDecl>(ref->getDecl());
      if (isDeviceVariable(v)) {
        Root r;
        r.kind = Root::DeviceVar;
        r.var = v;
        out.insert(r);
        return;
      }
      if (v && v->getType()->isReferenceType()) {
        if (const auto *p = dyn_cast<ParmVarDecl>(v)) return param(p, {}, true, out);
        if (v->hasInit() && !visiting_.count(v)) {
          visiting_.insert(v);
          lvalue(v->getInit(), out);
          visiting_.erase(v);
          return;
        }
      }
      if (v && v->isLocalVarDeclOrParm()) return;  // a local: not global memory
    }
    unknown(e, out);
  }

  // The roots of the memory a pointer value points into.
  void pointer(const Expr *e, std::set<Root> &out) {
    e = e->IgnoreParens();
    if (const auto *ce = dyn_cast<CastExpr>(e)) {
      if (ce->getCastKind() == CK_LValueToRValue) return loadedPointer(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_ArrayToPointerDecay) return lvalue(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_NullToPointer || ce->getCastKind() == CK_IntegralToPointer) return unknown(e, out);
      return pointer(ce->getSubExpr(), out);
    }
    if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
      if (bo->getOpcode() == BO_Comma) return pointer(bo->getRHS(), out);
      if (bo->isAdditiveOp() || bo->isAssignmentOp())
        return pointer(bo->getLHS()->getType()->isPointerType() ? bo->getLHS() : bo->getRHS(), out);
    }
    if (const auto *uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->getOpcode() == UO_AddrOf) return lvalue(uo->getSubExpr(), out);
      if (uo->isIncrementDecrementOp()) return pointer(uo->getSubExpr(), out);
    }
    if (const auto *co = dyn_cast<AbstractConditionalOperator>(e)) {
      pointer(co->getTrueExpr(), out);
      return pointer(co->getFalseExpr(), out);
    }
    unknown(e, out);
  }

  SourceLocation loadedAt;  // first pointer loaded from memory that a store goes through
  // First store through a generic kernel parameter (genericParam): the host makes no copies of what
  // it points to, so instantiated with a pointer, it would write the program's memory behind the
  // checker's back.
  SourceLocation unrebasedAt;

private:
  // A pointer read from an lvalue: a parameter, a local (followed to its values), a struct
  // parameter's field, or memory (loaded).
  void loadedPointer(const Expr *e, std::set<Root> &out) {
    e = e->IgnoreParens();
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *v = dyn_cast<VarDecl>(ref->getDecl());
      if (const auto *p = dyn_cast_or_null<ParmVarDecl>(v); p && !p->getType()->isReferenceType()) {
        // Its value at entry, and every value the body assigns to it.
        param(p, {}, false, out);
        return values(v, out);
      }
      if (v && v->isLocalVarDeclOrParm() && !v->isStaticLocal() && !v->getType()->isReferenceType()) return values(v, out);
      if (isDeviceVariable(v)) return loaded(e, out);  // a pointer stored in a __device__ variable
      return unknown(e, out);
    }
    if (const auto *me = dyn_cast<MemberExpr>(e); me && !me->isArrow()) {
      std::vector<const FieldDecl *> fields;
      const Expr *base = e;
      while (const auto *m = dyn_cast<MemberExpr>(base->IgnoreParenImpCasts())) {
        if (m->isArrow()) break;
        const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
        if (!f) break;
        fields.insert(fields.begin(), f);
        base = m->getBase();
      }
      if (const auto *ref = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts()))
        if (const auto *p = dyn_cast<ParmVarDecl>(ref->getDecl()); p && !p->getType()->isReferenceType())
          return param(p, fields, false, out);
      return loaded(e, out);
    }
    loaded(e, out);
  }

  void values(const VarDecl *v, std::set<Root> &out) {
    if (visiting_.count(v)) return;
    visiting_.insert(v);
    const auto found = assigned_.find(v);
    if (found != assigned_.end())
      for (const Expr *value : found->second) pointer(value, out);
    visiting_.erase(v);
  }

  void param(const ParmVarDecl *p, std::vector<const FieldDecl *> fields, bool byReference, std::set<Root> &out) {
    Root r;
    r.kind = Root::Param;
    r.param = p->getFunctionScopeIndex();
    r.fields = std::move(fields);
    r.byReference = byReference;
    out.insert(r);
  }
  void loaded(const Expr *e, std::set<Root> &) {
    if (loadedAt.isInvalid()) loadedAt = e->getBeginLoc();
  }
  void unknown(const Expr *e, std::set<Root> &out) {
    if (unrebasedAt.isInvalid() && throughUnrebasedKernelParam(e)) unrebasedAt = e->getBeginLoc();
    out.insert(Root{});
  }

  static bool throughUnrebasedKernelParam(const Expr *e) {
    while (true) {
      e = e->IgnoreParenCasts();
      if (const auto *pack = dyn_cast<PackExpansionExpr>(e)) {
        e = pack->getPattern();
        continue;
      }
      if (const auto *me = dyn_cast<MemberExpr>(e)) {
        e = me->getBase();
        continue;
      }
      if (const auto *dm = dyn_cast<CXXDependentScopeMemberExpr>(e); dm && !dm->isImplicitAccess()) {
        e = dm->getBase();
        continue;
      }
      break;
    }
    const auto *ref = dyn_cast<DeclRefExpr>(e);
    const auto *param = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
    const auto *fn = param ? dyn_cast<FunctionDecl>(param->getDeclContext()) : nullptr;
    return fn && fn->hasAttr<CUDAGlobalAttr>() && genericParam(param);
  }

  Assignments assigned_;
  std::set<const VarDecl *> visiting_;
};

// Every pointer the kernel receives, with its path through struct parameters (three levels deep).
void collectPointers(ASTContext &ctx, QualType type, unsigned param, std::vector<const FieldDecl *> fields,
                     std::string access, long long offset, bool assignable, std::vector<KernelPointer> &out) {
  type = type.getNonReferenceType();
  if (type->isPointerType()) {
    KernelPointer p;
    p.param = param;
    p.fields = fields;
    p.access = access;
    p.offset = offset;
    const QualType pointee = type->getPointeeType();
    if (!pointee->isDependentType() && !pointee->isIncompleteType() && !pointee->isVoidType() &&
        !pointee->isFunctionType())
      p.elementSize = ctx.getTypeSizeInChars(pointee).getQuantity();
    p.assignable = assignable && !type.isConstQualified();
    out.push_back(p);
    return;
  }
  const auto *rd = type->getAsRecordDecl();
  if (!rd || !rd->isCompleteDefinition() || fields.size() >= 3 || type->isDependentType() || rd->isUnion()) return;
  if (const auto *cxx = dyn_cast<CXXRecordDecl>(rd); cxx && cxx->isLambda()) return;
  const ASTRecordLayout &layout = ctx.getASTRecordLayout(rd);
  for (const FieldDecl *f : rd->fields()) {
    if (f->isBitField() || f->getType()->isArrayType()) continue;
    std::vector<const FieldDecl *> path = fields;
    path.push_back(f);
    const long long at = offset < 0 ? -1 : offset + (long long)(layout.getFieldOffset(f->getFieldIndex()) / 8);
    collectPointers(ctx, f->getType(), param, path, access + "." + f->getNameAsString(), at,
                    assignable && !type.isConstQualified() && !f->getType().isConstQualified(), out);
  }
}

}  // namespace

GlobalTargetAnalysis::GlobalTargetAnalysis(ASTContext &ctx, TranslationUnitAnalysis &tu) : ctx_(ctx), tu_(tu) {
  for (const FunctionFacts &f : tu.functions()) writesOf(f);
}

std::vector<Root> GlobalTargetAnalysis::writesOf(const FunctionFacts &facts) {
  if (auto found = writes_.find(facts.fn); found != writes_.end()) return found->second;
  writes_[facts.fn] = {};  // recursion: a call of a function being traced adds nothing
  RootTracer tracer(facts.fn);
  std::set<Root> roots;
  for (const Expr *lhs : facts.hookedStores) tracer.lvalue(lhs, roots);
  for (const CallExpr *call : facts.atomics)
    if (call->getNumArgs() > 0) tracer.pointer(call->getArg(0), roots);
  std::vector<const CallExpr *> calls = facts.clonedCalls;
  for (const HelperCall &h : facts.helperCalls) calls.push_back(h.call);
  for (const CallExpr *call : calls) {
    const FunctionDecl *callee = tu_.userCallee(call);
    const FunctionFacts *cf = callee ? tu_.facts(callee) : nullptr;
    if (!cf) continue;
    for (const Root &r : writesOf(*cf)) {
      if (r.kind != Root::Param) {
        roots.insert(r);
        continue;
      }
      if (r.param >= call->getNumArgs()) {
        roots.insert(Root{});
        continue;
      }
      const Expr *arg = call->getArg(r.param);
      if (r.byReference) {
        tracer.lvalue(arg, roots);
      } else if (r.fields.empty()) {
        tracer.pointer(arg, roots);
      } else if (const auto *ref = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
                 ref && isa<ParmVarDecl>(ref->getDecl())) {
        Root mapped = r;
        mapped.param = cast<ParmVarDecl>(ref->getDecl())->getFunctionScopeIndex();
        roots.insert(mapped);
      } else {
        roots.insert(Root{});
      }
    }
  }
  if (tracer.loadedAt.isValid())
    tu_.refuse(facts.fn, Refusal{"a store through a pointer loaded from memory", tracer.loadedAt});
  if (tracer.unrebasedAt.isValid())
    tu_.refuse(facts.fn, Refusal{"a store through a parameter pack or a parameter whose type is a template parameter "
                                 "(the clone cannot privatize the memory it points to)",
                                 tracer.unrebasedAt});
  std::vector<Root> out(roots.begin(), roots.end());
  writes_[facts.fn] = out;
  return out;
}

KernelGlobals GlobalTargetAnalysis::of(const FunctionFacts &kernel) const {
  KernelGlobals g;
  const FunctionDecl *fn = kernel.fn;
  // A parameter's own const does not stop the rebase (constParams); an unnamed one is never used.
  for (unsigned i = 0; i < fn->getNumParams(); ++i) {
    const ParmVarDecl *p = fn->getParamDecl(i);
    if (p->getName().empty()) continue;
    if (genericParam(p)) {
      // A reference one is not assigned: it would change the caller's argument.
      if (!p->getType()->isReferenceType()) g.genericParams.push_back(i);
      continue;
    }
    collectPointers(ctx_, p->getType().getUnqualifiedType(), i, {}, p->getNameAsString(), 0, true, g.pointers);
  }
  const auto found = writes_.find(fn);
  const std::vector<Root> none;
  const std::vector<Root> &roots = found == writes_.end() ? none : found->second;
  const bool unknown = std::any_of(roots.begin(), roots.end(), [](const Root &r) { return r.kind == Root::Unknown; });
  for (KernelPointer &p : g.pointers) {
    const QualType type = p.fields.empty() ? fn->getParamDecl(p.param)->getType() : p.fields.back()->getType();
    const bool constPointee = type->isPointerType() && type->getPointeeType().isConstQualified();
    for (const Root &r : roots)
      if (r.kind == Root::Param && r.param == p.param && r.fields == p.fields) p.written = true;
    if (unknown && !constPointee) p.written = true;
  }
  for (unsigned i = 0; i < fn->getNumParams(); ++i) {
    if (!fn->getParamDecl(i)->getType().isConstQualified()) continue;
    const bool rebased = std::any_of(g.pointers.begin(), g.pointers.end(),
                                     [&](const KernelPointer &p) { return p.param == i && p.written && p.assignable; });
    if (rebased) g.constParams.insert(i);
    for (KernelPointer &p : g.pointers)
      if (p.param == i && !rebased) p.assignable = false;
  }
  // A const one (`const P in`) is rebased as a mutable copy too.
  for (const unsigned i : g.genericParams)
    if (const ParmVarDecl *p = fn->getParamDecl(i); !p->isParameterPack() && p->getType().isConstQualified())
      g.constParams.insert(i);
  for (const KernelPointer &p : g.pointers)
    if (p.written && !p.assignable && !g.refusal.refused())
      g.refusal = Refusal{"a written pointer in a const member of a struct parameter (" + p.access + ")",
                          fn->getParamDecl(p.param)->getLocation()};
  const StoredParams stored = storedParams(ctx_, tu_, fn);
  for (KernelPointer &p : g.pointers) {
    p.writeOnly = p.written && p.fields.empty() && stored.writeOnly.count(p.param);
    p.updatedInPlace = p.written && p.fields.empty() && stored.updatedInPlace.count(p.param);
  }
  // Written __device__ variables: written anywhere in the translation unit and used by this kernel
  // or a function it reaches through clones.
  std::set<const VarDecl *> written;
  for (const auto &[f, rs] : writes_)
    for (const Root &r : rs)
      if (r.kind == Root::DeviceVar) written.insert(r.var);
  for (const VarDecl *v : tu_.deviceVarsReachedFrom(fn))
    if (written.count(v)) g.deviceVars.push_back(v);
  return g;
}

}  // namespace ldcc::translator
