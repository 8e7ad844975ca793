// Level B's executions of a translated kernel (DESIGN.md section 4): the blocks clone's state and
// hooks.
//
// Level B runs every block on its own copy of the global targets and compares the copies between
// launches; inside a launch the block runs as the user wrote it. So it has a clone of its own
// (`kernel__ldcc_blocks`, with BlockRunState where the checked clone has ThreadState): the original
// body with the global pointers rebased, the stores, atomics, clock reads and printf calls hooked, and
// the shared variables in one layout copy in dynamic shared memory (zeroed, as level W's S starts),
// but no sites: barriers and returns stay as written and no local is hoisted. Run as the checked clone, whose registers are
// sized for level W's site protocol, level B took 2 to 6 times the original's time (H100: b+tree's
// clone at 64 registers and a 2.5 KB stack, em's at 168).
#pragma once

#include "ldcc/kernels/region_check.cuh"

namespace ldcc::rt {

// Kept where the compiler can follow it: `ctx` must stay known to point at the kernel's parameter, so
// the copies' addresses read through it stay global ones; no call takes the state.
struct BlockRunState {
  const LaunchCtx* ctx;
  BlockState* bs;  // helper functions' shared variables find their offsets here (helper_off)
  uint32_t global_copy;  // the block's copy of the global targets in this round
  uint32_t clock_ticks;
  // Per global target, the bytes [lo, hi) this thread stored to (LaunchCtx::store_bounds); bit i of
  // written_targets: target i has a range.
  uint64_t written_lo[kMaxGlobalTargets], written_hi[kMaxGlobalTargets];
  uint32_t written_targets;
  alignas(16) uint8_t sink[32];  // where stores to memory that is not a target go

  __device__ BlockRunState() {}
  BlockRunState(const BlockRunState&) = delete;
  // Every way out of the kernel (a return anywhere, or its end) passes here.
  __device__ ~BlockRunState();
};

// Level B attribution launch: the block of a store at `off` into `target`, if it hits a watched range.
static __device__ __noinline__ void watch_store(const LaunchCtx& c, uint32_t target, uint64_t off, uint32_t size) {
  for (uint32_t w = 0; w < c.num_watches; ++w) {
    const Watch& r = c.watches[w];
    if (r.target != target || off >= r.hi || off + size <= r.lo) continue;
    const unsigned long long slot = atomicAdd(&c.watch_log[0], 1ull);
    if (slot < c.watch_capacity) c.watch_log[1 + slot] = (uint64_t(w) << 32) | block_rank();
  }
}

__device__ __forceinline__ BlockRunState::~BlockRunState() {
  if (ctx->store_bounds) publish_store_bounds(*ctx, written_lo, written_hi, written_targets);
}

// Kernel entry: the block's layout copy of the shared targets (dynamic shared memory: the launch
// gives LaunchCtx::stride bytes), zeroed.
__device__ __forceinline__ void enter(const LaunchCtx& ctx, BlockState& bs, BlockRunState& t, uint8_t* dynamic_shared,
                                      uint32_t) {
  t.ctx = &ctx;
  t.bs = &bs;
  t.global_copy = ctx.copy_of_block ? ctx.copy_of_block[block_rank()] : 0;
  t.clock_ticks = 0;
  t.written_targets = 0;
  for (uint32_t i = 0; i < ctx.num_globals; ++i) {
    t.written_lo[i] = ~0ull;
    t.written_hi[i] = 0;
  }
  zero_in_block(dynamic_shared, ctx.stride);
  __syncthreads();
}

// `*store(t, &lvalue) = value`: stores into a global target are noted (footprints, watches); stores
// to global memory the kernel was not found to write go to the sink (the level W execution makes
// them, once).
template <typename T>
__device__ __forceinline__ T* store(BlockRunState& t, T* p) {
  const void* const q = address_of(p);
  if (!is_global(p)) return p;
  const int target = global_copy_target(t, q);
  if (target < 0) return sizeof(T) <= sizeof(t.sink) ? reinterpret_cast<T*>(t.sink) : p;
  if (t.ctx->num_watches) watch_store(*t.ctx, uint32_t(target), offset_in_target(t, t.ctx->globals[target], q), sizeof(T));
  if (t.ctx->store_bounds) note_written(t, target, q, sizeof(T));
  return p;
}

// Atomics: global ones act on the atomics' copy, shared ones on the block's layout copy.
template <typename T>
__device__ __forceinline__ T* redirect_atomic(BlockRunState& t, T* p) {
  T* q = atomics_copy_address(t, p);
  return q ? q : p;
}

template <typename R, typename F>
__device__ __forceinline__ R run_atomic(BlockRunState&, F&& f) {
  return f();
}

// A count, as in deterministic mode: the two executions level B compares read the same times.
template <typename R, typename F>
__device__ __forceinline__ R read_clock(BlockRunState& t, F&&) {
  return R(++t.clock_ticks);
}

// Level B's executions are rehearsals: the level W execution prints.
__device__ __forceinline__ bool prints(const BlockRunState&) { return false; }

}  // namespace ldcc::rt
