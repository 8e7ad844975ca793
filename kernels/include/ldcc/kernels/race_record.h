// Race records shared by the device checking kernels, their plain-C++ reference and the host runtime.
// Plain C++ (no CUDA headers) so host-only code can use it.
#pragma once
#include <cstdint>

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

inline bool operator==(const RaceRecord& a, const RaceRecord& b) {
  return a.kind == b.kind && a.target == b.target && a.unit_a == b.unit_a && a.unit_b == b.unit_b &&
         a.byte_lo == b.byte_lo && a.byte_hi == b.byte_hi && a.block == b.block && a.region == b.region;
}

// RaceRecord.target of a register race: the local's TU-wide index, or kDiverged when the thread
// reached a different site in pass 2 than in pass 1. byte_lo is then the thread's index in its block.
constexpr uint32_t kRegisterTarget = 0x80000000u;
// RaceRecord.target of a race in global memory at level W: the launch's global target index.
constexpr uint32_t kGlobalTarget = 0x40000000u;
constexpr uint32_t kDiverged = 0xffffu;

// The bounded device log. `count` keeps counting past `capacity`, so overflow is known exactly.
struct RaceLogView {
  RaceRecord* records;
  unsigned long long* count;
  uint32_t capacity;
  uint32_t block = kNoUnit;  // copied into every record written through this view
  uint32_t region = 0;
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

// Where the ww-check also gathers each copy's write footprint: lo[k] and hi[k] become the first and
// one past the last byte where copy k (k < copies) differs from S. lo == nullptr: not gathered.
struct FootprintBounds {
  unsigned long long* lo = nullptr;
  unsigned long long* hi = nullptr;
  uint32_t copies = 0;
};

}  // namespace ldcc
