// Translation of one CUDA file: parse with clang (device side), analyse every user kernel and
// device function, write the checked clones next to their originals, route kernel launches through
// the runtime, and prepend the tables the runtime reports with.
#include "rewrite/Translate.h"

#include "frontend/DiagnosticCollector.h"
#include "rewrite/AffineProof.h"
#include "rewrite/CloneWriter.h"
#include "rewrite/FunctionAnalysis.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

using namespace clang;

namespace ldcc::translator {
namespace {

std::string cString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

frontend::SourcePos position(const SourceManager &sm, SourceLocation loc) {
  frontend::SourcePos pos;
  const PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isValid()) {
    pos.file = p.getFilename();
    pos.line = p.getLine();
    pos.column = p.getColumn();
  }
  return pos;
}

struct KernelRecord {
  const FunctionDecl *fn = nullptr;
  std::string descName;
  bool checked = false;
  Refusal refusal;
  std::vector<std::string> targets;
  KernelGlobals globals;
  Refusal warpTurns;  // see TranslationUnitAnalysis::warpTurnsReason
  bool atomics = false;  // its clone makes atomic operations
  bool inShared = false;  // it has a CheckedInShared clone (it has shared variables)
  AffineProof proof;      // a checked kernel's launch-time proof of race freedom, if its accesses allow one
};

class Translator {
public:
  Translator(ASTContext &ctx, const TranslateOptions &opts, TranslateResult &result)
      : ctx_(ctx), sm_(ctx.getSourceManager()), opts_(opts), result_(result), rw_(sm_, ctx.getLangOpts()) {}

  void run() {
    TranslationUnitAnalysis tu(ctx_);
    findBlockBounds();
    const GlobalTargetAnalysis globalTargets(ctx_, tu);  // may refuse functions: before any clone
    // Helpers first: a kernel whose helper could not be cloned runs unchecked.
    std::set<const FunctionDecl *> failedHelpers;
    for (const FunctionFacts &f : tu.functions()) {
      if (f.isKernel || !tu.needsClone(f.fn)) continue;
      if (f.refusal.refused()) {
        failedHelpers.insert(f.fn);
        helperRefusal_[f.fn] = f.refusal;
        continue;
      }
      CloneText clone = writeClone(f, tu, tables_, ctx_, CloneKind::Checked);
      CloneText blocks = clone.refusal.refused() ? CloneText{} : writeClone(f, tu, tables_, ctx_, CloneKind::Blocks);
      if (clone.refusal.refused() || blocks.refusal.refused()) {
        failedHelpers.insert(f.fn);
        helperRefusal_[f.fn] = clone.refusal.refused() ? clone.refusal : blocks.refusal;
        continue;
      }
      insertClone(f.fn, clone.preamble + clone.text);
      insertClone(f.fn, blocks.text);
      if (!isa<CXXMethodDecl>(f.fn)) insertPrototype(f.fn, {CloneKind::Checked, CloneKind::Blocks}, false);
    }
    for (const FunctionFacts &f : tu.functions()) {
      if (!f.isKernel) continue;
      dropPackConst(f.fn);
      KernelRecord k;
      k.fn = f.fn;
      k.descName = "ldcc_desc_" + std::to_string(kernels_.size());
      k.refusal = f.refusal;
      if (!k.refusal.refused()) k.refusal = reachesFailedHelper(tu, f.fn, failedHelpers);
      if (!k.refusal.refused()) {
        k.globals = globalTargets.of(f);
        k.refusal = k.globals.refusal;
      }
      if (!k.refusal.refused()) {
        k.warpTurns = tu.warpTurnsReason(f.fn);
        k.atomics = tu.makesAtomics(f.fn);
        CloneText clone = writeClone(f, tu, tables_, ctx_, CloneKind::Checked, &k.globals, blockBound(f.fn));
        k.refusal = clone.refusal;
        CloneText blocks;
        if (!k.refusal.refused()) {
          blocks = writeClone(f, tu, tables_, ctx_, CloneKind::Blocks, &k.globals, blockBound(f.fn));
          k.refusal = blocks.refusal;
        }
        if (!k.refusal.refused()) {
          k.checked = true;
          k.proof = proveAffine(ctx_, f.fn, k.descName + "_proof");
          k.inShared = !clone.inSharedText.empty();
          k.targets = clone.targetNames;
          insertClone(f.fn, clone.text);
          if (k.inShared) insertClone(f.fn, clone.inSharedText);
          insertClone(f.fn, blocks.text);
          if (k.inShared) insertPrototype(f.fn, {CloneKind::Checked, CloneKind::CheckedInShared, CloneKind::Blocks}, true);
          else insertPrototype(f.fn, {CloneKind::Checked, CloneKind::Blocks}, true);
        }
      }
      if (k.refusal.refused()) {
        UncheckedKernel u;
        u.kernel = f.fn->getQualifiedNameAsString();
        u.pos = position(sm_, k.refusal.where);
        u.reason = k.refusal.reason;
        result_.unchecked.push_back(u);
      } else {
        ++result_.checkedKernels;
      }
      kernelIndex_[f.fn] = kernels_.size();
      kernels_.push_back(k);
    }
    rewriteLaunches();
    assemble();
  }

private:
  Refusal reachesFailedHelper(const TranslationUnitAnalysis &tu, const FunctionDecl *kernel,
                              const std::set<const FunctionDecl *> &failed) {
    std::set<const FunctionDecl *> seen;
    std::vector<const FunctionDecl *> todo{kernel};
    while (!todo.empty()) {
      const FunctionDecl *fn = todo.back();
      todo.pop_back();
      if (!seen.insert(fn).second) continue;
      const FunctionFacts *f = tu.facts(fn);
      if (!f) continue;
      auto visit = [&](const CallExpr *call, const FunctionDecl *callee) -> Refusal {
        if (!callee) return {};
        if (failed.count(callee)) {
          const Refusal &why = helperRefusal_[callee];
          return Refusal{"it calls " + callee->getNameAsString() + ", which cannot be checked: " + why.reason + " (line " +
                             std::to_string(position(sm_, why.where).line) + ")",
                         call->getBeginLoc()};
        }
        todo.push_back(callee);
        return {};
      };
      for (const HelperCall &h : f->helperCalls)
        if (Refusal r = visit(h.call, h.callee); r.refused()) return r;
      for (const CallExpr *c : f->clonedCalls)
        if (Refusal r = visit(c, tu.userCallee(c)); r.refused()) return r;
    }
    return {};
  }

  // The clone goes right after the original definition in the main file; a definition from a
  // header gets its clone after the #include line that brought it in.
  void insertClone(const FunctionDecl *fn, const std::string &text) {
    const SourceRange whole = wholeDefinition(fn);
    const SourceLocation begin = sm_.getExpansionLoc(whole.getBegin());
    const SourceLocation end = sm_.getExpansionLoc(whole.getEnd());
    const PresumedLoc start = sm_.getPresumedLoc(begin);
    const std::string lineStart = "\n#line " + std::to_string(start.getLine()) + " " + cString(start.getFilename()) + "\n";
    if (sm_.isWrittenInMainFile(end)) {
      const PresumedLoc stop = sm_.getPresumedLoc(end);
      rw_.InsertTextAfterToken(end, lineStart + text + "\n#line " + std::to_string(stop.getLine()) + " " +
                                        cString(stop.getFilename()) + "\n");
      return;
    }
    // From a header: find the main-file #include that (transitively) included it.
    FileID fid = sm_.getFileID(end);
    SourceLocation include;
    while (fid.isValid() && fid != sm_.getMainFileID()) {
      include = sm_.getIncludeLoc(fid);
      fid = include.isValid() ? sm_.getFileID(include) : FileID();
    }
    if (include.isInvalid()) return;
    // Insert at the start of the line after the directive.
    const unsigned offset = sm_.getFileOffset(include);
    const llvm::StringRef buffer = sm_.getBufferData(sm_.getMainFileID());
    const size_t eol = buffer.find('\n', offset);
    if (eol == llvm::StringRef::npos) return;
    const SourceLocation next = sm_.getLocForStartOfFile(sm_.getMainFileID()).getLocWithOffset(eol + 1);
    const unsigned nextLine = sm_.getPresumedLoc(next).getLine();
    rw_.InsertTextBefore(next, lineStart.substr(1) + text + "\n#line " + std::to_string(nextLine) + " " +
                                   cString(sm_.getPresumedLoc(next).getFilename()) + "\n");
  }

  // A kernel's `const Ps... xs` loses its const (constTemplatePack) in every declaration of it that the
  // main file has (a pack makes the kernel a function template).
  void dropPackConst(const FunctionDecl *fn) {
    const FunctionTemplateDecl *ft = fn->getDescribedFunctionTemplate();
    if (!ft) return;
    for (const ParmVarDecl *param : fn->parameters()) {
      if (!constTemplatePack(param)) continue;
      for (const RedeclarableTemplateDecl *redecl : ft->redecls()) {
        const FunctionDecl *d = cast<FunctionTemplateDecl>(redecl)->getTemplatedDecl();
        const ParmVarDecl *same = d->getParamDecl(param->getFunctionScopeIndex());
        const SourceLocation begin = same->getBeginLoc(), name = same->getLocation();
        if (!begin.isFileID() || !name.isFileID() || !sm_.isWrittenInMainFile(begin)) continue;
        for (const SourceLocation at : constTokens(sm_, ctx_.getLangOpts(), begin, name)) rw_.RemoveText(at, 5);
      }
    }
  }

  // A kernel declared before its definition may be launched before it, and a helper called before it:
  // declare the clones (of the given kinds) there too.
  void insertPrototype(const FunctionDecl *fn, std::initializer_list<CloneKind> kinds, bool isKernel) {
    const FunctionDecl *first = fn->getFirstDecl();
    if (const FunctionTemplateDecl *ft = fn->getDescribedFunctionTemplate())
      first = ft->getCanonicalDecl()->getTemplatedDecl();
    if (first == fn || first->doesThisDeclarationHaveABody()) return;
    const SourceRange whole = wholeDefinition(first);
    const SourceLocation end = sm_.getExpansionLoc(whole.getEnd());
    if (!sm_.isWrittenInMainFile(end)) return;
    Refusal ignored;
    std::string proto;
    for (CloneKind kind : kinds) {
      const std::string one = writeClonePrototype(first, isKernel, ctx_, ignored, kind, blockBound(fn));
      if (one.empty()) return;
      proto += (proto.empty() ? "" : " ") + one;
    }
    for (char &c : proto)
      if (c == '\n') c = ' ';
    std::optional<Token> semi = Lexer::findNextToken(end, sm_, ctx_.getLangOpts());
    if (semi && semi->is(tok::semi)) rw_.InsertTextAfterToken(semi->getLocation(), " " + proto);
  }

  // Every kernel launch as written (template patterns, not their instantiations).
  std::vector<const CUDAKernelCallExpr *> launches() {
    struct Launches : RecursiveASTVisitor<Launches> {
      bool shouldVisitTemplateInstantiations() const { return false; }
      bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *call) {
        list.push_back(call);
        return true;
      }
      std::vector<const CUDAKernelCallExpr *> list;
    } visitor;
    visitor.TraverseDecl(ctx_.getTranslationUnitDecl());
    return visitor.list;
  }

  void rewriteLaunches() {
    for (const CUDAKernelCallExpr *call : launches()) rewriteLaunch(call);
    warnRuntimeApiLaunches();
  }

  // cudaLaunchKernel(k, ...) and its kin take the kernel's address: a launch the translation cannot
  // redirect to the checked clones.
  void warnRuntimeApiLaunches() {
    struct Calls : RecursiveASTVisitor<Calls> {
      bool VisitCallExpr(CallExpr *call) {
        const FunctionDecl *fd = call->getDirectCallee();
        const std::string name = fd && fd->getIdentifier() ? fd->getName().str() : "";
        if (name.rfind("cudaLaunchKernel", 0) == 0 || name.rfind("cudaLaunchCooperativeKernel", 0) == 0)
          found.push_back({call, name});
        return true;
      }
      std::vector<std::pair<const CallExpr *, std::string>> found;
    } calls;
    calls.TraverseDecl(ctx_.getTranslationUnitDecl());
    for (const auto &[call, name] : calls.found)
      if (sm_.isWrittenInMainFile(sm_.getExpansionLoc(call->getBeginLoc())))
        warnLaunch(call, "a launch through " + name + " runs unchecked (launch with <<<...>>> to check it)",
                   call->getNumArgs() > 0 ? kernelNamed(call->getArg(0)) : "");
  }

  // The kernel an address names (`(const void*)k`, `&k`, `k<float>`), or "".
  static std::string kernelNamed(const Expr *e) {
    e = e->IgnoreParenCasts();
    if (const auto *address = dyn_cast<UnaryOperator>(e); address && address->getOpcode() == UO_AddrOf)
      e = address->getSubExpr()->IgnoreParenCasts();
    const auto *ref = dyn_cast<DeclRefExpr>(e);
    const auto *fn = ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
    return fn ? fn->getNameAsString() : "";
  }

  std::string text(SourceRange r) {
    CharSourceRange fr = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
    return fr.isValid() ? Lexer::getSourceText(fr, sm_, ctx_.getLangOpts()).str() : "";
  }

  // `kernel`: the launched kernel's name where the launch names one.
  void warnLaunch(const CallExpr *call, const std::string &why, const std::string &kernel = "") {
    UncheckedKernel u;
    u.kernel = kernel.empty() ? "(launch)" : kernel;
    u.pos = position(sm_, call->getBeginLoc());
    u.reason = why;
    result_.unchecked.push_back(u);
  }

  // What a launch names: the kernel's definition (null through a function pointer) and how.
  struct LaunchTarget {
    const NamedDecl *named = nullptr;
    SourceLocation nameLoc;
    bool explicitArgs = false;
    const FunctionDecl *def = nullptr;
  };
  LaunchTarget launchTarget(const CUDAKernelCallExpr *call) {
    LaunchTarget t;
    const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
    if (const auto *ref = dyn_cast<DeclRefExpr>(callee)) {
      t.named = ref->getDecl();
      t.nameLoc = ref->getNameInfo().getLoc();
      t.explicitArgs = ref->hasExplicitTemplateArgs();
    } else if (const auto *ul = dyn_cast<UnresolvedLookupExpr>(callee)) {
      t.nameLoc = ul->getNameLoc();
      t.explicitArgs = ul->hasExplicitTemplateArgs();
      for (const NamedDecl *d : ul->decls()) t.named = d->getUnderlyingDecl();
    }
    if (!t.named) return t;
    const FunctionDecl *fn = call->getDirectCallee() ? call->getDirectCallee() : dyn_cast<FunctionDecl>(t.named);
    if (!fn)
      if (const auto *ft = dyn_cast<FunctionTemplateDecl>(t.named)) fn = ft->getTemplatedDecl();
    t.def = fn ? definitionOf(fn) : nullptr;
    return t;
  }

  // Threads per block of a launch configuration when they are a constant: an integer, dim3(x, y, z)
  // of integers, or a const variable holding one.
  std::optional<uint64_t> constantThreads(const Expr *e) {
    if (!e || e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
    e = e->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit();
    if (const auto *c = dyn_cast<CXXConstructExpr>(e)) {
      if (c->getNumArgs() == 1 && c->getArg(0)->getType()->isRecordType()) return constantThreads(c->getArg(0));
      uint64_t n = 1;
      for (const Expr *a : c->arguments()) {
        if (isa<CXXDefaultArgExpr>(a)) continue;
        if (a->isValueDependent()) return std::nullopt;
        std::optional<llvm::APSInt> v = a->getIntegerConstantExpr(ctx_);
        if (!v) return std::nullopt;
        n *= v->getZExtValue();
      }
      return n;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(e))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var->getType().isConstQualified() && var->getInit()) return constantThreads(var->getInit());
    if (e->getType()->isIntegralOrEnumerationType())
      if (std::optional<llvm::APSInt> v = e->getIntegerConstantExpr(ctx_)) return v->getZExtValue();
    return std::nullopt;
  }

  // Per kernel, the most threads a block of its launches in this file has when all are constants:
  // the clone's __launch_bounds__ (writeClone). Unknown ones (and kernels launched elsewhere) get 1024.
  void findBlockBounds() {
    std::set<const FunctionDecl *> unknown;
    for (const CUDAKernelCallExpr *call : launches()) {
      const LaunchTarget t = launchTarget(call);
      if (!t.def) continue;
      const CallExpr *config = call->getConfig();
      std::optional<uint64_t> threads = config && config->getNumArgs() > 1 ? constantThreads(config->getArg(1)) : std::nullopt;
      if (!threads || *threads == 0 || *threads > 1024) unknown.insert(t.def);
      else blockBound_[t.def] = std::max<unsigned>(blockBound_[t.def], unsigned(*threads));
    }
    for (const FunctionDecl *def : unknown) blockBound_.erase(def);
  }
  unsigned blockBound(const FunctionDecl *fn) {
    auto it = blockBound_.find(definitionOf(fn));
    return it == blockBound_.end() ? 1024u : it->second;
  }

  void rewriteLaunch(const CUDAKernelCallExpr *call) {
    if (!sm_.isWrittenInMainFile(sm_.getExpansionLoc(call->getBeginLoc()))) return;
    const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
    const FunctionDecl *target = call->getDirectCallee();
    const auto [named, nameLoc, explicitArgs, def] = launchTarget(call);
    if (!named || !isa<FunctionDecl, FunctionTemplateDecl>(named))
      return warnLaunch(call, "a launch through a function pointer runs unchecked");
    auto it = kernelIndex_.find(def);
    if (it == kernelIndex_.end()) {
      // A kernel from a system header runs native, silently; the program's own, defined elsewhere, with a
      // warning: only the file that defines a kernel has its checked clones.
      if (!sm_.isInSystemHeader(named->getLocation()))
        warnLaunch(call,
                   "a launch of a kernel not defined in this file runs unchecked (ldcc checks a kernel's launches in "
                   "the file that defines it)",
                   named->getNameAsString());
      return;
    }
    const KernelRecord &k = kernels_[it->second];

    std::string calleeText = text(callee->getSourceRange());
    std::string nameText = named->getNameAsString();
    if (!explicitArgs && def->getDescribedFunctionTemplate()) {
      if (!target || !target->getTemplateSpecializationArgs())
        return warnLaunch(call,
                          "a launch of a kernel template with deduced template arguments inside a template runs "
                          "unchecked; write them explicitly (" + nameText + "<...><<<...>>>)",
                          nameText);
      std::string args;
      llvm::raw_string_ostream os(args);
      PrintingPolicy pp(ctx_.getLangOpts());
      pp.SuppressUnwrittenScope = true;
      pp.FullyQualifiedName = true;
      printTemplateArgumentList(os, target->getTemplateSpecializationArgs()->asArray(), pp);
      calleeText += os.str();
    }
    const CharSourceRange calleeRange =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(callee->getSourceRange()), sm_, ctx_.getLangOpts());
    const unsigned nameOffset = sm_.getFileOffset(sm_.getExpansionLoc(nameLoc)) - sm_.getFileOffset(calleeRange.getBegin());
    if (nameOffset + nameText.size() > calleeText.size() || calleeText.compare(nameOffset, nameText.size(), nameText) != 0)
      return warnLaunch(call, "a launch it cannot rewrite", nameText);
    auto cloneText = [&](CloneKind kind) {
      return std::string(calleeText).replace(nameOffset, nameText.size(), cloneName(def, kind));
    };

    const CallExpr *config = call->getConfig();
    auto configArg = [&](unsigned i, const char *fallback) -> std::string {
      if (!config || i >= config->getNumArgs() || isa<CXXDefaultArgExpr>(config->getArg(i))) return fallback;
      return text(config->getArg(i)->getSourceRange());
    };
    std::string args;
    for (const Expr *arg : call->arguments()) {
      if (isa<CXXDefaultArgExpr>(arg))
        return warnLaunch(call, "a launch relying on default arguments runs unchecked", nameText);
      args += ", " + text(arg->getSourceRange());
    }
    std::string replacement;
    if (k.checked)
      replacement = "::ldcc::rt::launch(::" + k.descName + ", " + calleeText + ", " + cloneText(CloneKind::Checked) + ", " +
                    (k.inShared ? cloneText(CloneKind::CheckedInShared) : std::string("nullptr")) + ", " +
                    cloneText(CloneKind::Blocks) + ", " + configArg(0, "1") +
                    ", " + configArg(1, "1") + ", " + configArg(2, "0") + ", " + configArg(3, "0") + args + ")";
    else
      replacement = "::ldcc::rt::launch_unchecked(::" + k.descName + ", " + calleeText + ", " + configArg(0, "1") + ", " +
                    configArg(1, "1") + ", " + configArg(2, "0") + ", " + configArg(3, "0") + args + ")";
    const CharSourceRange whole =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(call->getSourceRange()), sm_, ctx_.getLangOpts());
    if (whole.isInvalid()) return warnLaunch(call, "a launch inside a macro runs unchecked", nameText);
    rw_.ReplaceText(whole, replacement);
  }

  void assemble() {
    std::ostringstream head;
    head << "#include <ldcc/translated.cuh>\n";
    head << "[[maybe_unused]] static const ::ldcc::rt::SiteDesc ldcc_sites[] = {";
    for (const auto &s : tables_.sites)
      head << "{" << cString(s.file) << ", " << s.line << ", " << s.column << ", " << cString(s.what) << "}, ";
    if (tables_.sites.empty()) head << "{\"\", 0, 0, \"\"}";
    head << "};\n[[maybe_unused]] static const char* const ldcc_locals[] = {";
    for (const auto &l : tables_.locals) head << cString(l) << ", ";
    head << "nullptr};\n";
    for (const KernelRecord &k : kernels_) {
      head << "[[maybe_unused]] static const char* const " << k.descName << "_targets[] = {";
      for (const auto &t : k.targets) head << cString(t) << ", ";
      head << "nullptr};\n";
      // Written global memory: pointers (parameter, byte offset in it) and __device__ variables
      // (parameter -1, their index in the clone's query).
      head << "[[maybe_unused]] static const ::ldcc::rt::GlobalDesc " << k.descName << "_globals[] = {";
      unsigned numGlobals = 0;
      for (const KernelPointer &p : k.globals.pointers) {
        if (!p.written || p.offset < 0 || !p.assignable) continue;
        head << "{" << cString(p.access) << ", " << p.param << ", " << p.offset << "ull, " << p.elementSize << "ull, "
             << (p.writeOnly ? "true" : "false") << ", " << (p.updatedInPlace ? "true" : "false") << "}, ";
        ++numGlobals;
      }
      for (size_t i = 0; i < k.globals.deviceVars.size(); ++i) {
        const VarDecl *v = k.globals.deviceVars[i];
        const QualType element = ctx_.getBaseElementType(v->getType());
        const unsigned long long size = element->isDependentType() || element->isIncompleteType()
                                            ? 0
                                            : ctx_.getTypeSizeInChars(element).getQuantity();
        head << "{" << cString(v->getNameAsString()) << ", -1, " << i << "ull, " << size << "ull, false, false}, ";
        ++numGlobals;
      }
      head << "{nullptr, 0, 0ull, 0ull, false, false}};\n";
      const frontend::SourcePos where = position(sm_, k.refusal.where);
      std::string turns = "nullptr";
      if (k.warpTurns.refused()) {
        const frontend::SourcePos at = position(sm_, k.warpTurns.where);
        turns = cString(k.warpTurns.reason + " (" + at.file + ":" + std::to_string(at.line) + ")");
      }
      head << "[[maybe_unused]] static const ::ldcc::rt::KernelDesc " << k.descName << " = {"
           << cString(k.fn->getQualifiedNameAsString()) << ", " << cString(opts_.defaultMode) << ", ldcc_sites, "
           << tables_.sites.size() << "u, " << k.descName << "_targets, " << k.targets.size() << "u, ldcc_locals, "
           << tables_.locals.size() << "u, "
           << (k.refusal.refused() ? cString(k.refusal.reason) : "nullptr") << ", "
           << (k.refusal.refused() ? cString(where.file + ":" + std::to_string(where.line)) : "nullptr") << ", "
           << k.descName << "_globals, " << numGlobals << "u, " << turns << ", " << (k.atomics ? "true" : "false") << "};\n";
    }
    const PresumedLoc top = sm_.getPresumedLoc(sm_.getLocForStartOfFile(sm_.getMainFileID()));
    head << "#line 1 " << cString(top.isValid() ? top.getFilename() : "") << "\n";
    const auto *buffer = rw_.getRewriteBufferFor(sm_.getMainFileID());
    // The launch-time proofs, after the program (they name nothing of it but its kernels' tables).
    std::ostringstream tail;
    for (const KernelRecord &k : kernels_) {
      if (!k.checked) continue;
      if (!k.proof.ok) {
        tail << "\n// ldcc: no launch-time proof for " << k.fn->getQualifiedNameAsString() << ": " << k.proof.reason << "\n";
        continue;
      }
      tail << "\n" << k.proof.function << "[[maybe_unused]] static const ::ldcc::rt::ProofRegistration " << k.descName
           << "_proven(" << k.descName << ", " << k.descName << "_proof, " << (k.proof.deterministic ? "true" : "false")
           << ");\n";
    }
    result_.output = head.str() +
                     (buffer ? std::string(buffer->begin(), buffer->end()) : sm_.getBufferData(sm_.getMainFileID()).str()) +
                     tail.str();
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  const TranslateOptions &opts_;
  TranslateResult &result_;
  Rewriter rw_;
  TranslationUnitTables tables_;
  std::vector<KernelRecord> kernels_;
  std::map<const FunctionDecl *, size_t> kernelIndex_;
  std::map<const FunctionDecl *, Refusal> helperRefusal_;
  std::map<const FunctionDecl *, unsigned> blockBound_;  // findBlockBounds
};

class TranslateConsumer : public ASTConsumer {
public:
  TranslateConsumer(const TranslateOptions &opts, TranslateResult &result) : opts_(opts), result_(result) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    Translator(ctx, opts_, result_).run();
  }

private:
  const TranslateOptions &opts_;
  TranslateResult &result_;
};

class TranslateAction : public ASTFrontendAction {
public:
  TranslateAction(const TranslateOptions &opts, TranslateResult &result) : opts_(opts), result_(result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<TranslateConsumer>(opts_, result_);
  }

private:
  const TranslateOptions &opts_;
  TranslateResult &result_;
};

class TranslateActionFactory : public tooling::FrontendActionFactory {
public:
  TranslateActionFactory(const TranslateOptions &opts, TranslateResult &result) : opts_(opts), result_(result) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<TranslateAction>(opts_, result_); }

private:
  const TranslateOptions &opts_;
  TranslateResult &result_;
};

frontend::Diagnostic fileDiagnostic(const std::string &file, frontend::Diagnostic::Level level, std::string message) {
  frontend::Diagnostic d;
  d.level = level;
  d.pos.file = file;
  d.message = std::move(message);
  return d;
}

}  // namespace

TranslateResult translateFile(const std::string &file, const TranslateOptions &opts) {
  TranslateResult result;
  using Level = frontend::Diagnostic::Level;
  if (!llvm::sys::fs::exists(file) || llvm::sys::fs::is_directory(file)) {
    result.diagnostics.push_back(fileDiagnostic(
        file, Level::Fatal, llvm::sys::fs::exists(file) ? "is a directory" : "no such file or directory"));
    return result;
  }
  llvm::SmallString<256> cwd;
  if (llvm::sys::fs::current_path(cwd)) cwd = ".";
  frontend::CudaParseOptions parse = opts.parse;
  parse.side = frontend::CudaSide::Device;
  tooling::FixedCompilationDatabase db(cwd, frontend::buildClangArgs(parse));
  tooling::ClangTool tool(db, {file});
  tool.mapVirtualFile(frontend::kParseOnlyHeaderPath, frontend::kParseOnlyHeaderText);
  frontend::DiagnosticCollector collector(result.diagnostics, nullptr);
  tool.setDiagnosticConsumer(&collector);
  tool.setPrintErrorMessage(false);
  // Without carets clang does not print its own count ("1 warning generated when compiling for
  // sm_90."): the collector keeps the diagnostics, and nvcc shows the program's warnings.
  tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster("-fno-caret-diagnostics", tooling::ArgumentInsertPosition::END));
  TranslateActionFactory factory(opts, result);

  static std::once_flag enableCrashRecovery;
  std::call_once(enableCrashRecovery, [] { llvm::CrashRecoveryContext::Enable(); });
  int rc = 1;
  llvm::CrashRecoveryContext crc;
  const bool survived = crc.RunSafely([&] { rc = tool.run(&factory); });
  if (!survived) {
    result.output.clear();
    result.diagnostics.push_back(fileDiagnostic(file, Level::Fatal, "internal error: clang crashed on this file"));
    return result;
  }
  unsigned errors = 0;
  for (const auto &d : result.diagnostics) errors += d.level == Level::Error || d.level == Level::Fatal;
  result.ok = rc == 0 && errors == 0 && !result.output.empty();
  if (!result.ok) {
    result.output.clear();
    if (errors == 0) result.diagnostics.push_back(fileDiagnostic(file, Level::Error, "clang could not parse this file"));
  }
  return result;
}

}  // namespace ldcc::translator
