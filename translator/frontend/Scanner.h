// Parse one CUDA translation unit with clang and return its Inventory.
//
// Clang-free header.
#pragma once

#include "frontend/CudaArgs.h"
#include "frontend/Inventory.h"

#include <string>
#include <vector>

namespace ldcc::frontend {

struct ScanOptions {
  CudaParseOptions parse;
  // Echo diagnostics to stderr as clang prints them (file:line:col, source line,
  // caret). They are collected in ScanResult::diagnostics either way.
  bool printDiagnostics = false;
};

struct ScanResult {
  bool ok = false;       // parsed without errors (and clang did not crash)
  Inventory inventory;   // what was found; may be partial when !ok
  std::vector<Diagnostic> diagnostics;
  unsigned errorCount() const;
};

// Never throws and never takes the process down: a missing file, a syntax error or a
// crash inside clang come back as !ok with diagnostics.
ScanResult scanFile(const std::string &file, const ScanOptions &opts = {});

}  // namespace ldcc::frontend
