#include "frontend/InventoryMatchers.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/SourceManager.h>

using namespace clang;
using namespace clang::ast_matchers;

namespace ldcc::frontend {

namespace {

// Declared (at any depth) inside the top-level namespace cooperative_groups. CUDA 13
// puts the classes in cooperative_groups::__v1 with a using-directive, not an inline
// namespace, so hasName("::cooperative_groups::thread_block") would not match.
AST_MATCHER(Decl, isInCooperativeGroups) {
  for (const DeclContext *dc = Node.getDeclContext(); dc; dc = dc->getParent()) {
    const auto *ns = dyn_cast<NamespaceDecl>(dc);
    if (ns && ns->getIdentifier() && ns->getName() == "cooperative_groups" &&
        ns->getParent()->getRedeclContext()->isTranslationUnit())
      return true;
  }
  return false;
}

SourcePos toPos(const SourceManager &sm, SourceLocation loc) {
  SourcePos pos;
  if (loc.isInvalid()) return pos;
  PresumedLoc p = sm.getPresumedLoc(loc);
  if (p.isInvalid()) return pos;
  pos.file = p.getFilename();
  pos.line = p.getLine();
  pos.column = p.getColumn();
  return pos;
}

struct Enclosing {
  const FunctionDecl *function = nullptr;  // outermost non-lambda function, as written
  bool inLambda = false;
  bool device = false;  // the call is compiled for the device
};

// From the innermost callable around a call, out of lambdas, back to the template
// pattern if it is an instantiation.
Enclosing enclosingFunction(const FunctionDecl *callable) {
  Enclosing e;
  const FunctionDecl *fn = callable;
  e.device = isDeviceFunction(*fn);
  while (const auto *md = dyn_cast<CXXMethodDecl>(fn)) {
    if (!md->getParent()->isLambda()) break;
    e.inLambda = true;
    const DeclContext *dc = md->getParent()->getDeclContext();
    while (dc && !isa<FunctionDecl>(dc)) dc = dc->getParent();
    if (!dc) break;  // lambda at namespace scope
    fn = cast<FunctionDecl>(dc);
    e.device = e.device || isDeviceFunction(*fn);
  }
  if (const FunctionDecl *pattern = fn->getTemplateInstantiationPattern()) fn = pattern;
  e.function = fn;
  return e;
}

void addSite(Inventory &inventory, const SourceManager &sm, const CallExpr &call,
             const FunctionDecl &callable, std::string callee, SyncScope scope) {
  Enclosing e = enclosingFunction(&callable);
  if (!e.device) return;  // host code: not a synchronization site (and ill-formed anyway)
  SyncSite site;
  site.scope = scope;
  site.callee = std::move(callee);
  site.pos = userPos(sm, call.getBeginLoc());
  site.spelling = spellingPos(sm, call.getBeginLoc());
  site.function = e.function->getQualifiedNameAsString();
  site.inKernel = e.function->hasAttr<CUDAGlobalAttr>();
  site.inLambda = e.inLambda;
  inventory.syncSites.push_back(std::move(site));
}

}  // namespace

SourcePos userPos(const SourceManager &sm, SourceLocation loc) {
  return toPos(sm, sm.getExpansionLoc(loc));
}

SourcePos spellingPos(const SourceManager &sm, SourceLocation loc) {
  return toPos(sm, sm.getSpellingLoc(loc));
}

bool isDeviceFunction(const FunctionDecl &fn) {
  return fn.hasAttr<CUDAGlobalAttr>() || fn.hasAttr<CUDADeviceAttr>();
}

// --- kernels -------------------------------------------------------------------------

void KernelCheck::registerMatchers(MatchFinder &finder) {
  finder.addMatcher(functionDecl(hasAttr(attr::CUDAGlobal), isDefinition(),
                                 unless(isExpansionInSystemHeader()),
                                 // the template itself, not each instantiation of it
                                 unless(isTemplateInstantiation()))
                        .bind("kernel"),
                    this);
}

void KernelCheck::run(const MatchFinder::MatchResult &result) {
  const auto *fn = result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!fn) return;
  KernelInfo k;
  k.name = fn->getNameAsString();
  k.qualifiedName = fn->getQualifiedNameAsString();
  k.pos = userPos(*result.SourceManager, fn->getLocation());
  // A function template's pattern, or an explicit specialization (instantiations are
  // excluded by the matcher).
  k.isTemplate = fn->getDescribedFunctionTemplate() != nullptr ||
                 fn->getTemplatedKind() == FunctionDecl::TK_FunctionTemplateSpecialization;
  inventory_.kernels.push_back(std::move(k));
}

// --- __syncthreads family, __syncwarp ------------------------------------------------

void BarrierIntrinsicCheck::registerMatchers(MatchFinder &finder) {
  auto names = hasAnyName("::__syncthreads", "::__syncthreads_count", "::__syncthreads_and",
                          "::__syncthreads_or", "::__syncwarp");
  auto site = [](auto calleeMatcher) {
    return callExpr(calleeMatcher, unless(isExpansionInSystemHeader()),
                    forCallable(functionDecl().bind("fn")))
        .bind("call");
  };
  // Resolved calls (also inside every template instantiation).
  finder.addMatcher(site(callee(functionDecl(names).bind("callee"))), this);
  // Calls with dependent arguments inside a template, e.g. __syncthreads_count(v < T(0)):
  // ADL is deferred, so the callee is an UnresolvedLookupExpr until instantiation.
  finder.addMatcher(site(callee(unresolvedLookupExpr(
                        hasAnyDeclaration(namedDecl(names).bind("callee"))))),
                    this);
}

void BarrierIntrinsicCheck::run(const MatchFinder::MatchResult &result) {
  const auto *call = result.Nodes.getNodeAs<CallExpr>("call");
  const auto *fn = result.Nodes.getNodeAs<FunctionDecl>("fn");
  const auto *callee = result.Nodes.getNodeAs<NamedDecl>("callee");
  if (!call || !fn || !callee) return;
  std::string name = callee->getNameAsString();
  SyncScope scope = name == "__syncwarp" ? SyncScope::Warp : SyncScope::Block;
  addSite(inventory_, *result.SourceManager, *call, *fn, std::move(name), scope);
}

// --- cooperative groups --------------------------------------------------------------

void CooperativeGroupsSyncCheck::registerMatchers(MatchFinder &finder) {
  auto threadBlock = cxxRecordDecl(hasName("thread_block"), isInCooperativeGroups());
  auto common = [](auto m) {
    return callExpr(m, unless(isExpansionInSystemHeader()),
                    forCallable(functionDecl().bind("fn")))
        .bind("call");
  };
  // block.sync(), this_thread_block().sync(), thread_block::sync(). A CallExpr (not
  // CXXMemberCallExpr) because CUDA 13 declares thread_block::sync static.
  finder.addMatcher(common(callee(cxxMethodDecl(hasName("sync"), ofClass(threadBlock))
                                      .bind("member"))),
                    this);
  // cooperative_groups::sync(block): the free function template forwards to g.sync().
  finder.addMatcher(common(allOf(callee(functionDecl(hasName("sync"), isInCooperativeGroups(),
                                                     unless(cxxMethodDecl()))
                                            .bind("free")),
                                 hasArgument(0, expr(hasType(threadBlock))))),
                    this);
}

void CooperativeGroupsSyncCheck::run(const MatchFinder::MatchResult &result) {
  const auto *call = result.Nodes.getNodeAs<CallExpr>("call");
  const auto *fn = result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!call || !fn) return;
  const char *callee = result.Nodes.getNodeAs<Decl>("member")
                           ? "cooperative_groups::thread_block::sync"
                           : "cooperative_groups::sync";
  addSite(inventory_, *result.SourceManager, *call, *fn, callee, SyncScope::Block);
}

// --- the set ------------------------------------------------------------------------

InventoryMatchers::InventoryMatchers(Inventory &inventory) {
  checks_.push_back(std::make_unique<KernelCheck>(inventory));
  checks_.push_back(std::make_unique<BarrierIntrinsicCheck>(inventory));
  checks_.push_back(std::make_unique<CooperativeGroupsSyncCheck>(inventory));
  for (auto &check : checks_) check->registerMatchers(finder_);
}

}  // namespace ldcc::frontend
