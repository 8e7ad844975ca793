#include "reference/check_reference.h"

#include <algorithm>
#include <cstddef>

namespace ldcc::reference {

void replicate(const Bytes& original, std::vector<Bytes>& copies) {
  for (Bytes& copy : copies) copy = original;
}

Bytes ww_check_fused(const Bytes& original, std::vector<Bytes>& copies, uint32_t target,
                     std::vector<RaceRecord>& races) {
  Bytes uni = original;
  for (uint64_t x = 0; x < original.size(); ++x) {
    uint32_t previous_writer = kNoUnit;
    for (uint32_t k = 0; k < copies.size(); ++k) {
      if (copies[k][x] == original[x]) continue;
      if (previous_writer != kNoUnit)
        races.push_back({uint32_t(RaceKind::WriteWrite), target, previous_writer, k, x, x + 1});
      previous_writer = k;
      uni[x] = copies[k][x];
    }
  }
  for (Bytes& copy : copies)
    for (uint64_t x = 0; x < original.size(); ++x) copy[x] = copy[x] != original[x] ? original[x] : uni[x];
  return uni;
}

std::vector<unsigned long long> footprints(const Bytes& original, const std::vector<Bytes>& copies) {
  const std::size_t m = copies.size();
  std::vector<unsigned long long> bounds(2 * m, 0);
  for (std::size_t k = 0; k < m; ++k) {
    bounds[k] = ~0ull;
    for (uint64_t x = 0; x < original.size(); ++x)
      if (copies[k][x] != original[x]) {
        bounds[k] = std::min<unsigned long long>(bounds[k], x);
        bounds[m + k] = x + 1;
      }
  }
  return bounds;
}

std::vector<uint32_t> word_owners(const Bytes& original, const std::vector<Bytes>& copies) {
  std::vector<uint32_t> owners((original.size() + 15) / 16 * 4, kNoOwner);
  for (uint32_t k = 0; k < copies.size(); ++k)
    for (uint64_t x = 0; x < original.size(); ++x)
      if (copies[k][x] != original[x]) {
        uint32_t& owner = owners[x / 4];
        owner = owner == kNoOwner || owner == k ? k : kSharedWord;
      }
  return owners;
}

FootprintLists footprint_lists(const std::vector<uint32_t>& owners, uint32_t blocks) {
  FootprintLists lists;
  lists.chunks.resize(blocks);
  lists.words.resize(blocks);
  lists.chunk_owner.assign(owners.size() / 4, kNoOwner);
  lists.word_owner.assign(owners.size(), kNoOwner);
  for (uint64_t c = 0; c < owners.size() / 4; ++c) {
    std::set<uint32_t> in_chunk;
    for (uint64_t w = 4 * c; w < 4 * c + 4; ++w)
      if (owners[w] != kNoOwner) in_chunk.insert(owners[w]);
    if (in_chunk.size() == 1 && *in_chunk.begin() != kSharedWord) {
      lists.chunks[*in_chunk.begin()].push_back(uint32_t(c));
      lists.chunk_owner[c] = *in_chunk.begin();
      continue;
    }
    for (uint64_t w = 4 * c; w < 4 * c + 4; ++w) {
      lists.word_owner[w] = owners[w];
      if (owners[w] == kSharedWord) ++lists.shared_words;
      else if (owners[w] != kNoOwner) lists.words[owners[w]].push_back(uint32_t(w));
    }
  }
  return lists;
}

void rw_check(const Bytes& uni, const std::vector<Bytes>& copies, uint32_t target, std::vector<RaceRecord>& races) {
  for (uint32_t k = 0; k < copies.size(); ++k)
    for (uint64_t x = 0; x < uni.size(); ++x)
      if (copies[k][x] != uni[x]) races.push_back({uint32_t(RaceKind::ReadWrite), target, k, kNoUnit, x, x + 1});
}

void merge_ordered_into(const Bytes& original, const std::vector<Bytes>& copies, Bytes& into) {
  for (const Bytes& copy : copies)
    for (uint64_t x = 0; x < original.size(); ++x)
      if (copy[x] != original[x]) into[x] = copy[x];
}

void merge_ordered(Bytes& original, const std::vector<Bytes>& copies) {
  const Bytes start = original;
  merge_ordered_into(start, copies, original);
}

std::set<ByteRace> expand(const std::vector<RaceRecord>& records) {
  std::set<ByteRace> bytes;
  for (const RaceRecord& r : records)
    for (uint64_t x = r.byte_lo; x < r.byte_hi; ++x) bytes.emplace(r.kind, r.target, r.unit_a, r.unit_b, x);
  return bytes;
}

}  // namespace ldcc::reference
