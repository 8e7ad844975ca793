// The reference semantics of the checking kernels, on planted races and on random regions held
// against ground truth. Runs in CI (no GPU).
#include <gtest/gtest.h>

#include "common/region_model.h"

namespace ldcc::testing {
namespace {

using reference::Bytes;

Bytes pattern(size_t n, uint8_t seed = 7) {
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = uint8_t(seed + 13 * i);
  return b;
}

std::set<uint64_t> bytes_of_kind(const std::vector<RaceRecord>& races, RaceKind kind) {
  std::set<uint64_t> bytes;
  for (const RaceRecord& r : races)
    if (r.kind == uint32_t(kind))
      for (uint64_t x = r.byte_lo; x < r.byte_hi; ++x) bytes.insert(x);
  return bytes;
}

TEST(CheckReference, DisjointWritesAreRaceFreeAndCommitAll) {
  const Bytes s = pattern(37);
  // Unit u writes bytes u, u+4, u+8, ...: no two units share a byte.
  std::vector<Program> units(4);
  for (uint32_t u = 0; u < 4; ++u)
    for (uint64_t x = u; x < s.size(); x += 4) units[u].push_back({Op::kNoSource, x, uint8_t(100 + u)});
  const RegionOutcome out = check_region(s, units);
  EXPECT_TRUE(out.races.empty());
  for (uint64_t x = 0; x < s.size(); ++x) EXPECT_EQ(out.committed[x], uint8_t(100 + x % 4)) << x;
}

TEST(CheckReference, FootprintsSpanFirstToLastChangedByte) {
  const Bytes s = pattern(40);
  std::vector<Bytes> copies(3, s);
  copies[0][5] ^= 1;
  copies[0][17] ^= 1;
  copies[2][39] ^= 0xff;
  copies[1][20] = s[20];  // a write of the value S already holds is not seen
  EXPECT_EQ(reference::footprints(s, copies), (std::vector<unsigned long long>{5, ~0ull, 39, 18, 0, 40}));
}

TEST(CheckReference, WordOwnersNameTheOneCopyThatChangedEachWord) {
  const Bytes s = pattern(40);
  std::vector<Bytes> copies(3, s);
  copies[0][0] ^= 1;  // word 0: copy 0, twice
  copies[0][3] ^= 1;
  copies[1][5] ^= 1;  // word 1: copies 1 and 2, different bytes
  copies[2][6] ^= 1;
  copies[2][39] ^= 1;  // word 9, the last byte of S
  copies[1][20] = s[20];  // a write of the value S already holds is not seen
  std::vector<uint32_t> want(12, kNoOwner);  // three whole chunks
  want[0] = 0;
  want[1] = kSharedWord;
  want[9] = 2;
  EXPECT_EQ(reference::word_owners(s, copies), want);
}

TEST(CheckReference, FootprintListsGiveEachBlockItsChunksAndItsWordsInSharedChunks) {
  constexpr uint32_t N = kNoOwner;
  // Chunk 0: block 1 alone (one word); chunk 1: blocks 0 and 2; chunk 2: nobody; chunk 3: block 0
  // alone; chunk 4: block 2 and a word two blocks changed; chunk 5: block 1 alone (every word).
  const std::vector<uint32_t> owners = {N, 1, N, N, 0, 2, 0, N, N, N, N, N, 0, 0, N, 0,
                                        2, kSharedWord, N, N, 1, 1, 1, 1};
  reference::FootprintLists want;
  want.chunks = {{3}, {0, 5}, {}};
  want.words = {{4, 6}, {}, {5, 16}};
  want.chunk_owner = {1, N, N, 0, N, 1};
  want.word_owner = {N, N, N, N, 0, 2, 0, N, N, N, N, N, N, N, N, N, 2, kSharedWord, N, N, N, N, N, N};
  want.shared_words = 1;
  EXPECT_EQ(reference::footprint_lists(owners, 3), want);
}

TEST(CheckReference, PlantedWriteWriteNamesBothWritersAndByte) {
  const Bytes s = pattern(64);
  std::vector<Program> units(3);
  units[0] = {{Op::kNoSource, 10, 1}};
  units[2] = {{Op::kNoSource, 10, 2}, {Op::kNoSource, 11, 2}};
  const RegionOutcome out = check_region(s, units);
  ASSERT_EQ(out.races.size(), 1u);
  EXPECT_EQ(out.races[0], (RaceRecord{uint32_t(RaceKind::WriteWrite), 0, 0, 2, 10, 11}));
  EXPECT_EQ(out.committed[10], 2);  // the last writer's value
  EXPECT_EQ(out.committed[11], 2);
}

TEST(CheckReference, ThreeWritersGiveConsecutivePairs) {
  const Bytes s(8, 0);
  std::vector<Program> units(7);
  for (uint32_t u : {1u, 4u, 6u}) units[u] = {{Op::kNoSource, 3, uint8_t(u + 1)}};
  std::vector<RaceRecord> races = check_region(s, units).races;
  ASSERT_EQ(races.size(), 2u);
  EXPECT_EQ(races[0], (RaceRecord{uint32_t(RaceKind::WriteWrite), 0, 1, 4, 3, 4}));
  EXPECT_EQ(races[1], (RaceRecord{uint32_t(RaceKind::WriteWrite), 0, 4, 6, 3, 4}));
}

TEST(CheckReference, PlantedReadWriteNamesTheReader) {
  const Bytes s = pattern(16);
  std::vector<Program> units(2);
  units[0] = {{Op::kNoSource, 5, 9}};  // writes byte 5
  units[1] = {{5, 12, 1}};             // reads byte 5, writes byte 12 from it
  const RegionOutcome out = check_region(s, units);
  ASSERT_EQ(out.races.size(), 1u);
  EXPECT_EQ(out.races[0], (RaceRecord{uint32_t(RaceKind::ReadWrite), 0, 1, kNoUnit, 12, 13}));
}

TEST(CheckReference, ReadOfOwnWriteIsNotARace) {
  const Bytes s = pattern(16);
  std::vector<Program> units(2);
  units[0] = {{Op::kNoSource, 5, 9}, {5, 6, 1}};
  units[1] = {{Op::kNoSource, 7, 3}, {7, 8, 1}};
  EXPECT_TRUE(check_region(s, units).races.empty());
}

// Paper section 4.7: value-based checking cannot see these; they are documented false negatives.
TEST(CheckReference, SameValueWritesAreInvisible) {
  const Bytes s(16, 42);
  std::vector<Program> units(2);
  units[0] = {{Op::kNoSource, 3, 42}};
  units[1] = {{Op::kNoSource, 3, 42}};
  EXPECT_TRUE(check_region(s, units).races.empty());
}

// A write that restores the old value hides a ww race from the ww-check (paper 4.7); here pass 2
// still exposes it, because unit 0 overwrites unit 1's value again and ends on a value other than U.
TEST(CheckReference, RevertedWriteEscapesTheWwCheckButNotTheRwCheck) {
  const Bytes s(16, 5);
  std::vector<Program> units(2);
  units[0] = {{Op::kNoSource, 3, 77}, {Op::kNoSource, 3, 5}};  // writes, then restores the old value
  units[1] = {{Op::kNoSource, 3, 9}};
  const RegionOutcome out = check_region(s, units);
  ASSERT_EQ(out.races.size(), 1u);
  EXPECT_EQ(out.races[0], (RaceRecord{uint32_t(RaceKind::ReadWrite), 0, 0, kNoUnit, 3, 4}));
  EXPECT_EQ(out.committed[3], 9);
}

// When the other unit's value is also the old one, nothing differs anywhere: a true false negative.
TEST(CheckReference, RevertedWriteOverSameValueIsInvisible) {
  const Bytes s(16, 5);
  std::vector<Program> units(2);
  units[0] = {{Op::kNoSource, 3, 77}, {Op::kNoSource, 3, 5}};
  units[1] = {{Op::kNoSource, 3, 5}};
  EXPECT_TRUE(check_region(s, units).races.empty());
}

TEST(CheckReference, MergeOrderedHighestWriterWins) {
  Bytes s(10, 0);
  std::vector<Bytes> copies(3, s);
  copies[0][2] = 1;
  copies[2][2] = 3;
  copies[1][4] = 8;
  reference::merge_ordered(s, copies);
  EXPECT_EQ(s, (Bytes{0, 0, 3, 0, 8, 0, 0, 0, 0, 0}));
}

// Deterministic mode's batches: units that all start from S, merged batch after batch into a separate
// buffer, give the same state as one merge of all of them (so the batch size is not part of the result).
TEST(CheckReference, MergeOrderedInBatchesEqualsOneMerge) {
  std::mt19937 rng(7);
  const Bytes s = [&] { Bytes b(97); for (auto& x : b) x = uint8_t(rng() % 4); return b; }();
  std::vector<Bytes> copies(11, s);
  for (Bytes& c : copies)
    for (int i = 0; i < 20; ++i) c[rng() % c.size()] = uint8_t(rng() % 4);
  Bytes whole = s;
  reference::merge_ordered(whole, copies);
  for (size_t batch : {1u, 2u, 3u, 5u, 11u}) {
    Bytes into = s;
    for (size_t lo = 0; lo < copies.size(); lo += batch) {
      const std::vector<Bytes> part(copies.begin() + lo, copies.begin() + std::min(copies.size(), lo + batch));
      reference::merge_ordered_into(s, part, into);
    }
    EXPECT_EQ(into, whole) << "batch " << batch;
  }
}

TEST(CheckReference, ExpandGroupsBytesIndependently) {
  std::vector<RaceRecord> a{{1, 0, 0, 1, 4, 8}};
  std::vector<RaceRecord> b{{1, 0, 0, 1, 4, 6}, {1, 0, 0, 1, 6, 8}};
  EXPECT_EQ(reference::expand(a), reference::expand(b));
  EXPECT_EQ(reference::expand(a).size(), 4u);
}

// Random regions over many units and odd sizes: every reported race is real (no false positives),
// and, because every write here stores a value that differs from S and from every other unit's
// value, every write-write race is reported.
TEST(CheckReference, RandomRegionsMatchGroundTruth) {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 1 + rng() % 200;
    const uint32_t unit_count = 2 + rng() % 40;
    const Bytes s(n, 0);
    std::vector<Program> units(unit_count);
    const double sharing = (rng() % 4) * 0.25;  // 0: disjoint writes ... 0.75: many shared bytes
    for (uint32_t u = 0; u < unit_count; ++u) {
      const int ops = rng() % 6;
      for (int i = 0; i < ops; ++i) {
        const uint64_t dst = std::uniform_real_distribution<>(0, 1)(rng) < sharing ? rng() % n : (u * 7 + i * 131) % n;
        // Values unique per unit and never 0 (S), so each write is visible and distinguishable.
        units[u].push_back({Op::kNoSource, dst, uint8_t(1 + u)});
      }
    }
    const Truth truth = ground_truth(units);
    const RegionOutcome out = check_region(s, units);
    EXPECT_EQ(bytes_of_kind(out.races, RaceKind::WriteWrite), truth.ww_bytes) << "trial " << trial;
    for (const RaceRecord& r : out.races) {
      if (r.kind != uint32_t(RaceKind::WriteWrite)) continue;
      for (uint64_t x = r.byte_lo; x < r.byte_hi; ++x) {
        EXPECT_TRUE(truth.writes.count({r.unit_a, x})) << "trial " << trial;
        EXPECT_TRUE(truth.writes.count({r.unit_b, x})) << "trial " << trial;
      }
    }
  }
}

// Random regions with reads: every read-write report names a unit that read another unit's write
// (directly, or through a value it wrote from one), or a byte of a write-write race.
TEST(CheckReference, RandomReadWriteReportsAreReal) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 4 + rng() % 64;
    const uint32_t unit_count = 2 + rng() % 8;
    const Bytes s = pattern(n, uint8_t(trial));
    std::vector<Program> units(unit_count);
    for (uint32_t u = 0; u < unit_count; ++u)
      for (int i = 0, ops = 1 + rng() % 4; i < ops; ++i)
        units[u].push_back({rng() % 2 ? rng() % n : Op::kNoSource, rng() % n, uint8_t(1 + rng() % 200)});
    const Truth truth = ground_truth(units);
    std::set<uint32_t> readers;
    for (const auto& [u, x] : truth.rw_reads) readers.insert(u);
    const RegionOutcome out = check_region(s, units);
    for (const RaceRecord& r : out.races) {
      if (r.kind != uint32_t(RaceKind::ReadWrite)) continue;
      bool explained = readers.count(r.unit_a) > 0;
      for (uint64_t x = r.byte_lo; x < r.byte_hi; ++x) explained = explained || truth.ww_bytes.count(x);
      EXPECT_TRUE(explained) << "trial " << trial << " unit " << r.unit_a << " byte " << r.byte_lo;
    }
  }
}

}  // namespace
}  // namespace ldcc::testing
