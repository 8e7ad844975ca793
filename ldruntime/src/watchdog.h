// The watchdog (DESIGN.md section 8: a checked run never hangs). Each unit of a checked launch runs on
// its own copy of the memory it writes, so a loop that waits for another thread's store (a flag read
// through inline PTX or a helper, which the translator's spin-wait refusal does not see) waits forever
// on a copy nobody else writes. Every checked launch is watched from its start until the work it
// enqueued completes; one that takes longer than LDCC_WATCHDOG seconds stops the program with an error
// naming the kernel, rather than hanging it (a running kernel cannot be cancelled, and the device
// memory it holds cannot be read back).
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace ldcc {

// LDCC_WATCHDOG parsed: seconds, 0 for never; `text` not a count warns and gives the default.
uint64_t watchdog_seconds_flag(const std::string& text);

// The exit code of a program the watchdog stopped (as `timeout`'s).
constexpr int kWatchdogExitCode = 124;

// Watches one launch of `kernel` (`mode`: for the message) from its construction. At its destruction
// the launch's work is all on `stream`: if the stream is busy still, the watch goes on until an event
// recorded there completes, else it ends. Cheap: a lock, a clock read and a stream query; the
// watchdog thread starts with the first watch.
class LaunchWatch {
 public:
  LaunchWatch(const char* kernel, const char* mode, cudaStream_t stream);
  ~LaunchWatch();
  LaunchWatch(const LaunchWatch&) = delete;
  LaunchWatch& operator=(const LaunchWatch&) = delete;

 private:
  uint64_t id_ = 0;
  cudaStream_t stream_;
};

// For tests: the limit the watchdog uses from now on (seconds; 0: none).
void set_watchdog_seconds(uint64_t seconds);

}  // namespace ldcc
