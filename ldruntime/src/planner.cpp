// Warp-reshuffling planner (DESIGN.md section 5, LD paper section 4.5). See planner.h.
#include "ldcc/planner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ldcc {

namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

// a * b, or UINT64_MAX when the product does not fit. M^R and (M+1)*C can exceed 64 bits for large
// copies or huge buffers; saturating keeps every comparison against a real size correct.
uint64_t saturating_mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > kU64Max / a) return kU64Max;
  return a * b;
}

// copies^rounds, saturated.
uint64_t saturating_pow(uint64_t base, uint32_t exp) {
  uint64_t p = 1;
  for (uint32_t i = 0; i < exp && p != kU64Max; ++i) p = saturating_mul(p, base);
  return p;
}

}  // namespace

uint32_t cheapest_copies(uint32_t units, uint32_t max_copies, double round_us, double copy_us, double margin) {
  max_copies = std::min(max_copies, units);
  if (units <= 2 || max_copies < 3) return max_copies;
  auto cost = [&](uint32_t copies) {
    return double(rounds_needed(units, copies)) * (round_us + copies * copy_us);
  };
  const double full = cost(max_copies);
  uint32_t best = max_copies;
  double best_cost = full;
  for (uint32_t rounds = rounds_needed(units, max_copies) + 1; rounds <= rounds_needed(units, 2); ++rounds) {
    // The fewest copies that finish in `rounds` rounds.
    uint32_t copies = std::max<uint32_t>(2, uint32_t(std::ceil(std::pow(double(units), 1.0 / rounds))) - 1);
    while (rounds_needed(units, copies) > rounds) ++copies;
    if (cost(copies) < best_cost) {
      best = copies;
      best_cost = cost(copies);
    }
  }
  return best_cost < (1.0 - margin) * full ? best : max_copies;
}

uint32_t rounds_needed(uint64_t units, uint64_t copies) {
  if (units <= 1) return 0;
  if (copies < 2) {
    // One copy per round never splits anything: the loop below would not terminate.
    throw std::invalid_argument("ldcc::rounds_needed: copies must be >= 2, got " + std::to_string(copies));
  }
  uint32_t rounds = 0;
  // copies >= 2 doubles p at least each step, so this ends within 64 iterations; saturation makes the
  // last step reach UINT64_MAX >= units instead of wrapping.
  for (uint64_t p = 1; p < units; p = saturating_mul(p, copies)) ++rounds;
  return rounds;
}

double detection_probability(uint64_t units, uint64_t copies, uint32_t rounds) {
  if (copies < 2) {
    throw std::invalid_argument("ldcc::detection_probability: copies must be >= 2, got " +
                                std::to_string(copies));
  }
  if (units <= 1) return 1.0;  // no pair of units, nothing can be missed
  const uint64_t groups = saturating_pow(copies, rounds);
  // Exactly 1 once every group is a single unit; the floating-point formula would only come close.
  if (groups >= units) return 1.0;
  const double n = static_cast<double>(units);
  const double p = n * (1.0 - 1.0 / static_cast<double>(groups)) / static_cast<double>(units - 1);
  return std::min(p, 1.0);
}

CheckPlan::CheckPlan(uint32_t units, uint32_t copies) : units_(units), copies_(0), rounds_(0) {
  if (units <= 1) {
    // A single unit (or none) races with nobody: no rounds, and the unit is its own copy.
    copies_ = units;
    return;
  }
  if (copies < 2) {
    throw std::invalid_argument("ldcc::CheckPlan: copies must be >= 2 for " + std::to_string(units) +
                                " units, got " + std::to_string(copies));
  }
  copies_ = std::min(copies, units);  // more copies than units would only add empty groups
  rounds_ = rounds_needed(units_, copies_);
}

CheckPlan::Place CheckPlan::locate(uint32_t round, uint32_t unit) const {
  if (round >= rounds_) {
    throw std::out_of_range("ldcc::CheckPlan: round " + std::to_string(round) + " >= rounds " +
                            std::to_string(rounds_));
  }
  if (unit >= units_) {
    throw std::out_of_range("ldcc::CheckPlan: unit " + std::to_string(unit) + " >= units " +
                            std::to_string(units_));
  }
  // 64-bit arithmetic: (t + 1) * M and j * s are products of two 32-bit values.
  const uint64_t m = copies_;
  uint64_t lo = 0;
  uint64_t hi = units_;
  uint64_t j = 0;
  for (uint32_t r = 0; r <= round; ++r) {
    const uint64_t s = hi - lo;  // >= 1: unit is inside [lo, hi)
    const uint64_t t = unit - lo;
    // Part j starts at floor(j*s/M). The unit's part is the largest j whose start is <= t:
    // floor(j*s/M) <= t  <=>  j*s < (t+1)*M  <=>  j <= ((t+1)*M - 1) / s. Since t < s this is <= M-1,
    // and the part found is nonempty (it contains t) even when s < M leaves some parts empty.
    j = ((t + 1) * m - 1) / s;
    const uint64_t new_lo = lo + j * s / m;
    const uint64_t new_hi = lo + (j + 1) * s / m;
    lo = new_lo;
    hi = new_hi;
  }
  return Place{static_cast<uint32_t>(lo), static_cast<uint32_t>(j)};
}

uint32_t CheckPlan::copy_of(uint32_t round, uint32_t unit) const { return locate(round, unit).copy; }

uint32_t CheckPlan::group_of(uint32_t round, uint32_t unit) const { return locate(round, unit).group_lo; }

std::vector<uint32_t> CheckPlan::copy_table(uint32_t round) const {
  if (round >= rounds_) locate(round, 0);  // throws the out_of_range with the message
  std::vector<uint32_t> table(units_);
  for (uint32_t u = 0; u < units_; ++u) table[u] = locate(round, u).copy;
  return table;
}

std::vector<uint32_t> CheckPlan::units_in_copy(uint32_t round, uint32_t copy) const {
  if (round >= rounds_) locate(round, 0);  // throws
  if (copy >= copies_) {
    throw std::out_of_range("ldcc::CheckPlan: copy " + std::to_string(copy) + " >= copies " +
                            std::to_string(copies_));
  }
  std::vector<uint32_t> out;
  for (uint32_t u = 0; u < units_; ++u) {
    if (locate(round, u).copy == copy) out.push_back(u);
  }
  return out;
}

std::optional<CheckPlan> plan_for_budget(uint32_t units, uint64_t bytes_per_copy, uint64_t budget_bytes) {
  if (units <= 1) return CheckPlan(units, units);  // nothing to check, whatever the budget
  // Buffers that fit; the union copy U takes one of them. Division, not (M+1)*C, so nothing overflows.
  const uint64_t buffers = bytes_per_copy == 0 ? kU64Max : budget_bytes / bytes_per_copy;
  if (buffers < 3) return std::nullopt;  // fewer than 2 private copies + U: cannot check
  const uint64_t m = std::min<uint64_t>(units, buffers - 1);
  return CheckPlan(units, static_cast<uint32_t>(m));
}

uint64_t plan_bytes(const CheckPlan& plan, uint64_t bytes_per_copy) {
  return saturating_mul(static_cast<uint64_t>(plan.copies()) + 1, bytes_per_copy);
}

}  // namespace ldcc
