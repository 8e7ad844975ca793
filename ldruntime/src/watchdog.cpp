#include "watchdog.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "flags.h"

namespace ldcc {
namespace {

using Clock = std::chrono::steady_clock;

struct Watched {
  std::string kernel, mode;
  Clock::time_point since;
  cudaEvent_t done = nullptr;  // set when the launch function returned with its work still queued
};

// The launches in progress, and the thread that looks at them once a second.
struct Watchdog {
  std::mutex mutex;
  std::map<uint64_t, Watched> launches;
  uint64_t next_id = 1;
  uint64_t seconds = watchdog_seconds_flag(flags().watchdog);
  bool started = false;

  void start_locked() {
    if (started) return;
    started = true;
    // Detached: it never ends, and the process exits without joining it.
    std::thread([this] { run(); }).detach();
  }

  void run() {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      std::lock_guard<std::mutex> lock(mutex);
      const Clock::time_point now = Clock::now();
      for (auto it = launches.begin(); it != launches.end();) {
        Watched& w = it->second;
        if (w.done && cudaEventQuery(w.done) != cudaErrorNotReady) {
          cudaEventDestroy(w.done);
          it = launches.erase(it);
          continue;
        }
        if (seconds && now - w.since >= std::chrono::seconds(seconds)) stop(w);
        ++it;
      }
    }
  }

  [[noreturn]] void stop(const Watched& w) {
    std::fprintf(stderr,
                 "ldcc: error: the %s launch of '%s' has not finished after %llu s. Each unit of a checked launch runs "
                 "on its own copy of the memory it writes, so a loop that waits for another thread's store (a flag "
                 "read through inline PTX or a helper) waits forever; or the kernel is only slow. Stopping the "
                 "program: run it with LDCC_MODE=off to run it natively, or raise LDCC_WATCHDOG (seconds; 0: never).\n",
                 w.mode.c_str(), w.kernel.c_str(), (unsigned long long)seconds);
    std::fflush(stdout);
    std::fflush(stderr);
    // Not exit(): its handlers would free device memory, which waits for the stuck kernel.
    std::_Exit(kWatchdogExitCode);
  }
};

Watchdog& watchdog() {
  static Watchdog* w = new Watchdog;  // never destroyed: its thread outlives static destruction
  return *w;
}

}  // namespace

uint64_t watchdog_seconds_flag(const std::string& text) {
  if (const std::optional<uint64_t> seconds = parse_count(text)) return *seconds;
  std::fprintf(stderr, "ldcc: LDCC_WATCHDOG='%s' is not a number of seconds; using 300\n", text.c_str());
  return 300;
}

void set_watchdog_seconds(uint64_t seconds) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.seconds = seconds;
}

LaunchWatch::LaunchWatch(const char* kernel, const char* mode, cudaStream_t stream) : stream_(stream) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (w.seconds == 0) return;
  w.start_locked();
  id_ = w.next_id++;
  w.launches[id_] = Watched{kernel, mode, Clock::now()};
}

LaunchWatch::~LaunchWatch() {
  if (!id_) return;
  cudaEvent_t done = nullptr;
  // Work still queued (an asynchronous deterministic launch): watched until it completes.
  if (cudaStreamQuery(stream_) == cudaErrorNotReady &&
      cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess &&
      cudaEventRecord(done, stream_) != cudaSuccess) {
    cudaEventDestroy(done);
    done = nullptr;
  }
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (done) w.launches[id_].done = done;
  else w.launches.erase(id_);
}

}  // namespace ldcc
