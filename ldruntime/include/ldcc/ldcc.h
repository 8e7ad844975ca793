// ldcc library linkage: check a hand-written kernel without the translator.
//
//   ldcc::Checker checker("scatter");
//   const uint32_t out = checker.add_target("out", d_out, n * sizeof(int), sizeof(int));
//   checker.run(blocks, [&](const ldcc::DeviceView& view) {
//     scatter<<<blocks, threads, 0, checker.stream()>>>(view, d_in, n);
//   });
//
// and in the kernel, reach every written buffer through the view, for the unit (here the block):
//
//   __global__ void scatter(ldcc::DeviceView view, const int* in, int n) {
//     int* out = view.target<int>(0, blockIdx.x);
//     ...
//   }
//
// run() executes the launch as often as the check needs (two passes per round of the
// memory-adaptive plan) on private copies, diffs them with the fused checking kernels, commits the
// result to the real buffers and reports races on stderr (and as JSON with LDCC_REPORT). Writes to
// memory that is not a registered target are repeated by every pass: register everything the kernel
// writes. Guard printf with view.first_execution().
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ldcc/kernels/race_record.h"

#if defined(__CUDACC__)
#define LDCC_HOST_DEVICE __host__ __device__
#else
#define LDCC_HOST_DEVICE
#endif

namespace ldcc {

enum class Mode { Check, Deterministic, Off };

constexpr uint32_t kMaxViewTargets = 16;

// What a kernel sees of one target: the program's buffer and, while checked, the private copies.
struct ViewTarget {
  uint8_t* original;
  uint8_t* copies;
  uint64_t stride;
};

// Passed by value to the checked kernel.
struct DeviceView {
  enum Execution : uint32_t { Unchecked = 0, First = 1, Repeat = 2 };
  uint32_t execution = Unchecked;
  uint32_t num_targets = 0;
  const uint32_t* copy_of_unit = nullptr;  // this round's unit -> copy map; null while unchecked
  ViewTarget targets[kMaxViewTargets] = {};

  // Where `unit` reads and writes target `id`: its private copy while checked, else the buffer itself.
  template <typename T>
  LDCC_HOST_DEVICE T* target(uint32_t id, uint32_t unit) const {
    const ViewTarget& t = targets[id];
    if (copy_of_unit == nullptr) return reinterpret_cast<T*>(t.original);
    return reinterpret_cast<T*>(t.copies + uint64_t(copy_of_unit[unit]) * t.stride);
  }
  // True in exactly one execution of the launch: print from there only.
  LDCC_HOST_DEVICE bool first_execution() const { return execution != Repeat; }
};

// One race, in the program's terms.
struct Race {
  RaceKind kind;
  std::string space;   // "global" or "shared"
  std::string kernel;
  std::string region;  // the synchronization points that open and close the region
  std::string target;
  uint64_t element_size = 1;
  uint64_t byte_lo = 0, byte_hi = 0;  // within the target
  std::string unit_kind;              // "block", "warp", "unit"
  std::vector<uint32_t> units_a, units_b;  // one unit each unless a memory-limited round shared copies
  // Level W in translated kernels: the block the warps belong to ("(2,0,0)", the lowest where the
  // same race happened in several), the element as the source writes it ("tile[3][5]", or "thread
  // 37" for a local), who raced, in words, and in how many other blocks of the launch it happened.
  std::string block;
  std::string element;
  std::string units_text;
  uint64_t other_blocks = 0;
};

struct LaunchResult {
  bool checked = false;         // false: ran unchecked (mode off, nothing to check, or no memory)
  bool deterministic = false;   // deterministic mode: `checked` says the launch ran in unit order
  std::string warning;          // why it ran unchecked, when it did for a reason the user should know
  uint32_t copies = 0, rounds = 0;
  uint64_t extra_device_bytes = 0;  // private copies + U + log
  uint64_t dropped_records = 0;     // race records the bounded log could not hold
  std::vector<Race> races;
  std::string kernel;               // translated launches: the kernel's name
  uint64_t regions = 0;             // translated launches: region executions checked (level B: the kernel)
  // A checked launch that left part of its memory unchecked: which part and why, e.g. "global memory
  // between the warps of a block (the blocks' write footprints in out interleave)"; "" when none.
  std::string gap;
  // A translated launch whose launch-time proof of race freedom held (ldcc/proof.h): it ran the
  // original kernel, and counts as checked (in deterministic mode, as in unit order).
  bool proven = false;
};

struct Options {
  Mode mode;                    // default: LDCC_MODE, else check
  uint64_t memory_budget = 0;   // bytes for copies; 0: LDCC_MEM_LIMIT, else half of free memory
  cudaStream_t stream = nullptr;
  std::string unit_kind = "block";
  Options();
};

class Checker {
 public:
  explicit Checker(std::string kernel, Options options = Options());
  ~Checker();
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  // Registers memory the kernel writes; returns its id for DeviceView::target. `bytes` may be any
  // length and `device_ptr` any alignment.
  uint32_t add_target(std::string name, void* device_ptr, uint64_t bytes, uint64_t element_size = 1);
  cudaStream_t stream() const;

  // Runs `launch` on `units` units under the selected mode; the races also go to the process report.
  LaunchResult run(uint32_t units, const std::function<void(const DeviceView&)>& launch);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Races reported so far in this process, and the summary line printed at exit.
std::vector<Race> races_so_far();
void print_summary();

}  // namespace ldcc
