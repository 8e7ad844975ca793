// Decides which device race records of a check are new. Host only.
//  - A read-write record on a byte of a write-write race of the same round is that ww race seen
//    again (the reverted writer rewrote its own value in pass 2), not a read: dropped.
//  - Once a round finds a race, its units were not independent after all, so later rounds see the
//    same bytes race again between other copy groupings: each racy byte is reported by the first
//    round that finds it.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "ldcc/kernels/race_record.h"

namespace ldcc {

class ByteRanges {
 public:
  void add(uint64_t lo, uint64_t hi);
  // The parts of [lo, hi) not in the set.
  std::vector<std::pair<uint64_t, uint64_t>> subtract(uint64_t lo, uint64_t hi) const;

 private:
  std::map<uint64_t, uint64_t> ranges_;  // lo -> hi, disjoint and non-adjacent
};

class RaceFilter {
 public:
  // Returns the new records of one round, split where parts were already reported.
  std::vector<RaceRecord> next_round(const std::vector<RaceRecord>& records);

 private:
  std::map<uint32_t, ByteRanges> reported_;  // per target
};

}  // namespace ldcc
