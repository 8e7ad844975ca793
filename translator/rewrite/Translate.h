// Source-to-source translation of one CUDA translation unit (DESIGN.md section 6).
//
// Clang-free header: the driver includes it without clang's headers.
#pragma once

#include "frontend/CudaArgs.h"
#include "frontend/Inventory.h"

#include <string>
#include <vector>

namespace ldcc::translator {

struct TranslateOptions {
  frontend::CudaParseOptions parse;  // -I, -D, -std of the user's command line
  // The mode a translated program runs in when LDCC_MODE is not set: "check",
  // "deterministic" or "off" (the driver's --mode).
  std::string defaultMode = "check";
};

// A kernel the translator leaves unchecked, with the reason and where it is.
struct UncheckedKernel {
  std::string kernel;
  frontend::SourcePos pos;  // the construct that made it unsupported
  std::string reason;       // e.g. "inline PTX store"
};

struct TranslateResult {
  bool ok = false;      // false: clang could not parse the input; `output` is empty
  std::string output;   // the translated source (plain CUDA C++ for nvcc)
  std::vector<frontend::Diagnostic> diagnostics;  // clang's, with file:line:col
  std::vector<UncheckedKernel> unchecked;         // each one warns at translation time
  unsigned checkedKernels = 0;
};

// Never throws, never crashes the caller: parse errors and clang crashes come back as
// !ok with diagnostics.
TranslateResult translateFile(const std::string &file, const TranslateOptions &opts);

}  // namespace ldcc::translator
