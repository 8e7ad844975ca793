// The ldcc driver's command line: nvcc's, plus a few options of ldcc's own (DESIGN.md
// section 1).
//
//   ldcc [--mode=check|deterministic|off] [--keep] [--translate-only] [-v] <nvcc arguments>
//
// nvcc spells long options with one dash (-arch, -gencode, -Xcompiler, -std=c++17) and
// takes values attached, after '=' or as the next argument, so argv is split here by a
// table of nvcc's value-taking options; only ldcc's own options go through CLI11.
// Everything ldcc does not know is passed to nvcc unchanged.
//
// No clang, no I/O: parseCommandLine is a pure function (unit-tested in tests/driver).
#pragma once

#include <string>
#include <vector>

namespace ldcc::driver {

enum class InputKind {
  Cuda,         // translated, then compiled by nvcc (.cu; any C/C++ source under -x cu)
  PassThrough,  // handed to nvcc unchanged (.cpp .cc .cxx .c .o .a .so .ptx ... and unknown)
};

struct Input {
  std::string path;   // as given on the command line
  InputKind kind = InputKind::PassThrough;
  bool mustExist = false;  // a known file type: ldcc reports a missing one itself. Unknown
                           // names go to nvcc, which says what it thinks of them (CMake
                           // runs `nvcc -v __cmake_determine_cuda` and parses the output).
  size_t argIndex = 0;     // its position in Command::nvccArgs
};

struct Command {
  // ldcc's own options.
  std::string mode = "check";   // --mode: the translated program's default LDCC_MODE
  bool keep = false;            // --keep / -keep (also passed to nvcc, which keeps its own
                                // intermediate files: CMake's compiler detection uses it)
  bool translateOnly = false;   // --translate-only: write the translated source and stop
  bool verbose = false;         // -v / --verbose (also passed to nvcc)
  bool version = false;         // --version / -V
  bool help = false;            // --help / -h

  // The user's nvcc arguments, in order, inputs included (Input::argIndex points at
  // them); ldcc's own options (--mode, --translate-only, --version, --help) are not here.
  std::vector<std::string> nvccArgs;
  std::vector<Input> inputs;

  std::string output;          // -o / --output-file ("" when not given)
  std::string keepDir;         // --keep-dir
  std::string language;        // -x: "", "cu", "c++" or "c"

  // What nvcc is asked to do.
  bool compileOnly = false;    // -c
  bool stopsBeforeLink = false;// any of -c -dc -dw -E -M -MM -ptx -cubin -fatbin -lib
                               // -dlink -cuda -optix-ir -ltoir -fdevice-syntax-only
  bool depsWithCompile = false;  // -MD / -MMD: a depfile next to the compile
  bool depsOnly = false;         // -M / -MM: dependencies instead of a compile
  std::string depFile;           // -MF

  // What the translator's clang needs to parse like nvcc does.
  std::vector<std::string> includeDirs;  // -I (comma lists split, as nvcc does)
  std::vector<std::string> defines;      // -D
  std::vector<std::string> clangExtraArgs;  // -U, -isystem, -include, in order
  std::string std;             // -std ("" when not given)
  std::string gpuArch;         // sm_XX from -arch ("" when not given or not sm_XX)

  // Links an executable (or a shared library): there are inputs and no option that
  // stops before the link. The ldcc runtime libraries and -lcuda are added.
  bool links() const { return !stopsBeforeLink && !inputs.empty(); }
  bool hasCudaInputs() const;
};

struct ParseResult {
  Command command;
  std::vector<std::string> errors;  // one line each, without the "ldcc: error: " prefix
  bool ok() const { return errors.empty(); }
};

// args: argv without the program name, options files already expanded.
ParseResult parseCommandLine(const std::vector<std::string> &args);

// How ldcc treats a file by its name (-x cu makes C and C++ sources CUDA).
InputKind classifyInput(const std::string &path, const std::string &language);
bool isKnownFileType(const std::string &path);

// nvcc's --options-file / -optf: replaced by the arguments the files hold (whitespace
// separated; '...' and "..." quote; backslash escapes outside single quotes), so inputs
// and -I/-D inside them are seen (CMake's Makefile generator puts includes there).
// readFile returns false when a file cannot be read; that is an error naming it.
struct ExpandResult {
  std::vector<std::string> args;
  std::vector<std::string> errors;
};
using FileReader = bool (*)(const std::string &path, std::string &contents);
ExpandResult expandOptionsFiles(const std::vector<std::string> &args, FileReader readFile);
std::vector<std::string> splitOptionsFileText(const std::string &text);

// The help text for --help (ldcc's options; the rest is nvcc's).
std::string helpText();

}  // namespace ldcc::driver
