// The library API (ldcc/ldcc.h) end to end: exact race verdicts, variables, elements and units;
// byte-identical results for race-free kernels; memory-limited rounds; off and deterministic modes;
// graceful degradation.
#include <algorithm>
#include <numeric>

#include "gpu/gpu_test_support.h"
#include "ldcc/ldcc.h"

namespace ldcc::testing {
namespace {

constexpr int kThreads = 128;

// Race-free: block b owns out[b*T .. b*T+T).
__global__ void scale(DeviceView view, const int* in, int n) {
  int* out = view.target<int>(0, blockIdx.x);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * in[i] + 1;
}

// Write-write: every block but the last also writes the first element of the next block's range.
__global__ void overlapping_tiles(DeviceView view, int n) {
  int* out = view.target<int>(0, blockIdx.x);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = blockIdx.x + 1;
  if (threadIdx.x == 0 && i + int(blockDim.x) < n) out[i + blockDim.x] = -int(blockIdx.x) - 1;
}

// Read-write: in place, data[i] += data[i+1]; the last thread of a block reads the first element
// of the next block's range, which that block writes.
__global__ void shift_add(DeviceView view, int n) {
  int* data = view.target<int>(0, blockIdx.x);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int next = (i + 1 < n) ? data[i + 1] : 0;
  __syncthreads();
  if (i < n) data[i] += next;
}

// Counts its executions through memory that is not a target, from first_execution() only.
__global__ void count_prints(DeviceView view, int* printed) {
  int* out = view.target<int>(0, blockIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  if (view.first_execution()) atomicAdd(printed, 1);
}

Options with(Mode mode, uint64_t budget = 0) {
  Options o;
  o.mode = mode;
  o.memory_budget = budget;
  return o;
}

std::vector<int> iota_values(int n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 100);
  return v;
}

TEST(LibraryApi, RaceFreeKernelMatchesNativeByteForByte) {
  LDCC_REQUIRE_GPU();
  const int blocks = 37, n = blocks * kThreads - 5;
  DeviceArray<int> in(iota_values(n)), native(n), checked(n);
  DeviceView raw;
  raw.targets[0].original = reinterpret_cast<uint8_t*>(native.ptr);
  scale<<<blocks, kThreads>>>(raw, in.ptr, n);

  Checker checker("scale", with(Mode::Check));
  checker.add_target("out", checked.ptr, n * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { scale<<<blocks, kThreads>>>(v, in.ptr, n); });
  EXPECT_TRUE(r.checked);
  EXPECT_TRUE(r.races.empty());
  EXPECT_EQ(r.copies, uint32_t(blocks));
  EXPECT_EQ(r.rounds, 1u);
  EXPECT_EQ(checked.download(), native.download());
}

TEST(LibraryApi, WriteWriteRaceNamesVariableElementAndBlocks) {
  LDCC_REQUIRE_GPU();
  const int blocks = 6, n = blocks * kThreads;
  DeviceArray<int> out(n);
  Checker checker("overlapping_tiles", with(Mode::Check));
  checker.add_target("out", out.ptr, n * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { overlapping_tiles<<<blocks, kThreads>>>(v, n); });
  ASSERT_TRUE(r.checked);
  ASSERT_EQ(r.races.size(), size_t(blocks - 1));
  for (int b = 0; b + 1 < blocks; ++b) {
    const Race& race = r.races[b];
    EXPECT_EQ(race.kind, RaceKind::WriteWrite);
    EXPECT_EQ(race.target, "out");
    EXPECT_EQ(race.space, "global");
    // Only byte 0 of the element differs between the two values (-b-1 and b+2): the others of b+2 equal S.
    EXPECT_EQ(race.byte_lo, uint64_t((b + 1) * kThreads) * sizeof(int));
    EXPECT_EQ(race.byte_hi, race.byte_lo + 1);
    EXPECT_EQ(race.units_a, std::vector<uint32_t>{uint32_t(b)});
    EXPECT_EQ(race.units_b, std::vector<uint32_t>{uint32_t(b + 1)});
  }
}

TEST(LibraryApi, ReadWriteRaceNamesTheReadingBlockAndItsElement) {
  LDCC_REQUIRE_GPU();
  const int blocks = 5, n = blocks * kThreads;
  DeviceArray<int> data(iota_values(n));
  Checker checker("shift_add", with(Mode::Check));
  checker.add_target("data", data.ptr, n * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { shift_add<<<blocks, kThreads>>>(v, n); });
  ASSERT_TRUE(r.checked);
  ASSERT_EQ(r.races.size(), size_t(blocks - 1));
  for (int b = 0; b + 1 < blocks; ++b) {
    const Race& race = r.races[b];
    EXPECT_EQ(race.kind, RaceKind::ReadWrite);
    EXPECT_EQ(race.target, "data");
    // The element its read fed; the byte range is the bytes whose value changed.
    EXPECT_EQ(race.byte_lo / sizeof(int), uint64_t((b + 1) * kThreads - 1));
    EXPECT_EQ((race.byte_hi - 1) / sizeof(int), uint64_t((b + 1) * kThreads - 1));
    EXPECT_EQ(race.units_a, std::vector<uint32_t>{uint32_t(b)});
    EXPECT_TRUE(race.units_b.empty());
  }
}

// 64 blocks under a budget of 2 copies + U: 6 rounds; blocks 62 and 63 share every group until the last.
TEST(LibraryApi, RaceOnlySeparatedInTheLastRoundIsFoundUnderTwoCopies) {
  LDCC_REQUIRE_GPU();
  const int blocks = 64, n = blocks * kThreads;
  const uint64_t per_copy = padded_copy_bytes(n * sizeof(int));
  DeviceArray<int> limited(n), unlimited(n);
  auto check = [&](DeviceArray<int>& out, uint64_t budget) {
    Checker checker("overlapping_tiles", with(Mode::Check, budget));
    checker.add_target("out", out.ptr, n * sizeof(int), sizeof(int));
    return checker.run(blocks, [&](const DeviceView& v) { overlapping_tiles<<<blocks, kThreads>>>(v, n); });
  };
  const LaunchResult small = check(limited, 3 * per_copy);
  const LaunchResult big = check(unlimited, 0);
  EXPECT_EQ(small.copies, 2u);
  EXPECT_EQ(small.rounds, 6u);
  EXPECT_EQ(big.rounds, 1u);
  ASSERT_EQ(big.races.size(), size_t(blocks - 1));
  // Every race of the unlimited check is found, with the same kind and bytes, and its pair among the
  // units named (copy-mates share a copy in a memory-limited round)...
  for (const Race& expected : big.races) {
    const auto found = std::find_if(small.races.begin(), small.races.end(), [&](const Race& r) {
      return r.kind == expected.kind && r.byte_lo == expected.byte_lo && r.byte_hi == expected.byte_hi;
    });
    ASSERT_NE(found, small.races.end()) << "race at byte " << expected.byte_lo << " not found under 2 copies";
    EXPECT_NE(std::find(found->units_a.begin(), found->units_a.end(), expected.units_a[0]), found->units_a.end());
    EXPECT_NE(std::find(found->units_b.begin(), found->units_b.end(), expected.units_b[0]), found->units_b.end());
  }
  // ...and nothing else.
  EXPECT_EQ(small.races.size(), big.races.size());
  // Outside the racy elements (whose value depends on who shared a copy), the results are identical.
  std::vector<int> a = limited.download(), b = unlimited.download();
  for (const Race& race : big.races) a[race.byte_lo / sizeof(int)] = b[race.byte_lo / sizeof(int)] = 0;
  EXPECT_EQ(a, b);
}

TEST(LibraryApi, UnalignedOddSizedTarget) {
  LDCC_REQUIRE_GPU();
  const int blocks = 9, n = blocks * kThreads - 3;
  DeviceArray<uint8_t> raw(n * sizeof(int) + 16), native(n * sizeof(int) + 16);
  DeviceArray<int> in(iota_values(n));
  // out starts 4 bytes into the allocation: aligned for int, not for 16-byte chunks.
  int* checked_out = reinterpret_cast<int*>(raw.ptr + 4);
  DeviceView plain;
  plain.targets[0].original = native.ptr + 4;
  scale<<<blocks, kThreads>>>(plain, in.ptr, n);
  Checker checker("scale", with(Mode::Check));
  checker.add_target("out", checked_out, n * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { scale<<<blocks, kThreads>>>(v, in.ptr, n); });
  EXPECT_TRUE(r.checked);
  EXPECT_TRUE(r.races.empty());
  EXPECT_EQ(raw.download(), native.download());
}

TEST(LibraryApi, OnlyTheFirstExecutionPrints) {
  LDCC_REQUIRE_GPU();
  const int blocks = 8;
  DeviceArray<int> out(blocks * kThreads), printed(1);
  Checker checker("count_prints", with(Mode::Check, 3 * padded_copy_bytes(blocks * kThreads * sizeof(int))));
  checker.add_target("out", out.ptr, blocks * kThreads * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { count_prints<<<blocks, kThreads>>>(v, printed.ptr); });
  EXPECT_EQ(r.rounds, 3u);  // 6 executions of the kernel
  EXPECT_EQ(printed.download()[0], blocks * kThreads);
}

TEST(LibraryApi, OffModeRunsTheKernelOnceOnTheRealBuffer) {
  LDCC_REQUIRE_GPU();
  const int blocks = 4, n = blocks * kThreads;
  DeviceArray<int> out(n), printed(1);
  Checker checker("count_prints", with(Mode::Off));
  checker.add_target("out", out.ptr, n * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { count_prints<<<blocks, kThreads>>>(v, printed.ptr); });
  EXPECT_FALSE(r.checked);
  EXPECT_EQ(r.extra_device_bytes, 0u);
  EXPECT_EQ(printed.download()[0], n);
  EXPECT_EQ(out.download(), std::vector<int>(n, 1));
}

TEST(LibraryApi, TooLittleMemoryRunsUncheckedWithAWarningAndCorrectOutput) {
  LDCC_REQUIRE_GPU();
  const int blocks = 16, n = blocks * kThreads;
  DeviceArray<int> in(iota_values(n)), out(n);
  Checker checker("scale", with(Mode::Check, 1024));
  checker.add_target("out", out.ptr, n * sizeof(int), sizeof(int));
  const LaunchResult r = checker.run(blocks, [&](const DeviceView& v) { scale<<<blocks, kThreads>>>(v, in.ptr, n); });
  EXPECT_FALSE(r.checked);
  EXPECT_NE(r.warning.find("scale ran unchecked"), std::string::npos) << r.warning;
  const std::vector<int> got = out.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], 3 * (100 + i) + 1);
}

TEST(LibraryApi, DeterministicModeMergesInBlockOrder) {
  LDCC_REQUIRE_GPU();
  const int blocks = 6, n = blocks * kThreads;
  std::vector<int> first;
  for (int run = 0; run < 5; ++run) {
    DeviceArray<int> out(n);
    Checker checker("overlapping_tiles", with(Mode::Deterministic));
    checker.add_target("out", out.ptr, n * sizeof(int), sizeof(int));
    checker.run(blocks, [&](const DeviceView& v) { overlapping_tiles<<<blocks, kThreads>>>(v, n); });
    const std::vector<int> got = out.download();
    // The racy element (b+1)*T is written by block b (-b-1) and block b+1 (b+2). Merging is per byte
    // over values: the higher block wins each byte it changed from S (0), so the bytes of b+2 that are
    // 0 keep block b's 0xff: 0xffffff00 | (b+2).
    for (int b = 0; b + 1 < blocks; ++b) EXPECT_EQ(got[(b + 1) * kThreads], int(0xffffff00u | uint32_t(b + 2)));
    if (run == 0) first = got;
    EXPECT_EQ(got, first);
  }
}

}  // namespace
}  // namespace ldcc::testing
