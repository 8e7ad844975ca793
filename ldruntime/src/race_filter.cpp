#include "race_filter.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace ldcc {
namespace {

// A target's element size in a per-target list; 1 where unknown.
uint64_t element_size_in(const std::vector<uint64_t>& element_sizes, uint32_t target) {
  return target < element_sizes.size() && element_sizes[target] ? element_sizes[target] : 1;
}

// The record over each of `ranges` instead of its own range.
std::vector<RaceRecord> pieces_of(const RaceRecord& r, const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  std::vector<RaceRecord> pieces;
  for (auto [lo, hi] : ranges) {
    RaceRecord piece = r;
    piece.byte_lo = lo;
    piece.byte_hi = hi;
    pieces.push_back(piece);
  }
  return pieces;
}

// Elements of `size` bytes counted from `base`: whether a range from `lo` continues one that ends at
// `hi`: it overlaps or touches it, or starts in the element holding byte `hi - 1` or the next one.
bool continues_in_elements(uint64_t base, uint64_t size, uint64_t hi, uint64_t lo) {
  return lo <= hi || (lo - base) / size <= (hi - 1 - base) / size + 1;
}

}  // namespace

std::vector<RaceRecord> coalesce_records(std::vector<RaceRecord> records, const Continues& continues) {
  // A racy launch logs tens of thousands of records in a few hundred identities (all but the byte
  // range: a block's pair of units in a region); one sort of all records by every field was most of
  // the host's work on scan_race's logs. Each identity gets its rank among the distinct identities.
  const auto identity = [](RaceRecord r) {  // the record without its byte range
    r.byte_lo = r.byte_hi = 0;
    return r;
  };
  std::unordered_map<RaceRecord, uint32_t, RecordHash> rank_of;
  std::vector<uint32_t> id(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    if (i && identity(records[i]) == identity(records[i - 1])) {  // often: a block's chunks in a row
      id[i] = id[i - 1];
      continue;
    }
    id[i] = rank_of.try_emplace(identity(records[i]), uint32_t(rank_of.size())).first->second;
  }
  std::vector<std::pair<RaceRecord, uint32_t>> distinct(rank_of.begin(), rank_of.end());
  const auto fields = [](const RaceRecord& r) { return std::tie(r.kind, r.target, r.region, r.unit_a, r.unit_b, r.block); };
  std::sort(distinct.begin(), distinct.end(), [&](const auto& a, const auto& b) { return fields(a.first) < fields(b.first); });
  std::vector<uint32_t> rank(distinct.size());
  for (uint32_t k = 0; k < distinct.size(); ++k) rank[distinct[k].second] = k;

  // Grouped by rank (a counting sort), then each group's ranges sorted: small sorts of plain keys.
  std::vector<uint32_t> group_start(distinct.size() + 1, 0);
  for (uint32_t i : id) ++group_start[rank[i] + 1];
  for (size_t k = 1; k < group_start.size(); ++k) group_start[k] += group_start[k - 1];
  struct Key {
    uint64_t lo, hi;
    uint32_t index;
    bool operator<(const Key& o) const { return std::tie(lo, hi) < std::tie(o.lo, o.hi); }
  };
  std::vector<Key> keys(records.size());
  std::vector<uint32_t> next(group_start.begin(), group_start.end() - 1);
  for (size_t i = 0; i < records.size(); ++i) keys[next[rank[id[i]]]++] = Key{records[i].byte_lo, records[i].byte_hi, uint32_t(i)};
  std::vector<RaceRecord> merged;
  merged.reserve(records.size());
  for (size_t g = 0; g + 1 < group_start.size(); ++g) {
    const auto begin = keys.begin() + group_start[g], end = keys.begin() + group_start[g + 1];
    if (!std::is_sorted(begin, end)) std::sort(begin, end);
    const size_t first = merged.size();
    const uint32_t target = records[begin->index].target;
    for (auto k = begin; k != end; ++k) {
      if (merged.size() > first) {
        RaceRecord& last = merged.back();
        if (continues ? continues(target, last.byte_hi, k->lo) : k->lo <= last.byte_hi) {
          last.byte_hi = std::max(last.byte_hi, k->hi);
          continue;
        }
      }
      merged.push_back(records[k->index]);
    }
  }
  return merged;
}

Continues by_elements(std::vector<uint64_t> element_sizes) {
  return [sizes = std::move(element_sizes)](uint32_t target, uint64_t hi, uint64_t lo) {
    return continues_in_elements(0, element_size_in(sizes, target), hi, lo);
  };
}

Continues by_layout(std::vector<LayoutVariable> shared, std::vector<uint64_t> global_element_sizes) {
  return [shared = std::move(shared), global = by_elements(std::move(global_element_sizes))](uint32_t target, uint64_t hi,
                                                                                             uint64_t lo) {
    if (target & kRegisterTarget) return lo <= hi;
    if (target & kGlobalTarget) return global(target & ~kGlobalTarget, hi, lo);
    for (const LayoutVariable& v : shared)
      if (hi > v.offset && hi <= v.offset + v.bytes)
        return lo < v.offset + v.bytes && continues_in_elements(v.offset, std::max<uint64_t>(1, v.element_size), hi, lo);
    return lo <= hi;
  };
}

std::vector<BlockMergedRecord> merge_record_blocks(const std::vector<RaceRecord>& records) {
  std::vector<BlockMergedRecord> out;
  std::unordered_map<RaceRecord, size_t, RecordHash> first;  // record_key -> its index in out
  first.reserve(records.size());
  for (const RaceRecord& r : records) {
    auto [it, inserted] = first.try_emplace(record_key(r), out.size());
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
  // This launch's own repeats stay (merge_record_blocks counts the blocks): a key is dropped only when
  // an earlier call remembered it. One lookup per record.
  const uint64_t call = ++calls_;
  size_t kept = 0;
  for (const RaceRecord& r : records) {
    const auto [it, fresh] = seen_.try_emplace(record_key(r), call);
    if (fresh || it->second == call) records[kept++] = r;
  }
  records.resize(kept);
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
    kept = coalesce_records(std::move(kept), by_elements(element_sizes));
    if (round < round_writes.size()) kept.insert(kept.end(), round_writes[round].begin(), round_writes[round].end());
    for (const RaceRecord& r : filter.next_round(kept))
      if (r.kind == uint32_t(RaceKind::ReadWrite)) reads.emplace_back(round, r);
  }
  std::vector<std::pair<uint32_t, RaceRecord>> out;
  for (const auto& [round, read] : reads)
    for (const RaceRecord& part : filter.surviving_parts(read)) out.emplace_back(round, part);
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
  return element_size_in(element_sizes_, target);
}

void RaceFilter::add_elements(std::map<uint32_t, ByteRanges>& set, const RaceRecord& r) const {
  const uint64_t es = element_size(r.target);
  set[r.target].add(r.byte_lo / es * es, (r.byte_hi + es - 1) / es * es);
}

std::vector<RaceRecord> RaceFilter::surviving_parts(const RaceRecord& r) const {
  const auto ww = reported_ww_.find(r.target);
  if (r.kind != uint32_t(RaceKind::ReadWrite) || ww == reported_ww_.end()) return {r};
  return pieces_of(r, ww->second.subtract(r.byte_lo, r.byte_hi));
}

std::vector<RaceRecord> RaceFilter::next_round(const std::vector<RaceRecord>& records) {
  std::map<uint32_t, ByteRanges> ww_now;
  for (const RaceRecord& r : records)
    if (r.kind == uint32_t(RaceKind::WriteWrite)) add_elements(ww_now, r);

  std::vector<RaceRecord> fresh;
  for (const RaceRecord& r : records) {
    auto& reported = (r.kind == uint32_t(RaceKind::WriteWrite) ? reported_ww_ : reported_any_)[r.target];
    for (auto [lo, hi] : reported.subtract(r.byte_lo, r.byte_hi)) {
      const auto ranges = r.kind == uint32_t(RaceKind::ReadWrite) ? ww_now[r.target].subtract(lo, hi)
                                                                  : std::vector<std::pair<uint64_t, uint64_t>>{{lo, hi}};
      for (const RaceRecord& piece : pieces_of(r, ranges)) fresh.push_back(piece);
    }
  }
  for (const RaceRecord& r : fresh) {
    add_elements(reported_any_, r);
    if (r.kind == uint32_t(RaceKind::WriteWrite)) add_elements(reported_ww_, r);
  }
  return fresh;
}

}  // namespace ldcc
