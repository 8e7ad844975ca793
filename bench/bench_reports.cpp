// Host cost of turning a racy launch's device race records into reports (no GPU needed): the steps
// translated_launch.cu runs after every checked launch of a racy kernel, on synthetic logs shaped like
// scan_race's (the log full every launch: the same few thousand element races in random blocks).
// Prints a Markdown table, milliseconds per launch, averaged over the launches.
//   bench_reports [launches] [records per launch] [distinct elements]
//   bench_reports level-b bytes|elements [spills]: one launch of level B's write-write records shaped
//     like btree_race's (runs of int elements two blocks both write, each element's record three
//     bytes long: the high byte equal to the start state in both), merged by bytes or by elements
//     (one process each: the process report keeps what it was given).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "race_filter.h"
#include "report.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// One launch's log: write-write records between warps 0 and 1 on 4-byte elements, in random blocks.
std::vector<ldcc::RaceRecord> synthetic_log(std::mt19937& rng, uint32_t records, uint32_t elements) {
  std::vector<ldcc::RaceRecord> log;
  for (uint32_t i = 0; i < records; ++i) {
    ldcc::RaceRecord r{uint32_t(ldcc::RaceKind::WriteWrite), 0, 0, 1, 0, 0};
    r.byte_lo = 4 * uint64_t(rng() % elements);
    r.byte_hi = r.byte_lo + 2 + 2 * (rng() % 2);
    r.block = rng() % 256;
    r.region = (1u << 16) | 2u;
    log.push_back(r);
  }
  return log;
}

// Level B's records of one racy launch: `spills` runs of 1 to 63 int elements of an 8-block launch,
// each run written by blocks q and q + 1, one record per element.
std::vector<ldcc::RaceRecord> level_b_log(std::mt19937& rng, uint32_t spills) {
  std::vector<ldcc::RaceRecord> log;
  for (uint32_t s = 0; s < spills; ++s) {
    const uint32_t q = rng() % 8, first = 64 * s + 1 + rng() % 8, count = 1 + rng() % 63;
    for (uint32_t e = first; e < first + count; ++e)
      log.push_back(ldcc::RaceRecord{uint32_t(ldcc::RaceKind::WriteWrite), 0, q, (q + 1) % 8, 4ull * e, 4ull * e + 3});
  }
  std::shuffle(log.begin(), log.end(), rng);
  return log;
}

// The level B report path on one log (block_level.cu and translated_launch.cu: coalesce the records,
// make a race of each, coalesce the races, add them to the process report); ms per step.
void level_b(bool by_elements, uint32_t spills) {
  std::printf("| records merged by | records | races | coalesce records | build races | coalesce races | process report | total ms |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|\n");
  std::mt19937 rng(7);
  std::vector<ldcc::RaceRecord> log = level_b_log(rng, spills);
  const size_t logged = log.size();
  auto start = Clock::now();
  const std::vector<ldcc::RaceRecord> coalesced =
      ldcc::coalesce_records(std::move(log), by_elements ? ldcc::by_elements({4}) : ldcc::Continues{});
  const double t_coalesce = ms_since(start);
  start = Clock::now();
  ldcc::LaunchResult result;
  result.checked = true;
  result.kernel = by_elements ? "findRangeK_elements" : "findRangeK_bytes";
  for (const ldcc::RaceRecord& r : coalesced) {
    ldcc::Race race;  // as block_level.cu's race_from makes it
    race.kind = ldcc::RaceKind::WriteWrite;
    race.space = "global";
    race.kernel = result.kernel;
    race.region = "from kernel entry at btree_race.cu:87:17 to kernel exit at btree_race.cu:125:1";
    race.unit_kind = "block";
    race.target = "range_vals";
    race.element_size = 4;
    race.byte_lo = r.byte_lo;
    race.byte_hi = r.byte_hi;
    race.element = "range_vals[" + std::to_string(r.byte_lo / 4) + ".." + std::to_string((r.byte_hi - 1) / 4) + "]";
    race.units_a = {r.unit_a};
    race.units_b = {r.unit_b};
    race.units_text = "block (" + std::to_string(r.unit_a) + ",0,0) and block (" + std::to_string(r.unit_b) + ",0,0) both wrote it";
    result.races.push_back(std::move(race));
  }
  const double t_build = ms_since(start);
  start = Clock::now();
  result.races = ldcc::coalesce(std::move(result.races));
  const double t_races = ms_since(start);
  const size_t races = result.races.size();
  start = Clock::now();
  ldcc::ProcessReport::instance().add(std::move(result));
  const double t_add = ms_since(start);
  std::printf("| %s | %zu | %zu | %.3f | %.3f | %.3f | %.3f | %.3f |\n", by_elements ? "elements" : "bytes", logged, races,
              t_coalesce, t_build, t_races, t_add, t_coalesce + t_build + t_races + t_add);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "level-b") {
    level_b(argc > 2 && std::string(argv[2]) == "elements", argc > 3 ? uint32_t(std::atoi(argv[3])) : 1000);
    std::fflush(stdout);
    std::_Exit(0);
  }
  const int launches = argc > 1 ? std::atoi(argv[1]) : 40;
  const uint32_t records = argc > 2 ? uint32_t(std::atoi(argv[2])) : 65536;
  const uint32_t elements = argc > 3 ? uint32_t(std::atoi(argv[3])) : 1200;
  std::mt19937 rng(1);
  ldcc::SeenRecords seen;
  double t_seen = 0, t_coalesce = 0, t_merge = 0, t_races = 0, t_add = 0;
  for (int launch = 0; launch < launches; ++launch) {
    std::vector<ldcc::RaceRecord> log = synthetic_log(rng, records, elements);
    auto start = Clock::now();
    seen.drop_seen(log);
    t_seen += ms_since(start);
    start = Clock::now();
    std::vector<ldcc::RaceRecord> coalesced = ldcc::coalesce_records(std::move(log));
    t_coalesce += ms_since(start);
    start = Clock::now();
    std::vector<ldcc::BlockMergedRecord> merged = ldcc::merge_record_blocks(coalesced);
    t_merge += ms_since(start);
    start = Clock::now();
    ldcc::LaunchResult result;
    result.checked = true;
    result.kernel = "prescan";
    for (const ldcc::BlockMergedRecord& m : merged) {
      ldcc::Race race{ldcc::RaceKind::WriteWrite, "shared", "prescan", "from __syncthreads() at scan.cu:67:3 to __syncthreads() at scan.cu:92:5",
                      "s_data", 4, m.record.byte_lo, m.record.byte_hi, "warp", {0}, {1}};
      race.block = "(0,0,0)";
      race.element = "s_data[" + std::to_string(m.record.byte_lo / 4) + "]";
      race.units_text = "warp 0 and warp 1 of block (0,0,0) both wrote it";
      race.other_blocks = m.other_blocks;
      result.races.push_back(race);
    }
    result.races = ldcc::coalesce(std::move(result.races));
    t_races += ms_since(start);
    start = Clock::now();
    ldcc::ProcessReport::instance().add(result);
    t_add += ms_since(start);
  }
  std::printf("| launches | records per launch | distinct elements | drop seen | coalesce | merge blocks | build races | "
              "process report | total ms per launch | races reported |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::printf("| %d | %u | %u | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %zu |\n", launches, records, elements,
              t_seen / launches, t_coalesce / launches, t_merge / launches, t_races / launches, t_add / launches,
              (t_seen + t_coalesce + t_merge + t_races + t_add) / launches, ldcc::races_so_far().size());
  std::fflush(stdout);
  std::_Exit(0);  // the race texts printed at exit are not the benchmark's output
}
