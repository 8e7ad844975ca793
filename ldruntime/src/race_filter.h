// Decides which device race records of a check are new. Host only.
//  - A read-write record on an element of a write-write race of the same round is that ww race seen
//    again, not a read: the reverted writer rewrote its own value in pass 2, or its bytes that
//    happened to equal S were invisible to the ww-check. Dropped.
//  - Once a round finds a race, its units were not independent after all, so later rounds see the
//    same elements race again between other copy groupings: each racy element is reported by the
//    first round that finds it (a ww race only by an earlier ww race, which it would absorb).
//  - After the last round, a read-write record on an element that a write-write race of any round
//    covers is absorbed by it: in a memory-limited round, racing units that share a copy can leave
//    it with different values in the two passes, which shows up as a rw record on that element.
// Elements are the target's element size (1 where unknown): a race is about a variable's element.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

#include "ldcc/kernels/race_record.h"

namespace ldcc {

// A launch's device records, fewer, before they become reports (a racy launch logs thousands: one
// per chunk or byte, the same ones in every block):
//   coalesce_records: records that differ only by byte ranges that overlap or touch become one; with
//     `continues` (by_elements, by_layout), ranges in one element or in the next one of the same
//     variable (a race is about elements: bytes both writers left as they were, an int's high byte
//     or a float's low bytes, must not split a run of racing elements into one report per element);
//   merge_record_blocks: the same record in several blocks is kept for its lowest block, with the
//   number of other blocks that logged it (a register race: of other blocks and threads).
// Whether a range of a record's target that starts at `lo` continues the one that ends at `hi` (the
// ranges of one identity are merged in the order of their starts, so lo is at least that one's start).
using Continues = std::function<bool(uint32_t target, uint64_t hi, uint64_t lo)>;
std::vector<RaceRecord> coalesce_records(std::vector<RaceRecord> records, const Continues& continues = {});
// Targets numbered as in `element_sizes`, each a variable of its own (level B's allocations: byte
// offsets from the allocation's start; 0 or a missing size: bytes): a range that starts in the element
// where the other ends, or in the next one, continues it.
Continues by_elements(std::vector<uint64_t> element_sizes);
// Level W's records (translated_launch.cu): shared ones by the layout variable that holds their last
// byte (never into the next variable), global ones (kGlobalTarget | i) by global_element_sizes[i],
// register ones (their range is a thread's index) where they overlap or touch.
struct LayoutVariable {
  uint64_t offset, bytes, element_size;
};
Continues by_layout(std::vector<LayoutVariable> shared, std::vector<uint64_t> global_element_sizes);
struct BlockMergedRecord {
  RaceRecord record;
  uint64_t other_blocks = 0;
};
std::vector<BlockMergedRecord> merge_record_blocks(const std::vector<RaceRecord>& records);

struct RecordHash {
  size_t operator()(const RaceRecord& r) const { return size_t(record_hash(r)); }
};

// The device records a clone's launches logged so far, by record_key: a kernel launched in a loop
// logs the same races every time (scan_race: the log's 65536 records in each of 384 launches), and
// sorting, merging and turning them into reports again was most of a racy launch's cost.
class SeenRecords {
 public:
  // Removes the records an earlier call saw (in any block) and remembers the rest.
  void drop_seen(std::vector<RaceRecord>& records);

 private:
  std::unordered_map<RaceRecord, uint64_t, RecordHash> seen_;  // record key -> the call that first saw it
  uint64_t calls_ = 0;
};

// Level B's read-write records once level W has run (DESIGN.md section 4): per round, the records of
// copies whose blocks raced within themselves (copy_raced[round][copy]; their results differ between
// executions by themselves) are left out and counted in `inconclusive`; the rest go through the
// rounds again, with each round's coalesced write-write records, in a filter of their own (which
// reads are new depends on the reads of earlier rounds kept). Returns the surviving read-write
// records with their rounds.
std::vector<std::pair<uint32_t, RaceRecord>> kept_block_reads(const std::vector<std::vector<RaceRecord>>& round_writes,
                                                              const std::vector<std::vector<RaceRecord>>& round_reads,
                                                              const std::vector<std::vector<bool>>& copy_raced,
                                                              const std::vector<uint64_t>& element_sizes,
                                                              uint64_t& inconclusive);

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
  explicit RaceFilter(std::vector<uint64_t> element_sizes = {}) : element_sizes_(std::move(element_sizes)) {}
  // Returns the new records of one round, split where parts were already reported.
  std::vector<RaceRecord> next_round(const std::vector<RaceRecord>& records);
  // The parts of a record of any round that survive the whole check (see above): a read-write
  // record less the elements of every write-write race, a write-write record whole; call after the
  // last round.
  std::vector<RaceRecord> surviving_parts(const RaceRecord& record) const;
  bool survives(const RaceRecord& record) const { return !surviving_parts(record).empty(); }

 private:
  uint64_t element_size(uint32_t target) const;
  std::vector<uint64_t> element_sizes_;
  void add_elements(std::map<uint32_t, ByteRanges>& set, const RaceRecord& r) const;
  // Per target, whole elements. Every ww record's elements end up in reported_ww_ (new ones are
  // added, the rest were there), so it is also the set of every ww element of every round.
  std::map<uint32_t, ByteRanges> reported_ww_;
  std::map<uint32_t, ByteRanges> reported_any_;
};

}  // namespace ldcc
