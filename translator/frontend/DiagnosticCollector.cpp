#include "frontend/DiagnosticCollector.h"

#include "frontend/InventoryMatchers.h"

#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/raw_ostream.h>

namespace ldcc::frontend {

DiagnosticCollector::DiagnosticCollector(std::vector<Diagnostic> &out,
                                         llvm::raw_ostream *echo)
    : out_(out) {
  if (echo) {
    diagOpts_.ShowColors = false;
    printer_ = std::make_unique<clang::TextDiagnosticPrinter>(*echo, diagOpts_);
  }
}

DiagnosticCollector::~DiagnosticCollector() = default;

void DiagnosticCollector::BeginSourceFile(const clang::LangOptions &langOpts,
                                          const clang::Preprocessor *pp) {
  if (printer_) printer_->BeginSourceFile(langOpts, pp);
}

void DiagnosticCollector::EndSourceFile() {
  if (printer_) printer_->EndSourceFile();
}

void DiagnosticCollector::finish() {
  if (printer_) printer_->finish();
}

void DiagnosticCollector::clear() {
  clang::DiagnosticConsumer::clear();
  if (printer_) printer_->clear();
}

void DiagnosticCollector::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                           const clang::Diagnostic &info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // keeps the counts
  if (printer_) printer_->HandleDiagnostic(level, info);

  Diagnostic d;
  switch (level) {
  case clang::DiagnosticsEngine::Ignored:
  case clang::DiagnosticsEngine::Note: d.level = Diagnostic::Level::Note; break;
  case clang::DiagnosticsEngine::Remark: d.level = Diagnostic::Level::Remark; break;
  case clang::DiagnosticsEngine::Warning: d.level = Diagnostic::Level::Warning; break;
  case clang::DiagnosticsEngine::Error: d.level = Diagnostic::Level::Error; break;
  case clang::DiagnosticsEngine::Fatal: d.level = Diagnostic::Level::Fatal; break;
  }
  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  d.message = std::string(text);
  if (info.getLocation().isValid() && info.hasSourceManager())
    d.pos = userPos(info.getSourceManager(), info.getLocation());
  out_.push_back(std::move(d));
}

}  // namespace ldcc::frontend
