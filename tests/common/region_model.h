// A model of one synchronization-free region run by several units, for tests without a GPU: each
// unit runs a short program of byte reads and writes on its own copy. It gives the ground truth
// (who read and wrote what) that value-based checking is held against.
#pragma once
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "race_filter.h"
#include "reference/check_reference.h"

namespace ldcc::testing {

// dst := (src == kNoSource ? 0 : value at src) + add, on the unit's copy.
struct Op {
  static constexpr uint64_t kNoSource = ~0ull;
  uint64_t src;
  uint64_t dst;
  uint8_t add;
};
using Program = std::vector<Op>;

inline void run_unit(const Program& program, reference::Bytes& copy) {
  for (const Op& op : program) copy[op.dst] = uint8_t((op.src == Op::kNoSource ? 0 : copy[op.src]) + op.add);
}

struct RegionOutcome {
  reference::Bytes committed;  // U
  std::vector<RaceRecord> races;
};

// The two-pass check of DESIGN.md section 3 with the reference kernels, with the runtime's filter of
// the raw records (a rw record on a ww byte is the ww race itself).
inline RegionOutcome check_region(const reference::Bytes& original, const std::vector<Program>& units, uint32_t target = 0) {
  std::vector<reference::Bytes> copies(units.size());
  reference::replicate(original, copies);
  for (size_t u = 0; u < units.size(); ++u) run_unit(units[u], copies[u]);
  RegionOutcome out;
  out.committed = reference::ww_check_fused(original, copies, target, out.races);
  for (size_t u = 0; u < units.size(); ++u) run_unit(units[u], copies[u]);
  reference::rw_check(out.committed, copies, target, out.races);
  out.races = RaceFilter().next_round(out.races);
  return out;
}

// Ground truth: bytes written by two units, and (reader, byte) pairs where a unit read a byte another
// unit wrote, before writing it itself.
struct Truth {
  std::set<uint64_t> ww_bytes;
  std::set<std::pair<uint32_t, uint64_t>> rw_reads;
  std::set<std::pair<uint32_t, uint64_t>> writes;  // (unit, byte)
};

inline Truth ground_truth(const std::vector<Program>& units) {
  Truth truth;
  std::vector<std::set<uint64_t>> written(units.size());
  for (uint32_t u = 0; u < units.size(); ++u)
    for (const Op& op : units[u]) written[u].insert(op.dst), truth.writes.emplace(u, op.dst);
  for (uint32_t u = 0; u < units.size(); ++u)
    for (uint32_t v = u + 1; v < units.size(); ++v)
      for (uint64_t x : written[u])
        if (written[v].count(x)) truth.ww_bytes.insert(x);
  for (uint32_t u = 0; u < units.size(); ++u) {
    std::set<uint64_t> own;
    for (const Op& op : units[u]) {
      if (op.src != Op::kNoSource && !own.count(op.src))
        for (uint32_t v = 0; v < units.size(); ++v)
          if (v != u && written[v].count(op.src)) truth.rw_reads.emplace(u, op.src);
      own.insert(op.dst);
    }
  }
  return truth;
}

}  // namespace ldcc::testing
