#include "driver/CommandLine.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>

namespace ldcc::driver {

namespace {

// What an nvcc option means to ldcc (most mean nothing: they are passed through).
enum class Opt {
  PassThrough,
  Output, IncludeDir, Define, Undefine, SystemInclude, PreInclude, Std, Arch, Language,
  KeepDir, DepFile,
  Compile, StopBeforeLink, DepsOnly, DepsWithCompile, Keep, Verbose,
};

struct OptSpec {
  const char *longName;   // "--output-file"
  const char *shortName;  // "-o" (nullptr: none)
  bool takesValue;
  Opt meaning;
};

// nvcc 13's options that take a value (`nvcc --help`: an option followed by <...>, {...}
// or [...]; -MF and -e are listed without one but take one too), then the value-less
// options ldcc acts on or that would otherwise look like -l<lib> / -O<level>.
constexpr OptSpec kOptions[] = {
    {"--output-file", "-o", true, Opt::Output},
    {"--pre-include", "-include", true, Opt::PreInclude},
    {"--library", "-l", true, Opt::PassThrough},
    {"--define-macro", "-D", true, Opt::Define},
    {"--undefine-macro", "-U", true, Opt::Undefine},
    {"--include-path", "-I", true, Opt::IncludeDir},
    {"--system-include", "-isystem", true, Opt::SystemInclude},
    {"--library-path", "-L", true, Opt::PassThrough},
    {"--output-directory", "-odir", true, Opt::PassThrough},
    {"--compiler-bindir", "-ccbin", true, Opt::PassThrough},
    {"--archiver-binary", "-arbin", true, Opt::PassThrough},
    {"--cudart", "-cudart", true, Opt::PassThrough},
    {"--cudadevrt", "-cudadevrt", true, Opt::PassThrough},
    {"--libdevice-directory", "-ldir", true, Opt::PassThrough},
    {"--target-directory", "-target-dir", true, Opt::PassThrough},
    {"--optimization-info", "-opt-info", true, Opt::PassThrough},
    {"--optimize", "-O", true, Opt::PassThrough},
    {"--Ofast-compile", "-Ofc", true, Opt::PassThrough},
    {"--dopt", "-dopt", true, Opt::PassThrough},
    {"--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", true, Opt::PassThrough},
    {"--ftemplate-depth", "-ftemplate-depth", true, Opt::PassThrough},
    {"--x", "-x", true, Opt::Language},
    {"--std", "-std", true, Opt::Std},
    {"--machine", "-m", true, Opt::PassThrough},
    {"--compiler-options", "-Xcompiler", true, Opt::PassThrough},
    {"--linker-options", "-Xlinker", true, Opt::PassThrough},
    {"--archive-options", "-Xarchive", true, Opt::PassThrough},
    {"--ptxas-options", "-Xptxas", true, Opt::PassThrough},
    {"--nvlink-options", "-Xnvlink", true, Opt::PassThrough},
    {"--static-global-template-stub", "-static-global-template-stub", true, Opt::PassThrough},
    {"--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility", true,
     Opt::PassThrough},
    {"--threads", "-t", true, Opt::PassThrough},
    {"--split-compile", "-split-compile", true, Opt::PassThrough},
    {"--split-compile-extended", "-split-compile-extended", true, Opt::PassThrough},
    {"--fdevice-time-trace", "-fdevice-time-trace", true, Opt::PassThrough},
    {"--keep-dir", "-keep-dir", true, Opt::KeepDir},
    {"--time", "-time", true, Opt::PassThrough},
    {"--run-args", "-run-args", true, Opt::PassThrough},
    {"--input-drive-prefix", "-idp", true, Opt::PassThrough},
    {"--dependency-drive-prefix", "-ddp", true, Opt::PassThrough},
    {"--drive-prefix", "-dp", true, Opt::PassThrough},
    {"--dependency-output", "-MF", true, Opt::DepFile},
    {"--dependency-target-name", "-MT", true, Opt::PassThrough},
    {"--gpu-architecture", "-arch", true, Opt::Arch},
    {"--gpu-code", "-code", true, Opt::PassThrough},
    {"--generate-code", "-gencode", true, Opt::PassThrough},
    {"--relocatable-device-code", "-rdc", true, Opt::PassThrough},
    {"--entries", "-e", true, Opt::PassThrough},
    {"--maxrregcount", "-maxrregcount", true, Opt::PassThrough},
    {"--ftz", "-ftz", true, Opt::PassThrough},
    {"--prec-div", "-prec-div", true, Opt::PassThrough},
    {"--prec-sqrt", "-prec-sqrt", true, Opt::PassThrough},
    {"--fmad", "-fmad", true, Opt::PassThrough},
    {"--default-stream", "-default-stream", true, Opt::PassThrough},
    {"--Werror", "-Werror", true, Opt::PassThrough},
    {"--diag-error", "-diag-error", true, Opt::PassThrough},
    {"--diag-suppress", "-diag-suppress", true, Opt::PassThrough},
    {"--diag-warn", "-diag-warn", true, Opt::PassThrough},
    {"--host-linker-script", "-hls", true, Opt::PassThrough},
    {"--brief-diagnostics", "-brief-diag", true, Opt::PassThrough},
    {"--jump-table-density", "-jtd", true, Opt::PassThrough},
    {"--device-stack-protector", "-device-stack-protector", true, Opt::PassThrough},
    {"--compress-mode", "-compress-mode", true, Opt::PassThrough},
    {"--frandom-seed", "-frandom-seed", true, Opt::PassThrough},
    {"--sanitize", "-sanitize", true, Opt::PassThrough},

    {"--compile", "-c", false, Opt::Compile},
    {"--device-c", "-dc", false, Opt::StopBeforeLink},
    {"--device-w", "-dw", false, Opt::StopBeforeLink},
    {"--device-link", "-dlink", false, Opt::StopBeforeLink},
    {"--lib", "-lib", false, Opt::StopBeforeLink},
    {"--preprocess", "-E", false, Opt::StopBeforeLink},
    {"--cuda", "-cuda", false, Opt::StopBeforeLink},
    {"--cubin", "-cubin", false, Opt::StopBeforeLink},
    {"--fatbin", "-fatbin", false, Opt::StopBeforeLink},
    {"--ptx", "-ptx", false, Opt::StopBeforeLink},
    {"--optix-ir", "-optix-ir", false, Opt::StopBeforeLink},
    {"--ltoir", "-ltoir", false, Opt::StopBeforeLink},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", false, Opt::StopBeforeLink},
    {"--generate-dependencies", "-M", false, Opt::DepsOnly},
    {"--generate-nonsystem-dependencies", "-MM", false, Opt::DepsOnly},
    {"--generate-dependencies-with-compile", "-MD", false, Opt::DepsWithCompile},
    {"--generate-nonsystem-dependencies-with-compile", "-MMD", false, Opt::DepsWithCompile},
    {"--keep", "-keep", false, Opt::Keep},
    {"--verbose", "-v", false, Opt::Verbose},
    // Value-less options that start like -l<library> or -O<level>.
    {"--generate-line-info", "-lineinfo", false, Opt::PassThrough},
    {"--link", "-link", false, Opt::PassThrough},
    {"--lto", "-lto", false, Opt::PassThrough},
};

// Options whose value may be glued to a one-letter name: -Idir -DX=1 -UX -Ldir -lm -O3.
constexpr const char *kAttachable[] = {"-I", "-D", "-U", "-L", "-l", "-O"};

// ldcc's own options, parsed by CLI11 (--keep and -v are shared with nvcc, above).
constexpr const char *kOwnFlags[] = {"--translate-only", "--version", "-V", "--help", "-h"};

const OptSpec *findOption(const std::string &name) {
  for (const auto &spec : kOptions)
    if (name == spec.longName || (spec.shortName && name == spec.shortName)) return &spec;
  return nullptr;
}

std::vector<std::string> splitCommas(const std::string &value) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = value.find(',', start);
    std::string part = value.substr(start, comma == std::string::npos ? std::string::npos
                                                                      : comma - start);
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

std::string extension(const std::string &path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  return ext;
}

bool oneOf(const std::string &s, std::initializer_list<const char *> list) {
  for (const char *item : list)
    if (s == item) return true;
  return false;
}

bool isSourceExtension(const std::string &ext) {
  return oneOf(ext, {".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".CPP"});
}

// -arch=sm_90 / sm_90a / compute_90 -> the sm_XX clang parses for; native, all... -> "".
std::string archForClang(const std::string &arch) {
  std::string number;
  if (arch.rfind("sm_", 0) == 0)
    number = arch.substr(3);
  else if (arch.rfind("compute_", 0) == 0)
    number = arch.substr(8);
  else
    return "";
  if (number.empty() || !std::isdigit(static_cast<unsigned char>(number[0]))) return "";
  return "sm_" + number;
}

void apply(Command &cmd, Opt meaning, const std::string &value) {
  switch (meaning) {
  case Opt::Output: cmd.output = value; break;
  case Opt::IncludeDir:
    for (auto &v : splitCommas(value)) cmd.includeDirs.push_back(v);
    break;
  case Opt::Define:
    for (auto &v : splitCommas(value)) cmd.defines.push_back(v);
    break;
  case Opt::Undefine:
    for (auto &v : splitCommas(value)) cmd.clangExtraArgs.push_back("-U" + v);
    break;
  case Opt::SystemInclude:
    for (auto &v : splitCommas(value)) {
      cmd.clangExtraArgs.push_back("-isystem");
      cmd.clangExtraArgs.push_back(v);
    }
    break;
  case Opt::PreInclude:
    for (auto &v : splitCommas(value)) {
      cmd.clangExtraArgs.push_back("-include");
      cmd.clangExtraArgs.push_back(v);
    }
    break;
  case Opt::Std: cmd.std = value; break;
  case Opt::Arch: {
    std::string arch = archForClang(value);
    if (!arch.empty()) cmd.gpuArch = arch;
    break;
  }
  case Opt::Language: cmd.language = value; break;
  case Opt::KeepDir: cmd.keepDir = value; break;
  case Opt::DepFile: cmd.depFile = value; break;
  case Opt::Compile:
    cmd.compileOnly = true;
    cmd.stopsBeforeLink = true;
    break;
  case Opt::StopBeforeLink: cmd.stopsBeforeLink = true; break;
  case Opt::DepsOnly:
    cmd.depsOnly = true;
    cmd.stopsBeforeLink = true;
    break;
  case Opt::DepsWithCompile: cmd.depsWithCompile = true; break;
  case Opt::Keep: cmd.keep = true; break;
  case Opt::Verbose: cmd.verbose = true; break;
  case Opt::PassThrough: break;
  }
}

// ldcc's own options through CLI11: --mode, --translate-only, --version, --help.
void parseOwnOptions(const std::vector<std::string> &own, Command &cmd,
                     std::vector<std::string> &errors) {
  CLI::App app{"ldcc"};
  app.set_help_flag();  // --help is a plain flag here; main() prints helpText()
  app.allow_extras(false);
  std::string mode = cmd.mode;
  app.add_option("--mode", mode, "default run-time mode")
      ->check(CLI::Validator(
          [](std::string &value) -> std::string {
            if (value == "check" || value == "deterministic" || value == "off") return "";
            return "unknown mode '" + value + "' (expected check, deterministic or off)";
          },
          "MODE"));
  app.add_flag("--translate-only", cmd.translateOnly);
  app.add_flag("--version,-V", cmd.version);
  app.add_flag("--help,-h", cmd.help);
  std::vector<std::string> reversed(own.rbegin(), own.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
    cmd.mode = mode;
  } catch (const CLI::ParseError &e) {
    std::string what = e.what();
    if (dynamic_cast<const CLI::ArgumentMismatch *>(&e) && what.find("--mode") != std::string::npos)
      what = "--mode needs a value: check, deterministic or off";
    errors.push_back(what);
  }
}

}  // namespace

bool Command::hasCudaInputs() const {
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const Input &in) { return in.kind == InputKind::Cuda; });
}

bool isKnownFileType(const std::string &path) {
  std::string ext = extension(path);
  if (ext == ".cu" || isSourceExtension(ext)) return true;
  if (oneOf(ext, {".o", ".obj", ".a", ".lib", ".so", ".ptx", ".cubin", ".fatbin", ".ltoir",
                  ".optixir", ".res"}))
    return true;
  // Versioned shared libraries: libfoo.so.1, libfoo.so.1.2
  return path.find(".so.") != std::string::npos;
}

InputKind classifyInput(const std::string &path, const std::string &language) {
  std::string ext = extension(path);
  if (language == "c" || language == "c++") return InputKind::PassThrough;
  if (ext == ".cu") return InputKind::Cuda;
  if (language == "cu" && isSourceExtension(ext)) return InputKind::Cuda;
  return InputKind::PassThrough;
}

ParseResult parseCommandLine(const std::vector<std::string> &args) {
  ParseResult result;
  Command &cmd = result.command;
  std::vector<std::string> own;  // for CLI11

  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];

    // Inputs: anything that is not an option ("-" alone is nvcc's business).
    if (arg.empty() || arg[0] != '-' || arg == "-") {
      if (arg.empty()) continue;
      if (arg != "-") {
        Input in;
        in.path = arg;
        in.argIndex = cmd.nvccArgs.size();
        cmd.inputs.push_back(in);
      }
      cmd.nvccArgs.push_back(arg);
      continue;
    }

    // ldcc's own options.
    if (arg == "--mode" || arg.rfind("--mode=", 0) == 0) {
      own.push_back(arg);
      if (arg == "--mode" && i + 1 < args.size()) own.push_back(args[++i]);
      continue;
    }
    if (std::find_if(std::begin(kOwnFlags), std::end(kOwnFlags),
                     [&](const char *f) { return arg == f; }) != std::end(kOwnFlags)) {
      own.push_back(arg);
      continue;
    }

    // nvcc's: exact name, name=value, name value, or a glued one-letter option.
    size_t eq = arg.find('=');
    std::string name = eq == std::string::npos ? arg : arg.substr(0, eq);
    const OptSpec *spec = findOption(name);
    if (spec && eq != std::string::npos && !spec->takesValue) spec = nullptr;  // -c=... ?
    if (spec) {
      cmd.nvccArgs.push_back(arg);
      std::string value;
      if (spec->takesValue) {
        if (eq != std::string::npos) {
          value = arg.substr(eq + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
          cmd.nvccArgs.push_back(value);
        } else {
          result.errors.push_back("missing value after '" + arg + "'");
          continue;
        }
      }
      apply(cmd, spec->meaning, value);
      continue;
    }
    const char *glued = nullptr;
    for (const char *prefix : kAttachable)
      if (arg.size() > 2 && arg.compare(0, 2, prefix) == 0) glued = prefix;
    if (glued) {
      cmd.nvccArgs.push_back(arg);
      apply(cmd, findOption(glued)->meaning, arg.substr(2));
      continue;
    }
    // Unknown: nvcc's problem (or the host compiler's, under -forward-unknown-to-host-compiler).
    cmd.nvccArgs.push_back(arg);
  }

  parseOwnOptions(own, cmd, result.errors);

  for (auto &in : cmd.inputs) {
    in.kind = classifyInput(in.path, cmd.language);
    in.mustExist = isKnownFileType(in.path);
  }
  return result;
}

std::vector<std::string> splitOptionsFileText(const std::string &text) {
  std::vector<std::string> out;
  std::string current;
  bool inToken = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() &&
                 (text[i + 1] == '"' || text[i + 1] == '\\')) {
        current += text[++i];
      } else {
        current += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      inToken = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      current += text[++i];
      inToken = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inToken) out.push_back(current);
      current.clear();
      inToken = false;
    } else {
      current += c;
      inToken = true;
    }
  }
  if (inToken) out.push_back(current);
  return out;
}

ExpandResult expandOptionsFiles(const std::vector<std::string> &args, FileReader readFile) {
  ExpandResult result;
  // Expanded args may name options files themselves; a depth limit stops cycles.
  struct Frame {
    std::vector<std::string> args;
    size_t next;
  };
  std::vector<Frame> stack{{args, 0}};
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (frame.next == frame.args.size()) {
      stack.pop_back();
      continue;
    }
    std::string arg = frame.args[frame.next++];
    std::string files;
    bool isOptf = false;
    if (arg == "--options-file" || arg == "-optf") {
      isOptf = true;
      if (frame.next < frame.args.size()) {
        files = frame.args[frame.next++];
      } else {
        result.errors.push_back("missing value after '" + arg + "'");
        continue;
      }
    } else if (arg.rfind("--options-file=", 0) == 0 || arg.rfind("-optf=", 0) == 0) {
      isOptf = true;
      files = arg.substr(arg.find('=') + 1);
    }
    if (!isOptf) {
      result.args.push_back(arg);
      continue;
    }
    if (stack.size() > 16) {
      result.errors.push_back("options files nested too deeply at '" + files + "'");
      continue;
    }
    std::vector<std::string> expanded;
    for (const auto &file : splitCommas(files)) {
      std::string text;
      if (!readFile(file, text)) {
        result.errors.push_back("cannot read options file '" + file + "'");
        continue;
      }
      auto words = splitOptionsFileText(text);
      expanded.insert(expanded.end(), words.begin(), words.end());
    }
    stack.push_back({std::move(expanded), 0});
  }
  return result;
}

std::string helpText() {
  return "usage: ldcc [ldcc options] [nvcc options] <inputs>\n"
         "\n"
         "ldcc compiles CUDA like nvcc, with every user kernel translated for value-based\n"
         "data-race checking; the program links the ldcc runtime and reports races when run.\n"
         "\n"
         "ldcc options:\n"
         "  --mode=check|deterministic|off  the mode the program runs in when LDCC_MODE is\n"
         "                                  not set (default: check)\n"
         "  --keep                          keep the translated source (<name>.ldcc.cu, next\n"
         "                                  to the output or in --keep-dir); nvcc keeps its\n"
         "                                  intermediate files too\n"
         "  --translate-only                write the translated source (-o file, or stdout)\n"
         "                                  and stop\n"
         "  -v                              print each command ldcc runs (nvcc gets -v too)\n"
         "  --version                       ldcc's version, then nvcc's\n"
         "  --help                          this text\n"
         "\n"
         "Inputs: .cu files are translated, then compiled by nvcc (with -x cu, C/C++ sources\n"
         "too); .cpp .c .o .a .so and anything else go to nvcc unchanged, as do all other\n"
         "options. nvcc is $LDCC_NVCC, else the one ldcc was built with, else nvcc in PATH.\n";
}

}  // namespace ldcc::driver
