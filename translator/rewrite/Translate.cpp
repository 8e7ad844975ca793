// Placeholder while the rewriter is written: returns the input unchanged so the driver
// can be developed against the final interface.
#include "rewrite/Translate.h"

#include <fstream>
#include <sstream>

namespace ldcc::translator {

TranslateResult translateFile(const std::string &file, const TranslateOptions &) {
  TranslateResult r;
  std::ifstream in(file);
  if (!in) {
    frontend::Diagnostic d;
    d.level = frontend::Diagnostic::Level::Fatal;
    d.pos.file = file;
    d.message = "no such file or directory";
    r.diagnostics.push_back(d);
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  r.output = ss.str();
  r.ok = true;
  return r;
}

}  // namespace ldcc::translator
