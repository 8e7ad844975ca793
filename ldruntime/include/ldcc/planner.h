// Memory-adaptive check planning: warp reshuffling (DESIGN.md section 5, LD paper section 4.5).
//
// With N units and room for only M < N private copies, the check runs in rounds. Round 0 splits the
// units into M groups, one copy each; every later round splits each group of the previous round into
// M subgroups, and subgroup j of *every* parent uses copy j. Two units that share a copy but have
// different parents were already in different copies in an earlier round, so their independence is
// already proven and sharing is safe. After rounds_needed(N, M) rounds every group is a single unit,
// so every pair of units has been checked against each other exactly once.
//
// Pure host code: no CUDA, no allocation beyond the returned vectors, no state besides (N, M).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ldcc {

// Number of rounds of warp reshuffling: smallest R with copies^R >= units (0 when units <= 1).
// copies >= 2 (throws std::invalid_argument otherwise, unless units <= 1). copies^R saturates at
// UINT64_MAX, so the result is at most 64.
uint32_t rounds_needed(uint64_t units, uint64_t copies);

// Equation (1) of the LD paper: probability that a race between two randomly placed units is found
// within `rounds` rounds, N*(1-1/M^k)/(N-1), clamped to 1 (exactly 1 once M^k >= N). units >= 2
// (returns 1 for units <= 1: there is no pair to miss); copies >= 2 (throws std::invalid_argument).
// The formula assumes M^k divides N; with balanced integer groups the true fraction of pairs checked is
// slightly lower (by a(G-a)/(G*N*(N-1)) for G = M^k groups and a = N mod G), see test_planner.cpp.
double detection_probability(uint64_t units, uint64_t copies, uint32_t rounds);

// One memory-adaptive check plan. Round r (0-based) splits every group of round r-1 (round 0: the
// single group of all units, contiguous [0, N)) into `copies` balanced contiguous subgroups (part j of a
// range [lo,hi) of size s is [lo + j*s/M, lo + (j+1)*s/M) with integer division; empty parts allowed);
// the subgroup index j is the private copy the subgroup's units use in that round. So units that share a
// copy in round r but have different parents were already in different copies in an earlier round.
//
// Valid arguments: round < rounds(), unit < units(), copy < copies(); anything else throws
// std::out_of_range (these functions build tables once per round, not per access, so the check is free).
class CheckPlan {
 public:
  // copies is clamped to units. Requires copies >= 2 unless units <= 1 (throws std::invalid_argument).
  // With units <= 1 the plan has 0 rounds (nothing to check) and copies() == units.
  CheckPlan(uint32_t units, uint32_t copies);

  uint32_t units() const { return units_; }
  uint32_t copies() const { return copies_; }  // M
  uint32_t rounds() const { return rounds_; }  // rounds_needed(units, copies)
  uint32_t passes() const { return 2 * rounds_; }  // each round is a two-pass check

  // Private copy the unit uses in `round`. O(round) arithmetic, no tables kept.
  uint32_t copy_of(uint32_t round, uint32_t unit) const;
  // Id of the unit's group in `round`: the first (lowest) unit of the group. Groups are contiguous
  // ranges, so the id is unique per group within the round; units with equal group are in the same copy
  // and have the same chain of parent groups.
  uint32_t group_of(uint32_t round, uint32_t unit) const;
  // copy_of(round, u) for every unit u in [0, units()), to upload to the device.
  std::vector<uint32_t> copy_table(uint32_t round) const;
  // The units using `copy` in `round`, ascending.
  std::vector<uint32_t> units_in_copy(uint32_t round, uint32_t copy) const;

 private:
  struct Place {
    uint32_t group_lo;  // first unit of the unit's group in the round
    uint32_t copy;      // subgroup index within the parent = private copy
  };
  Place locate(uint32_t round, uint32_t unit) const;

  uint32_t units_;
  uint32_t copies_;
  uint32_t rounds_;
};

// Memory budget -> plan. A check needs (M + 1) buffers of bytes_per_copy (M private copies plus the
// union copy U). M = min(units, budget_bytes / bytes_per_copy - 1) (bytes_per_copy == 0: M = units).
// Returns std::nullopt when M < 2 and units >= 2 (the caller then runs unchecked with a warning).
// units <= 1 always gives a plan with 0 rounds.
std::optional<CheckPlan> plan_for_budget(uint32_t units, uint64_t bytes_per_copy, uint64_t budget_bytes);

// The cheapest number of copies for a check of `units` units, at most `max_copies` (the memory plan's):
// R rounds of M copies cost R * (round_us + M * copy_us), where round_us is what one round costs
// besides its copies (the executions of all units, launches, synchronization, reading the logs) and
// copy_us what the checks cost per private copy (replicate, ww-check, rw-check). For each R the
// fewest copies with M^R >= units; fewer copies than max_copies only when that is cheaper by more
// than `margin` (0.2: 20%), so noise in the times does not flip the plan. max_copies is clamped to
// units; returns max_copies for units <= 2 or max_copies < 3.
uint32_t cheapest_copies(uint32_t units, uint32_t max_copies, double round_us, double copy_us, double margin = 0.2);

// Bytes the plan needs: (copies + 1) * bytes_per_copy, saturating at UINT64_MAX (a saturated value can
// never fit a real budget, which is the right answer for the caller).
uint64_t plan_bytes(const CheckPlan& plan, uint64_t bytes_per_copy);

}  // namespace ldcc
