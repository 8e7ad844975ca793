// The written ranges a block keeps for level W's sites (region_check.cuh, ChunkSpan, WrittenRanges): a
// thread's bytes [lo, hi) as 32-bit 16-byte chunk indices, and a block's back to bytes. Host code: runs
// without a GPU.
#include <gtest/gtest.h>

#include <algorithm>

#include "ldcc/kernels/region_check.cuh"

namespace ldcc::testing {
namespace {

using rt::chunk_span;
using rt::ChunkSpan;
using rt::kToTheEnd;
using rt::span_start;
using rt::span_stop;

constexpr uint64_t kGiB = 1ull << 30;

// The bytes the chunks cover, in a target whose copies are `stride` bytes apart, contain [lo, hi).
void expectCovers(ChunkSpan span, uint64_t lo, uint64_t hi, uint64_t stride) {
  EXPECT_LT(span.first, span.end) << "[" << lo << ", " << hi << ")";
  EXPECT_LE(span_start(span.first), lo);
  EXPECT_GE(span_stop(span.end, stride), hi);
}

TEST(WrittenRanges, EmptyRangesStayEmpty) {
  const ChunkSpan none = chunk_span(~0ull, 0);  // what a thread that stored nothing holds
  EXPECT_EQ(none.first, kToTheEnd);
  EXPECT_EQ(none.end, 0u);
  const ChunkSpan same = chunk_span(40, 40);
  EXPECT_GE(same.first, same.end);
}

TEST(WrittenRanges, WholeChunksAroundTheBytes) {
  EXPECT_EQ(chunk_span(0, 1).first, 0u);
  EXPECT_EQ(chunk_span(0, 1).end, 1u);
  EXPECT_EQ(chunk_span(15, 17).first, 0u);  // one byte on each side of a chunk boundary
  EXPECT_EQ(chunk_span(15, 17).end, 2u);
  EXPECT_EQ(chunk_span(16, 32).first, 1u);
  EXPECT_EQ(chunk_span(16, 32).end, 2u);
  EXPECT_EQ(span_start(chunk_span(17, 33).first), 16u);
  EXPECT_EQ(span_stop(chunk_span(17, 33).end, 512), 48u);
}

TEST(WrittenRanges, EndsNeverPassTheCopy) {
  EXPECT_EQ(span_stop(40, 512), 512u);  // 40 chunks of a 32-chunk copy
  EXPECT_EQ(span_stop(kToTheEnd, 512), 512u);
}

TEST(WrittenRanges, PastSixtyFourGiBTheChunksStillCover) {
  const uint64_t stride = 80 * kGiB;
  expectCovers(chunk_span(70 * kGiB, 70 * kGiB + 4), 70 * kGiB, 70 * kGiB + 4, stride);
  expectCovers(chunk_span(10, 70 * kGiB), 10, 70 * kGiB, stride);
  EXPECT_EQ(chunk_span(10, 70 * kGiB).end, kToTheEnd);
}

TEST(WrittenRanges, CombinedAsTheLanesCombineThem) {
  // A warp's lanes take the lowest first and the highest end (warp_min / warp_max): the result covers
  // every lane's bytes.
  const ChunkSpan a = chunk_span(0, 4), b = chunk_span(100, 104), none = chunk_span(~0ull, 0);
  const ChunkSpan joined{std::min({a.first, b.first, none.first}), std::max({a.end, b.end, none.end})};
  expectCovers(joined, 0, 4, 512);
  expectCovers(joined, 100, 104, 512);
  EXPECT_EQ(joined.first, 0u);
  EXPECT_EQ(joined.end, 7u);
}

TEST(WrittenRanges, ABlockTargetsBytes) {
  rt::WrittenRanges written{};
  written.first[0] = 1;  // chunks 1 and 2
  written.end[0] = 3;
  written.first[1] = 30;  // past the end of a 32-chunk copy
  written.end[1] = 40;
  written.first[2] = kToTheEnd;  // nothing written
  written.end[2] = 0;
  uint64_t lo = 0, hi = 0;
  written.bytes(0, 512, lo, hi);
  EXPECT_EQ(lo, 16u);
  EXPECT_EQ(hi, 48u);
  written.bytes(1, 512, lo, hi);
  EXPECT_EQ(lo, 480u);
  EXPECT_EQ(hi, 512u);
  written.bytes(2, 512, lo, hi);
  EXPECT_EQ(hi, lo);
}

}  // namespace
}  // namespace ldcc::testing
