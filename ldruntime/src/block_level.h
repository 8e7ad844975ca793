// Level B for translated kernels (DESIGN.md sections 4 and 5): the global memory a launch writes,
// found at launch time, and the inter-block two-pass check over it in memory-adaptive rounds.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "ldcc/kernels/race_record.h"
#include "ldcc/ldcc.h"
#include "ldcc/translated.cuh"

namespace ldcc::rt {

// One allocation (or __device__ variable) the launch writes, whole: the kernel may reach any of it
// from the pointer it was given.
struct GlobalAllocation {
  std::string name;            // the first written pointer into it, as the kernel names it
  uint8_t* base = nullptr;
  uint64_t bytes = 0;
  uint64_t name_offset = 0;    // where that pointer points, from base: element 0 of the reports
  uint64_t element_size = 1;
  // No thread of the launch reads it: every written pointer into it is GlobalDesc::write_only and no
  // other pointer argument points into it.
  bool write_only = false;
  // No thread of the launch reads a byte of it that the thread does not store itself: every written
  // pointer into it is GlobalDesc::write_only or ::updated_in_place and no other pointer argument
  // points into it. (write_only implies it.)
  bool reads_own_stores = false;
  // Another allocation of the program starts where it ends (cudaMalloc packs allocations): a pointer
  // to its end is taken for that allocation's, not for an end pointer of this one.
  bool end_is_allocation = false;
};

// No thread of the launch reads any of them (GlobalAllocation::write_only, every one).
inline bool all_write_only(const std::vector<GlobalAllocation>& targets) {
  for (const GlobalAllocation& t : targets)
    if (!t.write_only) return false;
  return true;
}

// No thread of the launch reads a byte of them that it does not store itself
// (GlobalAllocation::reads_own_stores, every one): blocks whose stores are disjoint see none of one
// another's writes.
inline bool all_read_own_stores(const std::vector<GlobalAllocation>& targets) {
  for (const GlobalAllocation& t : targets)
    if (!t.reads_own_stores) return false;
  return true;
}

// How plan lines name the targets of an all_read_own_stores launch.
inline const char* own_stores_kind(const std::vector<GlobalAllocation>& targets) {
  return all_write_only(targets) ? "write-only targets" : "targets read only where stored";
}

// One copy of every target, each padded as the checking kernels need (padded_copy_bytes).
inline uint64_t copy_bytes(const std::vector<GlobalAllocation>& targets) {
  uint64_t bytes = 0;
  for (const GlobalAllocation& t : targets) bytes += padded_copy_bytes(t.bytes);
  return bytes;
}

// The device's view of allocation `a` with its copies.
inline GlobalTarget global_target(const GlobalAllocation& a, uint8_t* copies, uint64_t stride, uint64_t span) {
  return GlobalTarget{a.base, a.bytes, copies, stride, span, uint32_t(!a.end_is_allocation), nullptr, nullptr};
}

// The allocation [base, base + bytes) `pointer` points into, from cuMemGetAddressRange; false when the
// driver knows none (host memory, a stale pointer).
bool allocation_of(const void* pointer, const void*& base, size_t& bytes);

// Sets a race's variable, element and byte range from device offsets [lo, hi) into allocation `a`,
// counted from the pointer the kernel was given, so the element is the index the kernel writes.
void place_in_allocation(Race& race, const GlobalAllocation& a, uint64_t lo, uint64_t hi);

// The written allocations of one launch: every GlobalDesc's pointer (read from the launch's
// arguments) or symbol (from the clone's query), widened to its allocation with
// cuMemGetAddressRange, deduplicated. Null pointers are skipped; a pointer the driver does not know
// (host memory, managed memory it cannot range) goes to `problems`. `args` and `pointee_sizes` as
// launch_kernel has them, with `num_params` parameters.
std::vector<GlobalAllocation> find_global_allocations(const KernelDesc& desc, void** args,
                                                      const unsigned long long* pointee_sizes, unsigned num_params,
                                                      const std::vector<unsigned long long>& query,
                                                      std::vector<std::string>& problems);

// The first target in which two blocks' footprints overlap, or none. `footprints`: [lo, hi) per
// block and target at [2 * (block * targets + target)], hi <= lo where the block wrote nothing.
std::optional<size_t> first_overlapping_target(const std::vector<unsigned long long>& footprints, size_t targets,
                                               uint32_t blocks);

// Every block's write footprint in each target, [lo, hi), gathered on the device: by the ww-check
// with one copy per block (its changes), or by the store hooks (LaunchCtx::store_bounds). Device
// bounds per target, lo[blocks] then hi[blocks], handed out as the ww-check's FootprintBounds and
// read back laid out [block][target][lo, hi] as LaunchCtx::footprints and
// first_overlapping_target expect.
class BlockFootprints {
 public:
  BlockFootprints(size_t targets, uint32_t blocks, cudaStream_t stream) : targets_(targets), blocks_(blocks) {
    device_ = DeviceBuffer::allocate(2 * targets * blocks * sizeof(unsigned long long), stream);
    // lo starts at ~0 (every byte 0xff), hi at 0.
    for (size_t i = 0; device_ && i < targets; ++i) {
      cudaMemsetAsync(of(i).lo, 0xff, blocks * sizeof(unsigned long long), stream);
      cudaMemsetAsync(of(i).hi, 0, blocks * sizeof(unsigned long long), stream);
    }
  }
  // Every target's bounds, as LaunchCtx::store_bounds lays them out (null if the device had no room).
  unsigned long long* device() const { return device_ ? device_.get<unsigned long long>() : nullptr; }
  uint64_t bytes() const { return device_.bytes() + owners_.bytes(); }
  // Target i's bounds, or none if the device had no room for them; with its word owners once
  // gather_owners has made room for them.
  FootprintBounds of(size_t i) const {
    if (!device_) return {};
    auto* d = device_.get<unsigned long long>();
    return FootprintBounds{d + 2 * i * blocks_, d + (2 * i + 1) * blocks_, blocks_,
                           owners_ ? owners_.get<uint32_t>() + owner_offsets_[i] : nullptr};
  }
  // The ww-checks also record which block changed each word of the targets (`strides`: their padded
  // copies' bytes), for footprint lists; nothing if the device has no room.
  void gather_owners(const std::vector<uint64_t>& strides, cudaStream_t stream);
  // Level W's lists of target i's footprints (kernels/footprint_lists.h), from the word owners; an
  // empty buffer, with `why`, where they cannot serve (no owners, no memory, or two blocks changed
  // bytes of one word). `largest_block_bytes`: the most bytes one block's lists cover. Once per
  // target: the build sorts the owners in place.
  DeviceBuffer lists(size_t i, const GlobalAllocation& target, cudaStream_t stream, uint64_t& largest_block_bytes,
                     std::string& why);
  // After the ww-checks: empty if the bounds were not gathered.
  std::vector<unsigned long long> read(cudaStream_t stream) const {
    if (!device_) return {};
    std::vector<unsigned long long> bounds(2 * targets_ * blocks_);
    cudaMemcpyAsync(bounds.data(), device_.get(), device_.bytes(), cudaMemcpyDeviceToHost, stream);
    if (cudaStreamSynchronize(stream) != cudaSuccess) return {};
    std::vector<unsigned long long> out(2 * targets_ * blocks_);
    for (uint32_t b = 0; b < blocks_; ++b)
      for (size_t i = 0; i < targets_; ++i) {
        out[2 * (b * targets_ + i)] = bounds[2 * i * blocks_ + b];
        out[2 * (b * targets_ + i) + 1] = bounds[(2 * i + 1) * blocks_ + b];
      }
    return out;
  }

 private:
  size_t targets_;
  uint32_t blocks_;
  DeviceBuffer device_;
  DeviceBuffer owners_;                  // every target's word owners, back to back
  std::vector<uint64_t> owner_offsets_;  // target i's first word in owners_
  std::vector<uint64_t> strides_;
};

// Level B's read-write races, made into reports once level W has run: `raced_within(block)` says the
// block raced within itself (level W logged a race in it), so its results differ between executions
// by themselves and a read-write record of it does not show that it read another block's write.
// Those records are left out and counted in `inconclusive` (raw device records, as logged).
using BlockReads = std::function<std::vector<Race>(const std::function<bool(uint32_t block)>& raced_within,
                                                   uint64_t& inconclusive)>;

struct BlockLevelOutcome {
  bool checked = false;
  std::string warning;  // why it did not run (memory), for the user
  std::vector<Race> races;  // write-write races
  BlockReads reads;         // read-write races; set when checked
  uint64_t read_records = 0;  // how many read-write records `reads` holds (none: blocks independent, `reads` empty)
  uint64_t reads_device_bytes = 0;  // device memory `reads` holds until it runs (its records, with one round)
  uint32_t copies = 0, rounds = 0;
  uint64_t extra_device_bytes = 0;
  uint64_t dropped_records = 0;
  bool atomics = false;  // the kernel did global atomics (level B checked write-write races only)
  // Each block's write footprint, [lo, hi) per target, at [2 * (block * targets + target)] (hi == 0:
  // the block wrote nothing), two ways; neither where it was not gathered, nor with global atomics:
  //   diff_footprints: with one copy per block, the bytes its copy changed, on the device (level W
  //     reads them only when the hooks' footprints do not serve: the read waits for the device, once
  //     per launch), with the word owners that per-block lists are built from where they interleave;
  //   store_footprints: the bytes its stores hit (the hooks', so byte-exact; none where
  //     KernelDesc::warp_turns says some stores pass them by).
  std::shared_ptr<BlockFootprints> diff_footprints;
  std::vector<unsigned long long> store_footprints;
  bool fewer_copies_by_cost = false;    // fewer copies than memory allows, by run_block_level's choice
  // check_blocks' disjoint-stores probe found overlapping stores or atomics on global memory, and stopped.
  bool probe_failed = false;
};

// Runs level B: `launch` starts the clone once with `ctx` (which this function fills with the level,
// the copies and the round's block table); the targets are left as they were (the level W execution
// that follows is the one whose results stay). The copies are as many as memory allows, or fewer in
// more rounds where this kernel's earlier launches measured that cheaper (planner.h cheapest_copies);
// a launch that finds races that way is checked again with as many as memory allows, so its reports
// name single blocks. `own_copies`: as many as memory allows, for this launch and the kernel's later
// ones (level W could not use the footprints the hooks gave: they include stores of unchanged
// values, so they may overlap where the copies' diffs do not).
BlockLevelOutcome run_block_level(const KernelDesc& desc, const std::vector<GlobalAllocation>& targets, dim3 grid,
                                  LaunchCtx& ctx, cudaStream_t stream, const std::function<cudaError_t()>& launch,
                                  const std::string& region, bool own_copies = false);

}  // namespace ldcc::rt
