// Level W inside a translated kernel (DESIGN.md sections 3, 4, 6): what the checked clone of a user
// kernel calls at its synchronization sites, and the hooks its statements go through.
//
// Every block keeps, for its shared-memory targets laid out back to back ("the layout"):
//   S  the committed state, U the union, P_0..P_{W-1} one private copy per warp, and P_W, the copy
//   atomic operations act on (a pseudo-unit: a plain write to a byte an atomic changed is a race with
//   it, atomics among themselves are not).
// A thread reaches a site, and `arrive` runs the block-cooperative step for the pass that ended:
//   end of pass 1: fused ww-check (U, pass-2 states), undo of this region's global stores, REWIND
//     (or CONTINUE when no warp wrote: pass 2 would repeat pass 1);
//   end of pass 2: rw-check fused with the commit S := U, replicate S to every copy, CONTINUE.
// Threads that returned from the kernel park at the exit site and keep taking part, so the
// cooperative loops always see the whole block.
// Deterministic mode (DESIGN.md section 7) runs the same clone once: at every site the warps' copies
// are merged into S in warp order (the atomics' copy last) and S is replicated, with no check. Global
// targets the same way, over what the warps wrote since the last site, when each warp has its own
// copy of them (LaunchCtx::warp_copies); otherwise the warps of a block take turns on its copy.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "ldcc/kernels/check_ops.cuh"
#include "ldcc/kernels/footprint_lists.h"

namespace ldcc::rt {
using namespace ldcc::ops;

constexpr uint32_t kMaxTargets = 48;         // shared variables of one kernel, helpers' included
constexpr uint32_t kMaxHelperSlots = 32;     // helper functions' own __shared__ variables in a TU
constexpr uint32_t kStoreLogEntries = 32;    // global stores one thread may undo per region
constexpr uint32_t kAtomicLogEntries = 32;   // atomic results one thread may replay per region
constexpr uint32_t kMaxGlobalTargets = 16;  // global allocations and __device__ variables one launch writes
constexpr uint32_t kMaxSymbols = 16;        // written __device__ variables of one kernel
constexpr uint32_t kMaxWatches = 16;        // byte ranges one attribution launch watches
// The query: shared targets (2 + 8 words each), then the symbols: count, (address, bytes) each.
constexpr uint32_t kSymbolWords = 2 + 8 * kMaxTargets;
constexpr uint32_t kQueryWords = kSymbolWords + 1 + 2 * kMaxSymbols;

// RaceRecord.target of register and level W global races: kRegisterTarget, kGlobalTarget (race_record.h).

// Counters the host reads after a checked launch.
// kCyclesAtSites, kCyclesInKernel: LDCC_PROFILE at level W, summed over blocks (see SiteCycles).
// kRegionsWithoutWrites: level W regions no warp wrote in, which ended without a re-execution.
// kRegionsWithoutCrossReads: level W regions written in only where no warp loaded (ends_without_rerun),
// which ended without a re-execution too.
enum Counter : uint32_t {
  kRegionsChecked = 0,
  kPass2Skipped = 1,
  kGlobalAtomics = 2,
  kCyclesAtSites = 3,
  kCyclesInKernel = 4,
  kRegionsWithoutWrites = 5,
  kRegionsWithoutCrossReads = 6,
  kNumCounters = 7
};

// Which check a launch of the clone runs (DESIGN.md section 4).
//   warps:  level W, the regions between barriers re-executed in place;
//   blocks: one execution of level B, by the blocks clone (block_run.cuh): every block on its copy
//           of the global targets, shared memory and barriers as in the original, no printf, stores
//           to other global memory dropped (the level W execution that follows makes them).
//   deterministic: one execution, the only one: every block on its copy of the global targets (the
//           host merges them in block order afterwards), the warps on their copies of the shared
//           targets, merged in warp order at every site; clock reads count, atomics act on one copy.
enum Level : uint32_t { kLevelWarps = 0, kLevelBlocks = 1, kLevelDeterministic = 2 };

// copy_of_block entry of a block that does not run in this launch (deterministic mode's batches).
constexpr uint32_t kSkipBlock = 0xffffffffu;

// Level B attribution: [lo, hi) of global target `target`, whose writers a launch records.
struct Watch {
  uint32_t target;
  uint64_t lo, hi;
};

// A global allocation or __device__ variable the kernel writes, and its private copies.
struct GlobalTarget {
  uint8_t* original;
  uint64_t bytes;
  uint8_t* copies;  // copy k at copies + k * stride
  uint64_t stride;
  uint64_t span;    // bytes of every copy together: a pointer in [copies, copies + span) is privatized
  // A pointer to its end is rebased with it (a loop's end pointer, compared with pointers into the
  // copies); false where another allocation starts there: such a pointer is that allocation's.
  uint32_t rebase_end;
  // Level W, non-null: each block's footprint in it as lists of its chunks and words
  // (footprint_lists.h), where the blocks' [lo, hi) in LaunchCtx::footprints would interleave.
  const uint32_t* lists;
  // Deterministic mode on the program's memory, non-null: per 4-byte word of the target (marked_words
  // of them), bit w set when warp w of a block stored to it (mark_store).
  uint32_t* marks;
};

// The store marks of a target of `bytes` bytes: one per 4-byte word, the last one partial.
__host__ __device__ constexpr uint64_t marked_words(uint64_t bytes) { return (bytes + 3) / 4; }

// The loads of a region, as the clone's marks give them to `arrive` (translator/rewrite/WriteOnlyParams.h,
// paramLoads): bit i, the thread loaded through pointer parameter i (i < kMarkedParams); kUnknownLoads,
// it may have loaded any global memory.
constexpr uint32_t kMarkedParams = 31;
constexpr uint32_t kUnknownLoads = 1u << 31;
constexpr uint8_t kNoTarget = 0xff;  // LaunchCtx::param_targets of a parameter into no global target

// Passed by value as the first parameter of every checked clone.
struct LaunchCtx {
  unsigned long long* query_out;  // non-null: describe the layout (see describe) and return
  uint8_t* scratch;               // null: the copies live in dynamic shared memory
  uint32_t* slot_busy;            // global scratch: one flag per slot
  uint32_t num_slots;
  uint64_t layout_bytes;          // S's length: every target plus the dynamic shared memory
  uint64_t stride;                // one copy, padded
  uint64_t offsets[kMaxTargets];  // of each target in the layout
  RaceLogView log;
  LogFilter log_filter;  // level W's log goes through it (block_log)
  unsigned long long* counters;
  uint32_t level;                   // Level
  uint32_t num_globals;             // 0: global memory is not privatized in this launch
  uint32_t atomics_copy;            // level B: the copy every block's global atomics act on
  const uint32_t* copy_of_block;    // level B and deterministic: the copy of each block in this launch
  // Deterministic mode with global targets, one of:
  //   warp_copies > 0: warp w of the block on copy k uses copy warp_copies + k * warps + w; at every
  //     site the warps' writes go into the block's copy in warp order, as with shared memory;
  //   ordered_warps: a block's warps share its copy of global memory, so they run each region one
  //     after another in warp order (a block's reads and writes of global memory then happen in one
  //     order on every run and every GPU).
  uint32_t warp_copies;
  uint32_t ordered_warps;
  // Deterministic mode on the program's own memory (every global target read only by the threads
  // that store to it: write-only, or updated in place): the warps of a block run each region side by side, and a thread's
  // first store to a global target in a region waits until every lower warp of its block has
  // reached the region's end, so the stores of a region land in warp order. The blocks gather their
  // store footprints in store_bounds (below); the host checks that no two blocks' footprints overlap.
  uint32_t store_order;
  uint32_t profile;  // LDCC_PROFILE: count level W's cycles at sites (SiteCycles)
  // Level W with global targets: warp w of every block uses copy w, U is copy `warps`, and block b
  // checks only [lo, hi) = footprints[2 * (b * num_globals + i) ...] of target i, or the chunks and
  // words of its GlobalTarget::lists (level B proved the blocks' footprints disjoint).
  const unsigned long long* footprints;
  // Level W, nonzero: the store hooks see every store (KernelDesc::warp_turns is null), so a site
  // checks only the part of the block's global footprint its threads stored to in the region's
  // executions (ThreadState::written): every copy and U still hold S elsewhere.
  uint32_t global_store_flags;
  // Level B attribution launch: every store into a watched range appends (watch << 32 | block) to
  // watch_log[1..watch_capacity], counting in watch_log[0].
  uint32_t num_watches;
  uint32_t watch_capacity;
  unsigned long long* watch_log;
  // Level B, non-null: every block's store footprint, the bytes [lo, hi) its stores hit in each global
  // target (atomicMin into store_bounds[2 * target * blocks + block], atomicMax into
  // store_bounds[(2 * target + 1) * blocks + block]). With copies shared between blocks the copies'
  // diffs cannot tell the blocks apart; the hooks can (LaunchCtx::footprints for level W).
  unsigned long long* store_bounds;
  Watch watches[kMaxWatches];
  GlobalTarget globals[kMaxGlobalTargets];
  // Level W with global_store_flags: the global target pointer parameter i points into (or just past,
  // see rebase_end), or kNoTarget.
  uint8_t param_targets[kMarkedParams];
};

// The global target of `targets` that `p` points into, or just past the end of where the target
// rebases such a pointer (GlobalTarget::rebase_end); -1 for none. Inside one wins over just past.
__host__ __device__ inline int target_holding(const GlobalTarget* targets, uint32_t n, const void* p) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  for (uint32_t i = 0; i < n; ++i)
    if (b >= targets[i].original && b < targets[i].original + targets[i].bytes) return int(i);
  for (uint32_t i = 0; i < n; ++i)
    if (targets[i].rebase_end && b == targets[i].original + targets[i].bytes) return int(i);
  return -1;
}

// The bytes [lo, hi) of a global target as a block keeps them (WrittenRanges): the
// 16-byte chunks [first, end) that hold them, in 32 bits so the shared-memory atomics combine them in
// one instruction. An end past 2^32 - 1 chunks is kToTheEnd: the target's end. An empty range stays
// empty (first >= end).
constexpr uint32_t kToTheEnd = 0xffffffffu;
struct ChunkSpan {
  uint32_t first, end;
};
__host__ __device__ constexpr ChunkSpan chunk_span(uint64_t lo, uint64_t hi) {
  if (lo >= hi) return ChunkSpan{kToTheEnd, 0};
  const uint64_t first = lo / 16, end = (hi + 15) / 16;
  return ChunkSpan{uint32_t(first < kToTheEnd - 1 ? first : kToTheEnd - 1), uint32_t(end < kToTheEnd ? end : kToTheEnd)};
}
// Where the chunks [first, end) of a target whose copies are `stride` bytes apart start and end, in bytes.
__host__ __device__ constexpr uint64_t span_start(uint32_t first) { return uint64_t(first) * 16; }
__host__ __device__ constexpr uint64_t span_stop(uint32_t end, uint64_t stride) {
  return end == kToTheEnd || uint64_t(end) * 16 > stride ? stride : uint64_t(end) * 16;
}

// What the threads of a block gather at one visit of a level W site, before its first barrier. The
// block keeps two (BlockState::tallies, by ThreadState::visits): thread 0 clears the next visit's
// while this one runs, so no barrier has to separate the clearing from the threads' atomics. This
// holds as long as every read of a tally or of WrittenRanges comes before the visit's last barrier,
// and BlockState::pass is read before its first: a read after a site returns (in the clone) needs a
// per-thread copy, as ThreadState::region_key is.
struct SiteTally {
  uint32_t region_key;
  // Pass 1 with global_store_flags: what the block's threads loaded through (kMarkedParams bits);
  // kUnknownLoads also where a thread made stores or atomics the copies do not hold (ends_without_rerun).
  uint32_t loaded_params;
  uint32_t overflowed;  // pass 1: a thread's store or atomic log overflowed in the region
  // The block logged a race in this launch before this visit (BlockState::raced as its threads found
  // it on arriving: one set it in the region's code too, comparing its locals after a pass 2; the
  // visit's own checks may set it as others still read it).
  uint32_t raced;
};

// Per global target, the 16-byte chunks [first, end) the block's threads wrote (ChunkSpan): since the
// last site (LaunchCtx::warp_copies), or in both executions of a region (level W, global_store_flags).
// The block keeps two (BlockState::written, by ThreadState::regions), for the same reason as the
// tallies: level W clears a region's during the site that ends pass 1 of the region before it,
// deterministic mode during the site that ends the region before it.
struct WrittenRanges {
  uint32_t targets;  // bit i: first/end[i] hold a range
  uint32_t first[kMaxGlobalTargets], end[kMaxGlobalTargets];
  // Level W with global_store_flags: bit w when warp w stored to the target in the region's executions.
  uint32_t writer_warps[kMaxGlobalTargets];
  // Target i's chunks as bytes [lo, hi) of copies `stride` bytes apart (hi >= lo).
  __host__ __device__ void bytes(uint32_t i, uint64_t stride, uint64_t& lo, uint64_t& hi) const {
    lo = span_start(first[i]);
    const uint64_t stop = span_stop(end[i], stride);
    hi = stop > lo ? stop : lo;
  }
  // The targets that more than one warp stored to (most have one writer, or none).
  __device__ uint32_t several_writers() const {
    uint32_t out = 0;
    for (uint32_t rest = targets; rest; rest &= rest - 1)
      if (__popc(writer_warps[__ffs(rest) - 1]) > 1) out |= rest & ~(rest - 1);
    return out;
  }
  __device__ void clear(uint32_t num_targets) {
    for (uint32_t i = 0; i < num_targets; ++i) {
      first[i] = kToTheEnd;
      end[i] = 0;
      writer_warps[i] = 0;
    }
    targets = 0;
  }
};

struct BlockState {
  uint8_t* area;      // S | U | P_0 .. P_W, `stride` bytes each
  uint32_t pass;      // 1 or 2
  uint32_t slot;
  uint32_t turn;      // ordered_warps: the warp running the current region
  uint32_t raced;     // level W: the block logged a race in this launch (RaceLogView::block_raced)
  SiteTally tallies[2];
  WrittenRanges written[2];
  long long entered, at_sites;  // LaunchCtx::profile: thread 0's clock at entry, its cycles at sites
  uint32_t arrived;             // LaunchCtx::store_order: bit w, warp w has reached the region's end
  // For warp_stores_overlap, one target's bytes [lo, hi) each warp stored to in pass 1.
  unsigned long long warp_lo[32], warp_hi[32];
  uint64_t helper_off[kMaxHelperSlots];
};

// BlockState is in shared memory, but the clones reach it through a generic pointer: its atomics go
// through these, as shared-memory ones (a generic atomic tests the address space first, and made a
// 64-bit minimum in shared memory a compare-and-swap loop: b+tree's sites).
__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void shared_or(uint32_t* p, uint32_t v) {
  asm volatile("red.shared.or.b32 [%0], %1;" ::"r"(shared_address(p)), "r"(v) : "memory");
}
__device__ __forceinline__ void shared_min(uint32_t* p, uint32_t v) {
  asm volatile("red.shared.min.u32 [%0], %1;" ::"r"(shared_address(p)), "r"(v) : "memory");
}
__device__ __forceinline__ void shared_max(uint32_t* p, uint32_t v) {
  asm volatile("red.shared.max.u32 [%0], %1;" ::"r"(shared_address(p)), "r"(v) : "memory");
}

struct StoreEntry {
  uint8_t* addr;
  uint32_t size;
  uint8_t old[16];
};

// One thread's state. Lives in the clone's frame and is passed by reference to checked helpers.
struct ThreadState {
  const LaunchCtx* ctx;
  BlockState* bs;
  uint8_t* base;         // this warp's copy P_warp
  uint8_t* copies;       // P_0
  uint64_t stride;
  uint32_t warp, warps;
  uint32_t global_copy;  // the copy of the global targets this thread uses
  uint32_t block_copy;   // deterministic mode: its block's copy (its warps' own with warp_copies)
  // Per global target, the bytes [lo, hi) this thread wrote since its last site (deterministic mode
  // with LaunchCtx::warp_copies, level W with global_store_flags); bit i of written_targets: target i
  // has a range (a site publishes only those: most regions write few targets, or none). A clear bit
  // means an empty range: whatever clears a bit resets that range too.
  uint64_t written_lo[kMaxGlobalTargets], written_hi[kMaxGlobalTargets];
  uint32_t written_targets;
  uint32_t open;         // the site that opened this thread's region
  // The sites this thread has visited (level W), and the regions it has ended (the parities choose the
  // block's SiteTally and WrittenRanges); the region key its block settled on at its last site.
  uint32_t visits, regions;
  uint32_t region_key;
  bool stores_in_turn;   // LaunchCtx::store_order: the lower warps have ended this region
  uint32_t pass1_site;   // where pass 1 ended
  bool at_exit;
  bool overflow;         // a log below is full: this region cannot be re-executed
  bool compare;          // set on CONTINUE after a pass 2: compare locals now
  uint32_t num_stores, num_atomics, replay;
  uint32_t clock_ticks;
  int bar_pred;
  uint32_t bar_true, bar_live;
  StoreEntry stores[kStoreLogEntries];
  unsigned long long atomics[kAtomicLogEntries];
  __device__ bool deterministic() const { return ctx->level == kLevelDeterministic; }
  // Shared memory is not privatized: the block works on one copy, plain accesses and shared atomics
  // alike, and a site has nothing to merge: deterministic mode with one warp per block (a single
  // unit: its copy is the state).
  __device__ bool one_copy() const { return deterministic() && warps == 1; }
  // One execution per launch, nothing replayed: deterministic mode's.
  __device__ bool single_execution() const { return deterministic(); }
  // The execution whose effects stay: pass 1 of level W or the deterministic one.
  __device__ bool first_execution() const { return bs->pass == 1; }
  __device__ SiteTally& tally() const { return bs->tallies[visits & 1]; }
  __device__ WrittenRanges& written() const { return bs->written[regions & 1]; }
};

// Names any type in a declaration, arrays and function pointers included: type_t<float[4]> x;
template <typename T>
using type_t = T;

// A hoisted const local of class type, declared without its const (it is assigned where it was
// declared), read as const where the program reads it: calls resolve to the same overloads.
template <typename T>
__device__ __forceinline__ const T& as_const(T& v) {
  return v;
}

// The K-th of the references `first, rest...`.
template <size_t K, typename First, typename... Rest>
__device__ __forceinline__ decltype(auto) kth_of(First& first, Rest&... rest) {
  if constexpr (K == 0) return first;
  else return kth_of<K - 1>(rest...);
}

// Binding K of `auto& [b0, ..., b{N-1}] = x`: how the clone names the bindings of a hoisted structured
// binding of a tuple-like type (get<K>, as the declaration binds them; translator planBindings).
template <size_t K, size_t N, typename T>
__device__ __forceinline__ decltype(auto) binding(T& x) {
  static_assert(N >= 1 && N <= 6, "structured bindings of 1 to 6 names");
  if constexpr (N == 1) { auto& [b0] = x; return kth_of<K>(b0); }
  else if constexpr (N == 2) { auto& [b0, b1] = x; return kth_of<K>(b0, b1); }
  else if constexpr (N == 3) { auto& [b0, b1, b2] = x; return kth_of<K>(b0, b1, b2); }
  else if constexpr (N == 4) { auto& [b0, b1, b2, b3] = x; return kth_of<K>(b0, b1, b2, b3); }
  else if constexpr (N == 5) { auto& [b0, b1, b2, b3, b4] = x; return kth_of<K>(b0, b1, b2, b3, b4); }
  else { auto& [b0, b1, b2, b3, b4, b5] = x; return kth_of<K>(b0, b1, b2, b3, b4, b5); }
}

enum Action : int { kContinue = 0, kRewind = 1, kDone = 2 };

__device__ __forceinline__ uint32_t thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ uint32_t block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ uint32_t block_rank() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// ---- layout description (query launch) --------------------------------------------------------
// out[0] = number of targets; then per target 8 words: bytes, align, element size, rank, extents[4].
template <typename T>
__device__ void describe(unsigned long long* out, uint32_t i) {
  using Element = std::remove_all_extents_t<T>;
  unsigned long long* d = out + 2 + 8 * i;
  if constexpr (std::extent_v<T, 0> == 0 && std::is_array_v<T>) {
    d[0] = 0;  // extern __shared__ T x[]: its size comes from the launch
    d[1] = alignof(Element);
  } else {
    d[0] = sizeof(T);
    d[1] = alignof(T);
  }
  d[2] = sizeof(Element);
  d[3] = std::rank_v<T>;
  d[4] = std::extent_v<T, 0>;
  d[5] = std::extent_v<T, 1>;
  d[6] = std::extent_v<T, 2>;
  d[7] = std::extent_v<T, 3>;
}

// A written __device__ variable: its address and size, as the runtime's target list needs them.
template <typename T>
__device__ void describe_symbol(unsigned long long* out, uint32_t i, T* symbol) {
  if (i >= kMaxSymbols) return;
  out[kSymbolWords] = i + 1;
  out[kSymbolWords + 1 + 2 * i] = reinterpret_cast<unsigned long long>(symbol);
  out[kSymbolWords + 2 + 2 * i] = sizeof(T);
}

// Every target starts 16-byte aligned (the runtime lays them out so) in a copy that is too. Written as
// a rounding, the compiler can see it and merge neighbouring accesses into vector ones, as it does for
// the original __shared__ arrays (em's E-step: 34 LDS.128 natively, 136 scalar LDS in the clone).
template <typename T>
__device__ __forceinline__ T& target_ref(uint8_t* base, uint64_t offset) {
  return *reinterpret_cast<T*>(base + offset / 16 * 16);
}

// What the clones put where the program asks an accessor for the dynamic shared memory (the CUDA
// samples' `T* s = SharedMemory<T>();`, whose conversion returns its extern __shared__ array): this
// copy of that array, as whichever pointer the program converts it to.
struct DynamicShared {
  unsigned char* address;
  template <typename T>
  __device__ __forceinline__ operator T*() const {
    return reinterpret_cast<T*>(address);
  }
};

// ThreadState::base where the copies are in dynamic shared memory (LaunchCtx::scratch null, as enter
// lays them out), reached from the extern array so the compiler knows the address space: the clone for
// copies in shared memory (`kernel__ldcc_checked_in_shared`) reaches its shared variables through it.
__device__ __forceinline__ uint8_t* copy_in_shared(const ThreadState& t, uint8_t* dynamic_shared) {
  return dynamic_shared + (2u + t.warp) * t.stride / kCopyPadding * kCopyPadding;
}

// ---- block-cooperative passes over the layout -------------------------------------------------
// The passes that arrive_in_block runs are inlined into it: as calls, each saved and restored the
// registers live across it in local memory (H100, 2026-11-24: scan's check 311 -> 262 ms, bisect's
// 117 -> 100 ms). arrive_in_block itself stays a call: inlined at every site, its spills tripled.
// The layout as the checking ops see it: S, U, and the warps' copies followed by the atomics' copy.
__device__ __forceinline__ TargetBuffers layout_buffers(const ThreadState& t) {
  TargetBuffers b;
  b.original = t.bs->area;
  b.bytes = t.ctx->layout_bytes;
  b.uni = t.bs->area + t.stride;
  b.copies = t.copies;
  b.stride = t.stride;
  b.num_copies = t.one_copy() ? 1 : t.warps + 1;
  b.target_id = 0;
  return b;
}

// The threads that run a site's pass: the block's first `size` threads. A pass with little to visit
// (b+tree's sites: a chunk or two of global memory for 32 warps) runs in the warps it needs, and the
// rest of the block goes straight to the next barrier instead of paying the pass's setup, spills and
// loop tests too.
struct Team {
  uint32_t rank, size;
  __device__ bool member() const { return rank < size; }
};

__device__ __forceinline__ Team whole_block() { return Team{thread_rank(), block_threads()}; }

// The team for `work` threads' worth of work: whole warps, at most the block.
__device__ __forceinline__ Team team_for(uint64_t work) {
  return Team{thread_rank(), uint32_t(min(uint64_t(block_threads()), (work + 31) / 32 * 32))};
}

// A team's loop over the layout's chunks (or any 16-byte steps in [first, end)).
template <typename Op>
__device__ __forceinline__ void for_team_chunks(const Team& team, uint64_t first, uint64_t end, Op op) {
  for (uint64_t off = first + uint64_t(team.rank) * 16; off < end; off += uint64_t(team.size) * 16) op(off);
}

static __device__ __noinline__ void block_replicate(TargetBuffers b) {
  for_team_chunks(whole_block(), 0, b.stride, [&](uint64_t off) { replicate_chunk<16>(b, off); });
}

static __device__ __forceinline__ void block_merge_ordered(TargetBuffers b, const Team& team) {
  for_team_chunks(team, 0, b.stride, [&](uint64_t off) { merge_ordered_chunk<16, true>(b, off); });
}

// Returns whether a copy changed one of this thread's chunks.
static __device__ __forceinline__ bool block_ww_check(TargetBuffers b, RaceLogView log, const Team& team) {
  bool wrote = false;
  for_team_chunks(team, 0, b.stride, [&](uint64_t off) { wrote = ww_check_chunk_streaming<true>(b, off, log) || wrote; });
  return wrote;
}

// rw-check of the warps' copies (not the atomics' copy: pass 2 replays atomics without touching it),
// commit S := U, and every copy := S for the next region, chunk by chunk.
// One chunk of it: `checked` are the copies the rw-check compares with U (the first ones of `all`),
// `all` those S goes to. A checked copy the rw-check found equal to U already holds the new S, so
// when none differed only the copies after the checked ones are written.
__device__ __forceinline__ void rw_commit_chunk(const TargetBuffers& checked, const TargetBuffers& all, uint64_t off,
                                                const RaceLogView& log, bool check) {
  if (check && !rw_check_chunk<16, true>(checked, off, log)) {
    const Chunk<16> s = load_chunk<16>(all.uni + off);
    for (uint32_t k = checked.num_copies; k < all.num_copies; ++k) store_chunk<16>(copy_at(all, k, off), s);
    return;
  }
  if (!check) commit_chunk<16>(all, off);
  replicate_chunk<16>(all, off);
}

static __device__ __forceinline__ void block_rw_commit(TargetBuffers b, RaceLogView log, bool check, const Team& team) {
  TargetBuffers warps = b;
  warps.num_copies = b.num_copies - 1;
  for_team_chunks(team, 0, b.stride, [&](uint64_t off) { rw_commit_chunk(warps, b, off, log, check); });
}

// ---- global targets at level W: the block's footprint ----------------------------------------------
// The same steps as the layout's, over memory other blocks use too, so only inside the block's own
// footprint: whole 16-byte chunks with the layout's ops, the bytes at its ends (next to other blocks'
// bytes) one by one. Chunk-wide, every thread's copies' loads overlap; byte by byte, a 16 KB footprint
// took bisect ~0.4 ms per barrier on an H100 (17 copies of it do not fit in L1 next to the layout).
__device__ __forceinline__ TargetBuffers global_buffers(const ThreadState& t, uint32_t i) {
  const GlobalTarget& g = t.ctx->globals[i];
  return TargetBuffers{g.original, g.bytes, g.copies, g.stride, g.copies + uint64_t(t.warps) * g.stride, t.warps,
                       kGlobalTarget | i};
}

// The first of the ascending entries [first, end) of `list` that is at least `value`.
__device__ __forceinline__ uint32_t lower_bound(const uint32_t* list, uint32_t first, uint32_t end, uint64_t value) {
  while (first < end) {
    const uint32_t mid = first + (end - first) / 2;
    if (list[mid] < value) first = mid + 1;
    else end = mid;
  }
  return first;
}

// This block's bytes of target b in chunks [c_lo, c_hi) by its lists (footprint_lists.h), visited by
// `team`: whole chunks where only it wrote, and the words it wrote where other blocks' bytes share the
// chunk, each word by a warp (`by_warp`), or byte by byte where the team has a partial warp (only when
// it is a whole block with one). A few chunks are looked up in the owner maps, and go to warps too;
// more are walked in the block's lists from a binary search (a dependent load per step: b+tree's
// sites, a chunk or two each, spent ~50 us in four searches per target), a thread per chunk.
template <typename ChunkOp, typename ByteOp, typename WarpOp>
__device__ __forceinline__ void for_each_listed_part(const TargetBuffers& b, const uint32_t* lists, uint64_t c_lo,
                                                     uint64_t c_hi, const Team& team, ChunkOp chunk, ByteOp byte,
                                                     WarpOp by_warp) {
  const uint32_t blocks = gridDim.x * gridDim.y * gridDim.z, block = block_rank();
  const kernels::FootprintListLayout layout{blocks, b.stride / 16};
  const uint32_t* chunk_offsets = lists;
  const uint32_t* word_offsets = lists + blocks + 1;
  const uint32_t* chunks = lists + layout.chunks_at();
  const uint32_t* words = lists + layout.words_at();
  const uint32_t* chunk_owner = lists + layout.chunk_owners_at();
  const uint32_t* word_owner = lists + layout.word_owners_at();
  // Words to the team's warps in turn when all are whole, else their bytes to its threads.
  const bool by_warps = team.size % 32 == 0;
  const uint32_t units = by_warps ? team.size / 32 : team.size / 4 * 4;
  const uint32_t unit = by_warps ? team.rank / 32 : team.rank;
  const auto word_part = [&](uint64_t w, uint32_t part) {
    if (by_warps) return by_warp(b, 4 * w, part, false);
    if (4 * w + part < b.bytes) byte(b, 4 * w + part);
  };
  const uint32_t part = by_warps ? team.rank % 32 : unit % 4;
  const uint32_t stride = by_warps ? units : units / 4;
  const uint32_t first_unit = by_warps ? unit : unit / 4;
  if (c_hi - c_lo <= team.size / 16) {
    if (by_warps) {
      for (uint64_t c = c_lo + unit; c < c_hi; c += units)
        if (chunk_owner[c] == block) by_warp(b, 16 * c, part, true);
    } else {
      for (uint64_t c = c_lo + team.rank; c < c_hi; c += team.size)
        if (chunk_owner[c] == block) chunk(b, 16 * c);
    }
    if (unit < units)
      for (uint64_t w = 4 * c_lo + first_unit; w < 4 * c_hi; w += stride)
        if (word_owner[w] == block) word_part(w, part);
    return;
  }
  for (uint64_t j = lower_bound(chunks, chunk_offsets[block], chunk_offsets[block + 1], c_lo) + uint64_t(team.rank);
       j < chunk_offsets[block + 1] && chunks[j] < c_hi; j += team.size)
    chunk(b, 16 * uint64_t(chunks[j]));
  if (unit < units)
    for (uint64_t j = lower_bound(words, word_offsets[block], word_offsets[block + 1], 4 * c_lo) + first_unit;
         j < word_offsets[block + 1] && words[j] < 4 * c_hi; j += stride)
      word_part(words[j], part);
}

// Every part of the block's global footprint its threads stored to in the region: 16-byte chunks
// (`chunk`, a thread each), bytes at a footprint's ends (`byte`), and, in lists (footprint_lists.h),
// a few chunks and the words of chunks other blocks share (`by_warp(b, off, lane, chunk)`, a warp each).
template <typename ChunkOp, typename ByteOp, typename WarpOp>
__device__ __forceinline__ void for_each_footprint_part(const ThreadState& t, const Team& team, ChunkOp chunk,
                                                        ByteOp byte, WarpOp by_warp) {
  const LaunchCtx& c = *t.ctx;
  // The targets the block's threads stored to in the region (all where the hooks miss stores).
  const WrittenRanges& written = t.written();
  const uint32_t targets = c.global_store_flags ? written.targets : (1u << c.num_globals) - 1;
  static_assert(kMaxGlobalTargets < 32, "a bit per global target");
  for (uint32_t rest = targets; rest; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    // What they stored to, in whole chunks.
    uint64_t stored_lo = 0, stored_hi = c.globals[i].stride;
    if (c.global_store_flags) written.bytes(i, c.globals[i].stride, stored_lo, stored_hi);
    if (c.globals[i].lists) {
      for_each_listed_part(global_buffers(t, i), c.globals[i].lists, stored_lo / 16, stored_hi / 16, team, chunk,
                           byte, by_warp);
      continue;
    }
    const unsigned long long* fp = c.footprints + 2 * (uint64_t(block_rank()) * c.num_globals + i);
    const uint64_t lo = max(uint64_t(fp[0]), stored_lo), hi = min(uint64_t(fp[1]), stored_hi);
    if (lo >= hi) continue;
    const uint64_t first = min(hi, (lo + 15) / 16 * 16), last = max(first, hi / 16 * 16);
    const TargetBuffers b = global_buffers(t, i);
    for_team_chunks(team, first, last, [&](uint64_t off) { chunk(b, off); });
    const uint64_t head = first - lo, edges = head + (hi - last);
    for (uint64_t e = team.rank; e < edges; e += team.size) byte(b, e < head ? lo + e : last + (e - head));
  }
}

// The team for the global passes of a site, once the block's written ranges are published: a thread
// per chunk the block stored to, a warp per word where lists split chunks between blocks; the whole
// block where the hooks miss stores (every target's whole footprint then).
__device__ __forceinline__ Team global_team(const ThreadState& t) {
  const LaunchCtx& c = *t.ctx;
  if (!c.global_store_flags) return c.num_globals ? whole_block() : team_for(0);
  uint64_t work = 0;
  const WrittenRanges& written = t.written();
  for (uint32_t rest = written.targets; rest; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    uint64_t start, stop;
    written.bytes(i, c.globals[i].stride, start, stop);
    const uint64_t chunks = (stop - start) / 16;
    work += c.globals[i].lists ? chunks * 4 * 32 : chunks;
  }
  return team_for(work);
}

// The team for the passes over the layout: a thread per chunk.
__device__ __forceinline__ Team layout_team(const ThreadState& t) { return team_for(t.stride / 16); }

// Returns whether a copy changed one of this thread's chunks or bytes of the footprints. With kCommit,
// where the region ends after pass 1 (ends_without_rerun), the ww-check commits U as it goes instead of
// leaving the pass-2 states for a second walk of the footprint to commit (b+tree's sites: the two walks
// were 55% of their cycles, bench/results/site-phases-h200-2026-11-29).
template <bool kCommit>
static __device__ __forceinline__ bool block_global_ww(const ThreadState& t, RaceLogView log, const Team& team) {
  bool wrote = false;
  for_each_footprint_part(
      t, team,
      [&](const TargetBuffers& b, uint64_t off) { wrote = ww_check_chunk_streaming<true, kCommit>(b, off, log) || wrote; },
      [&](const TargetBuffers& b, uint64_t x) {
        const uint8_t s = b.original[x];
        uint8_t u = s;
        uint32_t writer = kNoUnit;
        for (uint32_t k = 0; k < b.num_copies; ++k) {
          const uint8_t p = b.copies[k * b.stride + x];
          if (p == s) continue;
          if (writer != kNoUnit) log_race(log, RaceKind::WriteWrite, b.target_id, writer, k, x, x + 1);
          writer = k;
          u = p;
        }
        b.uni[x] = u;
        if (kCommit && writer != kNoUnit) b.original[x] = u;
        for (uint32_t k = 0; k < b.num_copies; ++k) {
          uint8_t& p = b.copies[k * b.stride + x];
          p = kCommit ? u : p != s ? s : u;
        }
        wrote = wrote || writer != kNoUnit;
      },
      [&](const TargetBuffers& b, uint64_t off, uint32_t lane, bool chunk) {
        wrote = (chunk ? ww_check_by_warp<16, kCommit>(b, off, log, lane)
                       : ww_check_by_warp<4, kCommit>(b, off, log, lane)) ||
                wrote;
      });
  return wrote;
}

static __device__ __forceinline__ void block_global_rw_commit(const ThreadState& t, RaceLogView log, bool check,
                                                              const Team& team) {
  for_each_footprint_part(
      t, team, [&](const TargetBuffers& b, uint64_t off) { rw_commit_chunk(b, b, off, log, check); },
      [&](const TargetBuffers& b, uint64_t x) {
        const uint8_t u = b.uni[x];
        for (uint32_t k = 0; k < b.num_copies; ++k) {
          uint8_t& p = b.copies[k * b.stride + x];
          if (check && p != u) log_race(log, RaceKind::ReadWrite, b.target_id, k, kNoUnit, x, x + 1);
          p = u;
        }
        b.original[x] = u;
      },
      [&](const TargetBuffers& b, uint64_t off, uint32_t lane, bool chunk) {
        if (chunk) rw_commit_by_warp<16>(b, off, log, lane, check);
        else rw_commit_by_warp<4>(b, off, log, lane, check);
      });
}

// ---- warp reductions ------------------------------------------------------------------------------
// Over the active lanes `lanes` of this warp, in each of them: the bitwise or, the maximum, the minimum.
__device__ __forceinline__ uint32_t warp_or(uint32_t lanes, uint32_t v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_or_sync(lanes, v);
#else
  for (uint32_t rest = lanes; rest; rest &= rest - 1) v |= __shfl_sync(lanes, v, __ffs(rest) - 1);
  return v;
#endif
}
// The maximum (kMax) or the minimum.
template <bool kMax>
__device__ __forceinline__ uint32_t warp_extreme(uint32_t lanes, uint32_t v) {
#if __CUDA_ARCH__ >= 800
  return kMax ? __reduce_max_sync(lanes, v) : __reduce_min_sync(lanes, v);
#else
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    const uint32_t other = __shfl_sync(lanes, v, __ffs(rest) - 1);
    v = kMax ? max(v, other) : min(v, other);
  }
  return v;
#endif
}
__device__ __forceinline__ uint32_t warp_max(uint32_t lanes, uint32_t v) { return warp_extreme<true>(lanes, v); }
__device__ __forceinline__ uint32_t warp_min(uint32_t lanes, uint32_t v) { return warp_extreme<false>(lanes, v); }

// The lowest `lo` and the highest `hi` over the active lanes `lanes` of this warp, in each of them.
__device__ __forceinline__ void warp_span(uint32_t lanes, unsigned long long& lo, unsigned long long& hi) {
  if (lanes == 0xffffffffu) {
    for (int delta = 16; delta > 0; delta /= 2) {
      lo = min(lo, __shfl_xor_sync(lanes, lo, delta));
      hi = max(hi, __shfl_xor_sync(lanes, hi, delta));
    }
    return;
  }
  unsigned long long first = lo, last = hi;
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    const int from = __ffs(rest) - 1;
    first = min(first, __shfl_sync(lanes, lo, from));
    last = max(last, __shfl_sync(lanes, hi, from));
  }
  lo = first;
  hi = last;
}

// Whether this thread is the lowest of the active lanes `lanes` (a warp's lanes follow thread_rank).
__device__ __forceinline__ bool lane_leader(uint32_t lanes) { return thread_rank() % 32 == uint32_t(__ffs(lanes) - 1); }

// The bytes [lo, hi) of the active lanes `lanes` join [*into_lo, *into_hi): the lanes combine first and
// the lowest makes the two atomics (one thread's each made every thread of a block queue on the same
// two words). Whether this thread made them (an empty combined range makes none).
__device__ __forceinline__ bool join_warp_span(uint32_t lanes, unsigned long long lo, unsigned long long hi,
                                               unsigned long long* into_lo, unsigned long long* into_hi) {
  warp_span(lanes, lo, hi);
  if (!lane_leader(lanes) || lo >= hi) return false;
  atomicMin(into_lo, lo);
  atomicMax(into_hi, hi);
  return true;
}

// This thread's written ranges (ThreadState::written_lo/hi) join its block's (ThreadState::written, with
// the writer warps when `writers`), a warp's lanes combined first, the lowest making the atomics;
// clear_written_ranges empties them. Per target: one range over a thread's stores to two
// targets covered the copies between them (b+tree's findRangeK stores to two targets in one region:
// 0.5 s of sites).
__device__ __forceinline__ void publish_written_ranges(const ThreadState& t, bool writers) {
  WrittenRanges& written = t.written();
  const uint32_t lanes = __activemask();
  const uint32_t targets = warp_or(lanes, t.written_targets);
  const bool leader = lane_leader(lanes);
  if (targets && leader) shared_or(&written.targets, targets);
  for (uint32_t rest = targets; rest; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    const ChunkSpan span = chunk_span(t.written_lo[i], t.written_hi[i]);
    const uint32_t first = warp_min(lanes, span.first), end = warp_max(lanes, span.end);
    if (!leader || first >= end) continue;
    shared_min(&written.first[i], first);
    shared_max(&written.end[i], end);
    if (writers) shared_or(&written.writer_warps[i], 1u << t.warp);
  }
}

__device__ __forceinline__ void clear_written_ranges(ThreadState& t) {
  for (uint32_t rest = t.written_targets; rest; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    t.written_lo[i] = ~0ull;
    t.written_hi[i] = 0;
  }
  t.written_targets = 0;
}

// ---- deterministic mode: warps of a block in turn ---------------------------------------------------
// The lanes of this warp that exist (the last warp of a block may be partial).
__device__ __forceinline__ uint32_t warp_lanes(const ThreadState& t) {
  const uint32_t n = min(32u, block_threads() - 32u * t.warp);
  return n == 32 ? 0xffffffffu : (1u << n) - 1u;
}

// Waits until every earlier warp of the block has run the region (lane 0 polls, the warp follows).
static __device__ __noinline__ void wait_turn(const ThreadState& t) {
  if (!t.ctx->ordered_warps) return;
  if (thread_rank() % 32 == 0)
    while (*static_cast<volatile uint32_t*>(&t.bs->turn) != t.warp) __nanosleep(64);
  __syncwarp(warp_lanes(t));
  __threadfence_block();  // the earlier warps' stores before this warp's loads
}

// The whole warp reached a site: the next warp's turn.
static __device__ __forceinline__ void pass_turn(const ThreadState& t) {
  if (!t.ctx->ordered_warps) return;
  __syncwarp(warp_lanes(t));
  __threadfence_block();
  if (thread_rank() % 32 == 0) *static_cast<volatile uint32_t*>(&t.bs->turn) = t.warp + 1;
}

// Warp copies of the global targets: every warp's writes since the last site go into its block's
// copy in warp order (a byte a later warp changed wins) and every warp's copy gets the result. Only
// over the bytes the warps wrote (published before the site's first barrier), in whole 16-byte
// chunks: the copies are the block's own, and a byte no warp changed merges to itself. No barrier of
// its own: the site's two enclose it.
static __device__ __forceinline__ void block_merge_warp_globals(const ThreadState& t) {
  const LaunchCtx& c = *t.ctx;
  const WrittenRanges& written = t.written();
  for (uint32_t rest = written.targets; rest; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    const GlobalTarget& g = c.globals[i];
    uint64_t lo, hi;
    written.bytes(i, g.stride, lo, hi);
    TargetBuffers b;
    b.original = g.copies + uint64_t(t.block_copy) * g.stride;
    b.bytes = g.bytes;
    b.uni = nullptr;
    b.copies = g.copies + (uint64_t(c.warp_copies) + uint64_t(t.block_copy) * t.warps) * g.stride;
    b.stride = g.stride;
    b.num_copies = t.warps;
    b.target_id = i;
    // A warp per chunk while each warp has a few chunks to merge (a thread walks the warps' copies one
    // after another); a thread per chunk when many were written. Whole warps only, for the shuffles;
    // lane k loads warp k's copy (a block has at most 32 warps).
    const uint64_t chunks = (hi - lo) / 16;
    if (block_threads() % 32 == 0 && chunks * 4 <= uint64_t(t.warps) * t.warps) {
      for (uint64_t chunk = thread_rank() / 32; chunk < chunks; chunk += t.warps)
        merge_ordered_chunk_by_warp<true>(b, lo + 16 * chunk, thread_rank() % 32);
    } else {
      for_team_chunks(whole_block(), lo, hi, [&](uint64_t off) { merge_ordered_chunk<16, true>(b, off); });
    }
  }
}

// ---- kernel entry --------------------------------------------------------------------------------
// The block's threads zero `bytes` (a multiple of 16) at `p` (shared memory starts as zeros in every
// execution ldcc compares).
__device__ __forceinline__ void zero_in_block(uint8_t* p, uint64_t bytes) {
  for_team_chunks(whole_block(), 0, bytes,
                  [&](uint64_t off) { *reinterpret_cast<uint4*>(p + off) = make_uint4(0, 0, 0, 0); });
}

// Returns false for the query launch. Otherwise claims the block's copies (dynamic shared memory or
// a global scratch slot), zeroes S and replicates it. A block outside this launch's batch ends here.
static __device__ __noinline__ bool enter(const LaunchCtx& ctx, BlockState& bs, ThreadState& t, uint8_t* dynamic_shared,
                                   uint32_t entry_site) {
  if (ctx.query_out) return false;
  // Every thread of the block leaves before any barrier, so no barrier waits for them.
  if (ctx.copy_of_block && ctx.copy_of_block[block_rank()] == kSkipBlock) asm volatile("exit;");
  const uint32_t warps = (block_threads() + 31) / 32;
  if (thread_rank() == 0) {
    bs.pass = 1;
    bs.raced = 0;
    for (SiteTally& tally : bs.tallies) tally = SiteTally{0, 0, 0, 0};
    for (WrittenRanges& written : bs.written) written.clear(ctx.num_globals);
    bs.turn = 0;
    bs.arrived = 0;
    bs.entered = ctx.profile ? clock64() : 0;
    bs.at_sites = 0;
    if (ctx.scratch == nullptr) {
      bs.area = dynamic_shared;
      bs.slot = 0;
    } else {
      // As many slots as blocks can be resident, so a free one always exists.
      uint32_t s = block_rank() % ctx.num_slots;
      while (atomicCAS(&ctx.slot_busy[s], 0u, 1u) != 0u) s = (s + 1) % ctx.num_slots;
      __threadfence();
      bs.slot = s;
      bs.area = ctx.scratch + uint64_t(s) * (warps + 3) * ctx.stride;
    }
  }
  __syncthreads();
  t.ctx = &ctx;
  t.bs = &bs;
  t.stride = ctx.stride;
  t.warps = warps;
  t.warp = thread_rank() / 32;
  t.copies = bs.area + 2 * ctx.stride;
  t.base = t.copies + uint64_t(t.warp) * ctx.stride;
  // Level W: warp w of every block shares global copy w; deterministic mode: one per block, or one per
  // warp with warp_copies.
  t.block_copy = ctx.copy_of_block ? ctx.copy_of_block[block_rank()] : 0;
  t.global_copy = ctx.level == kLevelWarps ? t.warp
                  : ctx.warp_copies        ? ctx.warp_copies + t.block_copy * warps + t.warp
                                           : t.block_copy;
  // Only the launch's targets: the arrays are in local memory, and clearing all of them cost every
  // thread 256 bytes of stores at entry.
  t.written_targets = 0;
  for (uint32_t i = 0; i < ctx.num_globals; ++i) {
    t.written_lo[i] = ~0ull;
    t.written_hi[i] = 0;
  }
  t.open = entry_site;
  t.visits = t.regions = 0;
  t.region_key = 0;
  t.stores_in_turn = false;
  t.pass1_site = entry_site;
  t.at_exit = false;
  t.overflow = false;
  t.compare = false;
  t.num_stores = t.num_atomics = t.replay = 0;
  t.clock_ticks = 0;
  t.bar_pred = 0;
  t.bar_true = t.bar_live = 0;
  zero_in_block(bs.area, ctx.stride);
  __syncthreads();
  block_replicate(layout_buffers(t));
  __syncthreads();
  wait_turn(t);
  return true;
}

// ---- global memory: rebasing, stores and atomics -------------------------------------------------------
// The address a pointer holds, whatever its qualifiers (a `volatile T*` converts to no `const void*`:
// warp-synchronous reductions store through `volatile` pointers into shared memory).
template <typename T>
__device__ __forceinline__ const void* address_of(T* p) {
  return const_cast<const void*>(static_cast<const volatile void*>(p));
}

// Whether `p` is in global memory: __isGlobal, which the compiler folds where it knows the address
// space (cocluster's stores through a pointer into shared memory: 33% of its check-mode time without),
// except for pointers to classes. NVVM (CUDA 13.0) rejects __isGlobal of a rebased pointer to a char
// vector (`uchar4* out`, then a hooked `out[i] = v`): "Call parameter type does not match function
// signature", isspacep.global given a %struct.uchar4*. Those ask the instruction itself.
template <typename T>
__device__ __forceinline__ bool is_global(T* p) {
  if constexpr (std::is_class_v<std::remove_cv_t<T>> || std::is_union_v<std::remove_cv_t<T>>) {
    unsigned global;
    asm("{ .reg .pred g; isspacep.global g, %1; selp.u32 %0, 1, 0, g; }" : "=r"(global) : "l"(address_of(p)));
    return global != 0;
  } else {
    return __isGlobal(address_of(p));
  }
}

__device__ __forceinline__ bool in_copies(const ThreadState& t, const void* p) {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(p);
  return b >= t.copies && b < t.copies + uint64_t(t.warps + 1) * t.stride;
}

// The global target a privatized pointer is in, or -1. (State: ThreadState or BlockRunState.)
template <typename State>
__device__ __forceinline__ int global_copy_target(const State& t, const void* p) {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(p);
  for (uint32_t i = 0; i < t.ctx->num_globals; ++i) {
    const GlobalTarget& g = t.ctx->globals[i];
    if (b >= g.copies && b < g.copies + g.span) return int(i);
  }
  return -1;
}

// A pointer into a global target, moved to the same offset in this thread's copy of it (DESIGN.md
// section 6: rebased once, where the kernel receives it). So is one just past a target's end (an
// `end` compared with pointers into the target, or read backwards from), unless another target
// starts there. Other pointers are returned unchanged.
template <typename State, typename T>
__device__ T* global_ptr(const State& t, T* p) {
  const uint8_t* b = static_cast<const uint8_t*>(address_of(p));
  const int i = target_holding(t.ctx->globals, t.ctx->num_globals, b);
  // The two results meet as integers: NVVM (CUDA 13.0) rejects a later __isGlobal of the pointer where
  // they meet as pointers to a char vector (`uchar4* out`): "Call parameter type does not match function
  // signature", isspacep.global given a %struct.uchar4* phi.
  uintptr_t address = reinterpret_cast<uintptr_t>(b);
  if (i >= 0) {
    const GlobalTarget& g = t.ctx->globals[i];
    address = reinterpret_cast<uintptr_t>(g.copies + uint64_t(t.global_copy) * g.stride + (b - g.original));
  }
  return reinterpret_cast<T*>(address);
}

// A kernel parameter whose type is a template parameter, or one of a pack (the translator's
// KernelGlobals::genericParams): rebased as global_ptr rebases, where its instantiation makes it a
// pointer the parameter can be assigned.
template <typename State, typename T>
__device__ __forceinline__ void rebase_param(const State& t, T& x) {
  if constexpr (std::is_pointer_v<T> && !std::is_const_v<T>) x = global_ptr(t, x);
}

// Where a pointer into some copy of global target g lies in the target: looked for first in the
// thread's own copy, without a 64-bit division (the stores of a kernel's inner loop).
template <typename State>
__device__ __forceinline__ uint64_t offset_in_target(const State& t, const GlobalTarget& g, const void* p) {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(p);
  const uint64_t off = uint64_t(b - (g.copies + uint64_t(t.global_copy) * g.stride));
  return off < g.stride ? off : uint64_t(b - g.copies) % g.stride;
}

static __device__ __noinline__ void log_store(ThreadState& t, void* p, uint32_t size) {
  if (t.num_stores == kStoreLogEntries || size > 16) {
    t.overflow = true;
    return;
  }
  StoreEntry& e = t.stores[t.num_stores++];
  e.addr = static_cast<uint8_t*>(p);
  e.size = size;
  for (uint32_t i = 0; i < size; ++i) e.old[i] = e.addr[i];
}

// The bytes a thread stores into global target i, as offsets into the target: deterministic mode with
// warp copies merges only those at a site; level B gathers them into each block's store footprint.
template <typename State>
__device__ __forceinline__ void note_written(State& t, int i, const void* p, uint32_t size) {
  if (i < 0) return;
  const uint64_t off = offset_in_target(t, t.ctx->globals[i], p);
  t.written_lo[i] = min(t.written_lo[i], off);
  t.written_hi[i] = max(t.written_hi[i], off + size);
  t.written_targets |= 1u << i;
}

// A thread's stores into its block's footprint (LaunchCtx::store_bounds), as it leaves, combined with
// the lanes leaving together (join_warp_span).
static __device__ __noinline__ void publish_store_bounds(const LaunchCtx& c, const uint64_t* lo, const uint64_t* hi,
                                                        uint32_t written_targets) {
  const uint64_t blocks = uint64_t(gridDim.x) * gridDim.y * gridDim.z;
  const uint32_t lanes = __activemask();
  for (uint32_t rest = warp_or(lanes, written_targets); rest; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    join_warp_span(lanes, lo[i], hi[i], &c.store_bounds[2 * i * blocks + block_rank()],
                   &c.store_bounds[(2 * i + 1) * blocks + block_rank()]);
  }
}

// Deterministic mode on the program's memory with store marks (GlobalTarget::marks): the words a store
// writes get the bit of its warp, so a word two warps of a block stored to shows after the launch
// (kernels::find_shared_words; two blocks' stores show in their footprints). Nothing waits for the
// reduction's result: the store does not stall on it.
__device__ __forceinline__ void mark_store(const ThreadState& t, const GlobalTarget& g, const void* q, uint32_t size) {
  const uint64_t words = marked_words(g.bytes), off = offset_in_target(t, g, q);
  for (uint64_t w = off / 4; w <= (off + size - 1) / 4 && w < words; ++w) atomicOr(&g.marks[w], 1u << t.warp);
}

// Deterministic mode on the program's memory (LaunchCtx::store_bounds): a store to a global target
// joins the block's footprint and is marked (store marks), or, the thread's first in the region,
// waits for the lower warps to end the region (LaunchCtx::store_order: they set their bits at the
// site, after their stores).
static __device__ __noinline__ void store_in_turn(ThreadState& t, const void* q, uint32_t size) {
  const int i = global_copy_target(t, q);
  if (i < 0) return;
  note_written(t, i, q, size);
  if (t.ctx->globals[i].marks) mark_store(t, t.ctx->globals[i], q, size);
  if (t.stores_in_turn || !t.ctx->store_order) return;
  const uint32_t lower = (1u << t.warp) - 1u;
  while ((*static_cast<volatile uint32_t*>(&t.bs->arrived) & lower) != lower) __nanosleep(32);
  __threadfence_block();  // the lower warps' stores before this thread's
  t.stores_in_turn = true;
}

// LaunchCtx::store_order: this warp has ended the region, all its stores made.
static __device__ __forceinline__ void announce_arrival(const ThreadState& t) {
  if (!t.ctx->store_order) return;
  __syncwarp(warp_lanes(t));
  __threadfence_block();
  if (thread_rank() % 32 == 0) atomicOr(&t.bs->arrived, 1u << t.warp);
}

// Level W (LaunchCtx::global_store_flags), at a site: this thread's stores to each global target since
// its last site join its block's written ranges. The thread keeps them until the site has decided
// (warp_stores_overlap).
__device__ __forceinline__ void publish_global_stores(const ThreadState& t) {
  if (t.ctx->global_store_flags) publish_written_ranges(t, true);
}

// `*store(t, &lvalue) = value`: a store that is neither to a local nor to a privatized shared
// variable. Pass 1 remembers the old bytes of global memory so the block can undo them before
// pass 2 re-runs the region.
template <typename T>
__device__ __forceinline__ T* store(ThreadState& t, T* p) {
  // Shared and local memory first, and at no cost: the shared targets are diffed as a whole at sites
  // (cocluster's clone stores through a pointer into shared memory in its inner loop).
  const void* const q = address_of(p);
  if (!is_global(p)) return p;
  if (t.deterministic()) {  // no re-execution, nothing to undo
    if (t.ctx->warp_copies) note_written(t, global_copy_target(t, q), q, sizeof(T));
    else if (t.ctx->store_bounds) store_in_turn(t, q, sizeof(T));
    return p;
  }
  // Pass 1 undoes its stores to other global memory before pass 2; a store to a global target joins the
  // region's written ranges (global_store_flags).
  const bool undone = t.first_execution() && !t.overflow && !in_copies(t, q);
  if (!undone && !t.ctx->global_store_flags) return p;
  const int target = global_copy_target(t, q);
  if (t.ctx->global_store_flags) note_written(t, target, q, sizeof(T));
  if (undone && target < 0) log_store(t, const_cast<std::remove_cv_t<T>*>(p), sizeof(T));
  return p;
}

static __device__ __forceinline__ void undo_stores(ThreadState& t) {
  for (uint32_t i = t.num_stores; i-- > 0;) {
    const StoreEntry& e = t.stores[i];
    for (uint32_t b = 0; b < e.size; ++b) e.addr[b] = e.old[b];
  }
  t.num_stores = 0;
}

// Level B and deterministic mode: every block's global atomics meet in one copy, a pseudo-unit of
// the ww-check, merged after the blocks' copies. Null if `p` is not in a global target.
template <typename State, typename T>
__device__ __forceinline__ T* atomics_copy_address(const State& t, T* p) {
  const int i = is_global(p) ? global_copy_target(t, p) : -1;
  if (i < 0) return nullptr;
  const GlobalTarget& g = t.ctx->globals[i];
  t.ctx->counters[kGlobalAtomics] = 1;
  return reinterpret_cast<T*>(g.copies + uint64_t(t.ctx->atomics_copy) * g.stride + offset_in_target(t, g, p));
}

// Atomic read-modify-writes: a privatized shared address is redirected to the atomics' copy P_W, so
// every warp's atomics meet in one place; pass 2 does not repeat them but replays their results.
template <typename T>
__device__ T* redirect_atomic(ThreadState& t, T* p) {
  if (t.single_execution()) {
    if (T* q = atomics_copy_address(t, p)) return q;
    if (t.one_copy()) return p;
  }
  if (t.ctx->global_store_flags && !t.single_execution() && is_global(p))
    note_written(t, global_copy_target(t, p), p, sizeof(T));
  if (!in_copies(t, p)) return p;
  const uint64_t off = (reinterpret_cast<uint8_t*>(p) - t.copies) % t.stride;
  return reinterpret_cast<T*>(t.copies + uint64_t(t.warps) * t.stride + off);
}

// The result of an atomic operation (or clock read) `f`: made in the first execution of a region and
// logged, replayed in its re-execution.
template <typename R, typename F>
__device__ R run_atomic(ThreadState& t, F&& f) {
  static_assert(sizeof(R) <= 8, "atomic results are logged as 8 bytes");
  if (t.single_execution()) return f();
  if (!t.first_execution()) {
    unsigned long long bits = t.replay < t.num_atomics ? t.atomics[t.replay] : 0ull;
    ++t.replay;
    R r;
    memcpy(&r, &bits, sizeof(R));
    return r;
  }
  const R r = f();
  if (t.num_atomics < kAtomicLogEntries) {
    unsigned long long bits = 0;
    memcpy(&bits, &r, sizeof(R));
    t.atomics[t.num_atomics++] = bits;
  } else {
    t.overflow = true;
  }
  return r;
}

// Clock reads: a per-thread count in deterministic mode (whose output must not depend on
// timing); in level W real in the first execution of a region and replayed (as atomic results are)
// in the re-execution. So a time the kernel stores never differs between two executions that the
// checks compare.
template <typename R, typename F>
__device__ R read_clock(ThreadState& t, F&& read) {
  if (t.single_execution()) return R(++t.clock_ticks);
  return run_atomic<R>(t, read);
}

// printf prints in the first execution of a region only.
__device__ __forceinline__ bool prints(const ThreadState& t) { return t.first_execution(); }

// The CUDA atomics the clones' calls go through AtomicCall.
#define LDCC_ATOMIC_NAMES(X)                                                                                  \
  X(atomicAdd) X(atomicSub) X(atomicExch) X(atomicMin) X(atomicMax) X(atomicInc) X(atomicDec) X(atomicCAS)    \
  X(atomicAnd) X(atomicOr) X(atomicXor) X(atomicAdd_block) X(atomicSub_block) X(atomicExch_block)             \
  X(atomicMin_block) X(atomicMax_block) X(atomicCAS_block) X(atomicAnd_block) X(atomicOr_block)              \
  X(atomicXor_block)

// Each atomic called by its unqualified name, from a namespace that declares none: the overloads a header
// included after ldcc's declares (cuda_fp16.h's atomicAdd(__half2*, __half2)) are found where the call
// is instantiated, by argument-dependent lookup, as they are in the program.
namespace device_atomics {
#define LDCC_ATOMIC_CALL(name)                                                 \
  template <typename T, typename... A>                                         \
  __device__ __forceinline__ auto call_##name(T* p, A... a) -> decltype(name(p, a...)) { \
    return name(p, a...);                                                      \
  }
LDCC_ATOMIC_NAMES(LDCC_ATOMIC_CALL)
#undef LDCC_ATOMIC_CALL
}  // namespace device_atomics

// What the clones' atomics, clock reads and printf calls go through, for either state (ThreadState,
// or BlockRunState in level B's clones): `::ldcc::rt::AtomicCall{ldcc_t}.atomicAdd(p, v)`.
template <typename State>
struct AtomicCall {
  State& t;
#define LDCC_ATOMIC_FORWARD(name)                                                       \
  template <typename T, typename... A>                                                  \
  __device__ auto name(T* p, A... a) const {                                            \
    using R = decltype(device_atomics::call_##name(p, a...));                           \
    T* q = redirect_atomic(t, p);                                                       \
    return run_atomic<R>(t, [&] { return device_atomics::call_##name(q, a...); });      \
  }
  LDCC_ATOMIC_NAMES(LDCC_ATOMIC_FORWARD)
#undef LDCC_ATOMIC_FORWARD
};
#undef LDCC_ATOMIC_NAMES
template <typename State>
AtomicCall(State&) -> AtomicCall<State>;

template <typename State>
struct ClockCall {
  State& t;
  __device__ long long clock64() const { return read_clock<long long>(t, [] { return ::clock64(); }); }
  __device__ clock_t clock() const { return read_clock<clock_t>(t, [] { return ::clock(); }); }
};
template <typename State>
ClockCall(State&) -> ClockCall<State>;

template <typename State>
struct PrintfCall {
  const State& t;
  template <typename... A>
  __device__ int printf(const char* format, A... a) const {
    return prints(t) ? ::printf(format, a...) : 0;
  }
};
template <typename State>
PrintfCall(State&) -> PrintfCall<State>;

// ---- locals: checkpoints and the register comparison ------------------------------------------------
template <typename T>
__device__ __forceinline__ void assign(T& to, const T& from) {
  if constexpr (std::is_array_v<T>) {
    for (size_t i = 0; i < std::extent_v<T>; ++i) assign(to[i], from[i]);
  } else {
    to = from;
  }
}

// The launch's log, stamped with this block and the region `arrive` settled on.
__device__ __forceinline__ RaceLogView block_log(const ThreadState& t) {
  RaceLogView log = t.ctx->log;
  log.filter = &t.ctx->log_filter;
  log.block = block_rank();
  log.region = t.region_key & 0x7fffffffu;
  log.block_raced = &t.bs->raced;
  return log;
}

static __device__ __noinline__ void log_register_race(const ThreadState& t, uint32_t local) {
  log_race(block_log(t), RaceKind::ReadWrite, kRegisterTarget | local, t.warp, kNoUnit, thread_rank(), thread_rank() + 1);
}

// Whether two values hold the same bytes: a word at a time where size and alignment allow (byte by
// byte, every site's comparison of the frame doubled the clone's code and its spills: b+tree's PTX
// 6515 -> 2848 lines).
template <typename T>
__device__ __forceinline__ bool same_bytes(const T& a, const T& b) {
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    const uint32_t* x = reinterpret_cast<const uint32_t*>(&a);
    const uint32_t* y = reinterpret_cast<const uint32_t*>(&b);
    uint32_t differs = 0;
    for (size_t i = 0; i < sizeof(T) / 4; ++i) differs |= x[i] ^ y[i];
    return differs == 0;
  } else {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(&a);
    const uint8_t* y = reinterpret_cast<const uint8_t*>(&b);
    bool differs = false;
    for (size_t i = 0; i < sizeof(T); ++i) differs |= x[i] != y[i];
    return !differs;
  }
}

// Scalars, pointers, enums and arrays of them are compared byte for byte; other types (padding) are not.
template <typename T>
__device__ __forceinline__ void compare_local(const ThreadState& t, uint32_t local, const T& pass1, const T& pass2) {
  using Element = std::remove_all_extents_t<T>;
  if constexpr (std::is_scalar_v<Element> && std::is_volatile_v<Element>) {
    // A volatile local: its value, read once each (an array of them is not compared).
    if constexpr (!std::is_array_v<T>) {
      const std::remove_cv_t<T> first = pass1, second = pass2;
      if (!same_bytes(first, second)) log_register_race(t, local);
    }
  } else if constexpr (std::is_scalar_v<Element>) {
    if (!same_bytes(pass1, pass2)) log_register_race(t, local);
  }
}

// A parameter pack in the clone's frame (`Ts... xs`: `PackFrame<decltype(xs)...> xs;`): its values one
// after another, saved, restored (const ones stay) and compared as locals are.
template <typename... T>
struct PackFrame {
  __device__ void save() {}
  __device__ void load() const {}
  __device__ void compare(const ThreadState&, uint32_t) const {}
};
template <typename First, typename... Rest>
struct PackFrame<First, Rest...> {
  std::remove_cv_t<First> first;
  PackFrame<Rest...> rest;
  template <typename X, typename... Xs>
  __device__ void save(const X& x, const Xs&... xs) {
    assign(first, x);
    rest.save(xs...);
  }
  template <typename X, typename... Xs>
  __device__ void load(X& x, Xs&... xs) const {
    if constexpr (!std::is_const_v<X>) assign(x, first);
    rest.load(xs...);
  }
  template <typename X, typename... Xs>
  __device__ void compare(const ThreadState& t, uint32_t local, const X& x, const Xs&... xs) const {
    compare_local(t, local, first, x);
    rest.compare(t, local, xs...);
  }
};

// The block's global scratch slot, free for the next block once every thread has left.
__device__ __forceinline__ void release_slot(const LaunchCtx& ctx, const BlockState& bs) {
  if (thread_rank() == 0 && ctx.scratch) {
    __threadfence();
    atomicExch(&ctx.slot_busy[bs.slot], 0u);
  }
}

// ---- the site protocol ---------------------------------------------------------------------------
// LDCC_PROFILE at level W: thread 0 of each block counts the cycles from the moment every thread of
// the block has reached a site until it leaves it (the checks, their barriers, the rewind), and at
// the block's end adds them, with its cycles from entry to end, to the launch's counters. The host
// splits the level W kernel's time by their ratio (region code, both passes, and waiting for the
// slowest warp are the rest).
struct SiteCycles {
  const ThreadState& t;
  bool on;
  long long start = 0;
  bool block_done = false;
  __device__ explicit SiteCycles(const ThreadState& s) : t(s) {
    on = s.ctx->profile && thread_rank() == 0;
    if (on) start = clock64();
  }
  __device__ ~SiteCycles() {
    if (!on) return;
    const long long now = clock64();
    t.bs->at_sites += now - start;
    if (!block_done) return;
    atomicAdd(&t.ctx->counters[kCyclesAtSites], (unsigned long long)t.bs->at_sites);
    atomicAdd(&t.ctx->counters[kCyclesInKernel], (unsigned long long)(now - t.bs->entered));
  }
};

// Deterministic mode, the block's last site: its store footprint (LaunchCtx::store_bounds) and its slot.
__device__ __forceinline__ void leave_deterministic(const ThreadState& t) {
  if (t.ctx->store_bounds) publish_store_bounds(*t.ctx, t.written_lo, t.written_hi, t.written_targets);
  release_slot(*t.ctx, *t.bs);
}

// The site of a block with one copy (ThreadState::one_copy): a plain barrier (deterministic mode has
// one warp, nothing to merge), and the barrier result of __syncthreads_count/_and/_or.
__device__ __forceinline__ int arrive_one_copy(ThreadState& t, uint32_t site) {
  const uint32_t exited = __syncthreads_count(t.at_exit);
  t.bar_true = __syncthreads_count(!t.at_exit && t.bar_pred);
  t.bar_live = block_threads() - exited;
  t.open = site;
  if (exited != block_threads()) return kContinue;
  leave_deterministic(t);
  return kDone;
}

// Level W with global_store_flags, pass 1, before the site's first barrier: this thread's loads (the
// clone's marks) join its block's (SiteTally::loaded_params), a warp's lanes combined; all of memory
// where it made stores or atomics the copies do not hold.
__device__ __forceinline__ void publish_loads(const ThreadState& t, uint32_t loaded, bool beyond_globals) {
  const uint32_t lanes = __activemask();
  const uint32_t all = warp_or(lanes, beyond_globals ? kUnknownLoads : loaded);
  if (all && lane_leader(lanes)) shared_or(&t.tally().loaded_params, all);
}

// Whether two warps of the block stored, in pass 1, to overlapping byte ranges of a global target (the
// ranges the threads still hold, ThreadState::written_lo/hi). Their stores may then race where the
// ww-check cannot see it: a store of the byte already there leaves the copy equal to S (warp 0 stores
// 0 over 0, warp 1 stores 7; or 1 and 256 into one int: no byte changed by both), and only pass 2's
// rw-check finds it. Called by every thread of the block with the targets more than one warp wrote
// (WrittenRanges::several_writers); a few barriers per target.
static __device__ __noinline__ bool warp_stores_overlap(const ThreadState& t, uint32_t targets) {
  BlockState& bs = *t.bs;
  bool overlap = false;
  for (uint32_t rest = targets; rest && !overlap; rest &= rest - 1) {
    const uint32_t i = __ffs(rest) - 1;
    if (thread_rank() < 32) {
      bs.warp_lo[thread_rank()] = ~0ull;
      bs.warp_hi[thread_rank()] = 0;
    }
    __syncthreads();
    join_warp_span(__activemask(), t.written_lo[i], t.written_hi[i], &bs.warp_lo[t.warp], &bs.warp_hi[t.warp]);
    __syncthreads();
    bool mine = false;  // thread w: warp w's range meets a lower warp's
    if (const uint32_t w = thread_rank(); w < t.warps)
      for (uint32_t v = 0; v < w; ++v) mine |= bs.warp_lo[w] < bs.warp_hi[v] && bs.warp_lo[v] < bs.warp_hi[w];
    overlap = __syncthreads_or(mine);
  }
  return overlap;
}

// Whether a region ends after pass 1 (level W) if its warps did not write the layout (the caller
// asks the block that): pass 2 would repeat it. So when the warps wrote global targets only (not the
// layout: shared memory reads the same in both passes, and no store to other global memory, atomic or
// clock read, whose results pass 2 replays), every store seen by the hooks (global_store_flags), no
// thread of the block loaded through a parameter into a target the block wrote, and no two warps
// stored to overlapping ranges: then no warp read what another wrote, which a read-write race needs,
// each reads in pass 2 what it read in pass 1, and no two warps wrote one byte (warp_stores_overlap:
// not even where the ww-check could not see it), so the ww-check finds no race and commits U
// (block_global_ww<true>). A block that logged a race in this launch before the site
// (SiteTally::raced) re-executes as before, so its report names what pass 2 would find. Called by
// every thread of the block (the answer is the block's).
__device__ __forceinline__ bool ends_without_rerun(const ThreadState& t) {
  const LaunchCtx& c = *t.ctx;
  const SiteTally& tally = t.tally();
  if (!c.global_store_flags || (tally.loaded_params & kUnknownLoads) || tally.raced) return false;
  uint32_t loaded_targets = 0;
  for (uint32_t rest = tally.loaded_params; rest; rest &= rest - 1) {
    const uint8_t target = c.param_targets[__ffs(rest) - 1];
    if (target != kNoTarget) loaded_targets |= 1u << target;
  }
  const WrittenRanges& written = t.written();
  if (loaded_targets & written.targets) return false;
  // The call only where a target has two writers (it is not inlined: its barriers and spills).
  const uint32_t several = written.several_writers();
  return !several || !warp_stores_overlap(t, several);
}

// Level W's and deterministic mode's sites. Called by every thread of the block, each at its own site
// (a barrier, a helper call, or the exit site where finished threads park), with the parameters it
// loaded through since its last one (`loaded`, kUnknownLoads where the clone does not know). Every call
// runs the same sequence of block barriers.
static __device__ __noinline__ int arrive_in_block(ThreadState& t, uint32_t site, uint32_t loaded) {
  BlockState& bs = *t.bs;
  const LaunchCtx& ctx = *t.ctx;
  t.compare = false;
  if (t.deterministic()) {
    // The warps' changes to the shared targets go into S in warp order, the atomics' copy last, and
    // S is every warp's copy for the next region. With ordered warps, each warp hands the block to
    // the next one here, and the next region starts again from warp 0.
    pass_turn(t);
    announce_arrival(t);
    if (ctx.warp_copies) {
      // The next site's written ranges (WrittenRanges): last read at the previous site, before its
      // last barrier.
      if (thread_rank() == 0) bs.written[(t.regions + 1) & 1].clear(ctx.num_globals);
      publish_written_ranges(t, false);
      clear_written_ranges(t);
    }
    const uint32_t exited = __syncthreads_count(t.at_exit);
    const bool all_exited = exited == block_threads();
    if (const Team team = layout_team(t); team.member()) block_merge_ordered(layout_buffers(t), team);
    if (ctx.warp_copies) block_merge_warp_globals(t);
    if (thread_rank() == 0) {
      bs.turn = 0;
      bs.arrived = 0;  // every warp is past its waits: they are all here
    }
    t.bar_true = __syncthreads_count(!t.at_exit && t.bar_pred);
    t.bar_live = block_threads() - exited;
    t.open = site;
    t.stores_in_turn = false;
    ++t.regions;
    if (!all_exited) {
      wait_turn(t);
      return kContinue;
    }
    leave_deterministic(t);
    return kDone;
  }
  // The region as the report names it: opened and closed at a running thread's sites if any.
  const uint32_t key = (uint32_t(!t.at_exit) << 31) | (t.open << 16) | (site & 0xffffu);
  SiteTally& tally = t.tally();
  // Read before the count barrier: thread 0 may set the next pass as soon as every thread is past it
  // (a pass-2 site has no other barrier before its commit).
  const uint32_t pass = bs.pass;
  if (thread_rank() == 0) {
    // The next visit's tally, and at the end of pass 1 the next region's written ranges (a region's
    // cover both its executions): read for the last time before the previous site's final barrier,
    // written next after this site's last one.
    bs.tallies[(t.visits + 1) & 1] = SiteTally{0, 0, 0, 0};
    if (pass == 1) bs.written[(t.regions + 1) & 1].clear(ctx.num_globals);
  }
  const uint32_t lanes = __activemask();  // one atomic per warp, not one per thread on one word
  const uint32_t warp_key = warp_max(lanes, key);
  if (lane_leader(lanes)) shared_max(&tally.region_key, warp_key);
  publish_global_stores(t);  // read after the next barrier
  // This thread's stores to global memory ldcc does not privatize, and its atomics (and clock reads).
  const bool side_effects = t.num_stores > 0 || t.num_atomics > 0;
  if (pass == 1 && ctx.global_store_flags) {  // the same, for ends_without_rerun
    publish_loads(t, loaded, side_effects);
    if (*static_cast<volatile const uint32_t*>(&bs.raced)) tally.raced = 1;
  }
  if (t.overflow) tally.overflowed = 1;  // the same
  // Threads that returned: whether all did, and the barrier results' count of running threads.
  const uint32_t exited = __syncthreads_count(t.at_exit);
  const bool all_exited = exited == block_threads();
  SiteCycles cycles(t);
  t.region_key = tally.region_key;
  // The log and the layout are rebuilt where each pass needs them: held across the whole site, they
  // spilled with everything else live in it.
  if (pass == 1) {
    const bool skip = tally.overflowed;
    const Team layout = layout_team(t), globals = global_team(t);
    const bool wrote_layout = layout.member() && block_ww_check(layout_buffers(t), block_log(t), layout);
    // Whether the region ends here with the global targets it stored to committed by their ww-check:
    // a barrier more where the block has a layout, and only where the rest of ends_without_rerun holds.
    bool commit = !skip && t.written().targets && ends_without_rerun(t);
    if (commit && t.stride > 0) commit = !__syncthreads_or(wrote_layout);
    const bool wrote_globals = globals.member() && (commit ? block_global_ww<true>(t, block_log(t), globals)
                                                           : block_global_ww<false>(t, block_log(t), globals));
    const bool wrote = wrote_layout || wrote_globals || side_effects;
    if (!skip) {
      // A region no warp wrote in has no race, and its re-execution would start from the states pass 1
      // started from (the copies and U still hold S) and repeat it: it ends here. So does one that
      // ends_without_rerun: its ww-check committed U.
      const bool any_wrote = __syncthreads_or(wrote);  // also: the pass-2 states visible
      if (any_wrote && !commit) {
        t.pass1_site = site;
        undo_stores(t);
        if (thread_rank() == 0) bs.pass = 2;
        __syncthreads();  // undone stores and the pass visible before anyone re-runs
        t.replay = 0;
        ++t.visits;
        return kRewind;
      }
      if (thread_rank() == 0)
        atomicAdd(&ctx.counters[any_wrote ? kRegionsWithoutCrossReads : kRegionsWithoutWrites], 1ull);
    } else {
      // A log overflowed, so no re-execution: U is committed as the ww-check built it.
      __syncthreads();
      if (layout.member()) block_rw_commit(layout_buffers(t), block_log(t), false, layout);
      if (globals.member()) block_global_rw_commit(t, block_log(t), false, globals);
      if (thread_rank() == 0) atomicAdd(&ctx.counters[kPass2Skipped], 1ull);
    }
  } else {
    if (const Team layout = layout_team(t); layout.member()) block_rw_commit(layout_buffers(t), block_log(t), true, layout);
    if (const Team globals = global_team(t); globals.member()) block_global_rw_commit(t, block_log(t), true, globals);
    t.compare = true;
    if (site != t.pass1_site) log_register_race(t, kDiverged);
  }
  if (thread_rank() == 0) {
    atomicAdd(&ctx.counters[kRegionsChecked], 1ull);
    bs.pass = 1;
  }
  // The barrier result of __syncthreads_count/_and/_or at this site, over the threads still running.
  t.bar_true = __syncthreads_count(!t.at_exit && t.bar_pred);
  t.bar_live = block_threads() - exited;
  t.open = site;
  t.num_stores = t.num_atomics = t.replay = 0;
  t.overflow = false;
  clear_written_ranges(t);
  ++t.visits;
  ++t.regions;
  if (all_exited) {
    release_slot(ctx, bs);
    cycles.block_done = true;
    return kDone;
  }
  return kContinue;
}

// Called by every thread of the block at each of its sites (the clone's ldcc_site), with the
// parameters it loaded through since its last one (the kernel clone's marks).
__device__ __forceinline__ int arrive(ThreadState& t, uint32_t site, uint32_t loaded = kUnknownLoads) {
  return t.one_copy() ? arrive_one_copy(t, site) : arrive_in_block(t, site, loaded);
}

__device__ __forceinline__ int bar_count(const ThreadState& t) { return int(t.bar_true); }
__device__ __forceinline__ int bar_and(const ThreadState& t) { return t.bar_true == t.bar_live; }
__device__ __forceinline__ int bar_or(const ThreadState& t) { return t.bar_true != 0; }

}  // namespace ldcc::rt
