#include "rewrite/CloneWriter.h"

#include "rewrite/WriteOnlyParams.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/CharInfo.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <functional>
#include <map>
#include <set>
#include <sstream>

using namespace clang;

namespace ldcc::translator {

unsigned TranslationUnitTables::addSite(const SourceManager &sm, SourceLocation loc, std::string what) {
  Site s;
  const PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isValid()) {
    s.file = p.getFilename();
    s.line = p.getLine();
    s.column = p.getColumn();
  }
  s.what = std::move(what);
  sites.push_back(s);
  return unsigned(sites.size() - 1);
}

unsigned TranslationUnitTables::slotOf(const VarDecl *var) {
  for (unsigned i = 0; i < helperShared.size(); ++i)
    if (helperShared[i] == var) return i;
  helperShared.push_back(var);
  return unsigned(helperShared.size() - 1);
}

std::string cloneName(const FunctionDecl *fn, CloneKind kind) {
  switch (kind) {
    case CloneKind::Blocks: return fn->getNameAsString() + "__ldcc_blocks";
    case CloneKind::CheckedInShared: return fn->getNameAsString() + "__ldcc_checked_in_shared";
    default: return fn->getNameAsString() + "__ldcc_checked";
  }
}

bool constTemplatePack(const ParmVarDecl *param) {
  const auto *pack = param->getType()->getAs<PackExpansionType>();
  if (!pack) return false;
  // A bare template parameter: then the pattern's one `const` is its top-level one.
  const QualType pattern = pack->getPattern();
  return pattern.isLocalConstQualified() && pattern.getLocalUnqualifiedType()->getAs<TemplateTypeParmType>();
}

std::vector<SourceLocation> constTokens(const SourceManager &sm, const LangOptions &lang, SourceLocation begin,
                                        SourceLocation end) {
  std::vector<SourceLocation> out;
  for (SourceLocation at = begin; at.isValid() && sm.isBeforeInTranslationUnit(at, end);) {
    Token tok;
    if (Lexer::getRawToken(at, tok, sm, lang, true)) break;
    if (tok.is(tok::raw_identifier) && tok.getRawIdentifier() == "const") out.push_back(at);
    std::optional<Token> next = Lexer::findNextToken(at, sm, lang);
    at = next ? next->getLocation() : SourceLocation();
  }
  return out;
}

namespace {

// ldcc::rt::kMaxTargets (region_check.cuh): shared variables one kernel's layout can hold.
constexpr size_t kMaxSharedTargets = 48;

// "::app::detail::" for a declaration in namespaces app::detail (anonymous ones are transparent).
std::string namespacePrefix(const DeclContext *dc) {
  std::string prefix;
  for (; dc; dc = dc->getParent())
    if (const auto *ns = dyn_cast<NamespaceDecl>(dc); ns && !ns->isAnonymousNamespace())
      prefix = ns->getNameAsString() + "::" + prefix;
  return "::" + prefix;
}

// Collects edits on one function's text; the first failure makes the clone refused.
class CloneEditor {
public:
  CloneEditor(ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()), rw_(ctx.getSourceManager(), ctx.getLangOpts()) {}

  // A file location for a token, through macro arguments; invalid inside macro bodies.
  SourceLocation fileLoc(SourceLocation loc) {
    if (loc.isFileID()) return loc;
    if (sm_.isMacroArgExpansion(loc)) {
      SourceLocation spelling = sm_.getSpellingLoc(loc);
      if (spelling.isFileID()) return spelling;
    }
    return {};
  }
  CharSourceRange fileRange(SourceRange r) {
    return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
  }
  bool fail(const std::string &reason, SourceLocation where) {
    if (!refusal.refused()) refusal = Refusal{reason, where};
    return false;
  }
  bool replaceToken(SourceLocation loc, const std::string &text, const char *what) {
    SourceLocation f = fileLoc(loc);
    if (f.isInvalid()) return fail(std::string(what) + " inside a macro", loc);
    if (!firstAtMacroArgument(loc, f, "=" + text)) return true;
    const unsigned len = Lexer::MeasureTokenLength(f, sm_, ctx_.getLangOpts());
    rw_.ReplaceText(f, len, text);
    return true;
  }
  bool replace(SourceRange r, const std::string &text, const char *what) {
    CharSourceRange fr = fileRange(r);
    if (fr.isInvalid()) return fail(std::string(what) + " inside a macro", r.getBegin());
    rw_.ReplaceText(fr, text);
    return true;
  }
  bool insertBefore(SourceLocation loc, const std::string &text, const char *what) {
    CharSourceRange fr = fileRange(SourceRange(loc, loc));
    if (fr.isInvalid()) return fail(std::string(what) + " inside a macro", loc);
    if (!firstAtMacroArgument(loc, fr.getBegin(), "<" + text)) return true;
    rw_.InsertTextBefore(fr.getBegin(), text);
    return true;
  }
  bool insertAfterToken(SourceLocation loc, const std::string &text, const char *what) {
    CharSourceRange fr = fileRange(SourceRange(loc, loc));
    if (fr.isInvalid()) return fail(std::string(what) + " inside a macro", loc);
    if (!firstAtMacroArgument(loc, fr.getEnd(), ">" + text)) return true;
    rw_.InsertTextAfter(fr.getEnd(), text);
    return true;
  }
  // Removes every `const` token from `begin` up to (not including) `end`.
  bool removeConstBefore(SourceLocation begin, SourceLocation end, const char *what) {
    SourceLocation from = fileLoc(begin), to = fileLoc(end);
    if (from.isInvalid() || to.isInvalid()) return fail(std::string(what) + " inside a macro", begin);
    for (const SourceLocation at : constTokens(sm_, ctx_.getLangOpts(), from, to)) rw_.RemoveText(at, 5);
    return true;
  }
  std::string text(SourceRange r) {
    CharSourceRange fr = fileRange(r);
    if (fr.isInvalid()) return "";
    return rw_.getRewrittenText(fr);
  }
  // The location just past a statement's terminating ';' when it has one.
  SourceLocation statementEnd(const Stmt *s) {
    SourceLocation end = s->getEndLoc();
    if (isa<CompoundStmt>(s) || isa<IfStmt>(s) || isa<WhileStmt>(s) || isa<ForStmt>(s) || isa<DeclStmt>(s)) return end;
    CharSourceRange fr = fileRange(SourceRange(end, end));
    if (fr.isInvalid()) return end;
    std::optional<Token> next = Lexer::findNextToken(fr.getBegin(), sm_, ctx_.getLangOpts());
    if (next && next->is(tok::semi)) return next->getLocation();
    return end;
  }
  SourceRange statementRange(const Stmt *s) { return SourceRange(s->getBeginLoc(), statementEnd(s)); }
  // Whether `loc` lies in the range `r` (its ends included).
  bool covers(SourceRange r, SourceLocation loc) const {
    return !sm_.isBeforeInTranslationUnit(loc, r.getBegin()) && !sm_.isBeforeInTranslationUnit(r.getEnd(), loc);
  }

  Refusal refusal;

private:
  // A macro argument the macro expands twice (`#define SQ(x) ((x)*(x))`) gives two AST nodes spelled
  // at one place in the file, and each would get the same edit there (`v__ldcc1__ldcc1`): only the
  // first is made. False for a repeat of an edit at a macro argument's spelling.
  bool firstAtMacroArgument(SourceLocation loc, SourceLocation at, const std::string &edit) {
    if (loc.isFileID()) return true;
    return macroArgumentEdits_.insert({sm_.getFileOffset(at), edit}).second;
  }

  ASTContext &ctx_;
  const SourceManager &sm_;
  Rewriter rw_;
  std::set<std::pair<unsigned, std::string>> macroArgumentEdits_;
};

// The statement that gives a hoisted structured binding (LocalPlan::parts) its value where the
// declaration was: `auto [a, b] = e;` -> `assign(hidden, e);`, `auto& [a, b] = e;` -> `hidden = &(e);`
// (with `{e}` or `(e)` after the brackets alike).
std::string bindingsAssignment(const DecompositionDecl &decomposition, const LocalPlan &plan, CloneEditor &ed) {
  const std::string text = ed.text(SourceRange(decomposition.bindings().back()->getLocation(), decomposition.getEndLoc()));
  const size_t bracket = text.find(']');
  std::string init = bracket == std::string::npos ? "" : text.substr(bracket + 1);
  init.erase(0, init.find_first_not_of(" \t\n"));
  if (!init.empty() && init[0] == '=') init.erase(0, 1);
  else if (init.size() >= 2 && (init[0] == '{' || init[0] == '(')) init = init.substr(1, init.size() - 2);
  else init.clear();
  if (init.empty()) {
    ed.fail("a structured binding whose initializer it cannot find", decomposition.getLocation());
    return "";
  }
  if (plan.bindsReference) return plan.newName + " = &(" + init + ");";
  return "::ldcc::rt::assign(" + plan.newName + ", " + init + ");";
}

// The name each __shared__ variable of the function's body is referenced by in its clones: its own,
// unless a parameter or another variable declared in the function has that name too.
std::map<const VarDecl *, std::string> sharedReferenceNames(const FunctionFacts &facts) {
  struct Names : RecursiveASTVisitor<Names> {
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitVarDecl(VarDecl *v) {
      ++count[v->getNameAsString()];
      return true;
    }
    bool VisitBindingDecl(BindingDecl *b) {
      ++count[b->getNameAsString()];
      return true;
    }
    std::map<std::string, unsigned> count;
  } names;
  for (const ParmVarDecl *p : facts.fn->parameters()) ++names.count[p->getNameAsString()];
  names.TraverseStmt(facts.fn->getBody());
  std::map<const VarDecl *, std::string> out;
  unsigned index = 0;
  for (const auto *list : {&facts.sharedLocals, &facts.sharedGlobals})
    for (const VarDecl *v : *list) {
      const std::string name = v->getNameAsString();
      const unsigned own = v->isLocalVarDeclOrParm() ? 1 : 0;
      out[v] = names.count[name] > own ? name + "__ldcc_shared" + std::to_string(index) : name;
      ++index;
    }
  return out;
}

// A lambda names __shared__ and written __device__ variables without capturing them (they have static
// storage); in a clone those names are local references to this unit's copies, which a lambda must
// capture. Each lambda without a by-reference default gets `&name` for each it (or a lambda inside it)
// names: `[](int i) { return s[i]; }` -> `[&s](int i) { ... }`, `[=]` -> `[=, &s]`.
void captureCloneReferences(CloneEditor &ed, const TranslationUnitAnalysis &tu, const FunctionFacts &facts,
                            const std::map<const VarDecl *, std::string> &sharedNames,
                            const std::function<std::string(const VarDecl *)> &dynamicSharedName) {
  struct Lambdas : RecursiveASTVisitor<Lambdas> {
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitLambdaExpr(LambdaExpr *lambda) {
      found.push_back(lambda);
      return true;
    }
    std::vector<const LambdaExpr *> found;
  } lambdas;
  lambdas.TraverseStmt(facts.fn->getBody());
  for (const LambdaExpr *lambda : lambdas.found) {
    if (lambda->getCaptureDefault() == LCD_ByRef) continue;
    std::vector<std::string> names;
    const auto add = [&](const std::string &name) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    };
    struct Refs : RecursiveASTVisitor<Refs> {  // in source order: the captures do not depend on addresses
      bool VisitDeclRefExpr(DeclRefExpr *ref) {
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl())) found.push_back(var);
        return true;
      }
      std::vector<const VarDecl *> found;
    } refs;
    refs.TraverseStmt(lambda->getBody());
    for (const VarDecl *var : refs.found) {
      if (auto it = sharedNames.find(var); it != sharedNames.end()) add(it->second);
      else if (std::find(facts.deviceVars.begin(), facts.deviceVars.end(), var) != facts.deviceVars.end())
        add(var->getNameAsString());
    }
    const SourceRange body = lambda->getBody()->getSourceRange();
    for (const DynamicSharedUse &use : facts.dynamicSharedUses)  // `SharedMemory<T>()` in the lambda
      if (ed.covers(body, use.expr->getBeginLoc())) add(dynamicSharedName(use.var));
    if (names.empty()) continue;
    if (tu.lambdaBecomesFunctionPointer(lambda)) {
      ed.fail("a lambda converted to a function pointer that names a __shared__ or written __device__ variable",
              lambda->getBeginLoc());
      continue;
    }
    std::string captures;
    for (const std::string &name : names)
      captures += (captures.empty() && lambda->getCaptureDefault() == LCD_None && lambda->explicit_captures().empty() ? "&" : ", &") + name;
    ed.insertBefore(lambda->getIntroducerRange().getEnd(), captures, "a lambda's captures");
  }
}

// The types a helper template's __shared__ variable has where a kernel's body reaches it (through
// calls of helper instantiations, transitively; an instantiated variable is spelled where its
// pattern is).
std::set<std::string> reachedHelperSharedTypes(const Stmt *body, const VarDecl *pattern, const ASTContext &ctx) {
  std::set<std::string> out;
  std::set<const FunctionDecl *> seen;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    for (const CallExpr *call : callsIn(s)) {
      const FunctionDecl *callee = call->getDirectCallee();
      const Stmt *calleeBody = callee ? callee->getBody() : nullptr;
      if (!calleeBody || !seen.insert(callee).second) continue;
      struct Instances : RecursiveASTVisitor<Instances> {
        bool VisitVarDecl(VarDecl *v) {
          if (v != pattern && v->getLocation() == pattern->getLocation()) found.push_back(v);
          return true;
        }
        const VarDecl *pattern;
        std::vector<const VarDecl *> found;
      } instances;
      instances.pattern = pattern;
      instances.TraverseStmt(const_cast<Stmt *>(calleeBody));
      for (const VarDecl *v : instances.found) out.insert(printType(v->getType(), ctx));
      walk(calleeBody);
    }
  };
  walk(body);
  return out;
}

// Code before a statement; braces keep both together when the statement is an unbraced if/loop body.
void insertBeforeStatement(CloneEditor &ed, ASTContext &ctx, const Stmt *s, const std::string &code, const char *what) {
  DynTypedNodeList parents = ctx.getParents(*s);
  const bool wrap = parents.empty() || !parents[0].get<CompoundStmt>();
  ed.insertBefore(s->getBeginLoc(), (wrap ? "{ " : "") + code + " ", what);
  if (wrap) ed.insertAfterToken(ed.statementEnd(s), " }", what);
}

SourceLocation calleeNameLoc(const CallExpr *call) {
  const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<DeclRefExpr>(callee)) return ref->getNameInfo().getLoc();
  if (const auto *ul = dyn_cast<UnresolvedLookupExpr>(callee)) return ul->getNameLoc();
  return {};
}

// The qualifier the callee is spelled with (`::` of `::atomicCAS`, `std::` of `std::printf`), or an
// invalid range: a call redirected to a member of ldcc's own objects drops it.
SourceRange calleeQualifier(const CallExpr *call) {
  const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
  NestedNameSpecifierLoc qualifier;
  if (const auto *ref = dyn_cast<DeclRefExpr>(callee)) qualifier = ref->getQualifierLoc();
  if (const auto *ul = dyn_cast<UnresolvedLookupExpr>(callee)) qualifier = ul->getQualifierLoc();
  return qualifier ? qualifier.getSourceRange() : SourceRange();
}

// The code of site `id`: the protocol, a jump back when it says so, and the label a later jump back
// lands on (return sites have none: the region after them belongs to the caller).
std::string siteCode(unsigned id, bool resumable = true) {
  const std::string n = std::to_string(id);
  return "{ if (ldcc_site(" + n + "u)) goto ldcc_dispatch; " + (resumable ? "ldcc_resume_" + n + ":; " : "") + "}";
}

const char *barrierResult(BarrierKind k) {
  switch (k) {
    case BarrierKind::Count: return "::ldcc::rt::bar_count(ldcc_t)";
    case BarrierKind::And: return "::ldcc::rt::bar_and(ldcc_t)";
    case BarrierKind::Or: return "::ldcc::rt::bar_or(ldcc_t)";
    default: return "";
  }
}

// Signature edits shared by the clone and its prototype: the clone's name and first parameter.
// The type of `ldcc_t`, the per-thread state every hook takes.
std::string stateType(CloneKind kind) {
  return kind == CloneKind::Blocks ? "::ldcc::rt::BlockRunState" : "::ldcc::rt::ThreadState";
}

bool editSignature(CloneEditor &ed, const FunctionDecl *fn, bool isKernel, unsigned maxThreads, CloneKind kind) {
  // __grid_constant__: the clone takes the context's address (ThreadState::ctx); without it nvcc
  // copies the whole LaunchCtx (1.6 KB) into every thread's stack (nbody: 3232 -> 1632 bytes).
  const std::string extra = isKernel ? "__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx" : stateType(kind) + "& ldcc_t";
  // A clone needs more registers than its kernel; unbounded, nvcc may give it more than its blocks
  // can have (em's 320 threads, b+tree's 1024) and every checked launch fails with "too many
  // resources requested". The bound is the largest block its launches use (the tighter it is, the
  // more registers the clone keeps: bound 1024 leaves 64); a kernel's own bound is kept.
  const std::string bound = isKernel && !fn->hasAttr<CUDALaunchBoundsAttr>()
                                ? "__launch_bounds__(" + std::to_string(maxThreads) + ") " : "";
  const NestedNameSpecifierLoc qualifier = fn->getQualifierLoc();
  if (!bound.empty() && qualifier && !ed.insertBefore(qualifier.getBeginLoc(), bound, "the function name")) return false;
  if (!ed.replaceToken(fn->getLocation(), (qualifier ? "" : bound) + cloneName(fn, kind), "the function name")) return false;
  // A const pack cannot be copied into mutable locals for rebase_param: not const (constTemplatePack).
  for (const ParmVarDecl *param : fn->parameters())
    if (isKernel && constTemplatePack(param) &&
        !ed.removeConstBefore(param->getBeginLoc(), param->getLocation(), "a const parameter pack"))
      return false;
  if (fn->getNumParams() > 0) return ed.insertBefore(fn->getParamDecl(0)->getBeginLoc(), extra + ", ", "a parameter");
  FunctionTypeLoc ftl = fn->getFunctionTypeLoc();
  if (!ftl) return ed.fail("a function type it cannot read", fn->getLocation());
  if (ftl.getRParenLoc() != ftl.getLParenLoc() && ftl.getLParenLoc().isValid()) {
    // f() or f(void)
    const SourceRange parens(ftl.getLParenLoc(), ftl.getRParenLoc());
    if (ed.text(parens).find("void") != std::string::npos) return ed.replace(parens, "(" + extra + ")", "a parameter list");
    return ed.insertAfterToken(parens.getBegin(), extra, "a parameter list");
  }
  return ed.fail("a function type it cannot read", fn->getLocation());
}

}  // namespace

SourceRange wholeDefinition(const FunctionDecl *fn) {
  if (const FunctionTemplateDecl *ft = fn->getDescribedFunctionTemplate()) return ft->getSourceRange();
  return fn->getSourceRange();
}

CloneText writeClone(const FunctionFacts &facts, const TranslationUnitAnalysis &tu, TranslationUnitTables &tables,
                     ASTContext &ctx, CloneKind kind, const KernelGlobals *globals, unsigned maxThreads) {
  CloneText out;
  const FunctionDecl *fn = facts.fn;
  const SourceManager &sm = ctx.getSourceManager();
  CloneEditor ed(ctx);
  const bool kernel = facts.isKernel;
  const bool checked = kind == CloneKind::Checked;
  // Level B's clone has no sites: barriers, helper calls and returns stay as written.
  const bool synchronizing = checked && (kernel || tu.synchronizes(fn));
  const std::string fname = fn->getNameAsString();
  auto failed = [&]() {
    out.refusal = ed.refusal;
    out.text.clear();
    return out;
  };

  editSignature(ed, fn, kernel, maxThreads, kind);

  // --- loads through pointer parameters: marked for level W's sites (paramLoads) -------------------
  // First, so the declarations the locals' edits move or rewrite carry their marks along.
  const bool marksLoads = kernel && checked;
  const ParamLoads loads = marksLoads ? paramLoads(ctx, tu, fn) : ParamLoads{};
  const bool knownLoads = marksLoads && !(loads.always & kUnknownLoads);
  const std::string alwaysLoaded = std::to_string(loads.always) + "u";
  if (knownLoads)
    for (const auto &[use, bit] : loads.marks) {
      ed.insertBefore(use->getLocation(), "(ldcc_loaded |= " + std::to_string(bit) + "u, ", "a load");
      ed.insertAfterToken(use->getLocation(), ")", "a load");
    }

  // --- shared variables whose name another variable of the function shares: renamed --------------
  // Their references are declared at the function's top, where a parameter of that name would be
  // redeclared, and a local of that name (or a sibling scope's __shared__ one) would shadow them.
  // Before the locals' edits, so the declarations those move carry the new names along.
  VariableUses uses = variableUses(fn->getBody());
  const std::map<const VarDecl *, std::string> sharedNames = sharedReferenceNames(facts);
  for (const auto &[var, name] : sharedNames)
    if (name != var->getNameAsString())
      for (const DeclRefExpr *ref : uses[var]) ed.replaceToken(ref->getLocation(), name, "a __shared__ variable");

  // --- uses of the dynamic shared memory through an accessor: this clone's reference to its copy ------
  auto dynamicSharedName = [&](const VarDecl *v) { return "ldcc_extern_shared_" + std::to_string(tables.slotOf(v)); };
  // A call's own type where the pattern knows it (`auto p = dynamicShared<float>();` must stay a
  // float*), else a value that converts to whichever pointer is asked for.
  for (const DynamicSharedUse &use : facts.dynamicSharedUses) {
    const std::string address = "reinterpret_cast<unsigned char*>(" + dynamicSharedName(use.var) + ")";
    const QualType type = use.expr->getType();
    // In a template, the call's type is spelled by decltype of the call itself (unevaluated), so that
    // `dynamicShared<T>()[i]` indexes a T* rather than the convertible value, which has no [].
    const std::string text =
        use.conversion || !(type->isPointerType() || type->isDependentType())
            ? "::ldcc::rt::DynamicShared{" + address + "}"
        : type->isDependentType() ? "reinterpret_cast<decltype(" + ed.text(use.expr->getSourceRange()) + ")>(" + address + ")"
                                  : "reinterpret_cast<" + printType(type, ctx) + ">(" + address + ")";
    ed.replace(use.expr->getSourceRange(), text, "a use of the dynamic shared memory");
  }
  // Nothing inside a replaced use is edited again (`smem.getPointer()` on a hoisted `smem`).
  auto replacedByUse = [&](SourceLocation loc) {
    for (const DynamicSharedUse &use : facts.dynamicSharedUses)
      if (ed.covers(use.expr->getSourceRange(), loc)) return true;
    return false;
  };
  captureCloneReferences(ed, tu, facts, sharedNames, dynamicSharedName);

  // --- locals: renamed everywhere, declarations moved or turned into assignments -------------------
  // (Only for re-executions, which jump back to sites: the blocks clone keeps its locals as written.)
  std::set<const DeclStmt *> handledDecls;
  std::ostringstream moved, hoisted;
  // What a site saves and a re-execution restores: locals and modified parameters.
  struct FrameEntry {
    std::string name, compareId;  // compareId "": not compared
    bool pack = false;            // a parameter pack: its values in a ::ldcc::rt::PackFrame
  };
  std::vector<FrameEntry> frame;
  // Registers a compared local in the translation unit's table, by the name reports give it; its id
  // for compare_local.
  auto compareId = [&](const std::string &name) {
    tables.locals.push_back(fname + ": " + name);
    return std::to_string(tables.locals.size() - 1);
  };
  const std::vector<LocalPlan> noLocals;
  const std::vector<LocalPlan> &locals = checked ? facts.locals : noLocals;
  for (const LocalPlan &p : locals) {
    for (const DeclRefExpr *ref : uses[p.var]) {
      if (replacedByUse(ref->getLocation())) continue;
      const auto *binding = dyn_cast<BindingDecl>(ref->getDecl());
      const std::string value = p.bindsReference ? "(*" + p.newName + ")" : p.newName;
      std::string text = p.asConst ? "::ldcc::rt::as_const(" + value + ")" : value;
      if (binding) {
        text = p.parts.at(binding);
        text.replace(text.find('@'), 1, value);
      }
      ed.replaceToken(ref->getLocation(), text, "a local variable");
    }
    if (!isa<DecompositionDecl>(p.var)) ed.replaceToken(p.var->getLocation(), p.newName, "a local variable");
  }
  for (const LocalPlan &p : locals) {
    const DeclStmt *ds = declStmtOf(ctx, p.var);
    if (!ds) {
      ed.fail("a declaration it cannot move", p.var->getLocation());
      continue;
    }
    if (p.kind == LocalKind::Moved) {
      moved << ed.text(ds->getSourceRange()) << " ";
      ed.replace(ds->getSourceRange(), "", "a declaration");
      handledDecls.insert(ds);
      continue;
    }
    // Value-initialized: an indeterminate value could read differently in the two passes.
    hoisted << "::ldcc::rt::type_t<" << p.type << "> " << p.newName << "{}; ";
    frame.push_back(FrameEntry{p.newName, p.compared ? compareId(localName(p.var)) : ""});
    if (handledDecls.count(ds)) continue;
    handledDecls.insert(ds);
    // Every declarator of this statement becomes an assignment (they share the scope, so all of
    // them were hoisted).
    DynTypedNodeList parents = ctx.getParents(*ds);
    const bool inForInit = !parents.empty() && parents[0].get<ForStmt>();
    std::string assigns;
    for (const Decl *d : ds->decls()) {
      const auto *v = dyn_cast<VarDecl>(d);
      const LocalPlan *vp = nullptr;
      for (const LocalPlan &q : facts.locals)
        if (q.var == v) vp = &q;
      if (!v || !vp || vp->kind != LocalKind::Hoisted) {
        ed.fail("a declaration mixing variables it must move and others", ds->getBeginLoc());
        break;
      }
      if (const auto *decomposition = dyn_cast<DecompositionDecl>(v)) {
        if (inForInit) {
          ed.fail("a structured binding declared in a for-loop's header that lives across a barrier", v->getLocation());
          break;
        }
        assigns += bindingsAssignment(*decomposition, *vp, ed);
        continue;
      }
      if (!v->hasInit() || (isa<CXXConstructExpr>(v->getInit()) &&
                            cast<CXXConstructExpr>(v->getInit())->getNumArgs() == 0))
        continue;
      const Expr *init = v->getInit()->IgnoreImplicit();
      const bool simple = v->getInitStyle() == VarDecl::CInit && !isa<InitListExpr>(init) && !v->getType()->isArrayType();
      if (simple) {
        if (!assigns.empty()) assigns += inForInit ? ", " : " ";
        const std::string value = ed.text(v->getInit()->getSourceRange());
        assigns += vp->newName + (vp->bindsReference ? " = &(" + value + ")" : " = " + value) + (inForInit ? "" : ";");
      } else {
        if (vp->bindsReference) {
          ed.fail("a reference with a braced initializer that lives across a barrier", v->getLocation());
          break;
        }
        if (inForInit) {
          ed.fail("a for-loop variable with a brace or constructor initializer that lives across a barrier",
                  v->getLocation());
          break;
        }
        // `T x = {...}` / `T x(...)`: build the value in a temporary and copy it.
        const std::string initText = ed.text(SourceRange(v->getLocation(), v->getEndLoc()));
        const size_t nameEnd = initText.find(vp->newName);
        std::string tail = nameEnd == std::string::npos ? "" : initText.substr(nameEnd + vp->newName.size());
        // `T x[2] = {...}`: decltype already has the bounds (`ldcc_init[2]` would be a T[2][2]).
        for (size_t open = tail.find_first_not_of(" \t\n"); open != std::string::npos && tail[open] == '[';
             open = tail.find_first_not_of(" \t\n")) {
          const size_t close = tail.find(']', open);
          tail.erase(0, close == std::string::npos ? tail.size() : close + 1);
        }
        assigns += " { decltype(" + vp->newName + ") ldcc_init" + tail + "; ::ldcc::rt::assign(" + vp->newName +
                   ", ldcc_init); }";
      }
    }
    ed.replace(ds->getSourceRange(), assigns + (inForInit ? ";" : ""), "a declaration");
  }
  for (const ParmVarDecl *p : facts.modifiedParams)
    if (checked)
      frame.push_back(FrameEntry{p->getNameAsString(), facts.uncomparedParams.count(p) ? "" : compareId(localName(p)),
                                 p->isParameterPack()});

  // --- shared variables: removed here, redirected to this warp's copy at the top ---------------------
  std::ostringstream shared, aliases;
  std::vector<const VarDecl *> layout;  // kernels: own (and file-scope) first, then helpers'
  std::set<const DeclStmt *> removedShared;
  for (const VarDecl *v : facts.sharedLocals) {
    const DeclStmt *ds = declStmtOf(ctx, v);
    if (!ds) {
      ed.fail("a __shared__ declaration it cannot move", v->getLocation());
      continue;
    }
    for (const Decl *d : ds->decls())
      if (!d->hasAttr<CUDASharedAttr>()) ed.fail("a declaration mixing __shared__ and other variables", ds->getBeginLoc());
    if (removedShared.insert(ds).second) ed.replace(ds->getSourceRange(), "", "a __shared__ declaration");
  }
  // The blocks clone's layout is always in dynamic shared memory: reached from the extern array, the
  // compiler knows the address space (from ldcc_t.base, every access was a generic one). So is the
  // in-shared kernel clone's, whose own shared variables are written into `sharedInShared`.
  const std::string layoutBase = checked ? "ldcc_t.base" : "ldcc_dynamic_shared";
  std::ostringstream sharedInShared;
  auto sharedRef = [&](const VarDecl *v, const std::string &name, const std::string &alias, const std::string &offset) {
    aliases << "using " << alias << " = " << printType(v->getType(), ctx) << "; ";
    const std::string ref = alias + "& " + name + " = ::ldcc::rt::target_ref<" + alias + ">(";
    shared << ref << layoutBase << ", " << offset << "); ";
    sharedInShared << ref << "::ldcc::rt::copy_in_shared(ldcc_t, ldcc_dynamic_shared), " << offset << "); ";
  };
  std::ostringstream describe, helperOffsets;
  // A helper template's __shared__ variable (`static __shared__ T partial[32]` in blockReduceSum<T>)
  // has the type of the instantiation the kernel reaches: one slot serves every instantiation, so a
  // kernel (instantiation) may reach one only. A kernel template describes it through a trait
  // specialized for each of its instantiations (`typesTrait`, written before the clone).
  const FunctionTemplateDecl *kernelTemplate = kernel ? fn->getDescribedFunctionTemplate() : nullptr;
  const std::string typesTrait = "ldcc_helper_types_" + fname + "_" + std::to_string(sm.getFileOffset(sm.getExpansionLoc(fn->getLocation())));
  std::vector<std::pair<std::string, std::string>> traitTypes;  // (specialization's arguments, its usings)
  std::string traitParams, traitArgs;
  unsigned templatedHelperVars = 0;
  auto reachedType = [&](const Stmt *body, const VarDecl *v) -> std::string {
    const std::set<std::string> types = reachedHelperSharedTypes(body, v, ctx);
    if (types.size() > 1)
      ed.fail("two instantiations of a helper's __shared__ variable (" + v->getNameAsString() + ") in one kernel",
              v->getLocation());
    // Not reached by this instantiation (an `if constexpr` branch): a placeholder it never uses.
    return types.empty() ? "unsigned char[16]" : *types.begin();
  };
  auto templatedHelperType = [&](const VarDecl *v) -> std::string {
    if (!kernelTemplate) return reachedType(fn->getBody(), v);
    if (templatedHelperVars == 0) {
      for (const NamedDecl *param : *kernelTemplate->getTemplateParameters()) {
        std::string decl;
        if (const auto *tp = dyn_cast<TemplateTypeParmDecl>(param); tp && !tp->isParameterPack())
          decl = "typename " + tp->getNameAsString();
        else if (const auto *np = dyn_cast<NonTypeTemplateParmDecl>(param); np && !np->isParameterPack())
          decl = printType(np->getType(), ctx) + " " + np->getNameAsString();
        if (decl.empty() || param->getName().empty())
          ed.fail("a kernel template whose parameters it cannot repeat, reaching a helper template's __shared__ variable",
                  param->getLocation());
        traitParams += (traitParams.empty() ? "" : ", ") + decl;
        traitArgs += (traitArgs.empty() ? "" : ", ") + param->getNameAsString();
      }
      for (const FunctionDecl *instance : kernelTemplate->specializations()) {
        std::string args;
        llvm::raw_string_ostream os(args);
        bool first = true;
        for (const TemplateArgument &a : instance->getTemplateSpecializationArgs()->asArray()) {
          if (!first) os << ", ";
          first = false;
          a.print(ctx.getPrintingPolicy(), os, true);
        }
        traitTypes.emplace_back(os.str(), "");
      }
    }
    const std::string member = "t" + std::to_string(templatedHelperVars++);
    size_t k = 0;
    for (const FunctionDecl *instance : kernelTemplate->specializations())
      traitTypes[k++].second += "using " + member + " = " + reachedType(instance->getBody(), v) + "; ";
    return "typename " + typesTrait + "<" + traitArgs + ">::" + member;
  };
  if (kernel) {
    for (const VarDecl *v : facts.sharedLocals) layout.push_back(v);
    for (const VarDecl *v : facts.sharedGlobals) layout.push_back(v);
    const std::vector<const VarDecl *> accessed = tu.dynamicSharedOf(fn);
    for (const VarDecl *v : accessed) layout.push_back(v);
    const std::vector<const VarDecl *> helpers = tu.helperSharedOf(fn);
    for (const VarDecl *v : helpers) layout.push_back(v);
    if (layout.size() > kMaxSharedTargets)
      ed.fail("more __shared__ variables than the checker supports", fn->getLocation());
    const size_t owned = facts.sharedLocals.size() + facts.sharedGlobals.size();
    for (size_t i = 0; i < layout.size(); ++i) {
      const VarDecl *v = layout[i];
      std::string alias;
      if (i < owned + accessed.size()) {
        alias = "ldcc_shared_type_" + std::to_string(i);
        const std::string offset = "ldcc_ctx.offsets[" + std::to_string(i) + "]";
        if (i < owned) {
          sharedRef(v, sharedNames.at(v), alias, offset);
        } else {
          // Helpers reach an accessor's array through its slot too.
          sharedRef(v, dynamicSharedName(v), alias, offset);
          helperOffsets << "ldcc_bs.helper_off[" << tables.slotOf(v) << "] = " << offset << "; ";
        }
      } else {
        const unsigned slot = tables.slotOf(v);
        const DeclContext *owner = v->getDeclContext();
        while (owner && owner->isFunctionOrMethod()) owner = owner->getParent();
        alias = v->getDeclContext()->isDependentContext() ? templatedHelperType(v)
                                                           : namespacePrefix(owner) + "ldcc_helper_shared_" + std::to_string(slot);
        helperOffsets << "ldcc_bs.helper_off[" << slot << "] = ldcc_ctx.offsets[" << i << "]; ";
      }
      describe << "::ldcc::rt::describe<" << alias << ">(ldcc_ctx.query_out, " << i << "u); ";
      out.targetNames.push_back(v->getNameAsString());
    }
  } else {
    for (const VarDecl *v : facts.sharedLocals) {
      const unsigned slot = tables.slotOf(v);
      const std::string alias = "ldcc_helper_shared_" + std::to_string(slot);
      // A template's kernels name its instantiations' types themselves (templatedHelperType).
      if (!v->getDeclContext()->isDependentContext())
        out.preamble += "using " + alias + " = " + printType(v->getType(), ctx) + "; ";
      sharedRef(v, sharedNames.at(v), alias + "_local", "ldcc_t.bs->helper_off[" + std::to_string(slot) + "]");
    }
    for (const VarDecl *v : facts.dynamicSharedVars()) {
      const std::string slot = std::to_string(tables.slotOf(v));
      sharedRef(v, dynamicSharedName(v), "ldcc_extern_shared_type_" + slot, "ldcc_t.bs->helper_off[" + slot + "]");
    }
    if (!facts.sharedGlobals.empty())
      ed.fail("a file-scope __shared__ variable used in a __device__ function", facts.sharedGlobals[0]->getLocation());
  }

  // --- global memory: pointers rebased and __device__ variables redirected to this unit's copy ------
  auto qualified = [&](const VarDecl *v) { return namespacePrefix(v->getDeclContext()) + v->getNameAsString(); };
  std::ostringstream rebase, symbols;
  if (globals) {
    for (const unsigned i : globals->constParams) {
      const ParmVarDecl *param = fn->getParamDecl(i);
      const std::string name = param->getNameAsString(), renamed = name + "__ldcc_const";
      ed.replaceToken(param->getLocation(), renamed, "a const parameter");
      rebase << "std::remove_const_t<decltype(" << renamed << ")> " << name << " = " << renamed << "; ";
    }
    for (const KernelPointer &p : globals->pointers)
      if (p.assignable) rebase << p.access << " = ::ldcc::rt::global_ptr(ldcc_t, " << p.access << "); ";
    for (const unsigned i : globals->genericParams) {
      const ParmVarDecl *param = fn->getParamDecl(i);
      rebase << (param->isParameterPack() ? "(" : "") << "::ldcc::rt::rebase_param(ldcc_t, " << param->getNameAsString()
             << (param->isParameterPack() ? "), ...); " : "); ");
    }
    for (size_t i = 0; i < globals->deviceVars.size(); ++i)
      symbols << "::ldcc::rt::describe_symbol(ldcc_ctx.query_out, " << i << "u, &" << qualified(globals->deviceVars[i])
              << "); ";
  }
  for (const VarDecl *v : facts.deviceVars)
    rebase << "auto& " << v->getNameAsString() << " = *::ldcc::rt::global_ptr(ldcc_t, &" << qualified(v) << "); ";

  // --- memory hooks ------------------------------------------------------------------------------
  for (const Expr *lhs : facts.hookedStores) {
    ed.insertBefore(lhs->getBeginLoc(), "(*::ldcc::rt::store(ldcc_t, &(", "a store");
    ed.insertAfterToken(lhs->getEndLoc(), ")))", "a store");
  }
  // A call of the runtime's objects in place of the callee's name and qualifier.
  auto replaceCallee = [&](const CallExpr *call, const std::string &text, const char *what) {
    if (const SourceRange qualifier = calleeQualifier(call); qualifier.isValid()) ed.replace(qualifier, "", what);
    ed.replaceToken(calleeNameLoc(call), text, what);
  };
  for (const CallExpr *call : facts.atomics)
    replaceCallee(call, "::ldcc::rt::AtomicCall{ldcc_t}." + calleeName(call), "an atomic operation");
  for (const CallExpr *call : facts.clocks)
    replaceCallee(call, "::ldcc::rt::ClockCall{ldcc_t}." + calleeName(call), "a clock read");
  for (const CallExpr *call : facts.printfs) replaceCallee(call, "::ldcc::rt::PrintfCall{ldcc_t}.printf", "printf");
  auto redirectCall = [&](const CallExpr *call, const FunctionDecl *callee) {
    const SourceLocation name = calleeNameLoc(call);
    if (name.isInvalid()) return ed.fail("a call it cannot redirect to the checked function", call->getBeginLoc());
    ed.replaceToken(name, cloneName(callee, kind), "a call");
    if (call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(call->getArg(0)))
      return ed.insertBefore(call->getArg(0)->getBeginLoc(), "ldcc_t, ", "a call");
    return ed.insertBefore(call->getRParenLoc(), "ldcc_t", "a call");
  };
  // Hoisted helper calls (HelperCall::hoisted): redirected, and their text taken and replaced by their
  // temporary, before the calls around them are redirected (an outer call's `ldcc_t, ` would go into
  // the text) and after the calls inside them are.
  std::map<const CallExpr *, std::pair<std::string, std::string>> hoistedCalls;  // temporary, call text
  std::set<const CallExpr *> redirected;
  if (checked)
    for (const HelperCall &h : facts.helperCalls) {
      if (!h.hoisted) continue;
      for (const CallExpr *call : facts.clonedCalls)
        if (ed.covers(h.call->getSourceRange(), call->getBeginLoc()) && ed.covers(h.call->getSourceRange(), call->getEndLoc()) &&
            redirected.insert(call).second)
          redirectCall(call, tu.userCallee(call));
      redirectCall(h.call, h.callee);
      const std::string value = "ldcc_call_" + std::to_string(hoistedCalls.size());
      hoistedCalls[h.call] = {value, ed.text(h.call->getSourceRange())};
      ed.replace(h.call->getSourceRange(), value, "a call");
    }
  for (const CallExpr *call : facts.clonedCalls)
    if (!redirected.count(call)) redirectCall(call, tu.userCallee(call));
  if (!checked)
    for (const HelperCall &h : facts.helperCalls) redirectCall(h.call, h.callee);

  // --- sites (the checked clone's) ---------------------------------------------------------------
  // A jump back into an `if constexpr` branch is ill-formed: such ifs around a site become plain
  // ifs (their condition is a constant either way).
  std::set<const IfStmt *> constexprIfs;
  auto unconstexpr = [&](const Stmt *site) {
    for (const Stmt *node = site;;) {
      DynTypedNodeList parents = ctx.getParents(*node);
      const Stmt *p = parents.empty() ? nullptr : parents[0].get<Stmt>();
      if (!p) return;
      if (const auto *is = dyn_cast<IfStmt>(p); is && is->isConstexpr() && constexprIfs.insert(is).second) {
        std::optional<Token> tok = Lexer::findNextToken(is->getIfLoc(), sm, ctx.getLangOpts());
        if (tok && tok->is(tok::raw_identifier) && tok->getRawIdentifier() == "constexpr") ed.replaceToken(tok->getLocation(), "", "if constexpr");
      }
      node = p;
    }
  };
  const std::vector<Barrier> noBarriers;
  const std::vector<HelperCall> noHelperCalls;
  const std::vector<Barrier> &barriers = checked ? facts.barriers : noBarriers;
  const std::vector<HelperCall> &helperCalls = checked ? facts.helperCalls : noHelperCalls;
  for (const Barrier &b : barriers) unconstexpr(b.statement);
  for (const HelperCall &h : helperCalls) unconstexpr(h.statement);
  std::vector<unsigned> resumeSites;  // sites a rewind may jump back to
  for (const Barrier &b : barriers) {
    const unsigned id = tables.addSite(sm, b.call->getBeginLoc(), b.what);
    resumeSites.push_back(id);
    if (b.kind == BarrierKind::Plain) {
      ed.replace(ed.statementRange(b.statement), siteCode(id), "a barrier");
      continue;
    }
    const std::string pred = ed.text(b.predicate->getSourceRange());
    ed.replace(b.call->getSourceRange(), barrierResult(b.kind), "a barrier");
    const std::string site = "{ ldcc_t.bar_pred = (" + pred + "); " + siteCode(id) + " }";
    if (b.inWhileCondition) {
      const auto *ws = cast<WhileStmt>(b.statement);
      const std::string cond = ed.text(ws->getCond()->getSourceRange());
      ed.replace(SourceRange(ws->getWhileLoc(), ws->getRParenLoc()), "for (;;)", "a loop");
      ed.insertAfterToken(cast<CompoundStmt>(ws->getBody())->getLBracLoc(), " " + site + " if (!(" + cond + ")) break;",
                          "a loop");
      continue;
    }
    insertBeforeStatement(ed, ctx, b.statement, site, "a barrier");
  }
  std::map<const Stmt *, std::string> hoistedBefore;  // what goes before a statement with hoisted calls
  for (const HelperCall &h : helperCalls) {
    const unsigned before = tables.addSite(sm, h.call->getBeginLoc(), "call of " + h.callee->getNameAsString());
    const unsigned after = tables.addSite(sm, h.call->getBeginLoc(), "return from " + h.callee->getNameAsString());
    resumeSites.push_back(before);
    resumeSites.push_back(after);
    const std::string resume =
        " ldcc_t.open = " + std::to_string(after) + "u; ldcc_save(ldcc_ck); ldcc_resume_" + std::to_string(after) + ":;";
    if (!h.hoisted) {
      redirectCall(h.call, h.callee);
      ed.insertBefore(h.statement->getBeginLoc(), siteCode(before) + " ", "a call");
      ed.insertAfterToken(ed.statementEnd(h.statement), resume, "a call");
      continue;
    }
    // The call's value goes to a temporary of the frame in a statement of its own; the statement
    // reads it after the resume point, so a re-execution runs the rest of it again.
    const auto &[value, callText] = hoistedCalls.at(h.call);
    hoisted << "::ldcc::rt::type_t<" << printType(h.call->getType().getUnqualifiedType(), ctx) << "> " << value << "{}; ";
    frame.push_back(FrameEntry{value, compareId("the value of " + h.callee->getNameAsString() + "(...)")});
    hoistedBefore[h.statement] += siteCode(before) + " " + value + " = " + callText + ";" + resume + " ";
  }
  // One insertion per statement: its calls in source order (insertions at one place go before earlier ones).
  for (const auto &[statement, code] : hoistedBefore) ed.insertBefore(statement->getBeginLoc(), code, "a call");
  unsigned entry = 0, exitSite = 0;
  const auto *body = cast<CompoundStmt>(fn->getBody());
  if (kernel && checked) {
    entry = tables.addSite(sm, fn->getLocation(), "kernel entry");
    exitSite = tables.addSite(sm, body->getRBracLoc(), "kernel exit");
    for (const ReturnStmt *r : facts.returns) ed.replace(ed.statementRange(r), "goto ldcc_exit;", "a return");
  } else if (synchronizing) {
    entry = tables.addSite(sm, fn->getLocation(), "entry of " + fname);
    for (const ReturnStmt *r : facts.returns) {
      if (r->getRetValue() && r->getRetValue()->HasSideEffects(ctx, false)) {
        ed.fail("a return value with side effects in a function that synchronizes", r->getBeginLoc());
        continue;
      }
      const unsigned id = tables.addSite(sm, r->getBeginLoc(), "return from " + fname);
      insertBeforeStatement(ed, ctx, r, siteCode(id, false), "a return");
    }
  }

  // --- prologue and epilogue ---------------------------------------------------------------------
  std::ostringstream pro, epi;
  if (kernel) {
    pro << " __shared__ ::ldcc::rt::BlockState ldcc_bs; extern __shared__ __align__(16) unsigned char "
           "ldcc_dynamic_shared[]; ";
    // The aliases come first: the query describes them before anything else runs.
    pro << aliases.str();
    if (checked)
      pro << "if (ldcc_ctx.query_out) { if (::ldcc::rt::thread_rank() == 0 && ::ldcc::rt::block_rank() == 0) { "
          << "ldcc_ctx.query_out[0] = " << layout.size() << "ull; ldcc_ctx.query_out[1] = " << ((entry << 16) | exitSite)
          << "ull; " << describe.str() << symbols.str() << "} return; } ";
    pro << helperOffsets.str() << stateType(kind) << " ldcc_t; ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, "
        << "ldcc_dynamic_shared, " << entry << "u); ";
    // The parameters this thread loaded through since its last site (what `arrive` takes).
    if (knownLoads) pro << "unsigned ldcc_loaded = " << alwaysLoaded << "; ";
  }
  if (!kernel) {
    if (!checked && (!facts.sharedLocals.empty() || !facts.dynamicSharedUses.empty()))
      pro << "extern __shared__ __align__(16) unsigned char ldcc_dynamic_shared[]; ";
    pro << aliases.str();
  }
  pro << rebase.str();
  pro << shared.str() << moved.str() << hoisted.str();
  if (synchronizing) {
    std::ostringstream fr, save, load, cmp;
    fr << "struct ldcc_frame { ";
    for (const FrameEntry &e : frame) {
      const std::string &name = e.name, &id = e.compareId;
      if (e.pack) {
        fr << "::ldcc::rt::PackFrame<decltype(" << name << ")...> " << name << "; ";
        save << "f." << name << ".save(" << name << "...); ";
        load << "f." << name << ".load(" << name << "...); ";
        if (!id.empty()) cmp << "f." << name << ".compare(ldcc_t, " << id << "u, " << name << "...); ";
        continue;
      }
      fr << "decltype(" << name << ") " << name << "; ";
      save << "::ldcc::rt::assign(f." << name << ", " << name << "); ";
      load << "::ldcc::rt::assign(" << name << ", f." << name << "); ";
      if (!id.empty()) cmp << "::ldcc::rt::compare_local(ldcc_t, " << id << "u, f." << name << ", " << name << "); ";
    }
    fr << "} ldcc_ck, ldcc_p1; ";
    pro << fr.str() << "auto ldcc_save = [&](ldcc_frame& f) { " << save.str() << "}; "
        << "auto ldcc_load = [&](const ldcc_frame& f) { " << load.str() << "}; "
        << "auto ldcc_compare = [&](const ldcc_frame& f) { " << cmp.str() << "}; "
        << "auto ldcc_site = [&](unsigned ldcc_s) -> int { const int ldcc_a = ::ldcc::rt::arrive(ldcc_t, ldcc_s"
        << (knownLoads ? ", ldcc_loaded); ldcc_loaded = " + alwaysLoaded + "; " : "); ")
        << "if (ldcc_a == ::ldcc::rt::kRewind) { ldcc_save(ldcc_p1); ldcc_load(ldcc_ck); ldcc_t.at_exit = false; "
           "return ldcc_a; } if (ldcc_t.compare) ldcc_compare(ldcc_p1); ldcc_save(ldcc_ck); return ldcc_a; }; ";
    if (!kernel) pro << "ldcc_t.open = " << entry << "u; ";
    pro << "ldcc_save(ldcc_ck); (void)ldcc_load; (void)ldcc_compare; ";
    pro << "if (false) { ldcc_dispatch: switch (ldcc_t.open) { ";
    for (unsigned id : resumeSites) pro << "case " << id << "u: goto ldcc_resume_" << id << "; ";
    if (kernel) pro << "case " << exitSite << "u: goto ldcc_exit; ";
    pro << "default: goto ldcc_resume_" << entry << "; } } ldcc_resume_" << entry << ":; ";
  }
  pro << "{";
  epi << "} ";
  if (kernel && checked) {
    epi << "ldcc_exit: ldcc_t.at_exit = true; for (;;) { const int ldcc_a = ldcc_site(" << exitSite
        << "u); if (ldcc_a == ::ldcc::rt::kDone) return; if (ldcc_a == ::ldcc::rt::kRewind) goto ldcc_dispatch; } ";
  } else if (synchronizing && fn->getReturnType()->isVoidType()) {
    const unsigned id = tables.addSite(sm, body->getRBracLoc(), "return from " + fname);
    epi << siteCode(id, false) << " ";
  }
  ed.insertAfterToken(body->getLBracLoc(), pro.str(), "the function body");
  ed.insertBefore(body->getRBracLoc(), epi.str(), "the function body");

  const std::string typesText = [&] {
    if (!checked || templatedHelperVars == 0) return std::string();
    std::string text = "template <" + traitParams + "> struct " + typesTrait + "; ";
    for (const auto &[args, usings] : traitTypes) text += "template <> struct " + typesTrait + "<" + args + "> { " + usings + "}; ";
    return text;
  }();
  if (ed.refusal.refused()) return failed();
  out.text = ed.text(wholeDefinition(fn));
  if (kernel && checked && !shared.str().empty()) {
    // The same clone, renamed, with its shared variables in this warp's copy in dynamic shared memory.
    // The name is the clone's first whole-word occurrence (the signature: `k (` and `k /*...*/ (` too);
    // where it or the references are not found, the kernel keeps the generic clone alone.
    const std::string name = cloneName(fn, CloneKind::Checked);
    size_t at = out.text.find(name);
    while (at != std::string::npos && at + name.size() < out.text.size() && isAsciiIdentifierContinue(out.text[at + name.size()]))
      at = out.text.find(name, at + 1);
    const size_t refs = out.text.find(shared.str());
    if (at != std::string::npos && refs != std::string::npos && at < refs) {
      out.inSharedText = out.text;
      out.inSharedText.replace(refs, shared.str().size(), sharedInShared.str());
      out.inSharedText.replace(at, name.size(), cloneName(fn, CloneKind::CheckedInShared));
    }
  }
  // Before the clone, after the in-shared copy is taken from it (one trait for both).
  out.text = typesText + out.text;
  return out;
}

std::string writeClonePrototype(const FunctionDecl *decl, bool isKernel, ASTContext &ctx, Refusal &refusal,
                                CloneKind kind, unsigned maxThreads) {
  CloneEditor ed(ctx);
  editSignature(ed, decl, isKernel, maxThreads, kind);
  if (ed.refusal.refused()) {
    refusal = ed.refusal;
    return "";
  }
  return ed.text(wholeDefinition(decl)) + ";";
}

}  // namespace ldcc::translator
