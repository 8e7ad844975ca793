// Launch-time proofs (ldcc/proof.h) are functions of the launch alone: its grid and block, its
// arguments' bytes and the allocations its pointer arguments point into. Programs launch one kernel
// the same way over and over (a pass loop, ping-pong buffers), so each verdict is kept under that key
// and a repeated launch costs the key, not the proof (an enumerated proof walks every thread).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "ldcc/proof.h"

namespace ldcc::rt::proof {

// The key of one launch: grid, block, every parameter's bytes (args[1 + i], param_sizes[i] bytes)
// and, for each pointer parameter (pointee_sizes[i] != 0), the base and size of its allocation as
// `lookup` finds it (zeros when it finds none): a freed and reallocated buffer at the same address
// but of another size is another launch.
std::string launch_key(dim3 grid, dim3 block, void** args, const unsigned long long* param_sizes,
                       const unsigned long long* pointee_sizes, unsigned num_params, const AllocationLookup& lookup);

class VerdictCache {
 public:
  std::optional<bool> find(const void* kernel, const std::string& key);
  // Past kMaxVerdictsPerKernel a kernel's verdicts are dropped and collected again.
  void store(const void* kernel, const std::string& key, bool holds);

 private:
  std::mutex mutex_;
  std::unordered_map<const void*, std::unordered_map<std::string, bool>> verdicts_;
};

constexpr size_t kMaxVerdictsPerKernel = 1024;

}  // namespace ldcc::rt::proof
