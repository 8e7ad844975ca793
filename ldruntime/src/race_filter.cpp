#include "race_filter.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace ldcc {
namespace {

auto record_units(const RaceRecord& r) { return std::tie(r.kind, r.target, r.region, r.unit_a, r.unit_b); }

}  // namespace

std::vector<RaceRecord> coalesce_records(std::vector<RaceRecord> records) {
  std::sort(records.begin(), records.end(), [](const RaceRecord& a, const RaceRecord& b) {
    return std::tuple_cat(record_units(a), std::tie(a.block, a.byte_lo, a.byte_hi)) <
           std::tuple_cat(record_units(b), std::tie(b.block, b.byte_lo, b.byte_hi));
  });
  std::vector<RaceRecord> merged;
  for (const RaceRecord& r : records) {
    RaceRecord* last = merged.empty() ? nullptr : &merged.back();
    if (last && record_units(*last) == record_units(r) && last->block == r.block && r.byte_lo <= last->byte_hi)
      last->byte_hi = std::max(last->byte_hi, r.byte_hi);
    else
      merged.push_back(r);
  }
  return merged;
}

std::vector<BlockMergedRecord> merge_record_blocks(const std::vector<RaceRecord>& records) {
  std::vector<BlockMergedRecord> out;
  std::unordered_map<RaceRecord, size_t, RecordHash> first;  // record_key -> its index in out
  first.reserve(records.size());
  for (const RaceRecord& r : records) {
    auto [it, inserted] = first.emplace(record_key(r), out.size());
    if (inserted) {
      out.push_back({r, 0});
      continue;
    }
    BlockMergedRecord& m = out[it->second];
    ++m.other_blocks;
    if (r.block < m.record.block) m.record = r;
  }
  return out;
}

void SeenRecords::drop_seen(std::vector<RaceRecord>& records) {
  // This launch's own repeats stay (merge_record_blocks counts the blocks), so remember them after.
  std::vector<RaceRecord> fresh, fresh_keys;
  for (const RaceRecord& r : records) {
    RaceRecord key = record_key(r);
    if (seen_.count(key)) continue;
    fresh.push_back(r);
    fresh_keys.push_back(key);
  }
  seen_.insert(fresh_keys.begin(), fresh_keys.end());
  records = std::move(fresh);
}

std::vector<std::pair<uint32_t, RaceRecord>> kept_block_reads(const std::vector<std::vector<RaceRecord>>& round_writes,
                                                              const std::vector<std::vector<RaceRecord>>& round_reads,
                                                              const std::vector<std::vector<bool>>& copy_raced,
                                                              const std::vector<uint64_t>& element_sizes,
                                                              uint64_t& inconclusive) {
  RaceFilter filter(element_sizes);
  std::vector<std::pair<uint32_t, RaceRecord>> reads;
  for (uint32_t round = 0; round < round_reads.size(); ++round) {
    std::vector<RaceRecord> kept;
    for (const RaceRecord& r : round_reads[round]) {
      const bool raced = round < copy_raced.size() && r.unit_a < copy_raced[round].size() && copy_raced[round][r.unit_a];
      if (raced) ++inconclusive;
      else kept.push_back(r);
    }
    kept = coalesce_records(std::move(kept));
    if (round < round_writes.size()) kept.insert(kept.end(), round_writes[round].begin(), round_writes[round].end());
    for (const RaceRecord& r : filter.next_round(kept))
      if (r.kind == uint32_t(RaceKind::ReadWrite)) reads.emplace_back(round, r);
  }
  std::vector<std::pair<uint32_t, RaceRecord>> out;
  for (const auto& read : reads)
    if (filter.survives(read.second)) out.push_back(read);
  return out;
}

void ByteRanges::add(uint64_t lo, uint64_t hi) {
  if (lo >= hi) return;
  auto it = ranges_.upper_bound(lo);
  if (it != ranges_.begin() && std::prev(it)->second >= lo) --it;
  while (it != ranges_.end() && it->first <= hi) {
    lo = std::min(lo, it->first);
    hi = std::max(hi, it->second);
    it = ranges_.erase(it);
  }
  ranges_.emplace(lo, hi);
}

std::vector<std::pair<uint64_t, uint64_t>> ByteRanges::subtract(uint64_t lo, uint64_t hi) const {
  std::vector<std::pair<uint64_t, uint64_t>> parts;
  auto it = ranges_.upper_bound(lo);
  if (it != ranges_.begin() && std::prev(it)->second > lo) --it;
  for (; it != ranges_.end() && it->first < hi && lo < hi; ++it) {
    if (it->first > lo) parts.emplace_back(lo, it->first);
    lo = std::max(lo, it->second);
  }
  if (lo < hi) parts.emplace_back(lo, hi);
  return parts;
}

uint64_t RaceFilter::element_size(uint32_t target) const {
  return target < element_sizes_.size() && element_sizes_[target] ? element_sizes_[target] : 1;
}

void RaceFilter::add_elements(std::map<uint32_t, ByteRanges>& set, const RaceRecord& r) const {
  const uint64_t es = element_size(r.target);
  set[r.target].add(r.byte_lo / es * es, (r.byte_hi + es - 1) / es * es);
}

bool RaceFilter::survives(const RaceRecord& r) const {
  if (r.kind != uint32_t(RaceKind::ReadWrite)) return true;
  auto ww = reported_ww_.find(r.target);
  return ww == reported_ww_.end() || !ww->second.subtract(r.byte_lo, r.byte_hi).empty();
}

std::vector<RaceRecord> RaceFilter::next_round(const std::vector<RaceRecord>& records) {
  std::map<uint32_t, ByteRanges> ww_now;
  for (const RaceRecord& r : records)
    if (r.kind == uint32_t(RaceKind::WriteWrite)) add_elements(ww_now, r);

  std::vector<RaceRecord> fresh;
  for (const RaceRecord& r : records) {
    auto& reported = (r.kind == uint32_t(RaceKind::WriteWrite) ? reported_ww_ : reported_any_)[r.target];
    for (auto [lo, hi] : reported.subtract(r.byte_lo, r.byte_hi)) {
      auto pieces = r.kind == uint32_t(RaceKind::ReadWrite) ? ww_now[r.target].subtract(lo, hi)
                                                            : std::vector<std::pair<uint64_t, uint64_t>>{{lo, hi}};
      for (auto [plo, phi] : pieces) {
        RaceRecord piece = r;
        piece.byte_lo = plo;
        piece.byte_hi = phi;
        fresh.push_back(piece);
      }
    }
  }
  for (const RaceRecord& r : fresh) {
    add_elements(reported_any_, r);
    if (r.kind == uint32_t(RaceKind::WriteWrite)) add_elements(reported_ww_, r);
  }
  return fresh;
}

}  // namespace ldcc
