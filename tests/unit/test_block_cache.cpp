// DeviceBuffer's cache policy (ldruntime/src/block_cache.h): which kept block serves a request and
// which blocks are given back, without a GPU.
#include "block_cache.h"

#include <gtest/gtest.h>

namespace ldcc {
namespace {

void* fake(uintptr_t n) { return reinterpret_cast<void*>(n); }

TEST(BlockCache, ServesTheSmallestBlockThatHoldsTheRequestOnTheSameDevice) {
  BlockCache cache(1 << 30);
  EXPECT_TRUE(cache.keep({0, fake(1), 8 << 20}).empty());
  EXPECT_TRUE(cache.keep({0, fake(2), 2 << 20}).empty());
  EXPECT_TRUE(cache.keep({1, fake(3), 1 << 20}).empty());
  EXPECT_TRUE(cache.keep({0, fake(4), 1 << 20}).empty());
  CachedBlock b;
  ASSERT_TRUE(cache.take(0, 1 << 20, b));
  EXPECT_EQ(b.ptr, fake(4));
  ASSERT_TRUE(cache.take(0, 1 << 20, b));  // 2 MiB wastes no more than the request
  EXPECT_EQ(b.ptr, fake(2));
  EXPECT_FALSE(cache.take(0, 1 << 20, b));  // 8 MiB would waste 7: a new allocation instead
  EXPECT_FALSE(cache.take(0, 9 << 20, b));
  EXPECT_EQ(cache.kept_bytes(), (8u << 20) + (1u << 20));
  ASSERT_TRUE(cache.take(1, 1 << 20, b));
  EXPECT_EQ(b.ptr, fake(3));
}

TEST(BlockCache, SmallRequestsMayTakeBlocksUpTo64KiBLarger) {
  BlockCache cache(1 << 30);
  cache.keep({0, fake(1), (64 << 10) + 1536});
  cache.keep({0, fake(2), (64 << 10) + 1024});
  CachedBlock b;
  ASSERT_TRUE(cache.take(0, 1024, b));
  EXPECT_EQ(b.ptr, fake(2));
  EXPECT_FALSE(cache.take(0, 1024, b));  // 64 KiB + 512 more than the request
}

TEST(BlockCache, GivesBackTheOldestBlocksBeyondWhatItKeeps) {
  BlockCache cache(10);
  EXPECT_TRUE(cache.keep({0, fake(1), 4}).empty());
  EXPECT_TRUE(cache.keep({0, fake(2), 4}).empty());
  std::vector<CachedBlock> out = cache.keep({0, fake(3), 4});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].ptr, fake(1));
  EXPECT_EQ(cache.kept_bytes(), 8u);
  out = cache.keep({0, fake(4), 11});  // larger than everything kept: goes back itself
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].ptr, fake(4));
  EXPECT_EQ(cache.kept_bytes(), 8u);
}

TEST(BlockCache, ABlockTakenAndKeptAgainLeavesLast) {
  BlockCache cache(8);
  cache.keep({0, fake(1), 4});
  cache.keep({0, fake(2), 4});
  CachedBlock b;
  ASSERT_TRUE(cache.take(0, 4, b));
  EXPECT_EQ(b.ptr, fake(1));  // equal fits: the oldest
  EXPECT_TRUE(cache.keep(b).empty());
  std::vector<CachedBlock> out = cache.keep({0, fake(3), 4});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].ptr, fake(2));
}

TEST(BlockCache, KeepingNothingGivesEveryBlockBack) {
  BlockCache cache(0);
  EXPECT_FALSE(cache.fits(512));
  std::vector<CachedBlock> out = cache.keep({0, fake(1), 512});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(cache.kept_bytes(), 0u);
}

TEST(BlockCache, TakeAllEmptiesOneDevice) {
  BlockCache cache(1 << 20);
  cache.keep({0, fake(1), 100});
  cache.keep({1, fake(2), 200});
  cache.keep({0, fake(3), 300});
  std::vector<CachedBlock> out = cache.take_all(0);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].ptr, fake(1));
  EXPECT_EQ(out[1].ptr, fake(3));
  EXPECT_EQ(cache.kept_bytes(), 200u);
  EXPECT_EQ(cache.kept_bytes(1), 200u);
  EXPECT_EQ(cache.kept_bytes(0), 0u);
  CachedBlock b;
  EXPECT_FALSE(cache.take(0, 100, b));
  EXPECT_TRUE(cache.take(1, 200, b));
}

}  // namespace
}  // namespace ldcc
