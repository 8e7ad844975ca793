// Plain-C++ reference of the checking kernels: the same semantics, written byte by byte with no
// vectors, so tests can compare the GPU kernels against it and CI can test the semantics without a GPU.
// A target's state is S (`bytes` long) and M private copies of the same length.
#pragma once
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "ldcc/kernels/race_record.h"

namespace ldcc::reference {

using Bytes = std::vector<uint8_t>;

// Step 1: every copy := S.
void replicate(const Bytes& original, std::vector<Bytes>& copies);

// Step 3: returns U; rewrites every copy from its pass-1 state P1_k to its pass-2 start state
// P2_k = (P1_k != S) ? S : U; appends ww races (consecutive writers of a byte) to `races`.
Bytes ww_check_fused(const Bytes& original, std::vector<Bytes>& copies, uint32_t target,
                     std::vector<RaceRecord>& races);

// Each copy's write footprint after pass 1, as lo[k] then hi[k] for every k: the first and one past
// the last byte where copy k differs from S; ~0 and 0 where it does not differ.
std::vector<unsigned long long> footprints(const Bytes& original, const std::vector<Bytes>& copies);

// Which copy changed each 4-byte word of S after pass 1 (FootprintBounds::owners): the copy,
// kNoOwner, or kSharedWord where two copies changed bytes of one word. One entry per word of every
// 16-byte chunk that holds a byte of S.
std::vector<uint32_t> word_owners(const Bytes& original, const std::vector<Bytes>& copies);

// Level W's footprints where the blocks' footprints interleave (footprint_lists.h), from the word
// owners with one copy per block: per block, the 16-byte chunks in which only it changed a word, and
// the words it changed in chunks where another block changed one too, both ascending; the same as
// maps (per chunk its block or kNoOwner, per word of a chunk several blocks changed its owner, else
// kNoOwner); and how many words two blocks changed (kSharedWord: the lists cannot tell their bytes
// apart).
struct FootprintLists {
  std::vector<std::vector<uint32_t>> chunks, words;
  std::vector<uint32_t> chunk_owner, word_owner;
  uint64_t shared_words = 0;
  bool operator==(const FootprintLists& o) const {
    return chunks == o.chunks && words == o.words && chunk_owner == o.chunk_owner && word_owner == o.word_owner &&
           shared_words == o.shared_words;
  }
};
FootprintLists footprint_lists(const std::vector<uint32_t>& owners, uint32_t blocks);

// Step 5: appends a rw race for every byte where a pass-2 copy differs from U.
void rw_check(const Bytes& uni, const std::vector<Bytes>& copies, uint32_t target, std::vector<RaceRecord>& races);

// Deterministic merge: S := S with every copy's changes applied in copy order (the highest writer wins).
void merge_ordered(Bytes& original, const std::vector<Bytes>& copies);
// The same changes (against `original`, which stays) applied to `into`.
void merge_ordered_into(const Bytes& original, const std::vector<Bytes>& copies, Bytes& into);

// A race on one byte; records over ranges expand to one of these per byte, so logs that group bytes
// differently compare equal when they say the same thing.
using ByteRace = std::tuple<uint32_t /*kind*/, uint32_t /*target*/, uint32_t /*a*/, uint32_t /*b*/, uint64_t /*byte*/>;
std::set<ByteRace> expand(const std::vector<RaceRecord>& records);

}  // namespace ldcc::reference
