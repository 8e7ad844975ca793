#include "driver/Driver.h"

#include "driver/Process.h"
#include "ldcc_driver_config.h"  // generated: translator/CMakeLists.txt
#include "rewrite/Translate.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace fs = std::filesystem;

namespace ldcc::driver {

namespace {

void error(const std::string &message) { std::cerr << "ldcc: error: " << message << "\n"; }

bool readWholeFile(const std::string &path, std::string &contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  contents = ss.str();
  return !in.bad();
}

bool writeWholeFile(const std::string &path, const std::string &contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  out << contents;
  out.close();
  return static_cast<bool>(out);
}

std::string cStringLiteral(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string directoryOf(const std::string &path) {
  std::string dir = fs::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

std::string replaceAll(std::string text, const std::string &from, const std::string &to) {
  if (from.empty()) return text;
  size_t pos = 0;
  while ((pos = text.find(from, pos)) != std::string::npos) {
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
  return text;
}

// A temporary directory removed (with everything in it) when the driver returns.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/ldcc-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data())) {
      std::error_code ec;
      path_ = fs::absolute(buf.data(), ec).string();
      if (ec) path_ = buf.data();
    } else {
      error_ = std::strerror(errno);
    }
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  const std::string &errorText() const { return error_; }

private:
  std::string path_;
  std::string error_;
};

// Prints clang's errors for a failed translation, one line each.
void reportTranslationFailure(const std::string &input,
                              const translator::TranslateResult &result) {
  bool any = false;
  for (const auto &d : result.diagnostics) {
    if (d.level != frontend::Diagnostic::Level::Error &&
        d.level != frontend::Diagnostic::Level::Fatal)
      continue;
    std::cerr << d.formatted() << "\n";
    any = true;
  }
  if (!any) error("could not translate '" + input + "'");
}

void reportUnchecked(const translator::TranslateResult &result) {
  for (const auto &u : result.unchecked) {
    std::string where = u.pos.file;
    if (u.pos.line) where += ":" + std::to_string(u.pos.line);
    std::cerr << where << ": warning: ldcc: kernel '" << u.kernel
              << "' runs unchecked: " << u.reason << "\n";
  }
}

translator::TranslateOptions translateOptions(const Command &cmd) {
  translator::TranslateOptions opts;
  opts.defaultMode = cmd.mode;
  opts.parse.includeDirs = cmd.includeDirs;
  opts.parse.defines = cmd.defines;
  opts.parse.extraArgs = cmd.clangExtraArgs;
  if (!cmd.std.empty()) opts.parse.std = cmd.std;
  if (!cmd.gpuArch.empty()) opts.parse.gpuArch = cmd.gpuArch;
  return opts;
}

// Translates one input; prints diagnostics and warnings. False: no usable translation.
bool translateOne(const Command &cmd, const std::string &input, std::string &text) {
  translator::TranslateResult result = translator::translateFile(input, translateOptions(cmd));
  if (!result.ok) {
    reportTranslationFailure(input, result);
    return false;
  }
  reportUnchecked(result);
  text = withLineDirective(result.output, input);
  return true;
}

int printVersion(const DriverConfig &config) {
  std::cout << "ldcc " << config.version
            << " - value-based data-race checking for CUDA (compiles with " << config.nvcc
            << ")\n";
  return runProcess({config.nvcc, "--version"});
}

int translateOnly(const Command &cmd) {
  std::vector<const Input *> cuda;
  for (const auto &in : cmd.inputs)
    if (in.kind == InputKind::Cuda) cuda.push_back(&in);
  if (cuda.size() != 1 || cuda.size() != cmd.inputs.size()) {
    error("--translate-only takes exactly one CUDA input (a .cu file, or a C++ source "
          "with -x cu); got " + std::to_string(cmd.inputs.size()) + " input(s)");
    return 1;
  }
  std::string text;
  if (!translateOne(cmd, cuda[0]->path, text)) return 1;
  if (cmd.output.empty() || cmd.output == "-") {
    std::cout << text;
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  if (!writeWholeFile(cmd.output, text)) {
    error("cannot write '" + cmd.output + "': " + std::strerror(errno));
    return 1;
  }
  if (cmd.verbose)
    std::cerr << "ldcc: wrote the translation of " << cuda[0]->path << " to " << cmd.output
              << "\n";
  return 0;
}

void rewriteDepfiles(const Command &cmd, const std::vector<Translated> &translated,
                     std::string *capturedStdout) {
  std::vector<std::pair<std::string, std::string>> paths;
  for (const auto &t : translated) paths.emplace_back(t.temporary, t.original);
  if (capturedStdout) {
    std::cout << rewriteDepfile(*capturedStdout, paths);
    std::cout.flush();
  }
  for (const auto &file : depfileCandidates(cmd)) {
    std::string text;
    if (!readWholeFile(file, text)) continue;
    std::string rewritten = rewriteDepfile(text, paths);
    if (rewritten != text && !writeWholeFile(file, rewritten))
      error("cannot rewrite the depfile '" + file + "'");
  }
}

int compile(const Command &cmd, const DriverConfig &config) {
  std::vector<Translated> translated;
  std::optional<TempDir> tempDir;  // removed, with the translations, when compile() returns
  if (cmd.hasCudaInputs()) {
    const TempDir &temp = tempDir.emplace();
    if (temp.path().empty()) {
      error("cannot create a temporary directory: " + temp.errorText());
      return 1;
    }
    std::set<std::string> usedNames;
    bool failed = false;
    for (const auto &in : cmd.inputs) {
      if (in.kind != InputKind::Cuda) continue;
      // Keep the basename: nvcc derives default output and depfile names from it.
      std::string name = fs::path(in.path).filename().string();
      fs::path dir = temp.path();
      for (int n = 1; usedNames.count((dir / name).string()); ++n)
        dir = fs::path(temp.path()) / std::to_string(n);
      std::error_code ec;
      fs::create_directories(dir, ec);
      std::string tmpFile = (dir / name).string();
      usedNames.insert(tmpFile);

      if (cmd.verbose)
        std::cerr << "ldcc: translate " << shellQuote(in.path) << " -> " << shellQuote(tmpFile)
                  << " (--mode=" << cmd.mode << ")\n";
      std::string text;
      if (!translateOne(cmd, in.path, text)) {
        failed = true;
        continue;
      }
      if (!writeWholeFile(tmpFile, text)) {
        error("cannot write '" + tmpFile + "': " + std::strerror(errno));
        failed = true;
        continue;
      }
      if (cmd.keep) {
        std::string kept = keptPath(cmd, in.path);
        if (writeWholeFile(kept, text))
          std::cerr << "ldcc: kept the translation of " << in.path << " in " << kept << "\n";
        else
          error("cannot write '" + kept + "': " + std::strerror(errno));
      }
      translated.push_back({in.argIndex, in.path, tmpFile});
    }
    if (failed) return 1;
  }

  std::vector<std::string> nvcc = buildNvccCommand(cmd, config, translated);
  if (cmd.verbose) std::cerr << "ldcc: " << commandLineString(nvcc) << "\n";
  bool captureStdout = cmd.depsOnly && cmd.depFile.empty() && cmd.output.empty() &&
                       !translated.empty();
  std::string captured;
  // nvcc names the file it compiled in a few messages of its own ("1 error detected in the
  // compilation of ..."): name the user's. Under -v the commands are shown as they ran.
  LineFilter filter;
  if (!translated.empty() && !cmd.verbose)
    filter = [&translated](const std::string &line) {
      std::string out = line;
      for (const auto &t : translated) out = replaceAll(out, t.temporary, t.original);
      return out;
    };
  int rc = runProcess(nvcc, captureStdout ? &captured : nullptr, filter);
  if (!translated.empty()) rewriteDepfiles(cmd, translated, captureStdout ? &captured : nullptr);
  return rc;
}

}  // namespace

namespace {

bool sameFile(const std::string &a, const std::string &b) {
  std::error_code ec1, ec2;
  return fs::equivalent(a, b, ec1) && !ec1 && !ec2;
}

// nvcc from PATH, skipping ldcc itself (bin/ldcc-as-nvcc/nvcc is ldcc under nvcc's name).
std::string nvccFromPath() {
  const char *path = std::getenv("PATH");
  std::string self = "/proc/self/exe";
  std::string rest = path ? path : "";
  size_t start = 0;
  while (start <= rest.size()) {
    size_t colon = rest.find(':', start);
    std::string dir = rest.substr(start, colon == std::string::npos ? std::string::npos
                                                                    : colon - start);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/nvcc";
    if (access(candidate.c_str(), X_OK) == 0 && !sameFile(candidate, self)) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return "nvcc";  // not found: running it says so
}

}  // namespace

DriverConfig defaultConfig() {
  DriverConfig config;
  config.version = LDCC_DRIVER_VERSION;
  const char *env = std::getenv("LDCC_NVCC");
  std::string baked = LDCC_DRIVER_NVCC;
  if (env && *env)
    config.nvcc = env;
  else if (!baked.empty() && access(baked.c_str(), X_OK) == 0)
    config.nvcc = baked;
  else
    config.nvcc = nvccFromPath();
  config.includeDirs = LDCC_DRIVER_INCLUDE_DIRS;
  config.linkLibraries = LDCC_DRIVER_LINK_LIBRARIES;
  config.linkFlags = {"-lcuda"};
  return config;
}

std::vector<std::string> buildNvccCommand(const Command &cmd, const DriverConfig &config,
                                          const std::vector<Translated> &translated) {
  std::vector<std::string> out{config.nvcc};
  if (!translated.empty()) {
    std::set<std::string> seen;
    // The translation lives elsewhere; its #include "x.h" must still find x.h next to the
    // original. -iquote (to the host compiler, which preprocesses for nvcc) adds the
    // directory for quoted includes only, as the original's own directory is: as -I it
    // would also shadow <math.h> and the like with a project's math.h. nvcc splits
    // -Xcompiler at commas, so a directory with one falls back to -I.
    for (const auto &t : translated) {
      std::string dir = directoryOf(t.original);
      if (!seen.insert(dir).second) continue;
      if (dir.find(',') == std::string::npos)
        out.push_back("-Xcompiler=-iquote," + dir);
      else
        out.push_back("-I" + dir);
    }
    for (const auto &dir : config.includeDirs) out.push_back("-I" + dir);
  }
  for (size_t i = 0; i < cmd.nvccArgs.size(); ++i) {
    std::string arg = cmd.nvccArgs[i];
    for (const auto &t : translated)
      if (t.argIndex == i) arg = t.temporary;
    out.push_back(arg);
  }
  if (cmd.links()) {
    out.insert(out.end(), config.linkLibraries.begin(), config.linkLibraries.end());
    out.insert(out.end(), config.linkFlags.begin(), config.linkFlags.end());
  }
  return out;
}

std::string keptPath(const Command &cmd, const std::string &input) {
  fs::path in(input);
  std::string name = in.stem().string() + ".ldcc" + in.extension().string();
  fs::path dir;
  if (!cmd.keepDir.empty())
    dir = cmd.keepDir;
  else if (!cmd.output.empty() && cmd.output != "-")
    dir = fs::path(cmd.output).parent_path();
  return (dir / name).string();
}

std::string withLineDirective(const std::string &translated, const std::string &original) {
  std::istringstream lines(translated);
  std::string line;
  while (std::getline(lines, line)) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i != std::string::npos && line.compare(i, 4, "line") == 0) return translated;
  }
  return "#line 1 " + cStringLiteral(original) + "\n" + translated;
}

std::string depfileEscape(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#')
      out += '\\';
    else if (c == '$')
      out += '$';
    out += c;
  }
  return out;
}

std::string rewriteDepfile(const std::string &text,
                           const std::vector<std::pair<std::string, std::string>> &paths) {
  std::string out = text;
  for (const auto &[temporary, original] : paths) {
    std::string escapedTemp = depfileEscape(temporary);
    out = replaceAll(out, escapedTemp, depfileEscape(original));
    if (escapedTemp != temporary) out = replaceAll(out, temporary, depfileEscape(original));
  }
  return out;
}

std::vector<std::string> depfileCandidates(const Command &cmd) {
  std::vector<std::string> files;
  if (!cmd.depFile.empty()) {
    files.push_back(cmd.depFile);
  } else if (cmd.depsOnly) {
    if (!cmd.output.empty()) files.push_back(cmd.output);
  } else if (cmd.depsWithCompile) {
    if (!cmd.output.empty()) {
      files.push_back(fs::path(cmd.output).replace_extension(".d").string());
    } else {
      for (const auto &in : cmd.inputs)
        if (in.kind == InputKind::Cuda)
          files.push_back(fs::path(in.path).filename().replace_extension(".d").string());
    }
  }
  return files;
}

int runDriver(const std::vector<std::string> &rawArgs, const DriverConfig &config) {
  if (sameFile(config.nvcc, "/proc/self/exe")) {
    error("the nvcc to run, '" + config.nvcc + "', is ldcc itself (check LDCC_NVCC)");
    return 1;
  }
  ExpandResult expanded = expandOptionsFiles(rawArgs, readWholeFile);
  for (const auto &e : expanded.errors) error(e);
  if (!expanded.errors.empty()) return 1;

  ParseResult parsed = parseCommandLine(expanded.args);
  for (const auto &e : parsed.errors) error(e);
  if (!parsed.ok()) return 1;
  const Command &cmd = parsed.command;

  if (cmd.help) {
    std::cout << helpText();
    return 0;
  }
  if (cmd.version) return printVersion(config);

  bool missing = false;
  for (const auto &in : cmd.inputs) {
    if (!in.mustExist) continue;
    std::error_code ec;
    if (!fs::exists(in.path, ec)) {
      error("no such file or directory: '" + in.path + "'");
      missing = true;
    } else if (fs::is_directory(in.path, ec)) {
      error("is a directory: '" + in.path + "'");
      missing = true;
    }
  }
  if (missing) return 1;

  if (cmd.translateOnly) return translateOnly(cmd);
  return compile(cmd, config);
}

}  // namespace ldcc::driver
