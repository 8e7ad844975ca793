// LDCC_PROFILE: where the time of checked launches goes, phase by phase (the paper's Figure 8). A
// launch creates one PhaseProfile; the code marks the end of each phase with PhaseProfile::end,
// which drains the launch's stream, so profiled runs are slower than plain ones. At exit every
// phase's total and count over the process go to the file as CSV: phase,microseconds,count (rewritten
// after every launch, so a run stopped early leaves the totals of the launches it finished). Next to
// it, `<file>.kernels` splits the same totals by kernel: kernel,phase,microseconds,count.
#pragma once
#include <cuda_runtime_api.h>

#include <chrono>

namespace ldcc::rt {

class PhaseProfile {
 public:
  // The launch of `kernel` (a name that outlives the profile); its first phase starts now.
  PhaseProfile(cudaStream_t stream, const char* kernel);
  ~PhaseProfile();
  PhaseProfile(const PhaseProfile&) = delete;
  PhaseProfile& operator=(const PhaseProfile&) = delete;
  // The phase that just ended on this thread's current launch; nothing when not profiling.
  static void end(const char* phase);
  // The same, its time shared between two phases: `first` gets `fraction` of it, `second` the rest.
  static void end_split(const char* first, const char* second, double fraction);

 private:
  cudaStream_t stream_;
  const char* kernel_;
  std::chrono::steady_clock::time_point last_;
  PhaseProfile* outer_;
};

}  // namespace ldcc::rt
