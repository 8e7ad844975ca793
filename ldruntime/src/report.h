// Race reports: coalescing device records into races, the human text (stderr), the JSON file
// (LDCC_REPORT) and the process-wide summary printed at exit.
#pragma once
#include <map>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

#include "ldcc/ldcc.h"

namespace ldcc {

// Orders, compares and hashes races by all they say but other_blocks: the same race however many
// blocks saw it.
struct RaceOrder {
  bool operator()(const Race& a, const Race& b) const;
};
struct RaceSame {
  bool operator()(const Race& a, const Race& b) const;
};
struct RaceHash {
  size_t operator()(const Race& r) const;
};

// Merges races that differ only by byte ranges that overlap, touch, or share an element.
std::vector<Race> coalesce(std::vector<Race> races);

std::string format_units(const std::string& unit_kind, const std::vector<uint32_t>& units);
std::string format_race(const Race& race);
// Races of one kind on one variable in one region of one kernel (a bug seen at many elements or by
// many units) as one text report: the first race, the span of elements and how many ranges; the
// JSON report keeps every one.
std::string format_race_group(const std::vector<Race>& group);
// The first race of each such group, in order.
std::vector<Race> group_leaders(const std::vector<Race>& races);
// `extra_fields`: more members for the top-level object (`"name":value,...`), written first.
std::string races_to_json(const std::vector<Race>& races, uint64_t launches, uint64_t unchecked, uint64_t dropped,
                          const std::string& extra_fields = "");
std::string summary_line(const std::vector<Race>& races, uint64_t launches, uint64_t unchecked, uint64_t dropped);
// After check mode's summary, when launch-time proofs held (LDCC_PROOFS): how many of its checked
// launches ran the original kernel.
std::string proven_line(uint64_t proven, uint64_t launches);
// Deterministic mode's summary: launches run in order, those proven race-free (deterministic as the
// original kernel: the proof excludes atomics whose order shows) and those that ran natively.
std::string deterministic_summary_line(uint64_t ordered, uint64_t native, uint64_t proven = 0);
// What the summary adds per kernel whose checked launches left part of their memory unchecked
// (LaunchResult::gap), and the JSON report's list of them (`"partly_checked":[...]`).
std::string gap_line(const std::string& kernel, const std::string& gap);
std::string gaps_to_json(const std::map<std::string, std::string>& gaps);

// Collects every launch's result; prints each new race once, and the summary at exit.
class ProcessReport {
 public:
  static ProcessReport& instance();
  void add(LaunchResult result);  // moves its races in: pass an rvalue where they are not needed after
  std::vector<Race> races() const;
  uint64_t peak_extra_bytes() const;  // the most device memory one checked launch added
  void finish();  // summary, JSON, exit code; runs once, at exit

 private:
  ProcessReport();
  std::vector<Race> races_;
  // RaceHash -> index in races_: each race is kept once (a racy launch has thousands).
  std::unordered_multimap<size_t, size_t> reported_;
  std::set<std::string> printed_groups_;
  uint64_t launches_ = 0, unchecked_ = 0, dropped_ = 0, peak_extra_bytes_ = 0;
  uint64_t ordered_ = 0, native_ = 0;  // deterministic mode's launches
  uint64_t proven_ = 0, ordered_proven_ = 0;  // of launches_, in check and deterministic mode: proven race-free at launch
  std::set<std::string> checked_kernels_;
  std::map<std::string, std::string> gaps_;  // kernel -> the first gap its launches reported
  uint64_t regions_ = 0;
  bool finished_ = false;
};

}  // namespace ldcc
