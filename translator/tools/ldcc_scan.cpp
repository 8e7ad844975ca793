// ldcc-scan: print the kernels and synchronization sites clang finds in CUDA files.
//
//   ldcc-scan [--host] [-I dir]... [-D name[=value]]... [--json] file.cu...
//
// Output (text), one line each, sorted by position:
//   kernel <qualified-name> <file>:<line>:<col> template|plain
//   sync <block|warp> <callee> <file>:<line>:<col> <function> kernel|device [lambda]
//        [spelled <file>:<line>:<col>]     (the call is written inside a macro)
//   summary <file> <side>: <K> kernels, <S> sync sites
// Exit status: 0 when every file parsed, 1 when any did not (clang's diagnostics are
// on stderr), 2 for bad options.
#include "frontend/Scanner.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ldcc::frontend;

namespace {

std::string posString(const SourcePos &p) {
  return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

std::string jsonPos(const SourcePos &p) {
  return "{\"file\": " + jsonString(p.file) + ", \"line\": " + std::to_string(p.line) +
         ", \"column\": " + std::to_string(p.column) + "}";
}

void printText(std::ostream &os, const std::string &file, CudaSide side,
               const ScanResult &r) {
  for (const auto &k : r.inventory.kernels)
    os << "kernel " << k.qualifiedName << " " << posString(k.pos) << " "
       << (k.isTemplate ? "template" : "plain") << "\n";
  for (const auto &s : r.inventory.syncSites) {
    os << "sync " << toString(s.scope) << " " << s.callee << " " << posString(s.pos) << " "
       << s.function << " " << (s.inKernel ? "kernel" : "device")
       << (s.inLambda ? " lambda" : "");
    if (posString(s.spelling) != posString(s.pos))
      os << " spelled " << posString(s.spelling);  // inside a macro
    os << "\n";
  }
  os << "summary " << file << " " << toString(side) << ": " << r.inventory.kernels.size()
     << " kernels, " << r.inventory.syncSites.size() << " sync sites"
     << (r.ok ? "" : " (parse failed)") << "\n";
}

void printJson(std::ostream &os, const std::string &file, CudaSide side,
               const ScanResult &r) {
  os << "{\"file\": " << jsonString(file) << ", \"side\": " << jsonString(toString(side))
     << ", \"ok\": " << (r.ok ? "true" : "false") << ",\n \"kernels\": [";
  const char *sep = "";
  for (const auto &k : r.inventory.kernels) {
    os << sep << "\n  {\"name\": " << jsonString(k.name)
       << ", \"qualified_name\": " << jsonString(k.qualifiedName)
       << ", \"pos\": " << jsonPos(k.pos)
       << ", \"template\": " << (k.isTemplate ? "true" : "false") << "}";
    sep = ",";
  }
  os << "],\n \"sync_sites\": [";
  sep = "";
  for (const auto &s : r.inventory.syncSites) {
    os << sep << "\n  {\"callee\": " << jsonString(s.callee)
       << ", \"scope\": " << jsonString(toString(s.scope)) << ", \"pos\": " << jsonPos(s.pos)
       << ", \"spelling\": " << jsonPos(s.spelling)
       << ", \"function\": " << jsonString(s.function)
       << ", \"in_kernel\": " << (s.inKernel ? "true" : "false")
       << ", \"in_lambda\": " << (s.inLambda ? "true" : "false") << "}";
    sep = ",";
  }
  os << "],\n \"diagnostics\": [";
  sep = "";
  for (const auto &d : r.diagnostics) {
    os << sep << "\n  {\"level\": " << jsonString(toString(d.level))
       << ", \"pos\": " << jsonPos(d.pos) << ", \"message\": " << jsonString(d.message)
       << "}";
    sep = ",";
  }
  os << "]}\n";
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"ldcc-scan: list the user kernels and synchronization sites of CUDA files "
               "(parsed with clang)"};
  app.set_version_flag("--version", "ldcc-scan 0.1");

  std::vector<std::string> files;
  ScanOptions opts;
  bool host = false;
  bool json = false;
  app.add_option("files", files, "CUDA source files (.cu)")->required();
  app.add_flag("--host", host, "parse the host side (--cuda-host-only); default: device side");
  app.add_option("-I,--include", opts.parse.includeDirs, "add a user include directory")
      ->take_all();
  app.add_option("-D,--define", opts.parse.defines, "define a macro (NAME or NAME=VALUE)")
      ->take_all();
  app.add_option("--cuda-path", opts.parse.cudaPath, "CUDA installation")
      ->default_str(defaultCudaPath());
  app.add_option("--resource-dir", opts.parse.resourceDir, "clang resource directory")
      ->default_str(defaultResourceDir());
  app.add_option("--cuda-gpu-arch", opts.parse.gpuArch, "GPU architecture clang targets")
      ->capture_default_str();
  app.add_option("--std", opts.parse.std, "C++ standard, e.g. c++17")->capture_default_str();
  app.add_option("--extra-arg", opts.parse.extraArgs, "append an argument to the clang command")
      ->take_all();
  app.add_flag("--json", json, "print JSON instead of text");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help / --version: 0; anything else: 2
  }

  opts.parse.side = host ? CudaSide::Host : CudaSide::Device;
  opts.printDiagnostics = true;

  int status = 0;
  for (const auto &file : files) {
    ScanResult r = scanFile(file, opts);
    if (json)
      printJson(std::cout, file, opts.parse.side, r);
    else
      printText(std::cout, file, opts.parse.side, r);
    if (!r.ok) status = 1;
  }
  std::cout.flush();
  return status;
}
