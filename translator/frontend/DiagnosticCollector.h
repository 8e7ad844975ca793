// A DiagnosticConsumer that records clang's diagnostics as ldcc Diagnostics and can echo
// them, clang-formatted (file:line:col, caret, include stack), to a stream.
#pragma once

#include "frontend/Inventory.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>

#include <memory>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace ldcc::frontend {

class DiagnosticCollector : public clang::DiagnosticConsumer {
public:
  // echo: where to print diagnostics as clang would (nullptr: collect only).
  DiagnosticCollector(std::vector<Diagnostic> &out, llvm::raw_ostream *echo);
  ~DiagnosticCollector() override;

  void BeginSourceFile(const clang::LangOptions &langOpts,
                       const clang::Preprocessor *pp) override;
  void EndSourceFile() override;
  void finish() override;
  void clear() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override;

private:
  std::vector<Diagnostic> &out_;
  clang::DiagnosticOptions diagOpts_;
  std::unique_ptr<clang::TextDiagnosticPrinter> printer_;
};

}  // namespace ldcc::frontend
