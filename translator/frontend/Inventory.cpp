#include "frontend/Inventory.h"

#include <algorithm>
#include <tuple>

namespace ldcc::frontend {

const char *toString(SyncScope scope) {
  switch (scope) {
  case SyncScope::Block: return "block";
  case SyncScope::Warp: return "warp";
  }
  return "?";
}

const char *toString(Diagnostic::Level level) {
  switch (level) {
  case Diagnostic::Level::Note: return "note";
  case Diagnostic::Level::Remark: return "remark";
  case Diagnostic::Level::Warning: return "warning";
  case Diagnostic::Level::Error: return "error";
  case Diagnostic::Level::Fatal: return "fatal error";
  }
  return "?";
}

std::string Diagnostic::formatted() const {
  std::string out;
  if (!pos.file.empty()) {
    out += pos.file;
    if (pos.line != 0) {
      out += ":" + std::to_string(pos.line);
      if (pos.column != 0) out += ":" + std::to_string(pos.column);
    }
    out += ": ";
  }
  out += toString(level);
  out += ": ";
  out += message;
  return out;
}

namespace {
auto key(const SourcePos &p) { return std::tie(p.file, p.line, p.column); }
}  // namespace

void Inventory::normalize() {
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const KernelInfo &a, const KernelInfo &b) {
                     return std::tie(a.pos.file, a.pos.line, a.pos.column, a.qualifiedName) <
                            std::tie(b.pos.file, b.pos.line, b.pos.column, b.qualifiedName);
                   });
  kernels.erase(std::unique(kernels.begin(), kernels.end(),
                            [](const KernelInfo &a, const KernelInfo &b) {
                              return key(a.pos) == key(b.pos) &&
                                     a.qualifiedName == b.qualifiedName;
                            }),
                kernels.end());

  std::stable_sort(syncSites.begin(), syncSites.end(),
                   [](const SyncSite &a, const SyncSite &b) {
                     return std::tie(a.pos.file, a.pos.line, a.pos.column, a.spelling.file,
                                     a.spelling.line, a.spelling.column, a.callee) <
                            std::tie(b.pos.file, b.pos.line, b.pos.column, b.spelling.file,
                                     b.spelling.line, b.spelling.column, b.callee);
                   });
  syncSites.erase(std::unique(syncSites.begin(), syncSites.end(),
                              [](const SyncSite &a, const SyncSite &b) {
                                return key(a.pos) == key(b.pos) &&
                                       key(a.spelling) == key(b.spelling) &&
                                       a.callee == b.callee;
                              }),
                  syncSites.end());
}

}  // namespace ldcc::frontend
