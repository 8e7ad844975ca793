// Race records shared by the device checking kernels, their plain-C++ reference and the host runtime.
// Plain C++ (no CUDA headers) so host-only code can use it.
#pragma once
#include <cstdint>

// Functions the device code and the host runtime both call.
#if defined(__CUDACC__)
#define LDCC_HOST_DEVICE __host__ __device__
#else
#define LDCC_HOST_DEVICE
#endif

namespace ldcc {

enum class RaceKind : uint32_t { WriteWrite = 1, ReadWrite = 2 };

// No second unit: a read-write record names the unit whose re-execution diverged; the writer it
// read from is not recoverable from values alone.
constexpr uint32_t kNoUnit = 0xffffffffu;

// One race over a byte range [byte_lo, byte_hi) of one target. Units are copy indices as the
// kernels see them; the runtime maps copies to units with the round's plan.
//   write-write: unit_a is the earlier writer (lower copy index) and unit_b the next one, so a byte
//                written by copies 1, 4 and 6 gives the pairs (1,4) and (4,6).
//   read-write:  unit_a's pass-2 result differs from the union U; unit_b is kNoUnit.
struct RaceRecord {
  uint32_t kind;
  uint32_t target;
  uint32_t unit_a;
  uint32_t unit_b;
  uint64_t byte_lo;
  uint64_t byte_hi;
  // Level W inside a translated kernel: the block (linear index) and the region as
  // (opening site << 16 | closing site). kNoUnit / 0 for checks run from the host.
  uint32_t block = kNoUnit;
  uint32_t region = 0;
};

LDCC_HOST_DEVICE inline bool operator==(const RaceRecord& a, const RaceRecord& b) {
  return a.kind == b.kind && a.target == b.target && a.unit_a == b.unit_a && a.unit_b == b.unit_b &&
         a.byte_lo == b.byte_lo && a.byte_hi == b.byte_hi && a.block == b.block && a.region == b.region;
}

// RaceRecord.target of a register race: the local's TU-wide index, or kDiverged when the thread
// reached a different site in pass 2 than in pass 1. byte_lo is then the thread's index in its block.
constexpr uint32_t kRegisterTarget = 0x80000000u;
// RaceRecord.target of a race in global memory at level W: the launch's global target index.
constexpr uint32_t kGlobalTarget = 0x40000000u;
constexpr uint32_t kDiverged = 0xffffu;

// The record without its block (a register race: without its thread either): what stays the same
// when the same race happens in another block or another launch.
LDCC_HOST_DEVICE inline RaceRecord record_key(const RaceRecord& r) {
  RaceRecord key = r;
  key.block = kNoUnit;
  if (r.target & kRegisterTarget) key.byte_lo = key.byte_hi = 0;  // one race per local, whichever threads
  return key;
}

// FNV-1a over the fields; never 0 (an empty slot of SeenTable).
LDCC_HOST_DEVICE inline uint64_t record_hash(const RaceRecord& r) {
  const uint64_t fields[] = {r.kind, r.target, r.region, r.unit_a, r.unit_b, r.block, r.byte_lo, r.byte_hi};
  uint64_t h = 1469598103934665603ull;
  for (uint64_t v : fields) h = (h ^ v) * 1099511628211ull;
  return h ? h : 1;
}

// The record keys a kernel's earlier launches logged, on the device, so its log drops them before they
// take a slot: a kernel launched in a loop logs the same races every time (scan_race: 65536 records,
// the log's capacity, in each of 384 launches, copied and filtered on the host). Open addressing with
// linear probing over mask + 1 slots; hashes[i] == 0: slot i is empty, else keys[i] has that hash.
// Filled between launches (at most half full), only read during them.
struct SeenTable {
  unsigned long long* hashes = nullptr;
  RaceRecord* keys = nullptr;
  uint32_t mask = 0;
  unsigned int* fill = nullptr;  // slots taken
};

LDCC_HOST_DEVICE inline bool seen_contains(const SeenTable& t, const RaceRecord& key) {
  const uint64_t h = record_hash(key);
  for (uint32_t i = uint32_t(h) & t.mask, probes = 0; probes <= t.mask; i = (i + 1) & t.mask, ++probes) {
    if (t.hashes[i] == 0) return false;
    if (t.hashes[i] == h && t.keys[i] == key) return true;
  }
  return false;
}

// Adds `key` unless the table holds it or is half full. `cas(p, expected, desired)` returns *p's old
// value (atomicCAS on the device); `add(fill, n)` adds n (mod 2^32) and returns the old count
// (atomicAdd). A slot is taken by its hash and then gets its key, so two threads adding the same key
// at once may both add it: a lookup finds either. A thread reserves its slot in the count before the
// compare-and-swap and gives it back when another thread takes the slot first: the table never holds
// more than half its slots, however many threads add at once (probes stay short), and a lost slot
// does not count. scan_race's first launch adds 65536 records of about a thousand keys at once: when
// every try counted, the count passed the limit with 1225 of 131072 slots used. A reservation that
// finds the count full while others are in flight adds nothing: the next launch logs the key again.
template <typename Cas, typename Add>
LDCC_HOST_DEVICE bool seen_insert(const SeenTable& t, const RaceRecord& key, Cas cas, Add add) {
  const uint64_t h = record_hash(key);
  const unsigned int limit = (t.mask + 1) / 2;
  for (uint32_t i = uint32_t(h) & t.mask, probes = 0; probes <= t.mask; i = (i + 1) & t.mask, ++probes) {
    unsigned long long current = t.hashes[i];
    if (current == 0) {
      if (add(t.fill, 1u) >= limit) {
        add(t.fill, ~0u);  // -1
        return false;
      }
      current = cas(&t.hashes[i], 0ull, (unsigned long long)h);
      if (current == 0) {
        t.keys[i] = key;
        return true;
      }
      add(t.fill, ~0u);
    }
    if (current == h && t.keys[i] == key) return true;
  }
  return false;
}

// What level W's log does besides logging: it drops the records whose key is in `seen` (the kernel's
// earlier launches logged them), and sets raced_blocks[block] for every record, dropped or not.
struct LogFilter {
  SeenTable seen;
  uint32_t* raced_blocks = nullptr;
};

// The bounded device log. `count` keeps counting past `capacity`, so overflow is known exactly.
struct RaceLogView {
  RaceRecord* records;
  unsigned long long* count;
  uint32_t capacity;
  uint32_t block = kNoUnit;  // copied into every record written through this view
  uint32_t region = 0;
  const LogFilter* filter = nullptr;  // level W's (a pointer: the view is passed by value everywhere)
  uint32_t* block_raced = nullptr;    // level W: set with every record (BlockState::raced)
};

// Every private copy and the union copy U are padded to this many bytes: 32 lanes x 16 bytes, so the
// checking kernels cover whole warps of full 16-byte chunks and need no tail branches on them.
constexpr uint64_t kCopyPadding = 512;

constexpr uint64_t padded_copy_bytes(uint64_t bytes) {
  return (bytes + kCopyPadding - 1) / kCopyPadding * kCopyPadding;
}

// One target as the checking kernels see it.
//   original: S, the program's own memory (any alignment, `bytes` long, not padded);
//   copies:   num_copies private copies, copy k at copies + k * stride (16-byte aligned);
//   uni:      the union copy U, `stride` bytes.
// Bytes at and past `bytes` read as 0 in S and stay 0 in the copies.
struct TargetBuffers {
  uint8_t* original;
  uint64_t bytes;
  uint8_t* copies;
  uint64_t stride;
  uint8_t* uni;
  uint32_t num_copies;
  uint32_t target_id;
};

// FootprintBounds::owners, per 4-byte word of a target: the copy that changed it, or one of these.
constexpr uint32_t kNoOwner = 0xffffffffu;     // no copy changed it
constexpr uint32_t kSharedWord = 0xfffffffeu;  // two copies changed bytes of it

// Where the ww-check also gathers each copy's write footprint: lo[k] and hi[k] become the first and
// one past the last byte where copy k (k < copies) differs from S. lo == nullptr: not gathered.
// With `owners` (stride / 4 words, all kNoOwner before the check) also which copy changed each word,
// for footprints that interleave (level W's per-block lists, footprint_lists.h).
struct FootprintBounds {
  unsigned long long* lo = nullptr;
  unsigned long long* hi = nullptr;
  uint32_t copies = 0;
  uint32_t* owners = nullptr;
};

}  // namespace ldcc
