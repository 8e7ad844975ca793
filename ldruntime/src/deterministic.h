// Deterministic mode for the global memory of translated kernels (DESIGN.md section 7): every block
// runs on its own copy of the global memory the launch writes, all copies start from the state at
// the launch, and the blocks' changes are merged in block order afterwards.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "block_level.h"
#include "ldcc/translated.cuh"

namespace ldcc::rt {

struct OrderedBlocksOutcome {
  bool ran = false;
  std::string warning;              // why it could not run (memory), for the user
  cudaError_t error = cudaSuccess;  // a launch of the clone that failed
  uint32_t batch = 0, batches = 0;  // blocks per launch, launches
  uint64_t extra_device_bytes = 0;
};

// Launches whose threads read only bytes they store themselves (all_read_own_stores: write-only
// targets, or ones updated in place, p[i] += v) run on the program's own memory, with no copies: the
// blocks side by side, the warps of a block side by side. Each store marks the 4-byte words it writes
// with its warp (GlobalTarget::marks, mark_store), and the store hooks gather each block's footprint;
// when two warps of a block stored to one word, or two blocks' footprints overlap, the targets get back the bytes
// they had (saved before the launch) and `ran` is false: the launch then goes to run_ordered_blocks,
// whose block order decides (its warps in turns where the launch updates a target: as they would be
// in place). Otherwise nothing is left for any order to decide: a thread reads only bytes it stores,
// which no other warp stores, so none sees another's stores, as in any order of the warps and blocks.
// Which path a launch takes depends on its input alone: until one unit reads a byte another stored,
// every unit reads what it would in warp and block order, so stores to a shared word happen on every
// run or on none. Without room for the marks only a write-only launch runs in place: a thread's first
// store to a global target in a region waits until the block's lower warps have ended the region
// (LaunchCtx::store_order), so the stores of a region land in warp order, as when the warps take
// turns, and only the blocks' footprints decide. `error`: a launch that failed.
struct InPlaceOutcome {
  bool ran = false;
  bool overlapped = false;  // it ran, two units' stores overlapped, and the targets are restored
  bool warps_overlapped = false;  // ... the blocks' footprints did not, but two warps of a block stored to one word
  cudaError_t error = cudaSuccess;
  uint64_t extra_device_bytes = 0;
};
InPlaceOutcome run_in_place(const std::vector<GlobalAllocation>& targets, dim3 grid, uint32_t warps, LaunchCtx& ctx,
                            cudaStream_t stream, const std::function<cudaError_t()>& launch);

// Runs the clone (through `launch`, with `ctx` filled in: deterministic level, the copies, the
// batch's block table) over every block, then leaves the merged result in the targets.
//
// Within a block, each of its `warps` gets its own copy too when `warp_copies_allowed` (the
// translator found no reason for turns, KernelDesc::warp_turns, and the launch is not one that
// run_in_place takes and that updates a target: its warps keep the order they have in place), their
// bytes fit in LDCC_WARP_COPIES and one block's copies fit in memory: warp w sees
// the targets as they were at the last site plus its own writes, and at every site the warps'
// changed bytes go into the block's copy in warp order (the highest warp that changed a byte wins),
// as with shared memory. Otherwise the warps take turns region by region on the block's copy.
//
// Semantics: block b sees the targets as they were when the launch started plus its own writes, and
// the result is the start state with every block's changed bytes applied in block order (the highest
// block that changed a byte wins), then the bytes global atomics changed. When the device cannot hold
// one copy per block, the blocks run in batches of consecutive blocks, each batch from the same start
// state, gathered in a separate buffer: the batch size never changes the result.
OrderedBlocksOutcome run_ordered_blocks(const std::vector<GlobalAllocation>& targets, dim3 grid, uint32_t warps,
                                        bool warp_copies_allowed, LaunchCtx& ctx, cudaStream_t stream,
                                        const std::function<cudaError_t()>& launch);

}  // namespace ldcc::rt
