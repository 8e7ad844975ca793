// Launch-time proofs of race freedom: the affine forms of a kernel's accesses (AffineProof.h).
#include "rewrite/AffineProof.h"

#include "rewrite/FunctionAnalysis.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

using namespace clang;

namespace ldcc::translator {
namespace {

// Runtime variable numbers (ldcc/proof.h, proof::Var).
constexpr int kFirstLoop = 6, kMaxVars = 24;
// Past this a thread's value is not followed (text that grows with every `i += i >> 5`).
constexpr size_t kMaxThreadText = 4096;

// A coefficient: a literal, or a host expression of type long long.
struct Coef {
  bool literal = true;
  long long value = 0;
  std::string text;
  std::string str() const { return literal ? "(" + std::to_string(value) + "LL)" : text; }
  bool isZero() const { return literal && value == 0; }
};

Coef lit(long long v) { return Coef{true, v, ""}; }
Coef host(const std::string &t) { return Coef{false, 0, "((long long)(" + t + "))"}; }
Coef add(const Coef &a, const Coef &b) {
  if (a.literal && b.literal) return lit(a.value + b.value);
  if (a.isZero()) return b;
  if (b.isZero()) return a;
  return Coef{false, 0, "(" + a.str() + " + " + b.str() + ")"};
}
Coef mul(const Coef &a, const Coef &b) {
  if (a.literal && b.literal) return lit(a.value * b.value);
  if (a.isZero() || b.isZero()) return lit(0);
  if (a.literal && a.value == 1) return b;
  if (b.literal && b.value == 1) return a;
  return Coef{false, 0, "(" + a.str() + " * " + b.str() + ")"};
}

// constant + sum terms[var] * var.
struct SymForm {
  std::map<int, Coef> terms;
  Coef constant = lit(0);
  bool varFree() const { return terms.empty(); }
  std::string str() const {
    std::string out = "::ldcc::rt::proof::Form{" + constant.str() + ", {";
    bool first = true;
    for (const auto &[var, c] : terms) {
      out += std::string(first ? "" : ", ") + "{" + std::to_string(var) + ", " + c.str() + "}";
      first = false;
    }
    return out + "}}";
  }
};

SymForm plus(SymForm a, const SymForm &b, long long sign) {
  const Coef s = lit(sign);
  for (const auto &[var, c] : b.terms) {
    auto it = a.terms.find(var);
    const Coef scaled = mul(s, c);
    if (it == a.terms.end()) a.terms.emplace(var, scaled);
    else it->second = add(it->second, scaled);
  }
  a.constant = add(a.constant, mul(s, b.constant));
  for (auto it = a.terms.begin(); it != a.terms.end();) it = it->second.isZero() ? a.terms.erase(it) : std::next(it);
  return a;
}

SymForm scaled(SymForm a, const Coef &k) {
  for (auto &[var, c] : a.terms) c = mul(c, k);
  a.constant = mul(a.constant, k);
  for (auto it = a.terms.begin(); it != a.terms.end();) it = it->second.isZero() ? a.terms.erase(it) : std::next(it);
  return a;
}

// The values of an integer type, as long long bounds (the top of unsigned 64-bit capped).
std::pair<long long, long long> typeRange(const ASTContext &ctx, QualType t) {
  const unsigned width = ctx.getIntWidth(t);
  if (t->isSignedIntegerOrEnumerationType()) {
    if (width >= 64) return {LLONG_MIN, LLONG_MAX};
    return {-(1ll << (width - 1)), (1ll << (width - 1)) - 1};
  }
  if (width >= 63) return {0, LLONG_MAX};
  return {0, (1ll << width) - 1};
}

bool isBuiltinInteger(QualType t) {
  t = t.getCanonicalType();
  return t->isIntegerType() && isa<BuiltinType>(t.getTypePtr());
}

// Where an lvalue or pointer leads: nowhere that matters (a local), memory of a root at an index of its
// base elements (or an unknown index), or memory of unknown origin.
struct Loc {
  enum Kind { kNotMemory, kRoot, kUnknown } kind = kNotMemory;
  int root = -1;
  bool known = false;
  SymForm index;
  // Non-empty: the index is not affine but the host computes it per thread of a block (shared memory
  // only), a long long expression over `ldcc_t` (proof::Thread) and the launch; `index` is then unused.
  std::string text;
  QualType unit;  // the root's base element type
};

struct RootInfo {
  std::string name;
  bool shared = false;
  int param = -1;
  QualType unit;
  bool written = false;
  bool escaped = false;   // a pointer to it or a reference into it went where the forms cannot follow
  bool unknownWrite = false;
};

struct LoopVar {
  int counter;
  SymForm from;
  Coef step;
};

// Conservative modification set: a local or parameter named anywhere but as the operand of a load
// (or an array's decay) may change. `allowedIn` exempts a loop variable's increment.
class Modifications : public RecursiveASTVisitor<Modifications> {
public:
  Modifications(ASTContext &ctx) : ctx_(ctx) {}
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var) return true;
    const Stmt *s = ref;
    DynTypedNodeList parents = ctx_.getParents(*s);
    while (!parents.empty() && parents[0].get<ParenExpr>()) {
      s = parents[0].get<ParenExpr>();
      parents = ctx_.getParents(*s);
    }
    const auto *cast = parents.empty() ? nullptr : parents[0].get<ImplicitCastExpr>();
    if (cast && (cast->getCastKind() == CK_LValueToRValue || cast->getCastKind() == CK_ArrayToPointerDecay)) return true;
    if (var->getType()->isArrayType()) {
      // Subscripts and member accesses of an array or a struct read through it; fine for a local.
      return true;
    }
    sites[var].push_back(ref);
    return true;
  }
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> sites;

private:
  ASTContext &ctx_;
};

bool within(const Stmt *inner, const Stmt *outer) {
  return outer && inner->getSourceRange().isValid() && outer->getSourceRange().fullyContains(inner->getSourceRange());
}

bool isBarrierStatement(const Stmt *s) {
  const auto *call = dyn_cast<CallExpr>(s);
  return call && calleeName(call) == "__syncthreads";
}

class Analyzer {
public:
  Analyzer(ASTContext &ctx, const FunctionDecl *fn, bool mirror) : ctx_(ctx), fn_(fn), mods_(ctx), mirror_(mirror) {}
  bool mirrorFailed() const { return mirrorFailed_; }

  AffineProof run(const std::string &name) {
    AffineProof out;
    const auto *body = dyn_cast_or_null<CompoundStmt>(fn_->getBody());
    if (!body) return fail(out, "no body");
    if (fn_->getTemplatedKind() != FunctionDecl::TK_NonTemplate) return fail(out, "a template");
    if (fn_->isVariadic()) return fail(out, "variadic");
    for (const ParmVarDecl *p : fn_->parameters()) {
      const QualType t = p->getType().getCanonicalType();
      if (t->isPointerType()) pointerParams_.push_back(p->getFunctionScopeIndex());
      else if (holdsPointer(t)) return fail(out, "a parameter that holds a pointer (" + p->getNameAsString() + ")");
    }
    mods_.TraverseStmt(const_cast<CompoundStmt *>(body));
    visit(body);
    if (mirror_ && mirrorFailed_) return out;  // the caller tries again without barriers
    if (!failure_.empty()) return fail(out, failure_);
    for (const RootInfo &r : roots_) {
      if (!r.written) continue;
      if (r.escaped) return fail(out, "a pointer to " + r.name + " goes where the forms cannot follow");
      if (r.unknownWrite) return fail(out, "a store to " + r.name + " at an index that is not affine");
    }
    bool anyWritten = false;
    for (const RootInfo &r : roots_) anyWritten = anyWritten || r.written;
    if (!anyWritten) return fail(out, "it writes no memory a launch could race on");

    std::ostringstream f;
    f << "static bool " << name
      << "(const ::ldcc::rt::proof::ProofInput& ldcc_in, const ::ldcc::rt::proof::AllocationLookup& ldcc_lookup) {\n"
      << "  bool ldcc_ok = true;\n  ::ldcc::rt::proof::Proof ldcc_p(ldcc_in);\n  (void)ldcc_ok;\n";
    f << "  ldcc_p.pointer_params({";
    for (size_t i = 0; i < pointerParams_.size(); ++i) f << (i ? ", " : "") << pointerParams_[i];
    f << "});\n";
    for (size_t i = 0; i < roots_.size(); ++i)
      f << "  const int ldcc_r" << i << " = "
        << (roots_[i].shared ? "ldcc_p.shared_root()" : "ldcc_p.pointer_root(" + std::to_string(roots_[i].param) + ")")
        << ";  // " << roots_[i].name << "\n";
    for (const std::string &line : lines_) f << "  " << line << "\n";
    f << "  return ldcc_p.holds(ldcc_lookup) && ldcc_ok;\n}\n";
    out.ok = true;
    out.function = f.str();
    out.deterministic = deterministic_;
    return out;
  }

private:
  AffineProof fail(AffineProof &out, const std::string &why) {
    out.ok = false;
    out.reason = why;
    return out;
  }
  void refuse(const std::string &why) {
    if (failure_.empty()) failure_ = why;
  }

  bool modified(const VarDecl *v, const Stmt *except = nullptr) const {
    auto it = mods_.sites.find(v);
    if (it == mods_.sites.end()) return false;
    for (const DeclRefExpr *ref : it->second)
      if (!except || !within(ref, except)) return true;
    return false;
  }

  // ---- launch-uniform values, printed as host expressions with the kernel's C types ----

  // As C++ spells it (`bool`, not C's `_Bool`).
  std::string typeName(QualType t) const {
    return t.getCanonicalType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
  }

  std::optional<std::string> constantText(const Expr *e) {
    if (e->isValueDependent() || !e->getType()->isIntegerType()) return std::nullopt;
    Expr::EvalResult r;
    if (!e->EvaluateAsInt(r, ctx_)) return std::nullopt;
    const llvm::APSInt v = r.Val.getInt();
    const std::string digits = llvm::toString(v, 10);
    return "((" + typeName(e->getType()) + ")(" + digits + (v.isUnsigned() ? "ULL" : "LL") + "))";
  }

  // The host name of a uniform variable, declared on first use.
  std::optional<std::string> uniformVariable(const VarDecl *v) {
    for (auto frame = snapshotFrames_.rbegin(); frame != snapshotFrames_.rend(); ++frame)
      if (auto it = (*frame)->find(v); it != (*frame)->end()) return it->second;
    if (auto it = mirrored_.find(v); it != mirrored_.end()) return it->second;
    if (auto it = hostNames_.find(v); it != hostNames_.end()) return it->second;
    if (!isBuiltinInteger(v->getType()) || v->getType().isVolatileQualified() || modified(v)) return std::nullopt;
    std::string value;
    if (const auto *p = dyn_cast<ParmVarDecl>(v)) {
      value = "::ldcc::rt::proof::arg<" + typeName(v->getType()) + ">(ldcc_in, " + std::to_string(p->getFunctionScopeIndex()) + ")";
    } else {
      if (!v->hasLocalStorage() || !v->getInit() || loops_.count(v)) return std::nullopt;
      const SnapshotScope scope(*this, v);
      auto init = hostText(v->getInit());
      if (!init) return std::nullopt;
      value = *init;
    }
    const std::string name = "ldcc_u" + std::to_string(hostCounter_++) + "_" + v->getNameAsString();
    lines_.push_back("const " + typeName(v->getType()) + " " + name + " = " + value + ";");
    hostNames_[v] = name;
    return name;
  }

  std::optional<std::string> hostText(const Expr *e) {
    if (auto c = constantText(e)) return c;
    e = e->IgnoreParens();
    if (const auto *pseudo = dyn_cast<PseudoObjectExpr>(e)) {
      const MSPropertyDecl *property = nullptr;
      const VarDecl *var = builtinIndexVariable(pseudo, property);
      if (!var || !property) return std::nullopt;
      const std::string which = var->getNameAsString(), part = property->getNameAsString().substr(property->getNameAsString().size() - 1);
      if (which == "blockDim") return "ldcc_in.block." + part;
      if (which == "gridDim") return "ldcc_in.grid." + part;
      return std::nullopt;
    }
    if (const auto *cast = dyn_cast<CastExpr>(e)) {
      const CastKind k = cast->getCastKind();
      if (k == CK_LValueToRValue || k == CK_NoOp) return hostText(cast->getSubExpr());
      if (k != CK_IntegralCast && k != CK_IntegralToBoolean) return std::nullopt;
      if (!isBuiltinInteger(cast->getType())) return std::nullopt;
      auto sub = hostText(cast->getSubExpr());
      if (!sub) return std::nullopt;
      return "((" + typeName(cast->getType()) + ")(" + *sub + "))";
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var) return std::nullopt;
      return uniformVariable(var);
    }
    if (const auto *un = dyn_cast<UnaryOperator>(e)) {
      const UnaryOperatorKind op = un->getOpcode();
      if (op != UO_Minus && op != UO_Plus && op != UO_Not && op != UO_LNot) return std::nullopt;
      auto sub = hostText(un->getSubExpr());
      if (!sub) return std::nullopt;
      return "(" + std::string(UnaryOperator::getOpcodeStr(op)) + *sub + ")";
    }
    if (const auto *bin = dyn_cast<BinaryOperator>(e)) {
      if (bin->isAssignmentOp() || bin->getOpcode() == BO_Comma || bin->getOpcode() == BO_PtrMemD ||
          bin->getOpcode() == BO_PtrMemI || !bin->getType()->isIntegerType())
        return std::nullopt;
      auto l = hostText(bin->getLHS()), r = hostText(bin->getRHS());
      if (!l || !r) return std::nullopt;
      return binaryText(bin->getOpcode(), *l, *r);
    }
    if (const auto *cond = dyn_cast<ConditionalOperator>(e)) {
      auto c = hostText(cond->getCond()), a = hostText(cond->getTrueExpr()), b = hostText(cond->getFalseExpr());
      if (!c || !a || !b) return std::nullopt;
      return "(" + *c + " ? " + *a + " : " + *b + ")";
    }
    return std::nullopt;
  }

  // l op r on the host as the device computes it: divisions and shifts that would trap or disagree
  // make the proof fail instead (ldcc/proof.h).
  static std::string binaryText(BinaryOperatorKind op, const std::string &l, const std::string &r) {
    switch (op) {
    case BO_Div: case BO_DivAssign: return "::ldcc::rt::proof::quotient(" + l + ", " + r + ", ldcc_ok)";
    case BO_Rem: case BO_RemAssign: return "::ldcc::rt::proof::remainder(" + l + ", " + r + ", ldcc_ok)";
    case BO_Shl: case BO_ShlAssign: return "::ldcc::rt::proof::shift_left(" + l + ", " + r + ", ldcc_ok)";
    case BO_Shr: case BO_ShrAssign: return "::ldcc::rt::proof::shift_right(" + l + ", " + r + ", ldcc_ok)";
    default:
      return "(" + l + " " + std::string(BinaryOperator::getOpcodeStr(BinaryOperator::isCompoundAssignmentOp(op) ? BinaryOperator::getOpForCompoundAssignment(op) : op)) + " " + r + ")";
    }
  }

  // An integer value of one thread of a block, as host text over `ldcc_t` (proof::Thread) and the
  // launch's values, in the kernel's C types: for indices the forms cannot say (i + (i >> 5)) and the
  // conditions around them ((tid & 31) == 0). blockIdx and the kernel's own loop counters are not
  // part of it.
  std::optional<std::string> threadText(const Expr *e) {
    if (auto h = hostText(e)) return h;
    e = e->IgnoreParens();
    if (!e->getType()->isIntegerType()) return std::nullopt;
    std::optional<std::string> out;
    if (const auto *pseudo = dyn_cast<PseudoObjectExpr>(e)) {
      const MSPropertyDecl *property = nullptr;
      const VarDecl *var = builtinIndexVariable(pseudo, property);
      if (!var || !property || var->getNameAsString() != "threadIdx") return std::nullopt;
      const char part = property->getNameAsString().back();
      if (part < 'x' || part > 'z') return std::nullopt;
      out = std::string("ldcc_t.") + part;
    } else if (const auto *cast = dyn_cast<CastExpr>(e)) {
      const CastKind k = cast->getCastKind();
      if (k == CK_LValueToRValue || k == CK_NoOp) return threadText(cast->getSubExpr());
      if ((k != CK_IntegralCast && k != CK_IntegralToBoolean) || !isBuiltinInteger(cast->getType())) return std::nullopt;
      auto sub = threadText(cast->getSubExpr());
      if (sub) out = "((" + typeName(cast->getType()) + ")(" + *sub + "))";
    } else if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var || !var->hasLocalStorage() || isa<ParmVarDecl>(var) || var->getType()->isReferenceType() ||
          var->getType().isVolatileQualified() || loops_.count(var))
        return std::nullopt;
      if (auto t = tracked_.find(var); t != tracked_.end())
        return t->second.empty() ? std::nullopt : std::optional<std::string>(t->second);  // empty: not followed
      if (modified(var) || !var->getInit()) return std::nullopt;
      const SnapshotScope scope(*this, var);
      return threadText(var->getInit());
    } else if (const auto *un = dyn_cast<UnaryOperator>(e)) {
      const UnaryOperatorKind op = un->getOpcode();
      if (op != UO_Minus && op != UO_Plus && op != UO_Not && op != UO_LNot) return std::nullopt;
      auto sub = threadText(un->getSubExpr());
      if (sub) out = "(" + std::string(UnaryOperator::getOpcodeStr(op)) + *sub + ")";
    } else if (const auto *bin = dyn_cast<BinaryOperator>(e)) {
      if (bin->isAssignmentOp() || bin->getOpcode() == BO_Comma || bin->getOpcode() == BO_PtrMemD || bin->getOpcode() == BO_PtrMemI)
        return std::nullopt;
      auto l = threadText(bin->getLHS()), r = threadText(bin->getRHS());
      if (l && r) out = binaryText(bin->getOpcode(), *l, *r);
    } else if (const auto *cond = dyn_cast<ConditionalOperator>(e)) {
      auto c = threadText(cond->getCond()), a = threadText(cond->getTrueExpr()), b = threadText(cond->getFalseExpr());
      if (c && a && b) out = "(" + *c + " ? " + *a + " : " + *b + ")";
    }
    if (out && out->size() > kMaxThreadText) return std::nullopt;
    return out;
  }

  // A SymForm over threadIdx alone as threadText does (nullopt with blockIdx or loop counters).
  static std::optional<std::string> formText(const SymForm &f) {
    std::string out = "(" + f.constant.str();
    for (const auto &[var, c] : f.terms) {
      if (var > 2) return std::nullopt;
      out += std::string(" + ") + c.str() + " * (long long)ldcc_t." + char('x' + var);
    }
    return out + ")";
  }

  // ---- affine forms over the thread's indices and loop trips ----

  void representable(const SymForm &f, QualType t) {
    if (f.varFree() && f.constant.literal) {
      const auto [lo, hi] = typeRange(ctx_, t);
      if (f.constant.value >= lo && f.constant.value <= hi) return;
    }
    const auto [lo, hi] = typeRange(ctx_, t);
    // Once per host scope: every check is decided at the end, whatever its place.
    const std::string line = "ldcc_p.representable(" + f.str() + ", " + std::to_string(lo) + "LL, " + std::to_string(hi) + "LL);";
    if (emittedChecks_.insert(line).second) lines_.push_back(line);
  }

  std::optional<SymForm> affine(const Expr *e) {
    if (!e->getType()->isIntegerType()) return std::nullopt;
    if (auto t = hostText(e)) {
      SymForm f;
      if (auto c = [&]() -> std::optional<long long> {
            Expr::EvalResult r;
            if (!e->isValueDependent() && e->EvaluateAsInt(r, ctx_) && r.Val.getInt().getSignificantBits() <= 63)
              return r.Val.getInt().getExtValue();
            return std::nullopt;
          }())
        f.constant = lit(*c);
      else
        f.constant = host(*t);
      return f;
    }
    e = e->IgnoreParens();
    if (const auto *pseudo = dyn_cast<PseudoObjectExpr>(e)) {
      const MSPropertyDecl *property = nullptr;
      const VarDecl *var = builtinIndexVariable(pseudo, property);
      if (!var || !property) return std::nullopt;
      const std::string which = var->getNameAsString();
      const char part = property->getNameAsString().back();
      if (part < 'x' || part > 'z' || (which != "threadIdx" && which != "blockIdx")) return std::nullopt;
      SymForm f;
      f.terms.emplace((which == "threadIdx" ? 0 : 3) + (part - 'x'), lit(1));
      return f;
    }
    if (const auto *cast = dyn_cast<CastExpr>(e)) {
      const CastKind k = cast->getCastKind();
      if (k == CK_LValueToRValue || k == CK_NoOp) return affine(cast->getSubExpr());
      if (k != CK_IntegralCast) return std::nullopt;
      auto f = affine(cast->getSubExpr());
      if (!f) return std::nullopt;
      // The C value equals the form's exact value only where both types hold it.
      representable(*f, cast->getSubExpr()->getType());
      representable(*f, cast->getType());
      return f;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var || !var->hasLocalStorage() || var->getType()->isReferenceType() || var->getType().isVolatileQualified())
        return std::nullopt;
      if (auto loop = loops_.find(var); loop != loops_.end()) {
        SymForm f = loop->second.from;
        SymForm step;
        step.terms.emplace(loop->second.counter, loop->second.step);
        return plus(f, step, 1);
      }
      if (isa<ParmVarDecl>(var) || modified(var) || !var->getInit()) return std::nullopt;
      const SnapshotScope scope(*this, var);
      return affine(var->getInit());
    }
    if (const auto *un = dyn_cast<UnaryOperator>(e)) {
      auto f = affine(un->getSubExpr());
      if (!f) return std::nullopt;
      if (un->getOpcode() == UO_Plus) return f;
      if (un->getOpcode() == UO_Minus) return scaled(*f, lit(-1));
      return std::nullopt;
    }
    if (const auto *bin = dyn_cast<BinaryOperator>(e)) {
      const BinaryOperatorKind op = bin->getOpcode();
      if (op == BO_Add || op == BO_Sub) {
        auto l = affine(bin->getLHS()), r = affine(bin->getRHS());
        if (!l || !r) return std::nullopt;
        return plus(*l, *r, op == BO_Add ? 1 : -1);
      }
      if (op == BO_Mul) {
        auto l = affine(bin->getLHS()), r = affine(bin->getRHS());
        if (!l || !r) return std::nullopt;
        if (l->varFree()) return scaled(*r, l->constant);
        if (r->varFree()) return scaled(*l, r->constant);
        return std::nullopt;
      }
      if (op == BO_Shl) {
        Expr::EvalResult shift;
        if (bin->getRHS()->isValueDependent() || !bin->getRHS()->EvaluateAsInt(shift, ctx_)) return std::nullopt;
        const llvm::APSInt s = shift.Val.getInt();
        if (s.isNegative() || s.getZExtValue() > 40) return std::nullopt;
        auto l = affine(bin->getLHS());
        if (!l) return std::nullopt;
        return scaled(*l, lit(1ll << s.getZExtValue()));
      }
    }
    return std::nullopt;
  }

  // ---- what memory an lvalue or a pointer names ----

  QualType baseElement(QualType t) const {
    t = t.getCanonicalType();
    while (const ArrayType *a = ctx_.getAsArrayType(t)) t = a->getElementType().getCanonicalType();
    return t.getUnqualifiedType();
  }
  // How many base elements a value of type t spans (1 for a non-array).
  std::optional<long long> elements(QualType t) const {
    long long n = 1;
    t = t.getCanonicalType();
    while (const ArrayType *a = ctx_.getAsArrayType(t)) {
      const auto *c = dyn_cast<ConstantArrayType>(a);
      if (!c) return std::nullopt;
      n *= (long long)c->getSize().getZExtValue();
      t = a->getElementType().getCanonicalType();
    }
    return n;
  }

  int rootFor(const VarDecl *v, bool shared) {
    if (auto it = rootIndex_.find(v); it != rootIndex_.end()) return it->second;
    RootInfo r;
    r.name = v->getNameAsString();
    r.shared = shared;
    if (!shared) {
      r.param = cast<ParmVarDecl>(v)->getFunctionScopeIndex();
      r.unit = baseElement(v->getType()->getPointeeType());
    } else {
      r.unit = baseElement(v->getType());
    }
    roots_.push_back(r);
    return rootIndex_[v] = int(roots_.size()) - 1;
  }

  // An offset of `count` elements of type `type` applied to loc (p + i, p[i], a[i] of an array).
  Loc offset(Loc loc, const Expr *count, QualType type) {
    if (loc.kind != Loc::kRoot) return loc;
    auto n = elements(type);
    if (!n || baseElement(type) != roots_[loc.root].unit) {
      loc.known = false;
      return loc;
    }
    if (!loc.known || !count) return loc;
    if (loc.text.empty()) {
      if (auto i = affine(count)) {
        representable(*i, count->getType());
        loc.index = plus(loc.index, scaled(*i, lit(*n)), 1);
        return loc;
      }
    }
    // Not affine: in shared memory the host computes it for every thread of a block.
    std::optional<std::string> base = loc.text.empty() ? formText(loc.index) : std::optional<std::string>(loc.text);
    std::optional<std::string> i = roots_[loc.root].shared && base ? threadText(count) : std::nullopt;
    if (!i) {
      loc.known = false;
      return loc;
    }
    loc.text = "(" + *base + " + (long long)(" + *i + ") * " + std::to_string(*n) + "LL)";
    return loc;
  }

  // a[x / D][x % D] over an array whose rows hold D elements: element x of the rows, exactly (C's
  // x == (x / D) * D + x % D for either sign), where the two subscripts alone are not affine.
  std::optional<Loc> splitSubscript(const ArraySubscriptExpr *sub) {
    const auto *rowCast = dyn_cast<ImplicitCastExpr>(sub->getBase()->IgnoreParens());
    if (!rowCast || rowCast->getCastKind() != CK_ArrayToPointerDecay) return std::nullopt;
    const auto *row = dyn_cast<ArraySubscriptExpr>(rowCast->getSubExpr()->IgnoreParens());
    const auto *rowType = row ? dyn_cast<ConstantArrayType>(ctx_.getAsArrayType(row->getType())) : nullptr;
    if (!rowType) return std::nullopt;
    // The row may be x / D + e (another row, e rows on).
    const auto *quot = dyn_cast<BinaryOperator>(row->getIdx()->IgnoreParenImpCasts());
    const Expr *rowsOn = nullptr;
    if (quot && quot->getOpcode() == BO_Add) {
      const auto *l = dyn_cast<BinaryOperator>(quot->getLHS()->IgnoreParenImpCasts());
      const auto *r = dyn_cast<BinaryOperator>(quot->getRHS()->IgnoreParenImpCasts());
      if (l && l->getOpcode() == BO_Div) rowsOn = quot->getRHS(), quot = l;
      else if (r && r->getOpcode() == BO_Div) rowsOn = quot->getLHS(), quot = r;
    }
    const auto *rem = dyn_cast<BinaryOperator>(sub->getIdx()->IgnoreParenImpCasts());
    if (!quot || !rem || quot->getOpcode() != BO_Div || rem->getOpcode() != BO_Rem) return std::nullopt;
    Expr::EvalResult qd, rd;
    if (quot->getRHS()->isValueDependent() || rem->getRHS()->isValueDependent() ||
        !quot->getRHS()->EvaluateAsInt(qd, ctx_) || !rem->getRHS()->EvaluateAsInt(rd, ctx_))
      return std::nullopt;
    const llvm::APSInt d = qd.Val.getInt();
    if (d != rd.Val.getInt() || d.isNegative() || d.getZExtValue() != rowType->getSize().getZExtValue()) return std::nullopt;
    // The same x on both sides, as written (no side effects: an affine x has none).
    llvm::FoldingSetNodeID a, b;
    quot->getLHS()->IgnoreParenImpCasts()->Profile(a, ctx_, true);
    rem->getLHS()->IgnoreParenImpCasts()->Profile(b, ctx_, true);
    if (a != b || !affine(quot->getLHS())) return std::nullopt;
    // The row decays to elements of the same type, so x counts elements of the rows' array.
    Loc loc = resolvePointer(row->getBase());
    if (rowsOn) loc = offset(loc, rowsOn, row->getType());
    return offset(loc, quot->getLHS(), sub->getType());
  }

  Loc resolveLvalue(const Expr *e) {
    e = e->IgnoreParens();
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var) return {};
      if (var->hasAttr<CUDASharedAttr>()) {
        if (var->hasExternalStorage() || isa<IncompleteArrayType>(var->getType().getCanonicalType())) {
          if (externShared_ && externShared_ != var) refuse("two extern __shared__ arrays (one memory)");
          externShared_ = var;
        }
        Loc l;
        l.kind = Loc::kRoot;
        l.root = rootFor(var, true);
        l.known = true;
        return l;
      }
      if (isDeviceVariable(var)) {
        refuse("it uses the __device__ variable " + var->getNameAsString());
        return {};
      }
      if (var->getType()->isReferenceType()) {
        if (!var->hasLocalStorage() || !var->getInit()) return Loc{Loc::kUnknown};
        return resolveLvalue(var->getInit());
      }
      return {};  // a local, a parameter's copy, a constant
    }
    if (const auto *sub = dyn_cast<ArraySubscriptExpr>(e)) {
      if (auto flat = splitSubscript(sub)) return *flat;
      return offset(resolvePointer(sub->getBase()), sub->getIdx(), sub->getType());
    }
    if (const auto *un = dyn_cast<UnaryOperator>(e); un && un->getOpcode() == UO_Deref) {
      return offset(resolvePointer(un->getSubExpr()), nullptr, un->getType());
    }
    if (const auto *member = dyn_cast<MemberExpr>(e)) {
      if (isa<FieldDecl>(member->getMemberDecl()) || isa<IndirectFieldDecl>(member->getMemberDecl())) {
        // A field of an element: the whole element (coarser, never finer, than the access).
        if (member->isArrow()) return offset(resolvePointer(member->getBase()), nullptr, member->getBase()->getType()->getPointeeType());
        return resolveLvalue(member->getBase());
      }
      return Loc{Loc::kUnknown};
    }
    if (isa<MaterializeTemporaryExpr>(e) || isa<CompoundLiteralExpr>(e) || isa<StringLiteral>(e)) return {};
    if (const auto *cast = dyn_cast<CastExpr>(e); cast && cast->getCastKind() == CK_NoOp) return resolveLvalue(cast->getSubExpr());
    return Loc{Loc::kUnknown};
  }

  Loc resolvePointer(const Expr *e) {
    e = e->IgnoreParens();
    if (const auto *cast = dyn_cast<CastExpr>(e)) {
      switch (cast->getCastKind()) {
      case CK_ArrayToPointerDecay:
        return resolveLvalue(cast->getSubExpr());
      case CK_NoOp:
        return resolvePointer(cast->getSubExpr());
      case CK_LValueToRValue: {
        const Expr *sub = cast->getSubExpr()->IgnoreParens();
        if (const auto *ref = dyn_cast<DeclRefExpr>(sub)) {
          const auto *var = dyn_cast<VarDecl>(ref->getDecl());
          if (!var || !var->getType()->isPointerType()) return Loc{Loc::kUnknown};
          if (isDeviceVariable(var)) {
            refuse("it uses the __device__ variable " + var->getNameAsString());
            return {};
          }
          if (modified(var) || var->getType().isVolatileQualified()) return Loc{Loc::kUnknown};
          if (isa<ParmVarDecl>(var)) {
            Loc l;
            l.kind = Loc::kRoot;
            l.root = rootFor(var, false);
            l.known = true;
            return l;
          }
          if (var->hasLocalStorage() && var->getInit()) return resolvePointer(var->getInit());
          return Loc{Loc::kUnknown};
        }
        return Loc{Loc::kUnknown};  // a pointer loaded from memory
      }
      case CK_BitCast:
      case CK_ReinterpretMemberPointer: {
        Loc l = resolvePointer(cast->getSubExpr());
        if (l.kind == Loc::kRoot && baseElement(cast->getType()->getPointeeType()) != roots_[l.root].unit) l.known = false;
        return l;
      }
      case CK_NullToPointer:
        return {};
      default:
        return Loc{Loc::kUnknown};
      }
    }
    if (const auto *bin = dyn_cast<BinaryOperator>(e)) {
      if ((bin->getOpcode() == BO_Add || bin->getOpcode() == BO_Sub) && bin->getType()->isPointerType()) {
        const bool left = bin->getLHS()->getType()->isPointerType();
        const Expr *pointer = left ? bin->getLHS() : bin->getRHS(), *count = left ? bin->getRHS() : bin->getLHS();
        Loc l = resolvePointer(pointer);
        if (bin->getOpcode() == BO_Sub) {
          if (l.kind != Loc::kRoot) return l;
          auto i = affine(count);
          auto n = elements(bin->getType()->getPointeeType());
          if (!i || !n || !l.known || baseElement(bin->getType()->getPointeeType()) != roots_[l.root].unit) {
            l.known = false;
            return l;
          }
          representable(*i, count->getType());
          l.index = plus(l.index, scaled(*i, lit(*n)), -1);
          return l;
        }
        return offset(l, count, bin->getType()->getPointeeType());
      }
      return Loc{Loc::kUnknown};
    }
    if (const auto *un = dyn_cast<UnaryOperator>(e); un && un->getOpcode() == UO_AddrOf) return resolveLvalue(un->getSubExpr());
    if (isa<CXXNullPtrLiteralExpr>(e) || isa<GNUNullExpr>(e)) return {};
    return Loc{Loc::kUnknown};
  }

  // ---- the walk ----

  struct Guard {
    int var;
    std::string lo, hi;  // inclusive, long long host expressions
    std::string stride;  // non-empty: v takes only multiples of it (v % m == 0)
  };

  static bool isMemoryLvalue(const Expr *e) {
    e = e->IgnoreParens();
    if (isa<ArraySubscriptExpr>(e)) return true;
    if (const auto *un = dyn_cast<UnaryOperator>(e)) return un->getOpcode() == UO_Deref;
    if (const auto *m = dyn_cast<MemberExpr>(e)) return m->isArrow() || isMemoryLvalue(m->getBase());
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      return var && (var->hasAttr<CUDASharedAttr>() || isDeviceVariable(var) || var->getType()->isReferenceType());
    }
    return false;
  }

  enum Use { kRead = 0, kWrite = 1, kAtomic = 2, kEscape = 3 };

  void record(const Loc &loc, Use use) {
    if (loc.kind == Loc::kNotMemory) return;
    if (loc.kind == Loc::kUnknown) {
      refuse(use == kRead ? "a load through a pointer of unknown origin" : "a store through a pointer of unknown origin");
      return;
    }
    RootInfo &r = roots_[loc.root];
    if (use == kEscape) {
      r.escaped = true;
      return;
    }
    if (use != kRead) r.written = true;
    // An atomic at an unknown index stays in the proof: atomics among themselves never race.
    if (use == kWrite && !loc.known) r.unknownWrite = true;
    std::string bounds;
    for (const Guard &g : guards_)
      bounds += std::string(bounds.empty() ? "" : ", ") + "{" + std::to_string(g.var) + ", " + g.lo + ", " + g.hi +
                (g.stride.empty() ? "" : ", " + g.stride) + "}";
    static const char *const kinds[] = {"kRead", "kWrite", "kAtomic"};
    if (loc.known && !loc.text.empty()) {
      std::string conditions;
      for (const std::string &c : conditions_) conditions += "if (!(" + c + ")) return false; ";
      lines_.push_back("ldcc_p.enumerated(ldcc_r" + std::to_string(loc.root) + ", ::ldcc::rt::proof::" + kinds[use] +
                       ", [=](const ::ldcc::rt::proof::Thread& ldcc_t, long long& ldcc_index, bool& ldcc_ok) { (void)ldcc_t; (void)ldcc_ok; " +
                       conditions + "ldcc_index = (long long)(" + loc.text + "); return true; }, {" + bounds + "});");
      return;
    }
    lines_.push_back("ldcc_p.access(ldcc_r" + std::to_string(loc.root) + ", ::ldcc::rt::proof::" + kinds[use] + ", " +
                     (loc.known ? "true" : "false") + ", " +
                     (loc.known ? loc.index.str() : "::ldcc::rt::proof::Form{}") + ", {" + bounds + "});");
  }

  // The parts of a memory lvalue that compute its address (an index, a pointer loaded on the way).
  void visitAddressOf(const Expr *lvalue) {
    lvalue = lvalue->IgnoreParens();
    if (const auto *sub = dyn_cast<ArraySubscriptExpr>(lvalue)) {
      visitPointer(sub->getBase());
      visitExpr(sub->getIdx());
    } else if (const auto *un = dyn_cast<UnaryOperator>(lvalue)) {
      visitPointer(un->getSubExpr());
    } else if (const auto *m = dyn_cast<MemberExpr>(lvalue)) {
      if (m->isArrow()) visitPointer(m->getBase());
      else if (isMemoryLvalue(m->getBase())) visitAddressOf(m->getBase());
      else visitExpr(m->getBase());
    }
  }

  // A pointer used to reach memory (a subscript's base, a dereference): its own computation.
  void visitPointer(const Expr *e) {
    e = e->IgnoreParens();
    if (const auto *cast = dyn_cast<CastExpr>(e)) {
      const CastKind k = cast->getCastKind();
      if (k == CK_ArrayToPointerDecay) {
        if (isMemoryLvalue(cast->getSubExpr())) visitAddressOf(cast->getSubExpr());
        return;
      }
      if (k == CK_LValueToRValue) {
        if (isMemoryLvalue(cast->getSubExpr())) {  // a pointer loaded from memory
          record(resolveLvalue(cast->getSubExpr()), kRead);
          visitAddressOf(cast->getSubExpr());
        }
        return;
      }
      if (k == CK_NoOp || k == CK_BitCast) return visitPointer(cast->getSubExpr());
    }
    if (const auto *bin = dyn_cast<BinaryOperator>(e); bin && bin->getType()->isPointerType()) {
      const bool left = bin->getLHS()->getType()->isPointerType();
      visitPointer(left ? bin->getLHS() : bin->getRHS());
      visitExpr(left ? bin->getRHS() : bin->getLHS());
      return;
    }
    if (const auto *un = dyn_cast<UnaryOperator>(e); un && un->getOpcode() == UO_AddrOf) {
      if (isMemoryLvalue(un->getSubExpr())) visitAddressOf(un->getSubExpr());
      return;
    }
    visitExpr(e);
  }

  // A pointer value that leaves the forms' sight (stored, passed, returned): its memory escapes.
  void visitEscapingPointer(const Expr *e) {
    const Loc l = resolvePointer(e);
    if (l.kind == Loc::kRoot) roots_[l.root].escaped = true;
    visitPointer(e);
  }

  bool pureCallee(const FunctionDecl *fn, int depth = 0) {
    if (!fn || depth > 8) return false;
    if (auto it = pure_.find(fn); it != pure_.end()) return it->second;
    pure_[fn] = false;  // recursion: not pure
    const FunctionDecl *def = nullptr;
    const bool hasBody = fn->hasBody(def);
    if (!hasBody || !def) return false;
    for (const ParmVarDecl *p : def->parameters()) {
      const QualType t = p->getType().getCanonicalType();
      if (t->isReferenceType() || t->isPointerType()) {
        if (!t->getPointeeType().isConstQualified()) return false;
      } else if (holdsPointer(t)) {
        return false;
      }
    }
    bool ok = true;
    std::function<void(const Stmt *)> scan = [&](const Stmt *s) {
      if (!s || !ok) return;
      if (isa<AsmStmt>(s) || isa<LambdaExpr>(s) || isa<CXXThrowExpr>(s)) ok = false;
      if (const auto *ref = dyn_cast<DeclRefExpr>(s))
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
          if (!var->hasLocalStorage() && !var->getType().isConstQualified() && !var->hasAttr<CUDAConstantAttr>() &&
              !isBuiltinIndexVariable(var))
            ok = false;
      if (const auto *call = dyn_cast<CallExpr>(s)) {
        const FunctionDecl *callee = call->getDirectCallee();
        if (!callee) ok = false;
        else if (atomicNames().count(calleeName(call)) || calleeName(call).find("sync") != std::string::npos) ok = false;
        else if (!inSystemHeader(ctx_, callee->getLocation()) && callee->getBuiltinID() == 0 && !pureCallee(callee, depth + 1)) ok = false;
        else
          for (const Expr *a : call->arguments())
            if (a->getType()->isPointerType() && !a->getType()->getPointeeType().isConstQualified()) ok = false;
      }
      for (const Stmt *c : s->children()) scan(c);
    };
    scan(def->getBody());
    return pure_[fn] = ok;
  }

  void noteNondeterministic(const std::string &name) {
    if (name.find("clock") != std::string::npos || name.find("timer") != std::string::npos || name == "printf" ||
        name.find("activemask") != std::string::npos)
      deterministic_ = false;
  }

  void visitCall(const CallExpr *call, bool discarded) {
    const std::string name = calleeName(call);
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return refuse("a call through a pointer or of a dependent function");
    if (isa<CXXMemberCallExpr>(call) || isa<CUDAKernelCallExpr>(call)) return refuse("a member function call (" + name + ")");
    noteNondeterministic(name);
    if (mirror_ && name == "__syncthreads") return cannotMirror("a barrier inside an expression");
    if (atomicNames().count(name)) {
      if (call->getNumArgs() == 0) return refuse("an atomic without arguments");
      record(resolvePointer(call->getArg(0)), kAtomic);
      visitPointer(call->getArg(0));
      for (unsigned i = 1; i < call->getNumArgs(); ++i) visitExpr(call->getArg(i));
      // Integer read-modify-writes whose value is unused leave the same memory in any order.
      const std::string op = name.substr(0, name.find('_'));
      const bool commutes = op == "atomicAdd" || op == "atomicSub" || op == "atomicOr" || op == "atomicAnd" ||
                            op == "atomicXor" || op == "atomicMin" || op == "atomicMax";
      if (!commutes || !discarded || !call->getType()->isIntegerType()) deterministic_ = false;
      return;
    }
    // A builtin (__builtin_inff) has no body and no header: the compiler's own, as a system one.
    const bool system = inSystemHeader(ctx_, callee->getLocation()) || callee->getBuiltinID() != 0;
    if (!system && !pureCallee(callee)) return refuse("it calls " + name + ", which may touch memory");
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *a = call->getArg(i);
      const QualType t = a->getType().getCanonicalType();
      if (t->isPointerType()) {
        const Loc l = resolvePointer(a);
        if (l.kind == Loc::kRoot) {
          // A callee reads where it likes through a pointer to const; one that may write is refused.
          if (!t->getPointeeType().isConstQualified()) roots_[l.root].escaped = true;
          else record(Loc{Loc::kRoot, l.root, false, {}, {}}, kRead);
        } else if (l.kind == Loc::kUnknown && system && !t->getPointeeType().isConstQualified()) {
          return refuse("it passes a pointer to " + name);
        }
        visitPointer(a);
      } else if (i < callee->getNumParams() && callee->getParamDecl(i)->getType()->isReferenceType() && isMemoryLvalue(a)) {
        const Loc l = resolveLvalue(a);
        if (!callee->getParamDecl(i)->getType()->getPointeeType().isConstQualified()) record(l, kEscape);
        else if (l.kind == Loc::kRoot) record(Loc{Loc::kRoot, l.root, false, {}, {}}, kRead);
        else record(l, kRead);
        visitAddressOf(a);
      } else {
        visitExpr(a);
      }
    }
  }

  void visitExpr(const Expr *e, bool discarded = false) {
    if (!e || !failure_.empty()) return;
    e = e->IgnoreParens();
    if (isa<LambdaExpr>(e)) return refuse("a lambda");
    if (const auto *ewc = dyn_cast<ExprWithCleanups>(e)) return visitExpr(ewc->getSubExpr(), discarded);
    if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(e)) return visitExpr(mt->getSubExpr());
    if (const auto *bt = dyn_cast<CXXBindTemporaryExpr>(e)) return visitExpr(bt->getSubExpr());
    if (isMemoryLvalue(e)) {  // an lvalue in a context not handled below: a reference to it escapes
      record(resolveLvalue(e), kEscape);
      return visitAddressOf(e);
    }
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(e)) {
      if (cast->getCastKind() == CK_LValueToRValue && isMemoryLvalue(cast->getSubExpr())) {
        record(resolveLvalue(cast->getSubExpr()), kRead);
        return visitAddressOf(cast->getSubExpr());
      }
      if (cast->getCastKind() == CK_ArrayToPointerDecay) return visitEscapingPointer(cast);
    }
    if (const auto *op = dyn_cast<BinaryOperator>(e)) {
      if (op->isAssignmentOp()) {
        const Expr *lhs = op->getLHS();
        if (isMemoryLvalue(lhs)) {
          const Loc l = resolveLvalue(lhs);
          if (op->isCompoundAssignmentOp()) record(l, kRead);
          record(l, kWrite);
          visitAddressOf(lhs);
        } else if (!isa<DeclRefExpr>(lhs->IgnoreParens())) {
          visitExpr(lhs);
        }
        if (op->getRHS()->getType()->isPointerType()) return visitEscapingPointer(op->getRHS());
        return visitExpr(op->getRHS());
      }
      if (op->getType()->isPointerType()) return visitEscapingPointer(op);
      visitExpr(op->getLHS());
      return visitExpr(op->getRHS());
    }
    if (const auto *un = dyn_cast<UnaryOperator>(e)) {
      if (un->isIncrementDecrementOp()) {
        if (isMemoryLvalue(un->getSubExpr())) {
          const Loc l = resolveLvalue(un->getSubExpr());
          record(l, kRead);
          record(l, kWrite);
          return visitAddressOf(un->getSubExpr());
        }
        return;
      }
      if (un->getOpcode() == UO_AddrOf) return visitEscapingPointer(un);
    }
    if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e)) {
      const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getCalleeDecl());
      if (call->getOperator() == OO_Equal && call->getNumArgs() == 2 && method && method->isTrivial()) {
        const Expr *lhs = call->getArg(0);
        if (isMemoryLvalue(lhs)) {
          record(resolveLvalue(lhs), kWrite);
          visitAddressOf(lhs);
        } else if (!isa<DeclRefExpr>(lhs->IgnoreParens())) {
          visitExpr(lhs);
        }
        return visitCopySource(call->getArg(1));
      }
      return refuse("an overloaded operator");
    }
    if (const auto *call = dyn_cast<CallExpr>(e)) return visitCall(call, discarded);
    if (const auto *construct = dyn_cast<CXXConstructExpr>(e)) {
      const CXXConstructorDecl *ctor = construct->getConstructor();
      if (ctor && ctor->isTrivial() && construct->getNumArgs() == 1) return visitCopySource(construct->getArg(0));
      if (ctor && !ctor->isTrivial() && !inSystemHeader(ctx_, ctor->getLocation())) return refuse("a user constructor");
      for (const Expr *a : construct->arguments()) visitCopySource(a);
      return;
    }
    if (isa<CXXNewExpr>(e) || isa<CXXDeleteExpr>(e) || isa<CXXThrowExpr>(e)) return refuse("new, delete or throw");
    if (isa<UnaryExprOrTypeTraitExpr>(e)) return;  // sizeof: unevaluated
    for (const Stmt *c : e->children())
      if (const auto *ce = dyn_cast_or_null<Expr>(c)) visitExpr(ce);
  }

  // The source of a copy (a struct assignment's right-hand side, a copy constructor's argument).
  void visitCopySource(const Expr *e) {
    const Expr *inner = e->IgnoreParens();
    while (const auto *cast = dyn_cast<ImplicitCastExpr>(inner)) {
      if (cast->getCastKind() != CK_NoOp) break;
      inner = cast->getSubExpr()->IgnoreParens();
    }
    if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(inner)) return visitExpr(mt->getSubExpr());
    if (isMemoryLvalue(inner)) {
      record(resolveLvalue(inner), kRead);
      return visitAddressOf(inner);
    }
    visitExpr(e);
  }

  // The variable an expression is, alone (coefficient 1, nothing added).
  std::optional<int> singleVar(const Expr *x) {
    // (The representable checks an attempt leaves only add conditions.)
    auto f = affine(x);
    if (!f || f->terms.size() != 1 || !f->constant.isZero() || !f->terms.begin()->second.literal ||
        f->terms.begin()->second.value != 1)
      return std::nullopt;
    return f->terms.begin()->first;
  }

  // `v % m == 0` and `(v & (2^k - 1)) == 0` (either side): v takes the multiples of m.
  bool strideGuard(const BinaryOperator *eq, std::vector<Guard> &out) {
    const Expr *a = eq->getLHS()->IgnoreParenImpCasts(), *b = eq->getRHS()->IgnoreParenImpCasts();
    const auto isZero = [&](const Expr *x) {
      Expr::EvalResult r;
      return !x->isValueDependent() && x->EvaluateAsInt(r, ctx_) && r.Val.getInt() == 0;
    };
    if (!isZero(b)) std::swap(a, b);
    const auto *op = dyn_cast<BinaryOperator>(a);
    if (!isZero(b) || !op || (op->getOpcode() != BO_Rem && op->getOpcode() != BO_And)) return false;
    std::optional<int> v = singleVar(op->getLHS());
    const Expr *modulus = op->getRHS();
    if (!v && op->getOpcode() == BO_And && (v = singleVar(op->getRHS()))) modulus = op->getLHS();
    if (!v) return false;
    if (op->getOpcode() == BO_Rem) {
      auto m = hostText(modulus);
      if (!m) return false;
      out.push_back({*v, "(-9223372036854775807LL - 1)", "9223372036854775807LL", "((long long)(" + *m + "))"});
      return true;
    }
    Expr::EvalResult mask;
    if (modulus->isValueDependent() || !modulus->EvaluateAsInt(mask, ctx_)) return false;
    const llvm::APSInt m = mask.Val.getInt();
    if (m.isNegative() || m.getActiveBits() > 40 || ((m.getZExtValue() + 1) & m.getZExtValue()) != 0) return false;
    out.push_back({*v, "(-9223372036854775807LL - 1)", "9223372036854775807LL", std::to_string(m.getZExtValue() + 1) + "LL"});
    return true;
  }

  // Guards `v op c` of a then-branch (conjuncts of &&): the bounds they put on v.
  void guardsOf(const Expr *cond, std::vector<Guard> &out) {
    cond = cond->IgnoreParenImpCasts();
    const auto *bin = dyn_cast<BinaryOperator>(cond);
    if (!bin) return;
    if (bin->getOpcode() == BO_LAnd) {
      guardsOf(bin->getLHS(), out);
      guardsOf(bin->getRHS(), out);
      return;
    }
    BinaryOperatorKind op = bin->getOpcode();
    if (op == BO_EQ && strideGuard(bin, out)) return;
    if (op != BO_EQ && op != BO_LT && op != BO_LE && op != BO_GT && op != BO_GE) return;
    const QualType common = bin->getLHS()->getType();
    if (!common->isIntegerType() || (!common->isSignedIntegerType() && ctx_.getIntWidth(common) >= 64)) return;
    const Expr *var = bin->getLHS(), *bound = bin->getRHS();
    std::optional<int> v = singleVar(var);
    if (!v) {
      if (!(v = singleVar(bound))) return;
      std::swap(var, bound);
      op = op == BO_LT ? BO_GT : op == BO_LE ? BO_GE : op == BO_GT ? BO_LT : op == BO_GE ? BO_LE : op;
    }
    auto c = hostText(bound);
    if (!c) return;
    const std::string value = "((long long)(" + *c + "))";
    const std::string none_lo = "(-9223372036854775807LL - 1)", none_hi = "9223372036854775807LL";
    switch (op) {
    case BO_EQ: out.push_back({*v, value, value}); break;
    case BO_LT: out.push_back({*v, none_lo, "(" + value + " - 1)"}); break;
    case BO_LE: out.push_back({*v, none_lo, value}); break;
    case BO_GT: out.push_back({*v, "(" + value + " + 1)", none_hi}); break;
    case BO_GE: out.push_back({*v, value, none_hi}); break;
    default: break;
    }
  }

  // `for (T v = from; v < to (<=); ++v / v++ / v += step)` with v changed nowhere else.
  bool canonicalLoop(const ForStmt *loop) {
    const auto *decl = dyn_cast_or_null<DeclStmt>(loop->getInit());
    if (!decl || !decl->isSingleDecl()) return false;
    const auto *v = dyn_cast<VarDecl>(decl->getSingleDecl());
    if (!v || !v->getInit() || !isBuiltinInteger(v->getType()) || modified(v, loop->getInc())) return false;
    const auto *cond = dyn_cast_or_null<BinaryOperator>(loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!cond) return false;
    const auto names = [&](const Expr *x) {
      const auto *ref = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
      return ref && ref->getDecl() == v;
    };
    const Expr *to = nullptr;
    bool inclusive = false;
    if ((cond->getOpcode() == BO_LT || cond->getOpcode() == BO_LE) && names(cond->getLHS())) {
      to = cond->getRHS();
      inclusive = cond->getOpcode() == BO_LE;
    } else if ((cond->getOpcode() == BO_GT || cond->getOpcode() == BO_GE) && names(cond->getRHS())) {
      to = cond->getLHS();
      inclusive = cond->getOpcode() == BO_GE;
    } else {
      return false;
    }
    std::optional<SymForm> step;
    const Expr *inc = loop->getInc() ? loop->getInc()->IgnoreParens() : nullptr;
    if (const auto *un = dyn_cast_or_null<UnaryOperator>(inc); un && un->isIncrementOp() && names(un->getSubExpr())) {
      step = SymForm{};
    } else if (const auto *ca = dyn_cast_or_null<CompoundAssignOperator>(inc);
               ca && ca->getOpcode() == BO_AddAssign && names(ca->getLHS())) {
      step = affine(ca->getRHS());
      if (!step || !step->varFree()) return false;
    } else {
      return false;
    }
    if (step->varFree() && step->constant.isZero() && isa<UnaryOperator>(inc)) step->constant = lit(1);
    const int counter = kFirstLoop + int(loops_.size());
    if (counter >= kMaxVars) return false;
    auto from = affine(v->getInit());
    auto bound = affine(to);
    if (!from || !bound) return false;
    representable(*from, v->getType());
    lines_.push_back("ldcc_p.loop(" + std::to_string(counter) + ", " + from->str() + ", " + bound->str() + ", " +
                     step->constant.str() + ", " + (inclusive ? "true" : "false") + ");");
    loops_[v] = LoopVar{counter, *from, step->constant};
    return true;
  }

  // ---- barriers: host copies of the launch-uniform loops and ifs around them ----

  static bool containsBarrier(const Stmt *s) {
    if (!s) return false;
    if (const auto *call = dyn_cast<CallExpr>(s); call && calleeName(call) == "__syncthreads") return true;
    for (const Stmt *c : s->children())
      if (containsBarrier(c)) return true;
    return false;
  }

  // A break or continue that leaves the loop `s` is in (or a goto): a thread that takes it would see
  // other barriers than its block's other threads.
  static bool leavesLoop(const Stmt *s, bool breakInner = false, bool continueInner = false) {
    if (!s) return false;
    if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) return true;
    if (isa<BreakStmt>(s)) return !breakInner;
    if (isa<ContinueStmt>(s)) return !continueInner;
    const bool loop = isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
    const bool inner = loop || isa<SwitchStmt>(s);
    for (const Stmt *c : s->children())
      if (leavesLoop(c, breakInner || inner, continueInner || loop)) return true;
    return false;
  }

  void cannotMirror(const std::string &why) {
    mirrorFailed_ = true;
    refuse(why);
  }

  // Visits `s` in a host scope of its own: the uniform variables it declares there are forgotten after.
  void visitScoped(const Stmt *s) {
    const std::map<const VarDecl *, std::string> before = hostNames_;
    const std::set<std::string> checks = emittedChecks_;
    const int mutations = mutations_;
    visit(s);
    hostNames_ = before;
    // A uniform variable that changed inside changed what the checks' texts mean.
    if (mutations == mutations_) emittedChecks_ = checks;
    else emittedChecks_.clear();
  }

  // The step of a host copy of a loop, as a host statement over `name`.
  std::optional<std::string> hostStep(const Expr *inc, const VarDecl *v, const std::string &name) {
    inc = inc->IgnoreParens();
    const auto names = [&](const Expr *x) {
      const auto *ref = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
      return ref && ref->getDecl() == v;
    };
    if (const auto *un = dyn_cast<UnaryOperator>(inc); un && un->isIncrementDecrementOp() && names(un->getSubExpr()))
      return std::string(un->isIncrementOp() ? "++" : "--") + name;
    const auto *assign = dyn_cast<BinaryOperator>(inc);
    if (!assign || !assign->isAssignmentOp() || !names(assign->getLHS())) return std::nullopt;
    auto rhs = hostText(assign->getRHS());
    if (!rhs) return std::nullopt;
    const std::string type = typeName(v->getType());
    if (assign->getOpcode() == BO_Assign) return name + " = (" + type + ")(" + *rhs + ")";
    return name + " = (" + type + ")(" + binaryText(assign->getOpcode(), name, *rhs) + ")";
  }

  // ---- locals that change: followed statement by statement ----

  // The values of the uniform changing variables `e` names, copied now on the host: what a local
  // computed from them keeps when they change later.
  std::map<const VarDecl *, std::string> snapshotOf(const Expr *e) {
    std::map<const VarDecl *, std::string> out;
    std::function<void(const Stmt *)> scan = [&](const Stmt *x) {
      if (!x) return;
      if (const auto *ref = dyn_cast<DeclRefExpr>(x))
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && uniformChanging_.count(var) && !out.count(var)) {
          const std::string name = "ldcc_s" + std::to_string(hostCounter_++) + "_" + var->getNameAsString();
          lines_.push_back("const " + typeName(var->getType()) + " " + name + " = " + mirrored_[var] + ";");
          out[var] = name;
        }
      for (const Stmt *c : x->children()) scan(c);
    };
    scan(e);
    return out;
  }

  struct SnapshotScope {
    SnapshotScope(Analyzer &a, const VarDecl *v) : a_(a) {
      if (auto it = a.snapshots_.find(v); it != a.snapshots_.end()) a.snapshotFrames_.push_back(&it->second), pushed_ = true;
    }
    SnapshotScope(Analyzer &a, const std::map<const VarDecl *, std::string> &frame) : a_(a) {
      a.snapshotFrames_.push_back(&frame);
      pushed_ = true;
    }
    ~SnapshotScope() {
      if (pushed_) a_.snapshotFrames_.pop_back();
    }
    Analyzer &a_;
    bool pushed_ = false;
  };

  // The variable a whole statement `v = e`, `v op= e`, `++v` (v--, ...) changes.
  static const VarDecl *changedVariable(const Expr *e) {
    e = e->IgnoreParens();
    const Expr *target = nullptr;
    if (const auto *bin = dyn_cast<BinaryOperator>(e); bin && bin->isAssignmentOp()) target = bin->getLHS();
    else if (const auto *un = dyn_cast<UnaryOperator>(e); un && un->isIncrementDecrementOp()) target = un->getSubExpr();
    const auto *ref = target ? dyn_cast<DeclRefExpr>(target->IgnoreParens()) : nullptr;
    return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  }

  const Stmt *parentOf(const Stmt *s) const {
    const DynTypedNodeList parents = ctx_.getParents(*s);
    return parents.empty() ? nullptr : parents[0].get<Stmt>();
  }

  // The compounds whose statements change v, each change a whole statement of one (nullopt: v changes
  // some other way: inside an expression, a for header, through its address).
  std::optional<std::vector<const CompoundStmt *>> statementChanges(const VarDecl *v) const {
    std::vector<const CompoundStmt *> out;
    auto it = mods_.sites.find(v);
    if (it == mods_.sites.end()) return out;
    for (const DeclRefExpr *ref : it->second) {
      const Stmt *s = ref;
      while (const Stmt *p = parentOf(s)) {
        if (!isa<ParenExpr>(p)) break;
        s = p;
      }
      const Stmt *change = parentOf(s);
      const auto *e = dyn_cast_or_null<Expr>(change);
      if (!e || changedVariable(e) != v) return std::nullopt;
      const auto *compound = dyn_cast_or_null<CompoundStmt>(parentOf(change));
      if (!compound) return std::nullopt;
      out.push_back(compound);
    }
    return out;
  }

  // Every thread of a block runs the statements of c alike: c is the body, or inside it only through
  // the loops and ifs around barriers that are copied to the host (a loop or if that cannot be makes
  // the proof without barriers, where nothing is uniform-changing).
  bool uniformScope(const CompoundStmt *c) const {
    const Stmt *s = c;
    while (s != fn_->getBody()) {
      const Stmt *p = parentOf(s);
      if (!p) return false;
      if (const auto *f = dyn_cast<ForStmt>(p)) {
        if (f->getBody() != s || !containsBarrier(f)) return false;
      } else if (const auto *i = dyn_cast<IfStmt>(p)) {
        if ((i->getThen() != s && i->getElse() != s) || !containsBarrier(i)) return false;
      } else if (!isa<CompoundStmt>(p)) {
        return false;
      }
      s = p;
    }
    return true;
  }

  // A local's declaration: copies of the uniform changing values it is computed from; a uniform local
  // that changes in the uniform part becomes a host variable, one that changes only in its own
  // compound is followed as threadText.
  void followDeclaration(const VarDecl *v, const DeclStmt *d) {
    if (!isBuiltinInteger(v->getType()) || v->getType().isVolatileQualified() || !v->hasLocalStorage()) return;
    auto snapshot = snapshotOf(v->getInit());
    if (!snapshot.empty()) snapshots_[v] = std::move(snapshot);
    const auto changes = statementChanges(v);
    if (!changes || changes->empty()) return;
    const SnapshotScope scope(*this, v);
    const std::string type = typeName(v->getType());
    if (mirror_ && std::all_of(changes->begin(), changes->end(), [&](const CompoundStmt *c) { return uniformScope(c); })) {
      if (auto init = hostText(v->getInit())) {
        const std::string name = "ldcc_v" + std::to_string(hostCounter_++) + "_" + v->getNameAsString();
        lines_.push_back(type + " " + name + " = (" + type + ")(" + *init + ");");
        mirrored_[v] = name;
        uniformChanging_.insert(v);
        return;
      }
    }
    const Stmt *own = parentOf(d);
    if (!std::all_of(changes->begin(), changes->end(), [&](const CompoundStmt *c) { return c == own; })) return;
    auto t = threadText(v->getInit());
    tracked_[v] = t ? "((" + type + ")(" + *t + "))" : "";
  }

  // A whole statement that changes a followed local: the host variable changes alike, or the local's
  // threadText becomes its new value.
  void followChange(const Expr *e) {
    const VarDecl *v = changedVariable(e);
    if (!v) return;
    e = e->IgnoreParens();
    if (uniformChanging_.count(v)) {
      auto step = hostStep(e, v, mirrored_[v]);
      if (!step) return refuse("the uniform variable " + v->getNameAsString() + " is set from a thread's value");
      lines_.push_back(*step + ";");
      ++mutations_;
      emittedChecks_.clear();
      return;
    }
    auto t = tracked_.find(v);
    if (t == tracked_.end() || t->second.empty()) return;
    const std::string type = typeName(v->getType());
    const auto *bin = dyn_cast<BinaryOperator>(e);
    std::optional<std::string> next;
    if (bin) {
      const auto snapshot = snapshotOf(bin->getRHS());
      const SnapshotScope scope(*this, snapshot);
      if (auto rhs = threadText(bin->getRHS()))
        next = bin->getOpcode() == BO_Assign ? *rhs : binaryText(bin->getOpcode(), t->second, *rhs);
    } else {
      next = "(" + t->second + (cast<UnaryOperator>(e)->isIncrementOp() ? " + 1" : " - 1") + ")";
    }
    t->second = next && next->size() <= kMaxThreadText ? "((" + type + ")(" + *next + "))" : "";
  }

  // `for (T v = init; cond; step)` around barriers, with init, cond and step launch-uniform: run on the
  // host with the launch's values, its body's accesses recorded on every trip.
  void mirrorLoop(const ForStmt *loop) {
    const auto *decl = dyn_cast_or_null<DeclStmt>(loop->getInit());
    const auto *v = decl && decl->isSingleDecl() ? dyn_cast<VarDecl>(decl->getSingleDecl()) : nullptr;
    if (!v || !v->getInit() || !isBuiltinInteger(v->getType()) || !loop->getCond() || !loop->getInc() ||
        modified(v, loop->getInc()) || leavesLoop(loop->getBody()))
      return cannotMirror("a barrier in a loop the host cannot follow");
    auto init = hostText(v->getInit());
    if (!init) return cannotMirror("a barrier in a loop whose start depends on the thread");
    const std::string name = "ldcc_m" + std::to_string(hostCounter_++) + "_" + v->getNameAsString();
    mirrored_[v] = name;
    auto cond = hostText(loop->getCond());
    auto step = hostStep(loop->getInc(), v, name);
    if (!cond || !step) return cannotMirror("a barrier in a loop whose condition or step depends on the thread");
    const std::string type = typeName(v->getType());
    lines_.push_back("for (" + type + " " + name + " = (" + type + ")(" + *init + "); (" + *cond +
                     ") && ldcc_ok && ldcc_p.trip(); " + *step + ") {");
    visitScoped(loop->getBody());
    lines_.push_back("}");
  }

  // `if (cond)` around barriers, cond launch-uniform: the same branch on the host.
  void mirrorIf(const IfStmt *branch) {
    auto cond = branch->getInit() || branch->getConditionVariable() ? std::nullopt : hostText(branch->getCond());
    if (!cond) return cannotMirror("a barrier under a condition that depends on the thread");
    lines_.push_back("if (" + *cond + ") {");
    visitScoped(branch->getThen());
    if (branch->getElse()) {
      lines_.push_back("} else {");
      visitScoped(branch->getElse());
    }
    lines_.push_back("}");
  }

  void visit(const Stmt *s) {
    if (!s || !failure_.empty()) return;
    if (mirror_ && containsBarrier(s)) {
      if (isBarrierStatement(s)) return lines_.push_back("ldcc_p.barrier();");
      if (const auto *f = dyn_cast<ForStmt>(s)) return mirrorLoop(f);
      if (const auto *i = dyn_cast<IfStmt>(s)) return mirrorIf(i);
      if (!isa<CompoundStmt>(s)) return cannotMirror("a barrier the host cannot follow");
    }
    if (const auto *e = dyn_cast<Expr>(s)) {
      followChange(e);
      return visitExpr(e, true);
    }
    if (isa<AsmStmt>(s)) return refuse("inline PTX");
    if (isa<CXXTryStmt>(s)) return refuse("try");
    if (const auto *d = dyn_cast<DeclStmt>(s)) {
      for (const Decl *decl : d->decls()) {
        const auto *v = dyn_cast<VarDecl>(decl);
        if (!v || !v->getInit()) continue;
        followDeclaration(v, d);
        if (v->getType()->isPointerType()) visitPointer(v->getInit());  // followed through v's uses
        else if (v->getType()->isReferenceType() && isMemoryLvalue(v->getInit())) visitAddressOf(v->getInit());
        else if (isa<CXXConstructExpr>(v->getInit()->IgnoreParens()) || !isMemoryLvalue(v->getInit())) visitExpr(v->getInit());
      }
      return;
    }
    if (const auto *i = dyn_cast<IfStmt>(s)) {
      if (i->getInit() || i->getConditionVariable()) return refuse("an if with a declaration");
      visitExpr(i->getCond());
      const size_t depth = guards_.size();
      guardsOf(i->getCond(), guards_);
      // Enumerated accesses test the condition itself per thread (the forms' guards only narrow).
      const std::optional<std::string> cond = threadText(i->getCond());
      if (cond) conditions_.push_back(*cond);
      visit(i->getThen());
      guards_.resize(depth);
      if (cond) conditions_.back() = "!" + *cond;
      visit(i->getElse());
      if (cond) conditions_.pop_back();
      return;
    }
    if (const auto *f = dyn_cast<ForStmt>(s)) {
      visit(f->getInit());
      canonicalLoop(f);
      if (f->getCond()) visitExpr(f->getCond());
      if (f->getInc()) visitExpr(f->getInc(), true);
      return visit(f->getBody());
    }
    for (const Stmt *c : s->children()) visit(c);
  }

  ASTContext &ctx_;
  const FunctionDecl *fn_;
  Modifications mods_;
  std::string failure_;
  std::vector<int> pointerParams_;
  std::vector<RootInfo> roots_;
  std::map<const VarDecl *, int> rootIndex_;
  const VarDecl *externShared_ = nullptr;
  std::map<const VarDecl *, std::string> hostNames_;
  std::map<const VarDecl *, LoopVar> loops_;
  std::map<const FunctionDecl *, bool> pure_;
  std::vector<Guard> guards_;
  std::vector<std::string> lines_;
  bool deterministic_ = true;
  const bool mirror_;          // barriers become epochs (Proof::barrier)
  bool mirrorFailed_ = false;  // a barrier where the host cannot follow it
  std::map<const VarDecl *, std::string> mirrored_;  // loop variables of host copies of loops
  int hostCounter_ = 0;
  std::set<std::string> emittedChecks_;  // representable() lines of the current host scope and those around it
  // Locals that change only by whole statements of the compound that declares them: their value at
  // this point of the walk, as threadText (empty: not followed).
  std::map<const VarDecl *, std::string> tracked_;
  // Launch-uniform locals that change only by whole statements in the uniform part of the kernel (the
  // body and the host copies of loops and ifs around barriers: `offset <<= 1`): host variables that
  // change as they do.
  std::set<const VarDecl *> uniformChanging_;
  int mutations_ = 0;  // host statements that changed one so far
  // Per local whose initializer names such a variable: host copies of those made at its declaration,
  // the values it was computed from; snapshotFrames_ are the ones in force while its value is read.
  std::map<const VarDecl *, std::map<const VarDecl *, std::string>> snapshots_;
  std::vector<const std::map<const VarDecl *, std::string> *> snapshotFrames_;
  std::vector<std::string> conditions_;  // threadText of the ifs around this point (negated in else)
};

}  // namespace

AffineProof proveAffine(ASTContext &ctx, const FunctionDecl *kernel, const std::string &name) {
  // First with the kernel's barriers and the uniform loops and ifs around them copied to the host
  // (epochs); where they cannot be (a barrier under a thread's condition, in a while loop), without:
  // one epoch, every pair of accesses compared.
  Analyzer mirrored(ctx, kernel, true);
  AffineProof proof = mirrored.run(name);
  if (!mirrored.mirrorFailed()) return proof;
  return Analyzer(ctx, kernel, false).run(name);
}

}  // namespace ldcc::translator
