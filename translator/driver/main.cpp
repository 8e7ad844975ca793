// ldcc: the nvcc-compatible compiler driver (DESIGN.md section 1).
//
//   ldcc [--mode=check|deterministic|off] [--keep] [--translate-only] [-v] <nvcc arguments>
//
// Exit status: nvcc's; 1 for ldcc's own errors (bad option, missing input, a source clang
// cannot parse), each reported on one "ldcc: error: ..." line.
#include "driver/Driver.h"
#include "driver/Process.h"

#include <csignal>
#include <exception>
#include <iostream>

int main(int argc, char **argv) {
  int rc = 1;
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    rc = ldcc::driver::runDriver(args, ldcc::driver::defaultConfig());
  } catch (const std::exception &e) {
    std::cerr << "ldcc: error: " << e.what() << "\n";
    rc = 1;
  } catch (...) {
    std::cerr << "ldcc: error: internal error\n";
    rc = 1;
  }
  // Interrupted while nvcc ran: the temporary files are gone; die of the same signal.
  if (int sig = ldcc::driver::receivedSignal()) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  return rc;
}
