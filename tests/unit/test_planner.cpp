// Unit tests for the warp-reshuffling planner (ldcc/planner.h). Oracles: the LD paper's Table I and
// Equation (1) (section 4.5), and exhaustive enumeration of unit pairs.
#include "ldcc/planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ldcc {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

// ---------------------------------------------------------------------------------------------------
// Reference construction, written straight from the spec: explicit lists of ranges, split level by
// level, part j of [lo,hi) of size s being [lo + j*s/M, lo + (j+1)*s/M).
struct Reference {
  std::vector<std::vector<uint32_t>> copy;   // [round][unit]
  std::vector<std::vector<uint32_t>> group;  // [round][unit]: index of the unit's range in that level
};

Reference build_reference(uint32_t n, uint32_t m, uint32_t rounds) {
  Reference ref;
  std::vector<std::pair<uint64_t, uint64_t>> ranges{{0, n}};
  for (uint32_t r = 0; r < rounds; ++r) {
    std::vector<std::pair<uint64_t, uint64_t>> next;
    std::vector<uint32_t> copy(n, ~0u), group(n, ~0u);
    for (const auto& [lo, hi] : ranges) {
      const uint64_t s = hi - lo;
      for (uint64_t j = 0; j < m; ++j) {
        const uint64_t a = lo + j * s / m;
        const uint64_t b = lo + (j + 1) * s / m;
        for (uint64_t u = a; u < b; ++u) {
          copy[u] = static_cast<uint32_t>(j);
          group[u] = static_cast<uint32_t>(next.size());
        }
        next.emplace_back(a, b);
      }
    }
    ref.copy.push_back(std::move(copy));
    ref.group.push_back(std::move(group));
    ranges = std::move(next);
  }
  return ref;
}

// The plan's tables for every round, computed once so the pair loops stay fast.
struct Tables {
  std::vector<std::vector<uint32_t>> copy, group;
};

Tables tables_of(const CheckPlan& plan) {
  Tables t;
  for (uint32_t r = 0; r < plan.rounds(); ++r) {
    std::vector<uint32_t> g(plan.units());
    for (uint32_t u = 0; u < plan.units(); ++u) g[u] = plan.group_of(r, u);
    t.copy.push_back(plan.copy_table(r));
    t.group.push_back(std::move(g));
  }
  return t;
}

std::string where(const CheckPlan& plan) {
  std::ostringstream os;
  os << "N=" << plan.units() << " M=" << plan.copies() << " R=" << plan.rounds() << ": ";
  return os.str();
}

// Compares the plan against the reference construction. Group ids need not be equal to the reference's
// indices, only induce the same partition: a bijection between plan ids and reference ranges.
std::string check_against_reference(const CheckPlan& plan, const Tables& t) {
  const Reference ref = build_reference(plan.units(), plan.copies(), plan.rounds());
  for (uint32_t r = 0; r < plan.rounds(); ++r) {
    std::map<uint32_t, uint32_t> plan_to_ref, ref_to_plan;
    for (uint32_t u = 0; u < plan.units(); ++u) {
      const auto fail = [&](const std::string& what) {
        return where(plan) + "round " + std::to_string(r) + " unit " + std::to_string(u) + ": " + what;
      };
      if (t.copy[r][u] != ref.copy[r][u]) {
        return fail("copy " + std::to_string(t.copy[r][u]) + " != reference " + std::to_string(ref.copy[r][u]));
      }
      if (t.copy[r][u] != plan.copy_of(r, u)) {
        return fail("copy_table " + std::to_string(t.copy[r][u]) + " != copy_of " +
                    std::to_string(plan.copy_of(r, u)));
      }
      const auto [it1, new1] = plan_to_ref.emplace(t.group[r][u], ref.group[r][u]);
      const auto [it2, new2] = ref_to_plan.emplace(ref.group[r][u], t.group[r][u]);
      if (it1->second != ref.group[r][u] || it2->second != t.group[r][u]) {
        return fail("group " + std::to_string(t.group[r][u]) + " does not match the reference partition");
      }
      // Documented id: the group's first unit.
      if (t.group[r][u] > u || (u > 0 && t.group[r][u] != u && t.group[r][u - 1] != t.group[r][u])) {
        return fail("group id " + std::to_string(t.group[r][u]) + " is not the group's first unit");
      }
    }
  }
  return "";
}

// The properties the check relies on, checked over every pair of distinct units.
std::string check_pairs(const CheckPlan& plan, const Tables& t) {
  const uint32_t n = plan.units();
  const uint32_t rounds = plan.rounds();
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = a + 1; b < n; ++b) {
      // First round where the pair's groups differ.
      uint32_t first = rounds;
      for (uint32_t r = 0; r < rounds; ++r) {
        if (t.group[r][a] != t.group[r][b]) {
          first = r;
          break;
        }
      }
      // Built only on failure: this loop runs for ~460k pairs per N = 960 plan.
      const auto fail = [&](const std::string& what) {
        std::ostringstream os;
        os << where(plan) << "units " << a << "," << b << ": " << what;
        return os.str();
      };
      // Every group at the last round is a single unit, so every pair is separated.
      if (first == rounds) {
        return fail("never separated");
      }
      for (uint32_t r = 0; r < rounds; ++r) {
        const bool same_group = t.group[r][a] == t.group[r][b];
        const bool same_copy = t.copy[r][a] == t.copy[r][b];
        if (r < first && !same_copy) {
          // No round gives two units of the same group different copies.
          return fail("same group in round " + std::to_string(r) + " but different copies");
        }
        if (r == first && same_copy) {
          // The round that separates the pair's groups must also check them against each other...
          return fail("separated in round " + std::to_string(r) + " but share a copy");
        }
        if (r == first && r > 0 && t.group[r - 1][a] != t.group[r - 1][b]) {
          // ...and it does so inside their common parent group.
          return fail("separated in round " + std::to_string(r) + " without a common parent");
        }
        if (r > first && same_group) {
          return fail("rejoined in round " + std::to_string(r) + " after separation in round " +
                      std::to_string(first));
        }
        if (!same_group && same_copy && !(first < r && t.copy[first][a] != t.copy[first][b])) {
          // Units sharing a copy across different groups must have been checked in an earlier round.
          return fail("share copy in round " + std::to_string(r) + " without an earlier check");
        }
      }
    }
  }
  // Explicitly: the last round has N singleton groups, and group sizes are balanced (floor/ceil of
  // N/M^(r+1)) so the number of rounds is as small as Table I says.
  std::map<uint32_t, uint32_t> sizes;
  for (uint32_t u = 0; u < n; ++u) ++sizes[t.group[rounds - 1][u]];
  if (sizes.size() != n) return where(plan) + "last round has a group that is not a single unit";
  uint64_t groups = 1;
  for (uint32_t r = 0; r < rounds; ++r) {
    groups *= plan.copies();  // <= N * M here, no overflow for the sizes tested
    const uint64_t lo = n / groups, hi = (n + groups - 1) / groups;
    std::map<uint32_t, uint64_t> sz;
    for (uint32_t u = 0; u < n; ++u) ++sz[t.group[r][u]];
    for (const auto& kv : sz) {
      if (kv.second < lo || kv.second > hi) {
        std::ostringstream os;
        os << where(plan) << "round " << r << " group " << kv.first << " has size " << kv.second
           << " outside [" << lo << "," << hi << "]";
        return os.str();
      }
    }
  }
  return "";
}

// Fraction of distinct pairs whose groups differ after `k` rounds (k >= 1), by enumeration.
double separated_fraction(const CheckPlan& plan, const Tables& t, uint32_t k) {
  const uint32_t n = plan.units();
  const uint32_t r = std::min(k, plan.rounds()) - 1;
  uint64_t separated = 0, pairs = 0;
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = a + 1; b < n; ++b) {
      ++pairs;
      separated += t.group[r][a] != t.group[r][b];
    }
  }
  return static_cast<double>(separated) / static_cast<double>(pairs);
}

// ---------------------------------------------------------------------------------------------------
// 1. Table I of the paper (N = 960 warps).

TEST(PlannerTableI, PassesPerMemoryOverhead) {
  const uint32_t n = 960;
  const std::vector<std::pair<uint32_t, uint32_t>> rows = {{960, 2}, {31, 4}, {10, 6}, {6, 8}, {4, 10}, {2, 20}};
  for (const auto& [m, passes] : rows) {
    SCOPED_TRACE("M=" + std::to_string(m));
    const CheckPlan plan(n, m);
    EXPECT_EQ(plan.units(), n);
    EXPECT_EQ(plan.copies(), m);
    EXPECT_EQ(plan.passes(), passes);
    EXPECT_EQ(plan.rounds(), passes / 2);
    EXPECT_EQ(rounds_needed(n, m), passes / 2);
    EXPECT_DOUBLE_EQ(detection_probability(n, m, plan.rounds()), 1.0);

    // The same plan from a memory budget: M private copies + U of 1 GiB each.
    for (const uint64_t budget : {(uint64_t{m} + 1) * kGiB, (uint64_t{m} + 2) * kGiB - 1}) {
      const auto planned = plan_for_budget(n, kGiB, budget);
      ASSERT_TRUE(planned.has_value());
      EXPECT_EQ(planned->copies(), m);
      EXPECT_EQ(planned->passes(), passes);
      EXPECT_EQ(plan_bytes(*planned, kGiB), (uint64_t{m} + 1) * kGiB);
      EXPECT_LE(plan_bytes(*planned, kGiB), budget);
    }
  }
  // The one fewer copy than needed for M = 31 (30^2 = 900 < 960) costs a third round.
  EXPECT_EQ(CheckPlan(n, 30).passes(), 6u);
}

TEST(PlannerTableI, ProbabilityWithTwoCopies) {
  const uint32_t n = 960;
  const std::vector<std::pair<uint32_t, long>> rows = {{5, 97}, {4, 94}, {3, 88}, {2, 75}};
  for (const auto& [k, percent] : rows) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const double p = detection_probability(n, 2, k);
    EXPECT_EQ(std::lround(p * 100.0), percent);
    EXPECT_LT(p, 1.0);
  }
  EXPECT_EQ(detection_probability(n, 2, 10), 1.0);  // 2^10 >= 960: exactly 1, no rounding
  EXPECT_EQ(detection_probability(n, 2, 11), 1.0);
  EXPECT_LT(detection_probability(n, 2, 9), 1.0);
  // Closed forms of the table's rows: 960 * (1 - 2^-k) / 959.
  EXPECT_DOUBLE_EQ(detection_probability(n, 2, 5), 930.0 / 959.0);
  EXPECT_DOUBLE_EQ(detection_probability(n, 2, 2), 720.0 / 959.0);
}

// ---------------------------------------------------------------------------------------------------
// 2. Every pair is checked, in exactly the round its groups split, inside their common parent.

TEST(PlannerPairs, ExhaustiveSmall) {
  for (uint32_t n = 2; n <= 40; ++n) {
    for (uint32_t m = 2; m <= std::min<uint32_t>(n, 9); ++m) {
      const CheckPlan plan(n, m);
      ASSERT_EQ(plan.rounds(), rounds_needed(n, m));
      const Tables t = tables_of(plan);
      ASSERT_EQ(check_against_reference(plan, t), "");
      ASSERT_EQ(check_pairs(plan, t), "");
    }
  }
}

TEST(PlannerPairs, ExhaustiveLarger) {
  const std::vector<std::pair<uint32_t, uint32_t>> cases = {
      {960, 31}, {960, 2}, {960, 10}, {960, 6}, {960, 4}, {960, 960}, {961, 31}, {962, 31},
      {1000, 3}, {777, 7}, {513, 2}, {300, 299}};
  for (const auto& [n, m] : cases) {
    const CheckPlan plan(n, m);
    const Tables t = tables_of(plan);
    ASSERT_EQ(check_against_reference(plan, t), "");
    ASSERT_EQ(check_pairs(plan, t), "");
  }
}

TEST(PlannerPairs, FigureFiveOfThePaper) {
  // N = 8, M = 2: round 1 {0..3}{4..7}, round 2 {0,1}{2,3}{4,5}{6,7} where {0,1} and {4,5} share a copy.
  const CheckPlan plan(8, 2);
  ASSERT_EQ(plan.rounds(), 3u);
  EXPECT_EQ(plan.copy_table(0), (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(plan.copy_table(1), (std::vector<uint32_t>{0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(plan.copy_table(2), (std::vector<uint32_t>{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(plan.units_in_copy(1, 0), (std::vector<uint32_t>{0, 1, 4, 5}));
  EXPECT_EQ(plan.group_of(1, 5), 4u);
  EXPECT_EQ(plan.group_of(1, 1), 0u);
}

TEST(PlannerPairs, UnbalancedSplitWithEmptyParts) {
  // N = 5, M = 4: round 0 parts of [0,5) are [0,1) [1,2) [2,3) [3,5); round 1 splits [3,5) into
  // [3,3) [3,4) [4,4) [4,5) (empty parts allowed), so units 3 and 4 use copies 1 and 3.
  const CheckPlan plan(5, 4);
  ASSERT_EQ(plan.rounds(), 2u);
  EXPECT_EQ(plan.copy_table(0), (std::vector<uint32_t>{0, 1, 2, 3, 3}));
  EXPECT_EQ(plan.copy_of(1, 3), 1u);
  EXPECT_EQ(plan.copy_of(1, 4), 3u);
  EXPECT_EQ(plan.group_of(1, 3), 3u);
  EXPECT_EQ(plan.group_of(1, 4), 4u);
}

// ---------------------------------------------------------------------------------------------------
// 3. Equation (1) against enumeration.

TEST(PlannerProbability, EnumerationMatchesEquationOne) {
  const uint32_t n = 960;
  const CheckPlan plan(n, 2);
  const Tables t = tables_of(plan);
  for (uint32_t k = 1; k <= 10; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const double enumerated = separated_fraction(plan, t, k);
    const double formula = detection_probability(n, 2, k);
    if (k <= 6 || k == 10) {
      // 2^k divides 960 for k <= 6 (960 = 2^6 * 15), and 2^10 >= 960 makes both exactly 1.
      EXPECT_NEAR(enumerated, formula, 1e-12);
    }
    // Equation (1) assumes N/M^k units per group. When M^k does not divide N (k = 7, 8, 9 here) the
    // groups have floor/ceil sizes, and since the number of same-group pairs, sum C(s_i, 2), is convex
    // in the sizes, unequal sizes leave more pairs unchecked: the enumeration is *below* the formula
    // (not above), by exactly a(G-a) / (G N (N-1)) with G = M^k groups and a = N mod G. Balanced
    // sizes are the best any partition into G groups can do, so this is the plan's true probability.
    EXPECT_LE(enumerated, formula + 1e-15);
    const uint64_t g = uint64_t{1} << k;
    const double gap = g >= n ? 0.0
                              : static_cast<double>((n % g) * (g - n % g)) /
                                    (static_cast<double>(g) * n * (n - 1));
    EXPECT_NEAR(formula - enumerated, gap, 1e-12);
    if (k == 7) {
      EXPECT_GT(gap, 1e-6);  // a real difference, not rounding
    }
  }
  EXPECT_EQ(separated_fraction(plan, t, 10), 1.0);
}

TEST(PlannerProbability, GapFormulaHoldsForSmallCases) {
  for (uint32_t n = 2; n <= 60; ++n) {
    for (uint32_t m = 2; m <= std::min<uint32_t>(n, 7); ++m) {
      const CheckPlan plan(n, m);
      const Tables t = tables_of(plan);
      uint64_t g = 1;
      for (uint32_t k = 1; k <= plan.rounds(); ++k) {
        g *= m;
        const double enumerated = separated_fraction(plan, t, k);
        const double formula = detection_probability(n, m, k);
        const double gap = g >= n ? 0.0
                                  : static_cast<double>((n % g) * (g - n % g)) /
                                        (static_cast<double>(g) * n * (n - 1));
        ASSERT_NEAR(formula - enumerated, gap, 1e-12) << "N=" << n << " M=" << m << " k=" << k;
      }
    }
  }
}

TEST(PlannerProbability, ExactlyOneWhenGroupsReachUnits) {
  // At M^k == N every pair is checked: the answer must be exactly 1 (callers compare with ==), and
  // below 1 one round earlier. The planner short-circuits on M^k >= N rather than trusting the rounding
  // of N*(1-1/N)/(N-1) (which, probed for N < 5e7, happens to land on 1 or above and is clamped).
  for (uint64_t m = 2; m <= 200; ++m) {
    uint64_t n = 1;
    for (uint32_t k = 1; k <= 6 && n <= (uint64_t{1} << 40) / m; ++k) {
      n *= m;
      ASSERT_EQ(detection_probability(n, m, k), 1.0) << "M=" << m << " k=" << k;
      ASSERT_EQ(detection_probability(n + 1, m, k + 1), 1.0) << "M=" << m << " k=" << k;
      if (n <= (uint64_t{1} << 20)) {  // the true value 1 - 1/(n+1)^2 is representable below 1 here
        ASSERT_LT(detection_probability(n + 1, m, k), 1.0) << "M=" << m << " k=" << k;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// 4. Budget and arithmetic edge cases.

TEST(PlannerBudget, BelowThreeBuffersIsUnchecked) {
  const uint64_t c = 1000;
  EXPECT_FALSE(plan_for_budget(960, c, 0).has_value());
  EXPECT_FALSE(plan_for_budget(960, c, 2 * c).has_value());
  EXPECT_FALSE(plan_for_budget(960, c, 3 * c - 1).has_value());
  EXPECT_FALSE(plan_for_budget(2, c, 3 * c - 1).has_value());
  const auto two = plan_for_budget(960, c, 3 * c);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->copies(), 2u);
  EXPECT_EQ(two->passes(), 20u);
  const auto pair = plan_for_budget(2, c, 3 * c);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->copies(), 2u);
  EXPECT_EQ(pair->rounds(), 1u);
}

TEST(PlannerBudget, SingleUnitHasNoRounds) {
  for (const uint32_t units : {0u, 1u}) {
    for (const uint64_t budget : {uint64_t{0}, uint64_t{5}, kU64Max}) {
      const auto plan = plan_for_budget(units, 1000, budget);
      ASSERT_TRUE(plan.has_value());
      EXPECT_EQ(plan->rounds(), 0u);
      EXPECT_EQ(plan->passes(), 0u);
      EXPECT_EQ(plan->units(), units);
      EXPECT_THROW(plan->copy_of(0, 0), std::out_of_range);
    }
    EXPECT_EQ(CheckPlan(units, 0).rounds(), 0u);
    EXPECT_EQ(CheckPlan(units, 7).rounds(), 0u);
    EXPECT_EQ(CheckPlan(units, 7).copies(), units);
  }
}

TEST(PlannerBudget, CopiesClampedToUnits) {
  const CheckPlan plan(5, 100);
  EXPECT_EQ(plan.copies(), 5u);
  EXPECT_EQ(plan.rounds(), 1u);
  EXPECT_EQ(plan.copy_table(0), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  const auto planned = plan_for_budget(10, 1, 1000000);
  ASSERT_TRUE(planned.has_value());
  EXPECT_EQ(planned->copies(), 10u);
  EXPECT_EQ(planned->passes(), 2u);
  EXPECT_EQ(plan_bytes(*planned, 1), 11u);
  // Zero-byte targets cost nothing: full privatization.
  const auto free_plan = plan_for_budget(960, 0, 0);
  ASSERT_TRUE(free_plan.has_value());
  EXPECT_EQ(free_plan->copies(), 960u);
  EXPECT_EQ(plan_bytes(*free_plan, 0), 0u);
}

TEST(PlannerBudget, InvalidCopiesThrow) {
  EXPECT_THROW(CheckPlan(2, 1), std::invalid_argument);
  EXPECT_THROW(CheckPlan(960, 0), std::invalid_argument);
  EXPECT_THROW(rounds_needed(2, 1), std::invalid_argument);
  EXPECT_THROW(detection_probability(960, 1, 3), std::invalid_argument);
  EXPECT_EQ(rounds_needed(1, 0), 0u);
}

TEST(PlannerBudget, HugeSizesDoNotOverflow) {
  // (M+1)*C would overflow 64 bits; the planner divides instead.
  EXPECT_FALSE(plan_for_budget(960, kU64Max / 2, kU64Max).has_value());  // 2 buffers fit
  EXPECT_FALSE(plan_for_budget(960, kU64Max, kU64Max).has_value());
  const auto three = plan_for_budget(960, kU64Max / 3, kU64Max);
  ASSERT_TRUE(three.has_value());
  EXPECT_EQ(three->copies(), 2u);
  EXPECT_EQ(plan_bytes(*three, kU64Max / 3), 3 * (kU64Max / 3));
  const auto many = plan_for_budget(960, uint64_t{1} << 40, kU64Max);
  ASSERT_TRUE(many.has_value());
  EXPECT_EQ(many->copies(), 960u);
  // plan_bytes saturates rather than wrapping to a small number that would "fit".
  EXPECT_EQ(plan_bytes(CheckPlan(960, 960), kU64Max / 2), kU64Max);
  EXPECT_EQ(plan_bytes(CheckPlan(960, 2), uint64_t{1} << 63), kU64Max);        // 3 * 2^63
  EXPECT_EQ(plan_bytes(CheckPlan(960, 2), kU64Max / 3 + 1), kU64Max);         // just over
  EXPECT_EQ(plan_bytes(CheckPlan(960, 2), uint64_t{1} << 62), 3 * (uint64_t{1} << 62));
  // Largest unit count: a full plan and copy_of at the last unit stay in range.
  const uint32_t big = std::numeric_limits<uint32_t>::max();
  const CheckPlan full(big, big);
  EXPECT_EQ(full.rounds(), 1u);
  EXPECT_EQ(full.copy_of(0, big - 1), big - 1);
  EXPECT_EQ(full.group_of(0, big - 1), big - 1);
  const CheckPlan binary(big, 2);
  EXPECT_EQ(binary.rounds(), 32u);
  EXPECT_EQ(binary.group_of(31, big - 1), big - 1);
  EXPECT_EQ(binary.copy_of(0, big - 1), 1u);
  const CheckPlan wide(big, big - 1);  // one group of two in round 0, split in round 1
  EXPECT_EQ(wide.rounds(), 2u);
  EXPECT_EQ(wide.group_of(1, big - 1), big - 1);
  EXPECT_NE(wide.copy_of(1, big - 1), wide.copy_of(1, wide.group_of(0, big - 1)));
}

TEST(PlannerBudget, RoundsNeededEdges) {
  EXPECT_EQ(rounds_needed(0, 2), 0u);
  EXPECT_EQ(rounds_needed(1, 2), 0u);
  EXPECT_EQ(rounds_needed(2, 2), 1u);
  EXPECT_EQ(rounds_needed(3, 2), 2u);
  EXPECT_EQ(rounds_needed(4, 2), 2u);
  EXPECT_EQ(rounds_needed(5, 2), 3u);
  EXPECT_EQ(rounds_needed(961, 31), 2u);
  EXPECT_EQ(rounds_needed(962, 31), 3u);
  EXPECT_EQ(rounds_needed(kU64Max, 2), 64u);            // 2^64 saturates to UINT64_MAX >= units
  EXPECT_EQ(rounds_needed((uint64_t{1} << 63) + 1, 2), 64u);
  EXPECT_EQ(rounds_needed(uint64_t{1} << 63, 2), 63u);
  EXPECT_EQ(rounds_needed(kU64Max, kU64Max), 1u);
  EXPECT_EQ(rounds_needed(1000000000000000000ull, 10000000000ull), 2u);  // 1e20 saturates
  EXPECT_EQ(detection_probability(kU64Max, 2, 64), 1.0);
  EXPECT_EQ(detection_probability(kU64Max, kU64Max, 1), 1.0);
  EXPECT_EQ(detection_probability(960, 2, 0), 0.0);  // no round, nothing checked
  EXPECT_EQ(detection_probability(2, 2, 1), 1.0);
  const double p = detection_probability(kU64Max, 2, 63);
  EXPECT_LE(p, 1.0);
  EXPECT_GT(p, 0.99);
}

TEST(PlannerBudget, BudgetSweep) {
  // plan_for_budget picks the largest M that fits and never exceeds the budget.
  for (const uint32_t units : {2u, 3u, 17u, 960u}) {
    for (const uint64_t c : {uint64_t{1}, uint64_t{7}, uint64_t{4096}}) {
      for (uint64_t budget = 0; budget <= c * (units + 5); budget += std::max<uint64_t>(1, c / 3)) {
        const auto plan = plan_for_budget(units, c, budget);
        if (budget / c < 3) {
          EXPECT_FALSE(plan.has_value());
          continue;
        }
        ASSERT_TRUE(plan.has_value());
        EXPECT_EQ(plan->copies(), std::min<uint64_t>(units, budget / c - 1));
        EXPECT_LE(plan_bytes(*plan, c), budget);
        if (plan->copies() < units) {
          EXPECT_GT(plan_bytes(*plan, c) + c, budget);  // maximal: one more copy would not fit
        }
        EXPECT_EQ(plan->rounds(), rounds_needed(units, plan->copies()));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// 5. copy_table and units_in_copy.

TEST(PlannerTables, CopyTableAndUnitsInCopyPartition) {
  const std::vector<std::pair<uint32_t, uint32_t>> cases = {
      {2, 2}, {3, 2}, {8, 2}, {37, 5}, {100, 7}, {960, 31}, {960, 2}, {961, 31}, {50, 49}};
  for (const auto& [n, m] : cases) {
    const CheckPlan plan(n, m);
    for (uint32_t r = 0; r < plan.rounds(); ++r) {
      SCOPED_TRACE("N=" + std::to_string(n) + " M=" + std::to_string(m) + " round=" + std::to_string(r));
      const std::vector<uint32_t> table = plan.copy_table(r);
      ASSERT_EQ(table.size(), n);
      for (uint32_t u = 0; u < n; ++u) {
        ASSERT_EQ(table[u], plan.copy_of(r, u));
        ASSERT_LT(table[u], plan.copies());
      }
      std::vector<uint32_t> seen(n, 0);
      uint64_t total = 0;
      for (uint32_t c = 0; c < plan.copies(); ++c) {
        const std::vector<uint32_t> members = plan.units_in_copy(r, c);
        ASSERT_TRUE(std::is_sorted(members.begin(), members.end()));
        for (const uint32_t u : members) {
          ASSERT_LT(u, n);
          ASSERT_EQ(table[u], c);
          ++seen[u];
        }
        total += members.size();
      }
      EXPECT_EQ(total, n);
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](uint32_t s) { return s == 1; }));
    }
  }
}

TEST(PlannerTables, OutOfRangeArgumentsThrow) {
  const CheckPlan plan(960, 31);
  EXPECT_THROW(plan.copy_of(2, 0), std::out_of_range);
  EXPECT_THROW(plan.copy_of(0, 960), std::out_of_range);
  EXPECT_THROW(plan.group_of(2, 0), std::out_of_range);
  EXPECT_THROW(plan.copy_table(2), std::out_of_range);
  EXPECT_THROW(plan.units_in_copy(2, 0), std::out_of_range);
  EXPECT_THROW(plan.units_in_copy(0, 31), std::out_of_range);
  EXPECT_NO_THROW(plan.units_in_copy(1, 30));
}

// ---------------------------------------------------------------------------------------------------
// 6. The cheapest number of copies (level B: fewer copies in more rounds when copying costs more
//    than a round's executions, launches and synchronization), with times measured on an H100
//    (bench/results/ab-h100-2026-11-24T0350Z, eval-quick-h100-2026-11-24T0409Z).

TEST(PlannerCost, ManyBlocksOfLargeCopiesTakeTwoRounds) {
  // scan's prescan: 256 blocks, a round ~200 us besides its copies, ~2.5 us of checks per 1 MiB copy.
  // 1 round: 200 + 256*2.5 = 840; 2 rounds of 16: 2*(200 + 40) = 480; 3 of 7: 3*(200 + 17.5) = 652.5.
  EXPECT_EQ(cheapest_copies(256, 256, 200.0, 2.5), 16u);
  EXPECT_EQ(CheckPlan(256, 16).rounds(), 2u);
  // histogram64: 2067 blocks, ~330 us per round, ~0.55 us per copy: 46 copies (45^2 < 2067 <= 46^2).
  EXPECT_EQ(cheapest_copies(2067, 2067, 330.0, 0.55), 46u);
  EXPECT_EQ(rounds_needed(2067, 46), 2u);
  EXPECT_EQ(rounds_needed(2067, 45), 3u);
}

TEST(PlannerCost, FewBlocksOrCostlyRoundsKeepOneRound) {
  // bfs: 16 blocks of 8.8 MB copies (~4 us each), rounds of ~100 us of launches and synchronization
  // around a kernel of a few microseconds: 100 + 16*4 = 164 against 2*(100 + 4*4) = 232.
  EXPECT_EQ(cheapest_copies(16, 16, 100.0, 4.0), 16u);
  // b+tree: 8 blocks whose executions (2 x 27 ms) dwarf their copies.
  EXPECT_EQ(cheapest_copies(8, 8, 54000.0, 1.0), 8u);
  // Copies that cost nothing: one round is always cheapest.
  EXPECT_EQ(cheapest_copies(4096, 4096, 10.0, 0.0), 4096u);
  // Nothing to split.
  EXPECT_EQ(cheapest_copies(2, 2, 1.0, 1000.0), 2u);
  EXPECT_EQ(cheapest_copies(1, 5, 1.0, 1000.0), 1u);
}

TEST(PlannerCost, NeverMoreThanMemoryAllowsAndOnlyWhenClearlyCheaper) {
  // The memory plan's copies bound the answer (clamped to units too).
  EXPECT_EQ(cheapest_copies(100, 500, 1.0, 0.0), 100u);
  for (uint32_t max : {3u, 10u, 50u, 256u}) {
    const uint32_t m = cheapest_copies(256, max, 200.0, 2.5);
    EXPECT_LE(m, max);
    EXPECT_GE(m, 2u);
  }
  // 1 round: 200 + 16*10 = 360; 2 rounds of 4: 2*(200 + 40) = 480: stays at 16.
  EXPECT_EQ(cheapest_copies(16, 16, 200.0, 10.0), 16u);
  // 1 round: 20 + 16*10 = 180; 2 rounds of 4: 2*(20 + 40) = 120 (33% cheaper): 4 copies, but not
  // with a margin of 40%.
  EXPECT_EQ(cheapest_copies(16, 16, 20.0, 10.0), 4u);
  EXPECT_EQ(cheapest_copies(16, 16, 20.0, 10.0, 0.4), 16u);
}

}  // namespace
}  // namespace ldcc
