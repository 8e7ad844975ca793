// The ldcc driver's argv parser (translator/driver/CommandLine.h) and the pure parts of the
// driver (translator/driver/Driver.h): no nvcc, no clang, no files.
#include "driver/CommandLine.h"
#include "driver/Driver.h"

#include <gtest/gtest.h>

#include <map>

using namespace ldcc::driver;
using Args = std::vector<std::string>;

namespace {

Command parseOk(const Args &args) {
  ParseResult r = parseCommandLine(args);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.command;
}

std::string parseError(const Args &args) {
  ParseResult r = parseCommandLine(args);
  EXPECT_EQ(r.errors.size(), 1u);
  return r.errors.empty() ? "" : r.errors[0];
}

}  // namespace

TEST(DriverCommandLine, DefaultsForASingleCudaFile) {
  Command c = parseOk({"app.cu"});
  EXPECT_EQ(c.mode, "check");
  EXPECT_FALSE(c.keep);
  EXPECT_FALSE(c.translateOnly);
  EXPECT_FALSE(c.verbose);
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "app.cu");
  EXPECT_EQ(c.inputs[0].kind, InputKind::Cuda);
  EXPECT_TRUE(c.inputs[0].mustExist);
  EXPECT_EQ(c.inputs[0].argIndex, 0u);
  EXPECT_TRUE(c.links());
  EXPECT_EQ(c.nvccArgs, Args{"app.cu"});
}

TEST(DriverCommandLine, ModeInBothSpellingsAndNotPassedToNvcc) {
  EXPECT_EQ(parseOk({"--mode=deterministic", "a.cu"}).mode, "deterministic");
  Command c = parseOk({"--mode", "off", "a.cu"});
  EXPECT_EQ(c.mode, "off");
  EXPECT_EQ(c.nvccArgs, Args{"a.cu"});
  ASSERT_EQ(c.inputs.size(), 1u);
}

TEST(DriverCommandLine, UnknownModeIsOneClearError) {
  EXPECT_EQ(parseError({"--mode=fast", "a.cu"}),
            "--mode: unknown mode 'fast' (expected check, deterministic or off)");
  EXPECT_EQ(parseError({"a.cu", "--mode"}), "--mode needs a value: check, deterministic or off");
}

TEST(DriverCommandLine, OwnFlags) {
  Command c = parseOk({"--keep", "--translate-only", "-v", "a.cu", "-o", "out.cu"});
  EXPECT_TRUE(c.keep);
  EXPECT_TRUE(c.translateOnly);
  EXPECT_TRUE(c.verbose);
  EXPECT_EQ(c.output, "out.cu");
  // -v and --keep are nvcc's too; --translate-only is ldcc's alone.
  EXPECT_EQ(c.nvccArgs, (Args{"--keep", "-v", "a.cu", "-o", "out.cu"}));
  EXPECT_TRUE(parseOk({"--version"}).version);
  EXPECT_TRUE(parseOk({"-V"}).version);
  EXPECT_TRUE(parseOk({"--help"}).help);
  EXPECT_TRUE(parseOk({"-keep", "a.cu"}).keep);
  EXPECT_TRUE(parseOk({"--verbose", "a.cu"}).verbose);
}

TEST(DriverCommandLine, OutputAndCompileOnly) {
  Command c = parseOk({"-c", "a.cu", "-o", "a.o"});
  EXPECT_TRUE(c.compileOnly);
  EXPECT_FALSE(c.links());
  EXPECT_EQ(c.output, "a.o");
  EXPECT_EQ(parseOk({"--output-file=x", "a.cu"}).output, "x");
  EXPECT_EQ(parseOk({"-o=y", "a.cu"}).output, "y");
  EXPECT_TRUE(parseOk({"--compile", "a.cu"}).compileOnly);
}

TEST(DriverCommandLine, IncludeDefineStdArchReachTheTranslator) {
  Command c = parseOk({"-I", "inc1", "-Iinc2", "--include-path=inc3,inc4", "-DA=1", "-D", "B",
                       "-UC", "-isystem", "/sys", "-include", "pre.h", "-std=c++20",
                       "-arch=sm_80", "a.cu"});
  EXPECT_EQ(c.includeDirs, (Args{"inc1", "inc2", "inc3", "inc4"}));
  EXPECT_EQ(c.defines, (Args{"A=1", "B"}));
  EXPECT_EQ(c.clangExtraArgs, (Args{"-UC", "-isystem", "/sys", "-include", "pre.h"}));
  EXPECT_EQ(c.std, "c++20");
  EXPECT_EQ(c.gpuArch, "sm_80");
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "a.cu");
  // Passed to nvcc exactly as written.
  EXPECT_EQ(c.nvccArgs, (Args{"-I", "inc1", "-Iinc2", "--include-path=inc3,inc4", "-DA=1", "-D",
                              "B", "-UC", "-isystem", "/sys", "-include", "pre.h",
                              "-std=c++20", "-arch=sm_80", "a.cu"}));
}

TEST(DriverCommandLine, CommaListsSplitLikeNvcc) {
  Command c = parseOk({"-DFOO=1,BAR=2", "-I", "a,b", "x.cu"});
  EXPECT_EQ(c.defines, (Args{"FOO=1", "BAR=2"}));
  EXPECT_EQ(c.includeDirs, (Args{"a", "b"}));
}

TEST(DriverCommandLine, ArchSpellings) {
  EXPECT_EQ(parseOk({"-arch", "sm_90a", "a.cu"}).gpuArch, "sm_90a");
  EXPECT_EQ(parseOk({"--gpu-architecture=compute_75", "a.cu"}).gpuArch, "sm_75");
  EXPECT_EQ(parseOk({"-arch=native", "a.cu"}).gpuArch, "");  // clang's default stays
  EXPECT_EQ(parseOk({"a.cu"}).gpuArch, "");
  Command c = parseOk({"-std", "c++17", "a.cu"});
  EXPECT_EQ(c.std, "c++17");
  ASSERT_EQ(c.inputs.size(), 1u);
}

TEST(DriverCommandLine, ValuesOfNvccOptionsAreNotInputs) {
  // Each of these takes the next argument as its value.
  Command c = parseOk({"-gencode", "arch=compute_90,code=sm_90", "-Xcompiler", "-fPIC",
                       "-Xlinker", "-rpath=/x", "-ccbin", "g++", "-MF", "dep.d", "-MT", "obj.o",
                       "-x", "cu", "-rdc", "true", "-O", "3", "-maxrregcount", "32",
                       "-l", "cublas", "-L", "/lib", "-code", "sm_90", "--keep-dir", "kd",
                       "-Werror", "all-warnings", "a.cu", "-o", "out"});
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "a.cu");
  EXPECT_EQ(c.nvccArgs[c.inputs[0].argIndex], "a.cu");
  EXPECT_EQ(c.depFile, "dep.d");
  EXPECT_EQ(c.language, "cu");
  EXPECT_EQ(c.keepDir, "kd");
  EXPECT_EQ(c.output, "out");
  EXPECT_EQ(c.nvccArgs.size(), 33u);
}

TEST(DriverCommandLine, GluedAndEqualsForms) {
  Command c = parseOk({"-O3", "-lcuda", "-L/opt/lib", "-Xcompiler=-Wall,-Wextra",
                       "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-lineinfo",
                       "-g", "-G", "a.cu"});
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].path, "a.cu");
  EXPECT_EQ(c.nvccArgs.size(), 9u);
}

TEST(DriverCommandLine, UnknownOptionsPassThroughWithoutEatingAnInput) {
  Command c = parseOk({"-forward-unknown-to-host-compiler", "-fPIC", "--expt-relaxed-constexpr",
                       "-pthread", "a.cu"});
  EXPECT_EQ(c.nvccArgs, (Args{"-forward-unknown-to-host-compiler", "-fPIC",
                              "--expt-relaxed-constexpr", "-pthread", "a.cu"}));
  ASSERT_EQ(c.inputs.size(), 1u);
  EXPECT_EQ(c.inputs[0].argIndex, 4u);
}

TEST(DriverCommandLine, MissingValueIsAnError) {
  EXPECT_EQ(parseError({"a.cu", "-o"}), "missing value after '-o'");
}

TEST(DriverCommandLine, InputKinds) {
  Command c = parseOk({"a.cu", "b.cpp", "c.o", "libd.a", "libe.so.1", "__cmake_determine_cuda"});
  ASSERT_EQ(c.inputs.size(), 6u);
  EXPECT_EQ(c.inputs[0].kind, InputKind::Cuda);
  for (size_t i = 1; i < 6; ++i) EXPECT_EQ(c.inputs[i].kind, InputKind::PassThrough) << i;
  for (size_t i = 0; i < 5; ++i) EXPECT_TRUE(c.inputs[i].mustExist) << i;
  // Unknown names are nvcc's to judge (CMake's toolkit probe relies on nvcc's -v output).
  EXPECT_FALSE(c.inputs[5].mustExist);
}

TEST(DriverCommandLine, LanguageCuMakesCppSourcesCuda) {
  // -x applies to every input, wherever it is written (as in nvcc).
  Command c = parseOk({"-c", "b.cpp", "-x", "cu", "c.o"});
  EXPECT_EQ(c.inputs[0].kind, InputKind::Cuda);
  EXPECT_EQ(c.inputs[1].kind, InputKind::PassThrough);
  Command cxx = parseOk({"-x", "c++", "-c", "a.cu"});
  EXPECT_EQ(cxx.inputs[0].kind, InputKind::PassThrough);
}

TEST(DriverCommandLine, PhasesThatDoNotLink) {
  for (const char *flag : {"-c", "-dc", "-dw", "-E", "-M", "-MM", "-ptx", "-cubin", "-fatbin",
                           "-lib", "-dlink", "--device-link", "-cuda", "--preprocess"})
    EXPECT_FALSE(parseOk({flag, "a.cu"}).links()) << flag;
  EXPECT_TRUE(parseOk({"-MD", "a.cu", "-o", "app"}).links());
  EXPECT_TRUE(parseOk({"-shared", "a.o", "-o", "libx.so"}).links());
  EXPECT_FALSE(parseOk({"-v"}).links());  // no inputs: nothing to link
  Command deps = parseOk({"-M", "a.cu"});
  EXPECT_TRUE(deps.depsOnly);
  EXPECT_TRUE(parseOk({"-MMD", "-c", "a.cu"}).depsWithCompile);
}

TEST(DriverOptionsFile, SplitsLikeAShell) {
  EXPECT_EQ(splitOptionsFileText("-I/a  \"-I/b c\"\n'-DX=\"1\"' d\\ e.cu\n"),
            (Args{"-I/a", "-I/b c", "-DX=\"1\"", "d e.cu"}));
  EXPECT_EQ(splitOptionsFileText("  \n"), Args{});
  EXPECT_EQ(splitOptionsFileText("\"\""), Args{""});
}

namespace {
std::map<std::string, std::string> gFiles;
bool fakeRead(const std::string &path, std::string &contents) {
  auto it = gFiles.find(path);
  if (it == gFiles.end()) return false;
  contents = it->second;
  return true;
}
}  // namespace

TEST(DriverOptionsFile, ExpandedInPlaceNestedAndListed) {
  gFiles = {{"inc.rsp", "-I/x -DY"}, {"objs.rsp", "a.o --options-file inc.rsp"},
            {"more.rsp", "b.cu"}};
  ExpandResult r = expandOptionsFiles({"-c", "--options-file", "objs.rsp", "-optf=more.rsp,inc.rsp",
                                       "-o", "out"},
                                      fakeRead);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.args, (Args{"-c", "a.o", "-I/x", "-DY", "b.cu", "-I/x", "-DY", "-o", "out"}));
}

TEST(DriverOptionsFile, UnreadableFileIsAnError) {
  gFiles.clear();
  ExpandResult r = expandOptionsFiles({"--options-file", "nope.rsp"}, fakeRead);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0], "cannot read options file 'nope.rsp'");
  gFiles = {{"self.rsp", "-optf self.rsp"}};
  r = expandOptionsFiles({"-optf", "self.rsp"}, fakeRead);  // a cycle ends with an error
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("nested too deeply"), std::string::npos);
}

// --- the nvcc command line ---------------------------------------------------------------

namespace {
DriverConfig testConfig() {
  DriverConfig config;
  config.nvcc = "/cuda/bin/nvcc";
  config.includeDirs = {"/ldcc/ldruntime/include", "/ldcc/kernels/include"};
  config.linkLibraries = {"/b/libldruntime.a", "/b/libldcc_kernels.a"};
  config.linkFlags = {"-lcuda"};
  return config;
}
}  // namespace

TEST(DriverNvccCommand, TranslatedInputReplacedAndIncludesFirst) {
  Command c = parseOk({"-O2", "-c", "src/app.cu", "-o", "app.o"});
  auto cmd = buildNvccCommand(c, testConfig(), {{2, "src/app.cu", "/tmp/ldcc-1/app.cu"}});
  EXPECT_EQ(cmd, (Args{"/cuda/bin/nvcc", "-Xcompiler=-iquote,src", "-I/ldcc/ldruntime/include",
                       "-I/ldcc/kernels/include", "-O2", "-c", "/tmp/ldcc-1/app.cu", "-o",
                       "app.o"}));
}

TEST(DriverNvccCommand, LinkAddsRuntimeLibrariesLast) {
  Command c = parseOk({"app.cu", "util.o", "-lm", "-o", "app"});
  auto cmd = buildNvccCommand(c, testConfig(), {{0, "app.cu", "/tmp/t/app.cu"}});
  EXPECT_EQ(cmd, (Args{"/cuda/bin/nvcc", "-Xcompiler=-iquote,.", "-I/ldcc/ldruntime/include",
                       "-I/ldcc/kernels/include", "/tmp/t/app.cu", "util.o", "-lm", "-o", "app",
                       "/b/libldruntime.a", "/b/libldcc_kernels.a", "-lcuda"}));
  // Linking objects only: no include directories, the libraries still.
  Command link = parseOk({"a.o", "b.o", "-o", "app"});
  EXPECT_EQ(buildNvccCommand(link, testConfig(), {}),
            (Args{"/cuda/bin/nvcc", "a.o", "b.o", "-o", "app", "/b/libldruntime.a",
                  "/b/libldcc_kernels.a", "-lcuda"}));
}

TEST(DriverNvccCommand, OneIncludeDirectoryPerSourceDirectory) {
  Command c = parseOk({"-c", "x/a.cu", "x/b.cu", "y/c.cu"});
  auto cmd = buildNvccCommand(c, testConfig(),
                              {{1, "x/a.cu", "/t/a.cu"}, {2, "x/b.cu", "/t/b.cu"},
                               {3, "y/c.cu", "/t/c.cu"}});
  EXPECT_EQ(cmd, (Args{"/cuda/bin/nvcc", "-Xcompiler=-iquote,x", "-Xcompiler=-iquote,y",
                       "-I/ldcc/ldruntime/include", "-I/ldcc/kernels/include", "-c", "/t/a.cu",
                       "/t/b.cu", "/t/c.cu"}));
  // nvcc would split a directory with a comma in -Xcompiler: -I then.
  Command comma = parseOk({"-c", "a,b/k.cu"});
  EXPECT_EQ(buildNvccCommand(comma, testConfig(), {{1, "a,b/k.cu", "/t/k.cu"}})[1], "-Ia,b");
}

TEST(DriverKeep, NextToTheOutputOrInKeepDir) {
  EXPECT_EQ(keptPath(parseOk({"src/app.cu", "-o", "build/app"}), "src/app.cu"),
            "build/app.ldcc.cu");
  EXPECT_EQ(keptPath(parseOk({"src/app.cu"}), "src/app.cu"), "app.ldcc.cu");
  EXPECT_EQ(keptPath(parseOk({"-x", "cu", "-c", "k.cpp", "-o", "o/k.o"}), "k.cpp"),
            "o/k.ldcc.cpp");
  EXPECT_EQ(keptPath(parseOk({"--keep-dir", "tmp", "a.cu", "-o", "b/a"}), "a.cu"),
            "tmp/a.ldcc.cu");
}

TEST(DriverLineDirective, AddedOnlyWhenTheTranslatorEmittedNone) {
  EXPECT_EQ(withLineDirective("int x;\n", "dir/a \"q\".cu"),
            "#line 1 \"dir/a \\\"q\\\".cu\"\nint x;\n");
  std::string translated = "#include <ldcc/translated.cuh>\n# line 1 \"a.cu\"\nint x;\n";
  EXPECT_EQ(withLineDirective(translated, "a.cu"), translated);
}

TEST(DriverDepfile, TemporaryPathsBecomeTheOriginals) {
  std::string dep = "obj.o : /tmp/ldcc-1/app.cu \\\n    /src/helper.h \\\n"
                    "    /usr/include/stdio.h\n";
  EXPECT_EQ(rewriteDepfile(dep, {{"/tmp/ldcc-1/app.cu", "/src/my app.cu"}}),
            "obj.o : /src/my\\ app.cu \\\n    /src/helper.h \\\n    /usr/include/stdio.h\n");
  EXPECT_EQ(depfileEscape("a b#$c"), "a\\ b\\#$$c");
}

TEST(DriverDepfile, WhereNvccWritesThem) {
  EXPECT_EQ(depfileCandidates(parseOk({"-MD", "-MT", "t", "-MF", "x.d", "-c", "a.cu", "-o", "a.o"})),
            Args{"x.d"});
  EXPECT_EQ(depfileCandidates(parseOk({"-MD", "-c", "src/a.cu", "-o", "obj/a.o"})),
            Args{"obj/a.d"});
  EXPECT_EQ(depfileCandidates(parseOk({"-MMD", "-c", "src/a.cu"})), Args{"a.d"});
  EXPECT_EQ(depfileCandidates(parseOk({"-M", "a.cu", "-o", "deps.txt"})), Args{"deps.txt"});
  EXPECT_EQ(depfileCandidates(parseOk({"-M", "a.cu"})), Args{});  // stdout
  EXPECT_EQ(depfileCandidates(parseOk({"-c", "a.cu"})), Args{});
}
