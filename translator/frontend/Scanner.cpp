#include "frontend/Scanner.h"

#include "frontend/DiagnosticCollector.h"
#include "frontend/InventoryMatchers.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>

namespace ldcc::frontend {

unsigned ScanResult::errorCount() const {
  unsigned n = 0;
  for (const auto &d : diagnostics)
    n += d.level == Diagnostic::Level::Error || d.level == Diagnostic::Level::Fatal;
  return n;
}

namespace {

void report(ScanResult &result, const ScanOptions &opts, Diagnostic d) {
  if (opts.printDiagnostics) llvm::errs() << d.formatted() << "\n";
  result.diagnostics.push_back(std::move(d));
}

}  // namespace

ScanResult scanFile(const std::string &file, const ScanOptions &opts) {
  ScanResult result;

  // Checked here so the message names the file first, the way compilers report
  // unreadable inputs, instead of clang's driver-level "clang: error: ...".
  if (!llvm::sys::fs::exists(file) || llvm::sys::fs::is_directory(file)) {
    Diagnostic d;
    d.level = Diagnostic::Level::Fatal;
    d.pos.file = file;
    d.message = llvm::sys::fs::exists(file) ? "is a directory" : "no such file or directory";
    report(result, opts, std::move(d));
    return result;
  }

  llvm::SmallString<256> cwd;
  if (llvm::sys::fs::current_path(cwd)) cwd = ".";
  clang::tooling::FixedCompilationDatabase db(cwd, buildClangArgs(opts.parse));
  clang::tooling::ClangTool tool(db, {file});
  tool.mapVirtualFile(kParseOnlyHeaderPath, kParseOnlyHeaderText);
  DiagnosticCollector collector(result.diagnostics,
                                opts.printDiagnostics ? &llvm::errs() : nullptr);
  tool.setDiagnosticConsumer(&collector);
  tool.setPrintErrorMessage(false);  // no "Error while processing x.cu."; we report

  InventoryMatchers matchers(result.inventory);
  auto factory = clang::tooling::newFrontendActionFactory(&matchers.finder());

  // A crash inside clang on some odd input must not take the tool down.
  static std::once_flag enableCrashRecovery;
  std::call_once(enableCrashRecovery, [] { llvm::CrashRecoveryContext::Enable(); });
  int rc = 1;
  llvm::CrashRecoveryContext crc;
  bool survived = crc.RunSafely([&] { rc = tool.run(factory.get()); });
  auto file_diagnostic = [&](Diagnostic::Level level, const char* message) {
    Diagnostic d;
    d.level = level;
    d.pos.file = file;
    d.message = message;
    report(result, opts, std::move(d));
  };
  if (!survived) {
    file_diagnostic(Diagnostic::Level::Fatal, "internal error: clang crashed while parsing this file");
    return result;
  }

  result.inventory.normalize();
  result.ok = rc == 0 && result.errorCount() == 0;
  if (!result.ok && result.errorCount() == 0)
    file_diagnostic(Diagnostic::Level::Error, "clang could not parse this file");
  return result;
}

}  // namespace ldcc::frontend
