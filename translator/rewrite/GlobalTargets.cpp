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

// The roots of what a call returns (a pointer, or a reference), in the caller's terms; false where
// the callee is not a user function traced here.
using CallResultRoots = std::function<bool(const CallExpr *, RootTracer &, std::set<Root> &)>;

// The expression a member function is called on (`arrow`: it is a pointer to the object), or null.
const Expr *objectArgument(const CallExpr *call, bool &arrow) {
  arrow = false;
  if (const auto *member = dyn_cast<CXXMemberCallExpr>(call)) {
    const auto *callee = dyn_cast<MemberExpr>(member->getCallee()->IgnoreParens());
    if (!callee) return nullptr;
    arrow = callee->isArrow();
    return member->getImplicitObjectArgument();
  }
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call); op && isa_and_nonnull<CXXMethodDecl>(op->getDirectCallee()))
    return op->getNumArgs() > 0 ? op->getArg(0) : nullptr;
  return nullptr;
}

// The argument a call passes for its callee's parameter `param` (a member operator's object is its
// first argument), or null.
const Expr *argumentFor(const CallExpr *call, unsigned param) {
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call); op && isa_and_nonnull<CXXMethodDecl>(op->getDirectCallee()))
    ++param;
  return param < call->getNumArgs() ? call->getArg(param) : nullptr;
}

// The parameter an lvalue names through fields of it (`b`, `b.inner`), with the fields; or null. A
// struct argument passed by value is a copy of it.
const ParmVarDecl *parameterPath(const Expr *e, std::vector<const FieldDecl *> &fields) {
  if (const auto *copy = dyn_cast<CXXConstructExpr>(e->IgnoreImplicit());
      copy && copy->getNumArgs() == 1 && copy->getConstructor()->isCopyOrMoveConstructor())
    e = copy->getArg(0);
  while (const auto *m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts())) {
    const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (m->isArrow() || !f) return nullptr;
    fields.insert(fields.begin(), f);
    e = m->getBase();
  }
  const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
}

}  // namespace

// Traces lvalues and pointer values of one function back to their roots.
class RootTracer {
public:
  RootTracer(const FunctionDecl *fn, CallResultRoots callResult)
      : ctx_(&fn->getASTContext()), assigned_(assignmentsIn(fn->getBody())), callResult_(std::move(callResult)) {}

  // A root of a callee's memory (what it writes, or what it returns) in the terms of this function,
  // which makes the call.
  void calleeRoot(const CallExpr *call, const Root &r, std::set<Root> &out) {
    if (r.kind == Root::DeviceVar || r.kind == Root::Unknown) {
      out.insert(r);
      return;
    }
    bool arrow = false;
    const Expr *source = r.kind == Root::This ? objectArgument(call, arrow) : argumentFor(call, r.param);
    if (!source) return unknown(call, out);
    // A member function calling another on its own object, or passing `this` on: still that object.
    if ((r.kind == Root::This || r.byReference) && isa<CXXThisExpr>(source->IgnoreParenImpCasts()) &&
        (r.kind == Root::This ? arrow : !r.fields.empty())) {
      Root object = r;
      object.kind = Root::This;
      object.byReference = false;
      out.insert(object);
      return;
    }
    if (r.kind == Root::This && r.fields.empty()) return arrow ? pointer(source, out) : lvalue(source, out);
    if (r.kind == Root::Param && r.fields.empty()) return r.byReference ? lvalue(source, out) : pointer(source, out);
    // A pointer field of the object, or of a struct argument the callee takes by value, by reference
    // (byReference) or by pointer (byReference, its parameter a pointer: the argument `&s`, or a
    // pointer this function was given): one of this function's parameters, or fields of one.
    const FunctionDecl *callee = call->getDirectCallee();
    const bool byPointer = r.kind == Root::Param && r.byReference && callee && r.param < callee->getNumParams() &&
                           callee->getParamDecl(r.param)->getType()->isPointerType();
    std::vector<const FieldDecl *> fields;
    const ParmVarDecl *p = nullptr;
    bool through = false;  // p refers to the struct (a reference or a pointer)
    if (byPointer) {
      const Expr *pointerArg = source->IgnoreParenImpCasts();
      const auto *address = dyn_cast<UnaryOperator>(pointerArg);
      const auto *ref = dyn_cast<DeclRefExpr>(pointerArg);
      if (address && address->getOpcode() == UO_AddrOf) p = parameterPath(address->getSubExpr(), fields);
      else if (ref && (p = dyn_cast<ParmVarDecl>(ref->getDecl())) && p->getType()->isPointerType()) through = true;
      else p = nullptr;
    } else if (!arrow) {
      p = parameterPath(source, fields);
    }
    // A struct that is not a parameter (an element of an array, a local copy): its pointer field was
    // read from memory the runtime does not trace.
    if (!p) return loaded(call, out);
    fields.insert(fields.end(), r.fields.begin(), r.fields.end());
    param(p, std::move(fields), through || p->getType()->isReferenceType(), out);
  }

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
    if (const auto *co = dyn_cast<AbstractConditionalOperator>(e)) {
      lvalue(co->getTrueExpr(), out);
      return lvalue(co->getFalseExpr(), out);
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
    if (const auto *call = dyn_cast<CallExpr>(e); call && callResult_(call, *this, out)) return;  // a returned reference
    unknown(e, out);
  }

  // The roots of the memory a pointer value points into.
  void pointer(const Expr *e, std::set<Root> &out) {
    e = e->IgnoreParens();
    if (const auto *ce = dyn_cast<CastExpr>(e)) {
      if (ce->getCastKind() == CK_LValueToRValue) return loadedPointer(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_ArrayToPointerDecay) return lvalue(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_IntegralToPointer) return integerPointer(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_NullToPointer) return unknown(e, out);
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
    if (isa<CXXThisExpr>(e)) {
      Root r;
      r.kind = Root::This;
      out.insert(r);
      return;
    }
    if (const auto *call = dyn_cast<CallExpr>(e); call && callResult_(call, *this, out)) return;  // a returned pointer
    unknown(e, out);
  }

  SourceLocation loadedAt;  // first pointer loaded from memory that a store goes through
  void loaded(const Expr *e, std::set<Root> &) {
    if (loadedAt.isInvalid()) loadedAt = e->getBeginLoc();
  }
  // First pointer made from an integer that is not a pointer's address (`reinterpret_cast<float*>(addr)`
  // of an integer parameter): the runtime cannot tell which allocation it is in.
  SourceLocation integerAt;
  void fromInteger(const Expr *e) {
    if (integerAt.isInvalid()) integerAt = e->getBeginLoc();
  }

  // What a store or a call with no hooks inside writes (memcpy's destination, __stwt's pointer, an
  // atomic_ref's referent), or the memory a placement new constructs in.
  void untracedDestinations(const Expr *e, std::set<Root> &out) {
    if (const auto *placement = dyn_cast<CXXNewExpr>(e)) {
      for (const Expr *arg : placement->placement_arguments())
        if (arg->getType()->isPointerType()) pointer(arg, out);
      return;
    }
    const auto *call = dyn_cast<CallExpr>(e);
    if (!call) return unknown(e, out);
    const FunctionDecl *fd = call->getDirectCallee();
    bool arrow = false;
    if (const Expr *object = objectArgument(call, arrow); object && isa<CXXMemberCallExpr>(call)) {
      // A local object built on memory it refers to (a view constructed from `*p`): that memory.
      // (libcu++'s atomic_ref is refused before: FunctionAnalysis.)
      const auto *ref = dyn_cast<DeclRefExpr>(object->IgnoreParenImpCasts());
      const auto *local = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      const auto *built = local && local->hasLocalStorage() && local->hasInit()
                              ? dyn_cast<CXXConstructExpr>(local->getInit()->IgnoreImplicit())
                              : nullptr;
      if (arrow) pointer(object, out);
      else if (!built) lvalue(object, out);
      else
        for (unsigned i = 0; i < built->getNumArgs() && i < built->getConstructor()->getNumParams(); ++i)
          argumentDestination(built->getConstructor()->getParamDecl(i)->getType(), built->getArg(i), out);
    }
    if (!fd) {
      for (const Expr *arg : call->arguments())
        if (arg->getType()->isPointerType()) pointer(arg, out);
      return;
    }
    for (unsigned i = 0; i < fd->getNumParams(); ++i)
      if (const Expr *arg = argumentFor(call, i)) argumentDestination(fd->getParamDecl(i)->getType(), arg, out);
    for (unsigned i = fd->getNumParams(); fd->isVariadic() && i < call->getNumArgs(); ++i)
      if (call->getArg(i)->getType()->isPointerType()) pointer(call->getArg(i), out);
  }
  // First store through a generic kernel parameter (genericParam): the host makes no copies of what
  // it points to, so instantiated with a pointer, it would write the program's memory behind the
  // checker's back.
  SourceLocation unrebasedAt;

private:
  // An argument a callee may write through: by a pointer to non-const, or by a non-const reference.
  void argumentDestination(QualType param, const Expr *arg, std::set<Root> &out) {
    if (!writableThrough(param)) return;
    if (param->isPointerType()) pointer(arg, out);
    else lvalue(arg, out);
  }

  // A pointer made from an integer: where the integer is a pointer's address (`(T*)((uintptr_t)p + 15 &
  // ~15)`, through locals too), that pointer's roots; else the store cannot be traced.
  void integerPointer(const Expr *e, std::set<Root> &out) {
    e = e->IgnoreParens();
    if (const auto *ce = dyn_cast<CastExpr>(e)) {
      if (ce->getCastKind() == CK_PointerToIntegral) return pointer(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_IntegralCast || ce->getCastKind() == CK_NoOp) return integerPointer(ce->getSubExpr(), out);
      if (ce->getCastKind() == CK_LValueToRValue)
        if (const auto *ref = dyn_cast<DeclRefExpr>(ce->getSubExpr()->IgnoreParens()))
          if (const auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && v->hasLocalStorage() && !isa<ParmVarDecl>(v)) {
            if (visiting_.count(v)) return;
            visiting_.insert(v);
            const auto found = assigned_.find(v);
            bool any = false;
            if (found != assigned_.end())
              for (const Expr *value : found->second) {
                integerPointer(value, out);
                any = true;
              }
            visiting_.erase(v);
            if (any) return;
          }
    }
    if (const auto *bo = dyn_cast<BinaryOperator>(e);
        bo && (bo->isAdditiveOp() || bo->getOpcode() == BO_And || bo->getOpcode() == BO_Or)) {
      // The operand that holds the address: the other is an offset or a mask.
      const Expr *lhs = bo->getLHS()->IgnoreParenImpCasts(), *rhs = bo->getRHS()->IgnoreParenImpCasts();
      const bool lhsConstant = lhs->isIntegerConstantExpr(*ctx_), rhsConstant = rhs->isIntegerConstantExpr(*ctx_);
      if (rhsConstant || !lhsConstant) return integerPointer(bo->getLHS(), out);
      return integerPointer(bo->getRHS(), out);
    }
    fromInteger(e);
  }

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
    if (const auto *me = dyn_cast<MemberExpr>(e)) {
      // A pointer field of the object a member function is called on (`data` in `return data[i];`), or
      // of a struct parameter: by value, by reference (`P& p`: p.x) or by pointer (`const P* p`: p->x).
      std::vector<const FieldDecl *> fields;
      const Expr *object = e;
      while (const auto *m = dyn_cast<MemberExpr>(object->IgnoreParenImpCasts())) {
        const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
        if (!f) break;
        fields.insert(fields.begin(), f);
        object = m->getBase();
        if (!m->isArrow()) continue;
        const Expr *base = object->IgnoreParenImpCasts();
        if (isa<CXXThisExpr>(base)) {
          Root r;
          r.kind = Root::This;
          r.fields = std::move(fields);
          out.insert(r);
          return;
        }
        const auto *ref = dyn_cast<DeclRefExpr>(base);
        if (const auto *p = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr; p && p->getType()->isPointerType())
          return param(p, std::move(fields), true, out);
        break;
      }
      fields.clear();
      if (const ParmVarDecl *p = parameterPath(e, fields))
        return param(p, std::move(fields), p->getType()->isReferenceType(), out);
    }
    if (const auto *co = dyn_cast<AbstractConditionalOperator>(e)) {  // `(c ? a : b)[i]`: one of two lvalues
      loadedPointer(co->getTrueExpr(), out);
      return loadedPointer(co->getFalseExpr(), out);
    }
    if (const auto *element = dyn_cast<ArraySubscriptExpr>(e)) {
      // An element of a struct parameter's array of pointers (`o.out[k]`): any of its pointers.
      const auto *decay = dyn_cast<ImplicitCastExpr>(element->getBase()->IgnoreParens());
      std::vector<const FieldDecl *> fields;
      if (decay && decay->getCastKind() == CK_ArrayToPointerDecay && isa<MemberExpr>(decay->getSubExpr()->IgnoreParens()))
        if (const ParmVarDecl *p = parameterPath(decay->getSubExpr(), fields); p && !p->getType()->isReferenceType())
          return param(p, std::move(fields), false, out);
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

  ASTContext *ctx_;
  Assignments assigned_;
  CallResultRoots callResult_;
  std::set<const VarDecl *> visiting_;
};

namespace {

// The most pointers an array member of a struct parameter may hold and each be rebased.
constexpr uint64_t kMaxPointerArray = 64;

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
    if (f->isBitField()) continue;
    std::vector<const FieldDecl *> path = fields;
    path.push_back(f);
    const long long at = offset < 0 ? -1 : offset + (long long)(layout.getFieldOffset(f->getFieldIndex()) / 8);
    if (const auto *array = ctx.getAsConstantArrayType(f->getType())) {
      // An array of pointers (`float* out[3]`): each element is a pointer of its own, all with the
      // array's path (a store through `o.out[k]` may be through any of them).
      const QualType element = array->getElementType();
      const uint64_t count = array->getSize().getZExtValue();
      if (!element->isPointerType() || count > kMaxPointerArray) continue;
      const long long stride = (long long)ctx.getTypeSizeInChars(element).getQuantity();
      for (uint64_t k = 0; k < count; ++k)
        collectPointers(ctx, element, param, path, access + "." + f->getNameAsString() + "[" + std::to_string(k) + "]",
                        at < 0 ? -1 : at + (long long)k * stride,
                        assignable && !type.isConstQualified() && !f->getType().isConstQualified(), out);
      continue;
    }
    if (f->getType()->isArrayType()) continue;
    collectPointers(ctx, f->getType(), param, path, access + "." + f->getNameAsString(), at,
                    assignable && !type.isConstQualified() && !f->getType().isConstQualified(), out);
  }
}

}  // namespace

GlobalTargetAnalysis::GlobalTargetAnalysis(ASTContext &ctx, TranslationUnitAnalysis &tu) : ctx_(ctx), tu_(tu) {
  for (const FunctionFacts &f : tu.functions()) writesOf(f);
}

RootTracer GlobalTargetAnalysis::tracerFor(const FunctionDecl *fn) {
  return RootTracer(fn, [this](const CallExpr *call, RootTracer &tracer, std::set<Root> &out) {
    const FunctionDecl *callee = tu_.userCallee(call);
    const FunctionFacts *cf = callee ? tu_.facts(callee) : nullptr;
    if (!cf) return false;
    const Returned returned = returnsOf(*cf);
    for (const Root &r : returned.roots) tracer.calleeRoot(call, r, out);
    if (returned.loaded) tracer.loaded(call, out);
    if (returned.fromInteger) tracer.fromInteger(call);
    return true;
  });
}

GlobalTargetAnalysis::Returned GlobalTargetAnalysis::returnsOf(const FunctionFacts &facts) {
  if (auto found = returns_.find(facts.fn); found != returns_.end()) return found->second;
  returns_[facts.fn] = Returned{{Root{}}, false, false};  // recursion: what a call of a function being traced returns is unknown
  Returned result{{Root{}}, false, false};
  const QualType type = facts.fn->getReturnType();
  if (type->isPointerType() || type->isReferenceType()) {
    RootTracer tracer = tracerFor(facts.fn);
    std::set<Root> roots;
    for (const ReturnStmt *r : facts.returns)
      if (const Expr *value = r->getRetValue()) type->isReferenceType() ? tracer.lvalue(value, roots) : tracer.pointer(value, roots);
    result = Returned{std::vector<Root>(roots.begin(), roots.end()), tracer.loadedAt.isValid(), tracer.integerAt.isValid()};
  }
  returns_[facts.fn] = result;
  return result;
}

std::vector<Root> GlobalTargetAnalysis::writesOf(const FunctionFacts &facts) {
  if (auto found = writes_.find(facts.fn); found != writes_.end()) return found->second;
  writes_[facts.fn] = {};  // recursion: a call of a function being traced adds nothing
  RootTracer tracer = tracerFor(facts.fn);
  std::set<Root> roots;
  for (const Expr *lhs : facts.hookedStores) tracer.lvalue(lhs, roots);
  for (const CallExpr *call : facts.atomics)
    if (call->getNumArgs() > 0) tracer.pointer(call->getArg(0), roots);
  for (const Expr *e : facts.untracedStores) tracer.untracedDestinations(e, roots);
  std::vector<const CallExpr *> calls = facts.clonedCalls;
  calls.insert(calls.end(), facts.unclonedCalls.begin(), facts.unclonedCalls.end());
  for (const HelperCall &h : facts.helperCalls) calls.push_back(h.call);
  for (const CallExpr *call : calls) {
    const FunctionDecl *callee = tu_.userCallee(call);
    const FunctionFacts *cf = callee ? tu_.facts(callee) : nullptr;
    if (!cf) continue;
    for (const Root &r : writesOf(*cf)) tracer.calleeRoot(call, r, roots);
  }
  if (tracer.loadedAt.isValid())
    tu_.refuse(facts.fn, Refusal{"a store through a pointer loaded from memory", tracer.loadedAt});
  if (tracer.integerAt.isValid())
    tu_.refuse(facts.fn, Refusal{"a store through a pointer made from an integer that is not a pointer's address",
                                 tracer.integerAt});
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
  // A pointer field of a struct a kernel parameter points to (`ps->out[i] = v`, or through a helper
  // taking `const P*`): loaded from global memory, not a pointer the host hands the kernel.
  for (const Root &r : roots)
    if (r.kind == Root::Param && r.byReference && !r.fields.empty() && r.param < fn->getNumParams() &&
        !g.refusal.refused())
      g.refusal = Refusal{"a store through a pointer loaded from memory (a field of what " +
                              fn->getParamDecl(r.param)->getNameAsString() + " points to)",
                          fn->getParamDecl(r.param)->getLocation()};
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
