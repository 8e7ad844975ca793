// The ldcc compiler driver (DESIGN.md section 1): translate each CUDA input into a
// temporary directory, then run nvcc on the translations with the user's flags, the ldcc
// include directories and, when linking, the ldcc runtime libraries.
#pragma once

#include "driver/CommandLine.h"

#include <string>
#include <utility>
#include <vector>

namespace ldcc::driver {

// What the build baked in (generated ldcc_driver_config.h), and the nvcc to run.
struct DriverConfig {
  std::string version;                    // ldcc's
  std::string nvcc;                       // the nvcc ldcc runs
  std::vector<std::string> includeDirs;   // ldruntime/include, kernels/include
  std::vector<std::string> linkLibraries; // full paths of the runtime's static libraries
  std::vector<std::string> linkFlags;     // after them: -lcuda
};

// The build's configuration; nvcc is $LDCC_NVCC when set, else the toolkit's nvcc found
// at configure time when it exists, else "nvcc" (looked up in PATH).
DriverConfig defaultConfig();

// One CUDA input's translation.
struct Translated {
  size_t argIndex;        // Input::argIndex
  std::string original;   // the user's path, as given
  std::string temporary;  // the translated file nvcc compiles
};

// nvcc's command line: nvcc, -Xcompiler=-iquote,<directory of each translated source>
// (so its #include "x.h" still resolves, and only quoted includes look there), the ldcc
// include directories (-I), the user's arguments with each translated input replaced by
// its temporary file, then (when linking) the ldcc runtime libraries and -lcuda.
std::vector<std::string> buildNvccCommand(const Command &cmd, const DriverConfig &config,
                                          const std::vector<Translated> &translated);

// Where --keep puts a CUDA input's translation: <stem>.ldcc<ext> in --keep-dir when given,
// else next to the output (-o), else in the current directory.
std::string keptPath(const Command &cmd, const std::string &input);

// The translated text as nvcc sees it: when the translator emitted no #line directive,
// one naming the original file is put first, so nvcc's diagnostics name the user's file.
std::string withLineDirective(const std::string &translated, const std::string &original);

// Make-style escaping of a path in a depfile (space, '#', '$').
std::string depfileEscape(const std::string &path);
// Replaces every (temporary, original) path in depfile text, escaped as make escapes them.
std::string rewriteDepfile(const std::string &text,
                           const std::vector<std::pair<std::string, std::string>> &paths);
// The depfiles nvcc writes for this command (that may exist after it ran): -MF; else,
// under -MD/-MMD, the -o path with its extension replaced by .d, or <input stem>.d in the
// current directory; under -M/-MM with -o, the -o file. Empty: -M/-MM print to stdout.
std::vector<std::string> depfileCandidates(const Command &cmd);

// Runs the whole driver for argv (without the program name): the exit code of ldcc.
int runDriver(const std::vector<std::string> &args, const DriverConfig &config);

}  // namespace ldcc::driver
