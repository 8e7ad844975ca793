// Running nvcc: fork/exec, exit status, and the command line as -v prints it.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ldcc::driver {

// Runs argv[0] (looked up in PATH when it has no '/') with argv, waits, and returns its
// exit code: the program's own, 128 + N when signal N ended it, 127 when it could not be
// started (with one "ldcc: error: cannot run ..." line on stderr). With capturedStdout,
// the child's stdout is collected there instead of being inherited; with stderrFilter,
// each line the child writes to stderr is passed through it on the way to ldcc's.
//
// While the child runs, SIGINT, SIGTERM and SIGHUP sent to ldcc are passed on to it, so
// ldcc outlives it and removes its temporary files; receivedSignal() then says which one
// arrived, and the caller re-raises it after cleaning up.
using LineFilter = std::function<std::string(const std::string &line)>;
int runProcess(const std::vector<std::string> &argv, std::string *capturedStdout = nullptr,
               const LineFilter &stderrFilter = nullptr);
int receivedSignal();

// A word quoted for a POSIX shell when it needs it ('a b' -> "'a b'").
std::string shellQuote(const std::string &word);
std::string commandLineString(const std::vector<std::string> &argv);

}  // namespace ldcc::driver
