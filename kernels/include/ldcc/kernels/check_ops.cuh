// Per-chunk device operations of the two-pass check (DESIGN.md section 3) and the deterministic
// merge (section 7). Each operation owns one chunk of kBytes bytes at offset `off` of one target and
// touches every copy of it, so no other thread ever writes the same byte: no atomics, no bitmaps.
// The grid kernels in check_kernels.cu run them over whole targets; translated kernels can run the
// same operations block-cooperatively at their barriers.
#pragma once
#include <cstdint>

#include "ldcc/kernels/race_record.h"

namespace ldcc::ops {

// kBytes of a copy, as 32-bit words; loaded and stored with one vector access.
template <int kBytes>
struct Chunk {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16, "chunks are 4, 8 or 16 bytes");
  static constexpr int kWords = kBytes / 4;
  uint32_t w[kWords];
};

template <int kBytes>
__device__ __forceinline__ Chunk<kBytes> load_chunk(const uint8_t* p) {
  Chunk<kBytes> c;
  if constexpr (kBytes == 16) {
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    c.w[0] = v.x; c.w[1] = v.y; c.w[2] = v.z; c.w[3] = v.w;
  } else if constexpr (kBytes == 8) {
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    c.w[0] = v.x; c.w[1] = v.y;
  } else {
    c.w[0] = *reinterpret_cast<const uint32_t*>(p);
  }
  return c;
}

template <int kBytes>
__device__ __forceinline__ void store_chunk(uint8_t* p, const Chunk<kBytes>& c) {
  if constexpr (kBytes == 16) {
    *reinterpret_cast<uint4*>(p) = make_uint4(c.w[0], c.w[1], c.w[2], c.w[3]);
  } else if constexpr (kBytes == 8) {
    *reinterpret_cast<uint2*>(p) = make_uint2(c.w[0], c.w[1]);
  } else {
    *reinterpret_cast<uint32_t*>(p) = c.w[0];
  }
}

__device__ __forceinline__ uint8_t chunk_byte(const uint32_t* words, int b) {
  return static_cast<uint8_t>(words[b >> 2] >> (8 * (b & 3)));
}

// S is the program's memory: it may be unaligned and its length is not padded. Only the chunk that
// straddles its end (or every chunk, for an unaligned S) takes the byte path; bytes past the end read as 0.
template <int kBytes>
__device__ __forceinline__ Chunk<kBytes> load_original(const TargetBuffers& t, uint64_t off) {
  if ((reinterpret_cast<uintptr_t>(t.original) % kBytes) == 0 && off + kBytes <= t.bytes)
    return load_chunk<kBytes>(t.original + off);
  Chunk<kBytes> c;
#pragma unroll
  for (int i = 0; i < Chunk<kBytes>::kWords; ++i) c.w[i] = 0;
  for (int b = 0; b < kBytes; ++b)
    if (off + b < t.bytes) c.w[b >> 2] |= uint32_t(t.original[off + b]) << (8 * (b & 3));
  return c;
}

template <int kBytes>
__device__ __forceinline__ void store_original(const TargetBuffers& t, uint64_t off, const Chunk<kBytes>& c) {
  if ((reinterpret_cast<uintptr_t>(t.original) % kBytes) == 0 && off + kBytes <= t.bytes) {
    store_chunk<kBytes>(t.original + off, c);
    return;
  }
  for (int b = 0; b < kBytes; ++b)
    if (off + b < t.bytes) t.original[off + b] = chunk_byte(c.w, b);
}

__device__ __forceinline__ uint8_t* copy_at(const TargetBuffers& t, uint32_t k, uint64_t off) {
  return t.copies + uint64_t(k) * t.stride + off;
}

// Slow-path helpers take everything by value: a reference to the caller's registers would force them
// into local memory on the fast path too.

// Bounded log, written only on the slow path where a race was found. Level W's goes through its
// LogFilter: the block raced, and the record takes a slot unless an earlier launch logged its key.
// Not inlined, and given scalars: inline, it cost the clones' site functions spills (backprop's level
// W kernel ran 28% longer on the H100). The grid kernels of check_kernels.cu, whose logs never have a
// filter, define LDCC_UNFILTERED_LOG: the call alone cost their fast paths a stack frame and spills.
__device__ __forceinline__ void append_record(RaceRecord* records, unsigned long long* count, uint32_t capacity,
                                              const RaceRecord& r) {
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (slot < capacity) records[slot] = r;
}

#ifndef LDCC_UNFILTERED_LOG
static __device__ __noinline__ void log_filtered_race(const LogFilter* filter, RaceRecord* records,
                                                      unsigned long long* count, uint32_t capacity, uint32_t kind,
                                                      uint32_t target, uint32_t a, uint32_t b, uint64_t lo,
                                                      uint64_t hi, uint32_t block, uint32_t region,
                                                      uint32_t* block_raced) {
  const RaceRecord r{kind, target, a, b, lo, hi, block, region};
  if (filter->raced_blocks && block != kNoUnit) filter->raced_blocks[block] = 1;
  if (block_raced) *block_raced = 1;
  if (filter->seen.hashes && seen_contains(filter->seen, record_key(r))) return;
  append_record(records, count, capacity, r);
}
#endif

__device__ __forceinline__ void log_race(RaceLogView log, RaceKind kind, uint32_t target, uint32_t a,
                                         uint32_t b, uint64_t lo, uint64_t hi) {
#ifndef LDCC_UNFILTERED_LOG
  if (log.filter)
    return log_filtered_race(log.filter, log.records, log.count, log.capacity, uint32_t(kind), target, a, b, lo, hi,
                             log.block, log.region, log.block_raced);
#endif
  append_record(log.records, log.count, log.capacity, RaceRecord{uint32_t(kind), target, a, b, lo, hi, log.block, log.region});
}

// Adds a logged record's key to `table` (between launches: kernels::remember_records).
__device__ __forceinline__ void remember_record(const SeenTable& table, const RaceRecord& r) {
  seen_insert(
      table, record_key(r), [](unsigned long long* p, unsigned long long e, unsigned long long d) { return atomicCAS(p, e, d); },
      [](unsigned int* fill, unsigned int n) { return atomicAdd(fill, n); });
}

// Accumulates byte-level records of one chunk into maximal runs before logging them.
struct RunLogger {
  RaceLogView log;
  RaceKind kind;
  uint32_t target;
  bool open = false;
  uint32_t a = 0, b = 0;
  uint64_t lo = 0, hi = 0;

  __device__ void add(uint32_t ua, uint32_t ub, uint64_t byte) {
    if (open && ua == a && ub == b && byte == hi) {
      ++hi;
      return;
    }
    flush();
    open = true; a = ua; b = ub; lo = byte; hi = byte + 1;
  }
  __device__ void flush() {
    if (open) log_race(log, kind, target, a, b, lo, hi);
    open = false;
  }
};

// Slow path of the ww-check: the chunk has a byte written by two copies. Re-reads the copies byte by
// byte and logs every pair of consecutive writers (see RaceRecord).
template <int kBytes>
static __device__ __noinline__ void log_write_write(TargetBuffers t, uint64_t off, Chunk<kBytes> s, RaceLogView log) {
  RunLogger runs{log, RaceKind::WriteWrite, t.target_id};
  for (int b = 0; b < kBytes && off + b < t.bytes; ++b) {
    const uint8_t sb = chunk_byte(s.w, b);
    uint32_t prev = kNoUnit;
    for (uint32_t k = 0; k < t.num_copies; ++k) {
      if (copy_at(t, k, off)[b] == sb) continue;
      if (prev != kNoUnit) runs.add(prev, k, off + b);
      prev = k;
    }
  }
  runs.flush();
}

// Slow path of the rw-check: copy k's pass-2 bytes differ from U somewhere in this chunk.
template <int kBytes>
static __device__ __noinline__ void log_read_write(TargetBuffers t, uint64_t off, uint32_t k, Chunk<kBytes> u, Chunk<kBytes> p,
                                            RaceLogView log) {
  RunLogger runs{log, RaceKind::ReadWrite, t.target_id};
  for (int b = 0; b < kBytes && off + b < t.bytes; ++b)
    if (chunk_byte(u.w, b) != chunk_byte(p.w, b)) runs.add(k, kNoUnit, off + b);
  runs.flush();
}

// Adds the bytes copy k changed in this chunk (`wrote`: __vcmpne4 of each word against S) to its
// footprint. The warp's threads reduce first, so one atomic pair per warp and copy; every thread of
// the warp calls it with the same k.
template <int kWords>
__device__ __forceinline__ void note_footprint(const FootprintBounds& f, uint32_t k, uint64_t off,
                                               const uint32_t (&wrote)[kWords]) {
  if (f.lo == nullptr || k >= f.copies) return;
  unsigned long long first = ~0ull, end = 0;
#pragma unroll
  for (int i = 0; i < kWords; ++i) {
    if (!wrote[i]) continue;
    if (first == ~0ull) first = off + 4 * i + (__ffs(wrote[i]) - 1) / 8;
    end = off + 4 * i + (31 - __clz(wrote[i])) / 8 + 1;
  }
  if (!__any_sync(0xffffffffu, end != 0)) return;
  for (int delta = 16; delta > 0; delta /= 2) {
    first = min(first, __shfl_xor_sync(0xffffffffu, first, delta));
    end = max(end, __shfl_xor_sync(0xffffffffu, end, delta));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&f.lo[k], first);
    atomicMax(&f.hi[k], end);
  }
}

// Which copy changed each word of one chunk (FootprintBounds::owners), gathered over its copies.
template <int kWords>
struct WordOwners {
  uint32_t owner[kWords];
  __device__ WordOwners() {
#pragma unroll
    for (int i = 0; i < kWords; ++i) owner[i] = kNoOwner;
  }
  __device__ void add(const FootprintBounds& f, uint32_t k, const uint32_t (&wrote)[kWords]) {
    if (f.owners == nullptr || k >= f.copies) return;
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      if (wrote[i]) owner[i] = owner[i] == kNoOwner ? k : kSharedWord;
  }
  // Only where a copy changed the chunk: the others already hold kNoOwner.
  __device__ void store(const FootprintBounds& f, uint64_t off) const {
    if (f.owners == nullptr) return;
    uint32_t changed = 0;
#pragma unroll
    for (int i = 0; i < kWords; ++i) changed |= owner[i] ^ kNoOwner;
    if (!changed) return;
#pragma unroll
    for (int i = 0; i < kWords; ++i) f.owners[off / 4 + i] = owner[i];
  }
};

// A copy's pass-2 start state (DESIGN.md section 3): S in the bytes it wrote (`wrote`: 0xff in every
// byte it changed against S), U elsewhere.
template <int kBytes>
__device__ __forceinline__ Chunk<kBytes> pass2_state(const Chunk<kBytes>& s, const Chunk<kBytes>& u,
                                                     const uint32_t (&wrote)[Chunk<kBytes>::kWords]) {
  Chunk<kBytes> p2;
#pragma unroll
  for (int i = 0; i < Chunk<kBytes>::kWords; ++i) p2.w[i] = (s.w[i] & wrote[i]) | (u.w[i] & ~wrote[i]);
  return p2;
}

// The commit of a region that ends after pass 1 (level W's ends_without_rerun), fused with its
// ww-check: S, U and every copy := U, where a copy changed the chunk (elsewhere all of them hold S).
template <int kBytes>
__device__ __forceinline__ void commit_everywhere(const TargetBuffers& t, uint64_t off, const Chunk<kBytes>& u) {
  store_original<kBytes>(t, off, u);
  store_chunk<kBytes>(t.uni + off, u);
  for (uint32_t k = 0; k < t.num_copies; ++k) store_chunk<kBytes>(copy_at(t, k, off), u);
}

// init: every copy := S.
template <int kBytes>
__device__ __forceinline__ void replicate_chunk(const TargetBuffers& t, uint64_t off) {
  const Chunk<kBytes> s = load_original<kBytes>(t, off);
  for (uint32_t k = 0; k < t.num_copies; ++k) store_chunk<kBytes>(copy_at(t, k, off), s);
}

// The fused ww-check (DESIGN.md section 3, step 3) for up to kMaxCopies copies held in registers, so
// each input is read once: a copy whose byte differs from S wrote it; a second writer is a ww race;
// U collects every write (the last writer wins when there is a race); and, when kWritePass2, each
// copy becomes its pass-2 start state P2_k = (P1_k != S) ? S : U.
// With `footprint`, each copy's changes also go to its footprint (note_footprint: whole warps only).
template <int kBytes, int kMaxCopies, bool kWritePass2>
__device__ __forceinline__ void ww_check_chunk(const TargetBuffers& t, uint64_t off, const RaceLogView& log,
                                               const FootprintBounds& footprint = {}) {
  constexpr int kWords = Chunk<kBytes>::kWords;
  const Chunk<kBytes> s = load_original<kBytes>(t, off);
  Chunk<kBytes> p[kMaxCopies];
#pragma unroll
  for (int k = 0; k < kMaxCopies; ++k)
    if (k < t.num_copies) p[k] = load_chunk<kBytes>(copy_at(t, k, off));

  Chunk<kBytes> u = s;
  uint32_t written[kWords] = {};
  uint32_t clash = 0;
#pragma unroll
  for (int k = 0; k < kMaxCopies; ++k) {
    if (k >= t.num_copies) break;
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      const uint32_t wrote = __vcmpne4(p[k].w[i], s.w[i]);  // 0xff in every byte copy k changed
      clash |= written[i] & wrote;
      written[i] |= wrote;
      u.w[i] = (u.w[i] & ~wrote) | (p[k].w[i] & wrote);
    }
  }
  if (clash) log_write_write<kBytes>(t, off, s, log);
  store_chunk<kBytes>(t.uni + off, u);
  uint32_t changed = 0;
#pragma unroll
  for (int i = 0; i < kWords; ++i) changed |= written[i];
  if constexpr (kWritePass2) {
    WordOwners<kWords> owners;
#pragma unroll
    for (int k = 0; k < kMaxCopies; ++k) {
      if (k >= t.num_copies) break;
      uint32_t wrote[kWords];
#pragma unroll
      for (int i = 0; i < kWords; ++i) wrote[i] = __vcmpne4(p[k].w[i], s.w[i]);
      // No copy changed the chunk: every copy is S, its own pass-2 state.
      if (changed) store_chunk<kBytes>(copy_at(t, k, off), pass2_state<kBytes>(s, u, wrote));
      note_footprint<kWords>(footprint, k, off, wrote);
      owners.add(footprint, k, wrote);
    }
    owners.store(footprint, off);
  }
}

// The same check for any number of copies: one streaming pass builds U, finds clashes and keeps the
// first two writers of the chunk with what they changed; the second pass writes the pass-2 states.
// A race-free chunk has at most one writer, so that pass reads no copy again, and it stores nothing
// when no copy changed the chunk (every copy is then S, its own pass-2 state): at a barrier most
// chunks of the layout are untouched. Three or more writers re-read the copies (mostly from L2).
// Returns whether any copy changed the chunk. With kCommit (no footprint) the region ends after
// pass 1: the chunk is committed instead (commit_everywhere).
template <bool kWritePass2, bool kCommit = false>
__device__ __forceinline__ bool ww_check_chunk_streaming(const TargetBuffers& t, uint64_t off, const RaceLogView& log,
                                                         const FootprintBounds& footprint = {}) {
  constexpr int kBytes = 16, kWords = 4;
  const Chunk<kBytes> s = load_original<kBytes>(t, off);
  Chunk<kBytes> u = s;
  uint32_t written[kWords] = {};
  uint32_t clash = 0;
  uint32_t writers = 0, first_writer = 0, second_writer = 0;
  uint32_t first_wrote[kWords] = {}, second_wrote[kWords] = {};
  for (uint32_t k = 0; k < t.num_copies; ++k) {
    const Chunk<kBytes> p = load_chunk<kBytes>(copy_at(t, k, off));
    // Most copies leave most chunks as S: a word-wide test first, the byte masks only for a writer
    // (at scan's barriers the byte masks of every copy were a quarter of the site's instructions).
    uint32_t differs = 0;
#pragma unroll
    for (int i = 0; i < kWords; ++i) differs |= p.w[i] ^ s.w[i];
    if (!differs) continue;
    uint32_t wrote[kWords];
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      wrote[i] = __vcmpne4(p.w[i], s.w[i]);
      clash |= written[i] & wrote[i];
      written[i] |= wrote[i];
      u.w[i] = (u.w[i] & ~wrote[i]) | (p.w[i] & wrote[i]);
    }
    if (writers == 0) {
      first_writer = k;
#pragma unroll
      for (int i = 0; i < kWords; ++i) first_wrote[i] = wrote[i];
    } else if (writers == 1) {
      second_writer = k;
#pragma unroll
      for (int i = 0; i < kWords; ++i) second_wrote[i] = wrote[i];
    }
    ++writers;
  }
  if (clash) log_write_write<kBytes>(t, off, s, log);
  if constexpr (kCommit) {
    if (writers != 0) commit_everywhere<kBytes>(t, off, u);
    return writers != 0;
  }
  store_chunk<kBytes>(t.uni + off, u);
  if constexpr (kWritePass2) {
    if (footprint.lo == nullptr && writers <= 2) {  // footprint.lo is the same in every lane
      if (writers == 0) return false;  // every copy is S, its own pass-2 state
      // A copy that did not write the chunk starts pass 2 from U; a writer's keeps S where it wrote.
      for (uint32_t k = 0; k < t.num_copies; ++k) store_chunk<kBytes>(copy_at(t, k, off), u);
      store_chunk<kBytes>(copy_at(t, first_writer, off), pass2_state<kBytes>(s, u, first_wrote));
      if (writers == 2) store_chunk<kBytes>(copy_at(t, second_writer, off), pass2_state<kBytes>(s, u, second_wrote));
      return true;
    }
    WordOwners<kWords> owners;
    for (uint32_t k = 0; k < t.num_copies; ++k) {
      uint32_t wrote[kWords];
      if (writers > 2) {
        const Chunk<kBytes> p = load_chunk<kBytes>(copy_at(t, k, off));
#pragma unroll
        for (int i = 0; i < kWords; ++i) wrote[i] = __vcmpne4(p.w[i], s.w[i]);
      } else {
        const bool first = writers > 0 && k == first_writer, second = writers > 1 && k == second_writer;
#pragma unroll
        for (int i = 0; i < kWords; ++i) wrote[i] = first ? first_wrote[i] : second ? second_wrote[i] : 0u;
      }
      if (writers > 0) store_chunk<kBytes>(copy_at(t, k, off), pass2_state<kBytes>(s, u, wrote));
      note_footprint<kWords>(footprint, k, off, wrote);
      owners.add(footprint, k, wrote);
    }
    owners.store(footprint, off);
  }
  return writers != 0;
}

// Unfused second half of the ww-check, kept to measure what fusion saves (paper Figure 9):
// P2_k = (P1_k != S) ? S : U, reading S, U and every copy again.
template <int kBytes>
__device__ __forceinline__ void init_pass2_chunk(const TargetBuffers& t, uint64_t off) {
  const Chunk<kBytes> s = load_original<kBytes>(t, off);
  const Chunk<kBytes> u = load_chunk<kBytes>(t.uni + off);
  for (uint32_t k = 0; k < t.num_copies; ++k) {
    const Chunk<kBytes> p = load_chunk<kBytes>(copy_at(t, k, off));
    uint32_t wrote[Chunk<kBytes>::kWords];
#pragma unroll
    for (int i = 0; i < Chunk<kBytes>::kWords; ++i) wrote[i] = __vcmpne4(p.w[i], s.w[i]);
    store_chunk<kBytes>(copy_at(t, k, off), pass2_state<kBytes>(s, u, wrote));
  }
}

// rw-check (step 5): a copy whose pass-2 state differs from U read another unit's write. With
// kCommit it is fused with the commit (step 6), S := U, so U is read once for both. Copies are
// loaded kBatch at a time so their loads overlap; the slow path runs only after a batch differs.
// Returns whether any copy differed from U.
template <int kBytes, bool kCommit>
__device__ __forceinline__ bool rw_check_chunk(const TargetBuffers& t, uint64_t off, const RaceLogView& log) {
  constexpr int kBatch = 8;
  const Chunk<kBytes> u = load_chunk<kBytes>(t.uni + off);
  bool any_differs = false;
  for (uint32_t k0 = 0; k0 < t.num_copies; k0 += kBatch) {
    Chunk<kBytes> p[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; ++j)
      if (k0 + j < t.num_copies) p[j] = load_chunk<kBytes>(copy_at(t, k0 + j, off));
    uint32_t differing = 0;  // bit j: copy k0 + j differs from U
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      if (k0 + j >= t.num_copies) break;
      uint32_t bits = 0;
#pragma unroll
      for (int i = 0; i < Chunk<kBytes>::kWords; ++i) bits |= p[j].w[i] ^ u.w[i];
      differing |= uint32_t(bits != 0) << j;
    }
    any_differs |= differing != 0;
    if (differing)
      for (int j = 0; j < kBatch; ++j)
        if (differing >> j & 1) log_read_write<kBytes>(t, off, k0 + j, u, p[j], log);
  }
  if constexpr (kCommit) store_original<kBytes>(t, off, u);
  return any_differs;
}

// commit alone: S := U.
template <int kBytes>
__device__ __forceinline__ void commit_chunk(const TargetBuffers& t, uint64_t off) {
  store_original<kBytes>(t, off, load_chunk<kBytes>(t.uni + off));
}

// Deterministic merge (DESIGN.md section 7): every copy's changes against S, applied in copy order to
// `into` (whose bytes stay where no copy changed S), so the highest-numbered writer of a byte wins.
// `into` is S itself at a region's end; a separate buffer (its `original` field) gathers batches of
// blocks that all started from the same S. With kReplicate the merged state is also written to every
// copy, which is the next region's init, without reading S again.
template <int kBytes, bool kReplicate>
__device__ __forceinline__ void merge_ordered_chunk(const TargetBuffers& t, uint64_t off, const TargetBuffers& into) {
  const Chunk<kBytes> s = load_original<kBytes>(t, off);
  Chunk<kBytes> merged = into.original == t.original ? s : load_original<kBytes>(into, off);
  uint32_t changed = 0;
  for (uint32_t k = 0; k < t.num_copies; ++k) {
    const Chunk<kBytes> p = load_chunk<kBytes>(copy_at(t, k, off));
    // No word-wide test first, as the ww-check has: it made deterministic mode slower (backprop
    // 24.1 -> 27.8 ms, bench/results/word-test-ab-h100-2026-11-24T17Z).
#pragma unroll
    for (int i = 0; i < Chunk<kBytes>::kWords; ++i) {
      const uint32_t wrote = __vcmpne4(p.w[i], s.w[i]);
      merged.w[i] = (merged.w[i] & ~wrote) | (p.w[i] & wrote);
      changed |= wrote;
    }
  }
  // No copy changed the chunk: `into` keeps its bytes, and every copy already holds S (a copy differs
  // from S only where its unit wrote), which is the merge when `into` is S.
  if (!changed && (into.original == t.original || !kReplicate)) return;
  store_original<kBytes>(into, off, merged);
  if constexpr (kReplicate)
    for (uint32_t k = 0; k < t.num_copies; ++k) store_chunk<kBytes>(copy_at(t, k, off), merged);
}

template <int kBytes, bool kReplicate>
__device__ __forceinline__ void merge_ordered_chunk(const TargetBuffers& t, uint64_t off) {
  merge_ordered_chunk<kBytes, kReplicate>(t, off, t);
}

// The same merge of one 16-byte chunk into S by a whole warp: lane k loads copy k (at most 32 copies,
// every lane of the warp calls it), and the lanes combine their changes in copy order with shuffles,
// so the copies' loads run side by side instead of one after another in one thread. For a few written
// chunks among many copies (deterministic mode's warps at a barrier: b+tree writes a chunk or two).
template <bool kReplicate>
__device__ __forceinline__ void merge_ordered_chunk_by_warp(const TargetBuffers& t, uint64_t off, uint32_t lane) {
  constexpr int kWords = Chunk<16>::kWords;
  const Chunk<16> s = load_original<16>(t, off);
  uint32_t value[kWords] = {}, wrote[kWords] = {};
  if (lane < t.num_copies) {
    const Chunk<16> p = load_chunk<16>(copy_at(t, lane, off));
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      wrote[i] = __vcmpne4(p.w[i], s.w[i]);
      value[i] = p.w[i] & wrote[i];
    }
  }
  // Each lane holds the merge of its aligned group of `delta` copies; the upper group's changes win.
#pragma unroll
  for (uint32_t delta = 1; delta < 32; delta *= 2) {
    const bool upper = lane & delta;
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      const uint32_t other = __shfl_xor_sync(0xffffffffu, value[i], delta);
      const uint32_t other_wrote = __shfl_xor_sync(0xffffffffu, wrote[i], delta);
      value[i] = upper ? (other & ~wrote[i]) | value[i] : (value[i] & ~other_wrote) | other;
      wrote[i] |= other_wrote;
    }
  }
  Chunk<16> merged;
  uint32_t changed = 0;  // the same in every lane: each holds every copy's changes now
#pragma unroll
  for (int i = 0; i < kWords; ++i) {
    merged.w[i] = (s.w[i] & ~wrote[i]) | value[i];
    changed |= wrote[i];
  }
  if (!changed) return;  // S and every copy already hold the merge
  if (lane == 0) store_original<16>(t, off, merged);
  if constexpr (kReplicate)
    if (lane < t.num_copies) store_chunk<16>(copy_at(t, lane, off), merged);
}

// ---- one chunk or word by a whole warp -------------------------------------------------------------
// Level W's few chunks of a region, and its words in chunks that several blocks write
// (footprint_lists.h): lane k holds copy k's kBytes (at most 32 copies), so the copies' loads run side
// by side (a thread walking 32 copies made b+tree's sites ~70 us a word), and only these kBytes are
// stored (a word's chunk is other blocks' too). Every lane of the warp calls them with the same `off`
// (a multiple of kBytes).

// The fused ww-check, as ww_check_chunk: U, the races of consecutive writers of a byte, and each
// copy's pass-2 start state, or with kCommit the commit (as commit_everywhere). Returns whether a copy
// changed the bytes, in every lane.
template <int kBytes, bool kCommit = false>
__device__ __forceinline__ bool ww_check_by_warp(const TargetBuffers& t, uint64_t off, const RaceLogView& log,
                                                 uint32_t lane) {
  constexpr int kWords = Chunk<kBytes>::kWords;
  const Chunk<kBytes> s = load_original<kBytes>(t, off);
  const Chunk<kBytes> p = lane < t.num_copies ? load_chunk<kBytes>(copy_at(t, lane, off)) : s;
  uint32_t wrote[kWords];
#pragma unroll
  for (int i = 0; i < kWords; ++i) wrote[i] = __vcmpne4(p.w[i], s.w[i]);
  Chunk<kBytes> u = s;
  bool clash = false, changed = false;
#pragma unroll
  for (int byte = 0; byte < kBytes; ++byte) {
    const int i = byte / 4, shift = 8 * (byte % 4);
    const uint32_t writers = __ballot_sync(0xffffffffu, (wrote[i] >> shift) & 1u);
    if (!writers) continue;
    changed = true;
    clash = clash || (writers & (writers - 1)) != 0;
    const uint32_t last = __shfl_sync(0xffffffffu, p.w[i], 31 - __clz(writers));  // the last writer wins
    u.w[i] = (u.w[i] & ~(0xffu << shift)) | (last & (0xffu << shift));
  }
  if (clash && lane == 0) log_write_write<kBytes>(t, off, s, log);
  __syncwarp();  // lane 0 re-reads the copies' pass-1 bytes before the lanes store their pass-2 states
  if (!changed) return false;  // every copy and U hold S
  if (lane == 0) store_chunk<kBytes>(t.uni + off, u);
  if (kCommit && lane == 0) store_original<kBytes>(t, off, u);
  if (lane < t.num_copies) store_chunk<kBytes>(copy_at(t, lane, off), kCommit ? u : pass2_state<kBytes>(s, u, wrote));
  return true;
}

// The rw-check fused with the commit, as rw_commit_chunk: a copy whose pass-2 bytes differ from U
// read another unit's write (with `check`); S := U; every copy := S.
template <int kBytes>
__device__ __forceinline__ void rw_commit_by_warp(const TargetBuffers& t, uint64_t off, const RaceLogView& log,
                                                  uint32_t lane, bool check) {
  const Chunk<kBytes> u = load_chunk<kBytes>(t.uni + off);
  if (lane < t.num_copies) {
    uint8_t* const copy = copy_at(t, lane, off);
    const Chunk<kBytes> p = load_chunk<kBytes>(copy);
    uint32_t differs = 0;
#pragma unroll
    for (int i = 0; i < Chunk<kBytes>::kWords; ++i) differs |= p.w[i] ^ u.w[i];
    if (check && differs) log_read_write<kBytes>(t, off, lane, u, p, log);
    store_chunk<kBytes>(copy, u);
  }
  if (lane == 0) store_original<kBytes>(t, off, u);
}

}  // namespace ldcc::ops
