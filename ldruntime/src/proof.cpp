// Launch-time proofs of race freedom (ldcc/proof.h): the decision over the translator's affine forms.
#include "ldcc/proof.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>

namespace ldcc::rt::proof {
namespace {

// Beyond this a form's coefficients or bounds are not trusted to stay exact in 128-bit sums.
constexpr long long kLimit = 1ll << 40;

bool is_thread_var(int var) { return var < kFirstLoop; }
bool is_block_var(int var) { return var >= kBidX && var < kFirstLoop; }

long long coeff_of(const Form& f, int var) {
  long long c = 0;
  for (const Term& t : f.terms)
    if (t.var == var) c += t.coeff;
  return c;
}

}  // namespace

void form_range(const Form& f, const long long lo[], const long long hi[], __int128& min, __int128& max) {
  min = max = f.constant;
  for (const Term& t : f.terms) {
    const __int128 a = __int128(t.coeff) * lo[t.var], b = __int128(t.coeff) * hi[t.var];
    min += std::min(a, b);
    max += std::max(a, b);
  }
}

bool injective(std::vector<std::pair<long long, long long>> coeff_and_size) {
  for (auto& [c, size] : coeff_and_size) c = std::llabs(c);
  std::sort(coeff_and_size.begin(), coeff_and_size.end());
  __int128 reach = 0;  // the most the smaller terms can differ by
  for (const auto& [c, size] : coeff_and_size) {
    if (size <= 1) continue;
    if (__int128(c) <= reach) return false;
    reach += __int128(c) * (size - 1);
  }
  return true;
}

Proof::Proof(const ProofInput& in) : in_(in) {}

int Proof::pointer_root(int param) {
  roots_.push_back({false, param});
  return int(roots_.size()) - 1;
}

int Proof::shared_root() {
  roots_.push_back({true, -1});
  return int(roots_.size()) - 1;
}

void Proof::pointer_params(std::initializer_list<int> params) { pointer_params_.assign(params.begin(), params.end()); }

bool Proof::default_bounds(long long lo[kMaxVars], long long hi[kMaxVars]) const {
  for (int v = 0; v < kMaxVars; ++v) lo[v] = hi[v] = 0;
  const unsigned extents[] = {in_.block.x, in_.block.y, in_.block.z, in_.grid.x, in_.grid.y, in_.grid.z};
  for (int v = 0; v < kFirstLoop; ++v) hi[v] = (long long)extents[v] - 1;
  for (int v = kFirstLoop; v < kMaxVars; ++v)
    if (has_trips_[v]) hi[v] = trips_[v] - 1;
  return true;
}

void Proof::loop(int var, const Form& from, const Form& to, long long step, bool inclusive) {
  if (var < kFirstLoop || var >= kMaxVars || step <= 0 || step > kLimit) {
    failed_ = true;
    return;
  }
  long long lo[kMaxVars], hi[kMaxVars];
  default_bounds(lo, hi);
  __int128 from_min, from_max, to_min, to_max;
  form_range(from, lo, hi, from_min, from_max);
  form_range(to, lo, hi, to_min, to_max);
  const __int128 span = to_max - from_min;  // the most any thread's loop can cover
  __int128 trips = 0;
  if (inclusive) trips = span >= 0 ? span / step + 1 : 0;
  else trips = span > 0 ? (span + step - 1) / step : 0;
  if (trips > kLimit) failed_ = true;
  trips_[var] = (long long)std::min<__int128>(trips, kLimit);
  has_trips_[var] = true;
}

void Proof::access(int root, Access kind, int phase, bool known, const Form& index, std::initializer_list<Bound> bounds) {
  if (root < 0 || root >= int(roots_.size())) {
    failed_ = true;
    return;
  }
  Family f{root, kind, phase, known, index, {}, {}};
  default_bounds(f.lo, f.hi);
  for (const Bound& b : bounds) {
    if (b.var < 0 || b.var >= kMaxVars) {
      failed_ = true;
      return;
    }
    f.lo[b.var] = std::max(f.lo[b.var], b.lo);
    f.hi[b.var] = std::min(f.hi[b.var], b.hi);
  }
  for (const Term& t : index.terms)
    if (t.var < 0 || t.var >= kMaxVars || std::llabs(t.coeff) > kLimit) failed_ = true;
  if (std::llabs(index.constant) > kLimit) failed_ = true;
  families_.push_back(f);
}

void Proof::representable(const Form& value, long long lo, long long hi) { checks_.push_back({value, lo, hi}); }

// Two accesses of one root by two different threads never meet on an element: the same coefficients
// (one form shifted by a constant, itself a digit of the mixed radix), or value ranges apart.
bool Proof::pair_holds(const Family& a, const Family& b, bool shared) {
  bool same = true;
  for (int v = 0; v < kMaxVars && same; ++v) same = coeff_of(a.index, v) == coeff_of(b.index, v);
  if (same) {
    std::vector<std::pair<long long, long long>> digits;
    for (int v = 0; v < kMaxVars; ++v) {
      if (shared && is_block_var(v)) continue;  // fixed within the block the variable lives in
      const long long c = coeff_of(a.index, v);
      const long long lo = std::min(a.lo[v], b.lo[v]), hi = std::max(a.hi[v], b.hi[v]);
      if (hi <= lo) continue;
      if (c == 0 && !is_thread_var(v)) continue;  // one thread's own iterations
      digits.push_back({c, hi - lo + 1});
    }
    const long long shift = b.index.constant - a.index.constant;
    if (shift != 0) digits.push_back({shift, 2});
    return injective(digits);
  }
  __int128 a_min, a_max, b_min, b_max;
  form_range(a.index, a.lo, a.hi, a_min, a_max);
  form_range(b.index, b.lo, b.hi, b_min, b_max);
  return a_max < b_min || b_max < a_min;
}

// `split`: the shared-memory form of a broadcast, every access before the first top-level barrier
// race-free among themselves and nothing but reads after it.
bool Proof::root_holds(int root, bool split) const {
  std::vector<const Family*> checked;
  for (const Family& f : families_) {
    if (f.root != root) continue;
    bool dead = false;
    for (int v = 0; v < kMaxVars; ++v) dead = dead || f.lo[v] > f.hi[v];
    if (dead) continue;
    if (split) {
      if (f.phase < 0) return false;
      if (f.phase == 1) {
        if (f.kind != kRead) return false;
        continue;
      }
    }
    if (!f.known) return false;
    checked.push_back(&f);
  }
  const bool shared = roots_[root].shared;
  for (size_t i = 0; i < checked.size(); ++i)
    for (size_t j = i; j < checked.size(); ++j) {
      const Family& a = *checked[i];
      const Family& b = *checked[j];
      if (a.kind == kRead && b.kind == kRead) continue;
      if (a.kind == kAtomic && b.kind == kAtomic) continue;
      if (i == j && a.kind != kWrite) continue;  // one access by two threads: only stores race
      if (!pair_holds(a, b, shared)) return false;
    }
  return true;
}

bool Proof::holds(const AllocationLookup& lookup) const {
  if (failed_) return false;
  long long lo[kMaxVars], hi[kMaxVars];
  default_bounds(lo, hi);
  for (const Check& c : checks_) {
    __int128 min, max;
    form_range(c.value, lo, hi, min, max);
    if (min < c.lo || max > c.hi) return false;
  }
  std::map<int, const void*> allocation;  // parameter -> its allocation's base
  const auto base_of = [&](int param, const void*& base) {
    if (auto it = allocation.find(param); it != allocation.end()) return (base = it->second) != nullptr;
    const void* pointer = arg<const void*>(in_, param);
    size_t bytes = 0;
    base = nullptr;
    if (pointer && !lookup(pointer, base, bytes)) base = nullptr;
    allocation[param] = base;
    return base != nullptr;
  };
  for (int r = 0; r < int(roots_.size()); ++r) {
    const bool written = std::any_of(families_.begin(), families_.end(),
                                     [&](const Family& f) { return f.root == r && f.kind != kRead; });
    if (!written) continue;
    if (!root_holds(r, false) && !(roots_[r].shared && root_holds(r, true))) return false;
    if (roots_[r].shared) continue;
    // Alone in its allocation: no other pointer argument can reach what the forms describe.
    const void* mine = nullptr;
    if (!base_of(roots_[r].param, mine)) return false;
    for (int q : pointer_params_) {
      if (q == roots_[r].param || arg<const void*>(in_, q) == nullptr) continue;
      const void* other = nullptr;
      if (!base_of(q, other) || other == mine) return false;
    }
  }
  return true;
}

}  // namespace ldcc::rt::proof
