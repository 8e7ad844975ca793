// Run-time flags and race reports (text, JSON, coalescing). Host only.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <utility>

#include "flags.h"
#include "report.h"

namespace ldcc {
namespace {

TEST(Flags, Modes) {
  EXPECT_EQ(parse_mode("check"), Mode::Check);
  EXPECT_EQ(parse_mode("deterministic"), Mode::Deterministic);
  EXPECT_EQ(parse_mode("off"), Mode::Off);
  EXPECT_FALSE(parse_mode("fast").has_value());
}

TEST(Flags, MemLimitBytesAndPercent) {
  EXPECT_EQ(parse_mem_limit("4096")->resolve(1), 4096u);
  EXPECT_EQ(parse_mem_limit("512M")->resolve(1), 512ull << 20);
  EXPECT_EQ(parse_mem_limit("2G")->resolve(1), 2ull << 30);
  EXPECT_EQ(parse_mem_limit("25%")->resolve(1000), 250u);
  EXPECT_FALSE(parse_mem_limit("").has_value());
  EXPECT_FALSE(parse_mem_limit("lots").has_value());
  EXPECT_FALSE(parse_mem_limit("150%").has_value());
  EXPECT_FALSE(parse_mem_limit("3T").has_value());
}

TEST(Flags, MemoryFlagFallsBackWithAWarningNamingIt) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(mem_limit_flag("LDCC_WARP_COPIES", "256M", "1G").resolve(1), 256ull << 20);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  testing::internal::CaptureStderr();
  EXPECT_EQ(mem_limit_flag("LDCC_WARP_COPIES", "lots", "1G").resolve(1), 1ull << 30);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "ldcc: LDCC_WARP_COPIES='lots' is not bytes or a percentage; using 1G\n");
  testing::internal::CaptureStderr();
  EXPECT_EQ(mem_limit_flag("LDCC_MEM_LIMIT", "150%", "50%").resolve(1000), 500u);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "ldcc: LDCC_MEM_LIMIT='150%' is not bytes or a percentage; using 50%\n");
}

TEST(Flags, EveryFlagIsDocumented) {
  const std::string help = flags_help();
  for (const char* name : {"LDCC_MODE", "LDCC_REPORT", "LDCC_ERROR_EXITCODE", "LDCC_MEM_LIMIT", "LDCC_WARP_COPIES", "LDCC_LOG_CAPACITY", "LDCC_VERBOSE", "LDCC_WATCHDOG"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
}

Race race(RaceKind kind, uint64_t lo, uint64_t hi, std::vector<uint32_t> a, std::vector<uint32_t> b) {
  return Race{kind, "global", "scatter", "kernel entry .. kernel exit", "out", 4, lo, hi, "block", std::move(a), std::move(b)};
}

TEST(Report, CoalescesAdjacentRangesOfTheSameRace) {
  const auto merged = coalesce({race(RaceKind::WriteWrite, 16, 32, {1}, {2}), race(RaceKind::WriteWrite, 0, 16, {1}, {2}),
                                race(RaceKind::WriteWrite, 0, 16, {1}, {3}), race(RaceKind::WriteWrite, 8, 12, {1}, {2})});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].byte_lo, 0u);
  EXPECT_EQ(merged[0].byte_hi, 32u);
  EXPECT_EQ(merged[0].units_b, std::vector<uint32_t>{2});
  EXPECT_EQ(merged[1].units_b, std::vector<uint32_t>{3});
}

TEST(Report, CoalescesRangesThatShareAnElement) {
  const auto merged = coalesce({race(RaceKind::ReadWrite, 0, 1, {1}, {}), race(RaceKind::ReadWrite, 2, 3, {1}, {}),
                                race(RaceKind::ReadWrite, 9, 10, {1}, {})});
  ASSERT_EQ(merged.size(), 2u);  // bytes 0 and 2 are both element 0; byte 9 is element 2
  EXPECT_EQ(merged[0].byte_hi, 3u);
  EXPECT_EQ(merged[1].byte_lo, 9u);
}

// coalesce sorts by ranks of the string fields; this is the same merge sorting the races themselves.
std::vector<Race> coalesce_by_race_order(std::vector<Race> races) {
  std::stable_sort(races.begin(), races.end(), RaceOrder());
  std::vector<Race> merged;
  for (Race& r : races) {
    if (!merged.empty()) {
      Race& last = merged.back();
      Race widened = last;
      widened.byte_lo = r.byte_lo;
      widened.byte_hi = r.byte_hi;
      const uint64_t element_end = (last.byte_hi + last.element_size - 1) / last.element_size * last.element_size;
      if (RaceSame()(widened, r) && r.byte_lo <= element_end) {
        last.byte_hi = std::max(last.byte_hi, r.byte_hi);
        last.other_blocks = std::max(last.other_blocks, r.other_blocks);
        continue;
      }
    }
    merged.push_back(r);
  }
  return merged;
}

TEST(Report, CoalesceMatchesSortingTheRacesThemselves) {
  // Many races over few distinct strings, units and ranges, in a scrambled order.
  std::vector<Race> races;
  uint32_t state = 12345;
  auto next = [&](uint32_t n) { return (state = state * 1103515245u + 12345u) / 65536u % n; };
  for (int i = 0; i < 3000; ++i) {
    Race r = race(next(2) ? RaceKind::WriteWrite : RaceKind::ReadWrite, 0, 0, {next(3)}, {});
    if (next(2)) r.units_b = {next(3), next(2)};
    r.space = next(2) ? "global" : "shared";
    r.region = next(2) ? "from a:1 to a:9" : "from a:1 to a:10";
    r.target = next(3) ? "out" : "o";
    r.element_size = next(2) ? 4 : 1;
    r.block = "(" + std::to_string(next(3)) + ",0,0)";
    r.units_text = next(4) ? "" : "warp " + std::to_string(next(12));
    r.byte_lo = next(64);
    r.byte_hi = r.byte_lo + 1 + next(6);
    r.other_blocks = next(5);
    races.push_back(r);
  }
  const std::vector<Race> expected = coalesce_by_race_order(races), merged = coalesce(races);
  ASSERT_EQ(merged.size(), expected.size());
  for (size_t i = 0; i < merged.size(); ++i) {
    EXPECT_TRUE(RaceSame()(merged[i], expected[i])) << i;
    EXPECT_EQ(merged[i].other_blocks, expected[i].other_blocks) << i;
  }
}

TEST(Report, HumanTextNamesVariableElementBytesAndUnits) {
  EXPECT_EQ(format_race(race(RaceKind::WriteWrite, 12, 16, {3}, {7})),
            "ldcc: write-write race on global memory\n"
            "  kernel:   scatter\n"
            "  region:   kernel entry .. kernel exit\n"
            "  variable: out[3] (bytes 12..15 of out)\n"
            "  units:    block 3 and block 7 both wrote it\n");
  EXPECT_EQ(format_race(race(RaceKind::ReadWrite, 8, 24, {5}, {})),
            "ldcc: read-write race on global memory\n"
            "  kernel:   scatter\n"
            "  region:   kernel entry .. kernel exit\n"
            "  variable: out[2..5] (bytes 8..23 of out)\n"
            "  units:    block 5 read a value another block wrote in the same region\n");
}

TEST(Report, OneBugAtManyElementsIsOneTextReportWithItsSpan) {
  // Block 3 races with block 7 on out[3] and block 4 with block 8 on out[9]: two JSON entries, one text.
  const std::vector<Race> group = {race(RaceKind::WriteWrite, 12, 16, {3}, {7}), race(RaceKind::WriteWrite, 36, 40, {4}, {8})};
  EXPECT_EQ(format_race_group(group),
            "ldcc: write-write race on global memory\n"
            "  kernel:   scatter\n"
            "  region:   kernel entry .. kernel exit\n"
            "  variable: out[3] .. out[9] (2 element ranges in bytes 12..39 of out; each one in the JSON report, LDCC_REPORT)\n"
            "  units:    block 3 and block 7 both wrote it\n");
  EXPECT_EQ(format_race_group({group[0]}), format_race(group[0]));
  // A read-write race on the same variable is another group.
  const std::vector<Race> leaders = group_leaders({group[0], race(RaceKind::ReadWrite, 0, 4, {1}, {}), group[1]});
  ASSERT_EQ(leaders.size(), 2u);
  EXPECT_EQ(leaders[0].byte_lo, 12u);
  EXPECT_EQ(leaders[1].kind, RaceKind::ReadWrite);
}

TEST(Report, UnitListsAreCompact) {
  EXPECT_EQ(format_units("warp", {4}), "warp 4");
  EXPECT_EQ(format_units("block", {0, 1, 2, 3, 8, 10, 11}),
            "blocks 0-3, 8, 10-11 (sharing one copy in a memory-limited round)");
}

TEST(Report, DeterministicSummarySaysWhatRanInOrderAndWhatRanNatively) {
  EXPECT_EQ(deterministic_summary_line(3, 0), "ldcc: deterministic: 3 launches in unit order");
  EXPECT_EQ(deterministic_summary_line(1, 1),
            "ldcc: deterministic: 1 launch in unit order, 1 launch native (determinism not guaranteed)");
  EXPECT_EQ(deterministic_summary_line(0, 2), "ldcc: deterministic: 0 launches in unit order, 2 launches native (determinism not guaranteed)");
  EXPECT_EQ(deterministic_summary_line(2, 1, 1),
            "ldcc: deterministic: 2 launches in unit order, 1 launch proven race-free (the original kernel ran), "
            "1 launch native (determinism not guaranteed)");
}

TEST(Report, ProvenLaunchesAreCountedAmongTheCheckedOnes) {
  EXPECT_EQ(proven_line(1, 1), "ldcc: proven race-free at launch from their affine accesses (the original kernel ran): 1 of 1 checked launch");
  EXPECT_EQ(proven_line(2, 5), "ldcc: proven race-free at launch from their affine accesses (the original kernel ran): 2 of 5 checked launches");
}

TEST(Report, SummaryLine) {
  EXPECT_EQ(summary_line({}, 3, 0, 0), "ldcc: no races in 3 checked launches");
  EXPECT_EQ(summary_line({race(RaceKind::WriteWrite, 0, 4, {0}, {1}), race(RaceKind::ReadWrite, 0, 4, {1}, {})}, 1, 2, 5),
            "ldcc: 2 races (1 write-write, 1 read-write) in 1 checked launch, 2 launches unchecked; "
            "5 race records dropped (raise LDCC_LOG_CAPACITY)");
}

TEST(Report, AGapOfACheckedKernelIsOneLineAndAJsonEntry) {
  EXPECT_EQ(gap_line("findRangeK", "global memory between the warps of a block (the blocks' write footprints in offset interleave)"),
            "ldcc: kernel 'findRangeK': not checked: global memory between the warps of a block (the blocks' write "
            "footprints in offset interleave)");
  EXPECT_EQ(gaps_to_json({}), "[]");
  EXPECT_EQ(gaps_to_json({{"b", "global memory (\"x\")"}, {"a", "global memory between the warps of a block (y)"}}),
            "[{\"kernel\":\"a\",\"not_checked\":\"global memory between the warps of a block (y)\"},"
            "{\"kernel\":\"b\",\"not_checked\":\"global memory (\\\"x\\\")\"}]");
}

TEST(Report, Json) {
  EXPECT_EQ(races_to_json({race(RaceKind::WriteWrite, 12, 16, {3}, {7})}, 1, 0, 0),
            "{\"checked_launches\":1,\"unchecked_launches\":0,\"dropped_records\":0,\"races\":[{\"kind\":\"write-write\","
            "\"space\":\"global\",\"kernel\":\"scatter\",\"region\":\"kernel entry .. kernel exit\",\"variable\":\"out\","
            "\"element_size\":4,\"first_element\":3,\"last_element\":3,\"byte_lo\":12,\"byte_hi\":16,\"unit_kind\":\"block\","
            "\"units_a\":[3],\"units_b\":[7],\"block\":\"\",\"other_blocks\":0,\"element\":\"out[3]\",\"units\":\"\"}]}\n");
}

// Level W in a translated kernel: the block, a two-dimensional element and who raced, in words.
TEST(Report, WarpRaceText) {
  Race r = race(RaceKind::WriteWrite, 136, 140, {1}, {3});
  r.space = "shared";
  r.unit_kind = "warp";
  r.region = "from __syncthreads() at a.cu:10:3 to __syncthreads() at a.cu:14:3";
  r.target = "tile";
  r.block = "(2,0,0)";
  r.element = "tile[1][1]";
  r.units_text = "warp 1 and warp 3 of block (2,0,0) both wrote it";
  EXPECT_EQ(format_race(r),
            "ldcc: write-write race on shared memory\n"
            "  kernel:   scatter\n"
            "  region:   from __syncthreads() at a.cu:10:3 to __syncthreads() at a.cu:14:3\n"
            "  variable: tile[1][1] (bytes 136..139 of tile)\n"
            "  units:    warp 1 and warp 3 of block (2,0,0) both wrote it\n");
  // The same race in 4 more blocks of the launch: said after who raced, in the text and the JSON.
  r.other_blocks = 4;
  EXPECT_NE(format_race(r).find("  units:    warp 1 and warp 3 of block (2,0,0) both wrote it (and 4 more)\n"),
            std::string::npos);
  const std::string json = races_to_json({r}, 1, 0, 0);
  EXPECT_NE(json.find("\"block\":\"(2,0,0) (and 4 more)\",\"other_blocks\":4,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"units\":\"warp 1 and warp 3 of block (2,0,0) both wrote it (and 4 more)\""), std::string::npos);
  r.other_blocks = 0;
  r.space = "register";
  r.kind = RaceKind::ReadWrite;
  r.target = "local reduce: v";
  r.element = "thread 37";
  EXPECT_NE(format_race(r).find("  variable: thread 37 (local reduce: v)\n"), std::string::npos);
}

// A kernel launched in a loop finds the same race in every launch, seen by more or fewer blocks: it is
// one race of the process, and coalescing keeps the most blocks any merged range was seen in.
TEST(Report, RacesDifferingOnlyInHowManyBlocksSawThemAreOne) {
  Race a = race(RaceKind::WriteWrite, 0, 4, {0}, {1});
  Race b = a;
  a.other_blocks = 100;
  b.other_blocks = 7;
  EXPECT_FALSE(RaceOrder()(a, b));
  EXPECT_FALSE(RaceOrder()(b, a));
  b.byte_lo = 4;
  b.byte_hi = 8;
  const std::vector<Race> merged = coalesce({b, a});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].byte_hi, 8u);
  EXPECT_EQ(merged[0].other_blocks, 100u);
}

}  // namespace
}  // namespace ldcc

#include "race_filter.h"

namespace ldcc {
namespace {

RaceRecord record(RaceKind kind, uint32_t a, uint64_t lo, uint64_t hi, uint32_t target = 0) {
  return RaceRecord{uint32_t(kind), target, a, kind == RaceKind::WriteWrite ? a + 1 : kNoUnit, lo, hi};
}

// The device's table of records earlier launches logged (race_record.h), run on host memory with a
// plain compare-and-swap.
TEST(SeenTable, FindsAddedKeysInAnyBlockAndNothingElse) {
  std::vector<unsigned long long> hashes(16, 0);
  std::vector<RaceRecord> keys(16);
  unsigned int fill = 0;
  const SeenTable table{hashes.data(), keys.data(), 15, &fill};
  const auto cas = [](unsigned long long* p, unsigned long long expected, unsigned long long desired) {
    const unsigned long long old = *p;
    if (old == expected) *p = desired;
    return old;
  };
  const auto claim = [](unsigned int* f, unsigned int n) { return std::exchange(*f, *f + n); };
  RaceRecord shared = record(RaceKind::WriteWrite, 2, 16, 20);
  shared.block = 7;
  shared.region = 5;
  EXPECT_TRUE(seen_insert(table, record_key(shared), cas, claim));
  RaceRecord elsewhere = shared;
  elsewhere.block = 9;  // the same race in another block
  EXPECT_TRUE(seen_contains(table, record_key(elsewhere)));
  RaceRecord wider = shared;
  wider.byte_hi = 24;
  EXPECT_FALSE(seen_contains(table, record_key(wider)));
  RaceRecord other_region = shared;
  other_region.region = 6;
  EXPECT_FALSE(seen_contains(table, record_key(other_region)));
  // A register race is one per local, whichever thread logged it.
  RaceRecord local = record(RaceKind::ReadWrite, 1, 33, 34, kRegisterTarget | 4);
  EXPECT_TRUE(seen_insert(table, record_key(local), cas, claim));
  local.byte_lo = 40;
  local.byte_hi = 41;
  EXPECT_TRUE(seen_contains(table, record_key(local)));
  // Adding a key again takes no slot; the table takes keys until half of its 16 slots are taken.
  const unsigned int before = fill;
  EXPECT_TRUE(seen_insert(table, record_key(elsewhere), cas, claim));
  EXPECT_EQ(fill, before);
  int added = 0;
  for (uint64_t lo = 100; lo < 120; ++lo) added += seen_insert(table, record_key(record(RaceKind::WriteWrite, 0, lo, lo + 1)), cas, claim);
  EXPECT_EQ(added, 6);
  EXPECT_TRUE(seen_contains(table, record_key(record(RaceKind::WriteWrite, 0, 100, 101))));
  EXPECT_FALSE(seen_contains(table, record_key(record(RaceKind::WriteWrite, 0, 119, 120))));
  EXPECT_EQ(std::count(hashes.begin(), hashes.end(), 0ull), 8);
}

// Two threads adding the same key at once: the one that loses the slot to the other (whose key is
// not written yet) takes the next slot. Only the slot it takes counts towards the table's limit.
TEST(SeenTable, ASlotLostToAnotherThreadDoesNotCount) {
  std::vector<unsigned long long> hashes(16, 0);
  std::vector<RaceRecord> keys(16);
  unsigned int fill = 0;
  const SeenTable table{hashes.data(), keys.data(), 15, &fill};
  int calls = 0;
  const auto cas_losing_first = [&](unsigned long long* p, unsigned long long expected, unsigned long long desired) {
    if (calls++ == 0) {
      *p = desired;  // the other thread's hash, its key still to come
      return desired;
    }
    const unsigned long long old = *p;
    if (old == expected) *p = desired;
    return old;
  };
  const auto count = [](unsigned int* f, unsigned int n) { return std::exchange(*f, *f + n); };
  const RaceRecord key = record_key(record(RaceKind::WriteWrite, 2, 16, 20));
  EXPECT_TRUE(seen_insert(table, key, cas_losing_first, count));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(fill, 1u);  // this thread's slot; the other thread counts its own
  EXPECT_TRUE(seen_contains(table, key));
  // Half full (other threads' slots or reservations): nothing is added and the count stays.
  fill = 8;
  EXPECT_FALSE(seen_insert(table, record_key(record(RaceKind::WriteWrite, 2, 40, 44)), cas_losing_first, count));
  EXPECT_EQ(fill, 8u);
}

TEST(ByteRanges, AddMergesAndSubtractSplits) {
  ByteRanges set;
  set.add(10, 20);
  set.add(30, 40);
  set.add(20, 25);  // adjacent: merges with [10,20)
  using Parts = std::vector<std::pair<uint64_t, uint64_t>>;
  EXPECT_EQ(set.subtract(0, 50), (Parts{{0, 10}, {25, 30}, {40, 50}}));
  EXPECT_EQ(set.subtract(12, 18), Parts{});
  EXPECT_EQ(set.subtract(22, 33), (Parts{{25, 30}}));
  set.add(5, 45);
  EXPECT_EQ(set.subtract(0, 50), (Parts{{0, 5}, {45, 50}}));
}

TEST(RaceFilter, ReadWriteOnWriteWriteBytesOfTheSameRoundIsDropped) {
  RaceFilter filter;
  const auto fresh = filter.next_round({record(RaceKind::WriteWrite, 0, 8, 12), record(RaceKind::ReadWrite, 0, 4, 16),
                                        record(RaceKind::ReadWrite, 2, 8, 12, /*target*/ 1)});
  ASSERT_EQ(fresh.size(), 4u);
  EXPECT_EQ(fresh[0], record(RaceKind::WriteWrite, 0, 8, 12));
  EXPECT_EQ(fresh[1], record(RaceKind::ReadWrite, 0, 4, 8));
  EXPECT_EQ(fresh[2], record(RaceKind::ReadWrite, 0, 12, 16));
  EXPECT_EQ(fresh[3], record(RaceKind::ReadWrite, 2, 8, 12, 1));  // other target: kept
}

// A 4-byte element whose low byte two units wrote (ww) while one unit's other bytes equalled S: the
// rw records on bytes 1..3 are the same race, as is anything on that element in a later round.
TEST(RaceFilter, WholeElementsOfAWriteWriteRaceAbsorbReadWriteRecords) {
  RaceFilter filter({4});
  const auto fresh = filter.next_round({record(RaceKind::WriteWrite, 4, 2560, 2561), record(RaceKind::ReadWrite, 5, 2561, 2564),
                                        record(RaceKind::ReadWrite, 5, 2564, 2566)});
  ASSERT_EQ(fresh.size(), 2u);
  EXPECT_EQ(fresh[1], record(RaceKind::ReadWrite, 5, 2564, 2566));
  EXPECT_TRUE(filter.next_round({record(RaceKind::ReadWrite, 1, 2567, 2568)}).empty());
}

TEST(RaceFilter, ReadWriteOfAnEarlierRoundIsAbsorbedByALaterWriteWriteOnItsElement) {
  RaceFilter filter({4});
  const auto first = filter.next_round({record(RaceKind::ReadWrite, 0, 513, 516), record(RaceKind::ReadWrite, 0, 900, 901)});
  ASSERT_EQ(first.size(), 2u);
  const auto last = filter.next_round({record(RaceKind::WriteWrite, 0, 512, 513)});
  ASSERT_EQ(last.size(), 1u);  // new: the rw of round 1 did not report byte 512 itself
  EXPECT_FALSE(filter.survives(first[0]));
  EXPECT_TRUE(filter.survives(first[1]));
  EXPECT_TRUE(filter.survives(last[0]));
}

// A read-write record over several elements (merged by elements) loses only the elements a later
// round's write-write race covers; the rest of it survives as its own parts.
TEST(RaceFilter, ALaterWriteWriteRaceCutsItsElementsOutOfAMergedRead) {
  RaceFilter filter({4});
  const auto first = filter.next_round({record(RaceKind::ReadWrite, 0, 400, 411)});  // elements 100 .. 102
  ASSERT_EQ(first.size(), 1u);
  filter.next_round({record(RaceKind::WriteWrite, 0, 404, 405)});  // element 101
  const std::vector<RaceRecord> parts = filter.surviving_parts(first[0]);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], record(RaceKind::ReadWrite, 0, 400, 404));
  EXPECT_EQ(parts[1], record(RaceKind::ReadWrite, 0, 408, 411));
  EXPECT_EQ(filter.surviving_parts(record(RaceKind::WriteWrite, 3, 404, 405)).size(), 1u);  // ww: whole
}

TEST(RaceFilter, LaterRoundsReportOnlyNewBytes) {
  RaceFilter filter;
  EXPECT_EQ(filter.next_round({record(RaceKind::WriteWrite, 0, 0, 4)}).size(), 1u);
  const auto second = filter.next_round({record(RaceKind::WriteWrite, 1, 0, 4), record(RaceKind::WriteWrite, 1, 64, 68)});
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0], record(RaceKind::WriteWrite, 1, 64, 68));
}

TEST(KeptBlockReads, RecordsOfCopiesThatRacedWithinThemselvesAreLeftOutAndCounted) {
  const std::vector<std::vector<RaceRecord>> reads = {
      {record(RaceKind::ReadWrite, 0, 0, 4), record(RaceKind::ReadWrite, 1, 16, 20), record(RaceKind::ReadWrite, 0, 4, 8)}};
  uint64_t inconclusive = 0;
  const auto kept = kept_block_reads({{}}, reads, {{false, true}}, {4}, inconclusive);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].first, 0u);
  EXPECT_EQ(kept[0].second, record(RaceKind::ReadWrite, 0, 0, 8));  // coalesced
  EXPECT_EQ(inconclusive, 1u);  // raw records, as logged
}

TEST(KeptBlockReads, ALeftOutReadDoesNotHideTheSameElementInALaterRound) {
  const std::vector<std::vector<RaceRecord>> reads = {{record(RaceKind::ReadWrite, 1, 16, 20)},
                                                      {record(RaceKind::ReadWrite, 0, 16, 20)}};
  uint64_t inconclusive = 0;
  auto kept = kept_block_reads({{}, {}}, reads, {{false, true}, {false, false}}, {4}, inconclusive);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].first, 1u);
  EXPECT_EQ(inconclusive, 1u);
  // With the first round's copy clean, its read is reported and the later round's is not new.
  inconclusive = 0;
  kept = kept_block_reads({{}, {}}, reads, {{false, false}, {false, false}}, {4}, inconclusive);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].first, 0u);
  EXPECT_EQ(inconclusive, 0u);
}

TEST(KeptBlockReads, WriteWriteElementsAbsorbReadsAndAreNotReturned) {
  const std::vector<std::vector<RaceRecord>> writes = {{record(RaceKind::WriteWrite, 2, 8, 12)}};
  const std::vector<std::vector<RaceRecord>> reads = {{record(RaceKind::ReadWrite, 0, 8, 12), record(RaceKind::ReadWrite, 0, 40, 44)}};
  uint64_t inconclusive = 0;
  const auto kept = kept_block_reads(writes, reads, {{false, false, false, false}}, {4}, inconclusive);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].second, record(RaceKind::ReadWrite, 0, 40, 44));
  EXPECT_EQ(inconclusive, 0u);
}

RaceRecord in_block(RaceRecord r, uint32_t block, uint32_t region = 0x00010002u) {
  r.block = block;
  r.region = region;
  return r;
}

// Level W logs one record per 16-byte chunk: touching and overlapping chunks of one race in one block
// become one range; a gap, another block, region or pair of units keeps them apart.
TEST(CoalesceRecords, MergesTouchingRangesOfOneRaceInOneBlock) {
  const auto merged = coalesce_records({in_block(record(RaceKind::WriteWrite, 0, 16, 32), 3),
                                        in_block(record(RaceKind::WriteWrite, 0, 0, 16), 3),
                                        in_block(record(RaceKind::WriteWrite, 0, 24, 40), 3),
                                        in_block(record(RaceKind::WriteWrite, 0, 48, 64), 3),
                                        in_block(record(RaceKind::WriteWrite, 0, 40, 48), 4),
                                        in_block(record(RaceKind::WriteWrite, 0, 40, 48), 3, 0x00020003u),
                                        in_block(record(RaceKind::WriteWrite, 1, 40, 48), 3)});
  ASSERT_EQ(merged.size(), 5u);
  EXPECT_EQ(merged[0], in_block(record(RaceKind::WriteWrite, 0, 0, 40), 3));
  EXPECT_EQ(merged[1], in_block(record(RaceKind::WriteWrite, 0, 48, 64), 3));
  EXPECT_EQ(merged[2], in_block(record(RaceKind::WriteWrite, 0, 40, 48), 4));
  EXPECT_EQ(merged[3], in_block(record(RaceKind::WriteWrite, 1, 40, 48), 3));  // sorted by region, then units
  EXPECT_EQ(merged[4], in_block(record(RaceKind::WriteWrite, 0, 40, 48), 3, 0x00020003u));
}

// Level B's records of 4-byte elements: two writers that both change an int's low three bytes leave
// its high byte equal to the start state, so the element's record ends a byte short of the next one.
// With the element sizes such runs become one record; a whole element between them still splits,
// and a target of 1-byte elements (or one without a size) merges only touching ranges.
TEST(CoalesceRecords, MergesRangesInNeighbouringElementsWithElementSizes) {
  const std::vector<RaceRecord> records = {
      record(RaceKind::WriteWrite, 0, 400, 403), record(RaceKind::WriteWrite, 0, 404, 407),
      record(RaceKind::WriteWrite, 0, 408, 411), record(RaceKind::WriteWrite, 0, 416, 419),  // element 103 skipped
      record(RaceKind::WriteWrite, 0, 10, 11, 1), record(RaceKind::WriteWrite, 0, 12, 13, 1),
      record(RaceKind::WriteWrite, 0, 20, 21, 2), record(RaceKind::WriteWrite, 0, 22, 23, 2)};
  const std::vector<RaceRecord> merged = coalesce_records(records, by_elements({4, 1}));
  ASSERT_EQ(merged.size(), 6u);
  EXPECT_EQ(merged[0], record(RaceKind::WriteWrite, 0, 400, 411));
  EXPECT_EQ(merged[1], record(RaceKind::WriteWrite, 0, 416, 419));
  EXPECT_EQ(merged[2], record(RaceKind::WriteWrite, 0, 10, 11, 1));
  EXPECT_EQ(merged[3], record(RaceKind::WriteWrite, 0, 12, 13, 1));
  EXPECT_EQ(merged[4], record(RaceKind::WriteWrite, 0, 20, 21, 2));  // no size given: bytes
  EXPECT_EQ(merged[5], record(RaceKind::WriteWrite, 0, 22, 23, 2));
  EXPECT_EQ(coalesce_records(records).size(), records.size());  // without sizes nothing touches
  // Records that start inside the next element (an int whose low byte, a float whose low two bytes
  // both writers left as they were) join too.
  const std::vector<RaceRecord> mid = {record(RaceKind::WriteWrite, 0, 401, 404), record(RaceKind::WriteWrite, 0, 405, 408),
                                       record(RaceKind::WriteWrite, 0, 410, 412), record(RaceKind::WriteWrite, 0, 418, 420)};
  const std::vector<RaceRecord> joined = coalesce_records(mid, by_elements({4}));
  ASSERT_EQ(joined.size(), 2u);  // elements 100 .. 102, then 104 (103 skipped)
  EXPECT_EQ(joined[0], record(RaceKind::WriteWrite, 0, 401, 412));
  EXPECT_EQ(joined[1], record(RaceKind::WriteWrite, 0, 418, 420));
}

// Level W's records: shared ones by the layout variable they are in (int a[4] at 0, int b[4] at 16):
// neighbouring elements of a merge, a[3] and b[0] stay apart though their bytes touch; global ones by
// their allocation's element size; register ones (a thread's index) only where they touch.
TEST(CoalesceRecords, LevelWRecordsMergeWithinOneVariable) {
  const Continues continues = by_layout({{0, 16, 4}, {16, 16, 4}}, {8});
  const auto in = [](uint32_t target, uint64_t lo, uint64_t hi) {
    return RaceRecord{uint32_t(RaceKind::WriteWrite), target, 0, 1, lo, hi};
  };
  const std::vector<RaceRecord> merged = coalesce_records(
      {in(0, 1, 3), in(0, 5, 7), in(0, 12, 16), in(0, 16, 20), in(kGlobalTarget, 0, 5), in(kGlobalTarget, 9, 13),
       in(kRegisterTarget | 2, 5, 6), in(kRegisterTarget | 2, 7, 8), in(kRegisterTarget | 2, 8, 9)},
      continues);
  ASSERT_EQ(merged.size(), 6u);
  EXPECT_EQ(merged[0], in(0, 1, 7));
  EXPECT_EQ(merged[1], in(0, 12, 16));
  EXPECT_EQ(merged[2], in(0, 16, 20));
  EXPECT_EQ(merged[3], in(kGlobalTarget, 0, 13));
  EXPECT_EQ(merged[4], in(kRegisterTarget | 2, 5, 6));
  EXPECT_EQ(merged[5], in(kRegisterTarget | 2, 7, 9));
  EXPECT_EQ(coalesce_records({in(0, 12, 16), in(0, 16, 20)}).size(), 1u);  // bytes alone: one range over both
}

// Against the definition on a racy launch's kind of log: records of a few identities (units, block,
// region, target, kind) in any order, chunk ranges that touch, overlap, repeat or leave gaps. The
// result is every identity's maximal touching runs, sorted by all fields.
TEST(CoalesceRecords, MatchesSortingAndMergingTheRecordsThemselves) {
  uint32_t seed = 12345;
  auto next = [&](uint32_t n) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % n;
  };
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<RaceRecord> records;
    for (int i = 0; i < 400; ++i) {
      RaceRecord r = record(next(2) ? RaceKind::WriteWrite : RaceKind::ReadWrite, next(2), 0, 0);
      const uint64_t lo = 16 * next(40) + (next(4) == 0 ? next(16) : 0);
      r.byte_lo = lo;
      r.byte_hi = lo + 1 + next(32);
      r.unit_a = next(3);
      r.unit_b = r.kind == uint32_t(RaceKind::WriteWrite) ? r.unit_a + 1 + next(2) : kNoUnit;
      records.push_back(in_block(r, next(4), next(2) ? 0x00010002u : 0x00020003u));
    }
    std::vector<RaceRecord> expected = records;
    auto fields = [](const RaceRecord& r) {
      return std::make_tuple(r.kind, r.target, r.region, r.unit_a, r.unit_b, r.block, r.byte_lo, r.byte_hi);
    };
    std::sort(expected.begin(), expected.end(), [&](const RaceRecord& a, const RaceRecord& b) { return fields(a) < fields(b); });
    std::vector<RaceRecord> merged;
    for (const RaceRecord& r : expected) {
      RaceRecord* last = merged.empty() ? nullptr : &merged.back();
      if (last && last->kind == r.kind && last->target == r.target && last->region == r.region &&
          last->unit_a == r.unit_a && last->unit_b == r.unit_b && last->block == r.block && r.byte_lo <= last->byte_hi)
        last->byte_hi = std::max(last->byte_hi, r.byte_hi);
      else
        merged.push_back(r);
    }
    ASSERT_EQ(coalesce_records(records), merged) << "trial " << trial;
  }
}

// A launch's own repeats stay however often they come; a key of an earlier launch goes, also when
// it comes again in the same later launch.
TEST(SeenRecords, KeepsEveryRepeatOfTheLaunchThatFirstLogsAKey) {
  SeenRecords seen;
  std::vector<RaceRecord> first(5, in_block(record(RaceKind::WriteWrite, 0, 0, 4), 1));
  for (uint32_t b = 0; b < first.size(); ++b) first[b].block = b;
  seen.drop_seen(first);
  EXPECT_EQ(first.size(), 5u);
  std::vector<RaceRecord> second = {in_block(record(RaceKind::WriteWrite, 0, 0, 4), 3), in_block(record(RaceKind::WriteWrite, 0, 0, 4), 9),
                                    in_block(record(RaceKind::WriteWrite, 0, 4, 8), 3), in_block(record(RaceKind::WriteWrite, 0, 4, 8), 3)};
  seen.drop_seen(second);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0], in_block(record(RaceKind::WriteWrite, 0, 4, 8), 3));
  EXPECT_EQ(second[1], second[0]);
}

// The same race in blocks 7, 2 and 5 is one record for block 2 and 2 other blocks; a register race is
// one per local whichever threads saw it.
TEST(MergeRecordBlocks, KeepsTheLowestBlockAndCountsTheOthers) {
  RaceRecord local{uint32_t(RaceKind::ReadWrite), kRegisterTarget | 3u, 1, kNoUnit, 33, 34};
  RaceRecord other_thread = local;
  other_thread.byte_lo = 70;
  other_thread.byte_hi = 71;
  const auto merged = merge_record_blocks({in_block(record(RaceKind::WriteWrite, 0, 0, 4), 7),
                                           in_block(record(RaceKind::WriteWrite, 0, 0, 4), 2),
                                           in_block(record(RaceKind::WriteWrite, 0, 4, 8), 7),
                                           in_block(record(RaceKind::WriteWrite, 0, 0, 4), 5),
                                           in_block(local, 1), in_block(other_thread, 0)});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].record, in_block(record(RaceKind::WriteWrite, 0, 0, 4), 2));
  EXPECT_EQ(merged[0].other_blocks, 2u);
  EXPECT_EQ(merged[1].record, in_block(record(RaceKind::WriteWrite, 0, 4, 8), 7));
  EXPECT_EQ(merged[1].other_blocks, 0u);
  EXPECT_EQ(merged[2].record, in_block(other_thread, 0));
  EXPECT_EQ(merged[2].other_blocks, 1u);
}

// A later launch of the same clone logs the same races, in other blocks too: only its new records
// go on to become reports. A launch's own repeats in several blocks stay for merge_record_blocks.
TEST(SeenRecords, DropsWhatAnEarlierLaunchLoggedInAnyBlock) {
  SeenRecords seen;
  std::vector<RaceRecord> first = {in_block(record(RaceKind::WriteWrite, 0, 0, 4), 2),
                                   in_block(record(RaceKind::WriteWrite, 0, 0, 4), 5),
                                   in_block(record(RaceKind::ReadWrite, 1, 8, 12), 0)};
  seen.drop_seen(first);
  EXPECT_EQ(first.size(), 3u);
  std::vector<RaceRecord> second = {in_block(record(RaceKind::WriteWrite, 0, 0, 4), 9),
                                    in_block(record(RaceKind::WriteWrite, 0, 4, 8), 2),
                                    in_block(record(RaceKind::WriteWrite, 0, 4, 8), 3),
                                    in_block(record(RaceKind::ReadWrite, 1, 8, 12), 0, 0x00030004u)};
  seen.drop_seen(second);
  // Bytes 0..3 were logged before; another range (in two blocks) and another region are new.
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second[0], in_block(record(RaceKind::WriteWrite, 0, 4, 8), 2));
  EXPECT_EQ(second[1], in_block(record(RaceKind::WriteWrite, 0, 4, 8), 3));
  EXPECT_EQ(second[2], in_block(record(RaceKind::ReadWrite, 1, 8, 12), 0, 0x00030004u));
  std::vector<RaceRecord> third = second;
  seen.drop_seen(third);
  EXPECT_TRUE(third.empty());
}

}  // namespace
}  // namespace ldcc
