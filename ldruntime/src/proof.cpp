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

Proof::Proof(const ProofInput& in) : in_(in) {
  for (int& v : current_loop_) v = -1;
}

int Proof::pointer_root(int param) {
  roots_.push_back({false, param});
  return int(roots_.size()) - 1;
}

int Proof::shared_root() {
  roots_.push_back({true, -1});
  return int(roots_.size()) - 1;
}

void Proof::pointer_params(std::initializer_list<int> params) { pointer_params_.assign(params.begin(), params.end()); }

void Proof::default_bounds(long long lo[kMaxVars], long long hi[kMaxVars]) const {
  for (int v = 0; v < kMaxVars; ++v) lo[v] = hi[v] = 0;
  const unsigned extents[] = {in_.block.x, in_.block.y, in_.block.z, in_.grid.x, in_.grid.y, in_.grid.z};
  for (int v = 0; v < kFirstLoop; ++v) hi[v] = (long long)extents[v] - 1;
  for (int v = kFirstLoop; v < kMaxVars; ++v)
    if (has_trips_[v]) hi[v] = trips_[v] - 1;
}

bool Proof::trip() {
  if (++mirrored_trips_ <= kMaxMirroredTrips) return true;
  failed_ = true;
  return false;
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
  LoopValue value{from, (long long)std::max<__int128>(from_min, -kLimit),
                  (long long)std::min<__int128>(inclusive ? to_max : to_max - 1, kLimit)};
  value.value.terms.push_back({var, step});
  loop_values_.push_back(value);
  current_loop_[var] = int(loop_values_.size()) - 1;
}

void Proof::index_range(const Family& f, __int128& min, __int128& max) const {
  form_range(f.index, f.lo, f.hi, min, max);
  for (int v = kFirstLoop; v < kMaxVars; ++v) {
    const long long c = coeff_of(f.index, v);
    if (c == 0 || f.loop_value[v] < 0) continue;
    // index = a * value + rest, value in [lo, hi]: a sound range too, often a tighter one.
    const LoopValue& loop = loop_values_[f.loop_value[v]];
    const long long step = coeff_of(loop.value, v);
    if (step == 0 || c % step != 0) continue;
    const long long a = c / step;
    Form rest = f.index;
    for (const Term& t : loop.value.terms) {
      if (std::llabs(t.coeff) > kLimit || std::llabs(a) > kLimit) return;
      rest.terms.push_back({t.var, -a * t.coeff});
    }
    rest.constant -= a * loop.value.constant;
    // One term per variable, so that what cancels adds nothing to the range.
    std::map<int, long long> merged;
    for (const Term& t : rest.terms) merged[t.var] += t.coeff;
    rest.terms.clear();
    for (const auto& [var, coeff] : merged)
      if (coeff != 0) rest.terms.push_back({var, coeff});
    __int128 rest_min, rest_max;
    form_range(rest, f.lo, f.hi, rest_min, rest_max);
    const __int128 x = __int128(a) * loop.lo, y = __int128(a) * loop.hi;
    min = std::max(min, rest_min + std::min(x, y));
    max = std::min(max, rest_max + std::max(x, y));
  }
}

bool Proof::ranges_apart(const Family& a, const Family& b) const {
  __int128 a_min, a_max, b_min, b_max;
  index_range(a, a_min, a_max);
  index_range(b, b_min, b_max);
  return a_max < b_min || b_max < a_min;
}

// A family's bounds: every variable's launch range, narrowed by the access's guards (multiples of a
// stride from lo rounded up: variables are never negative).
void Proof::begin_family(Family& f, std::initializer_list<Bound> bounds) {
  default_bounds(f.lo, f.hi);
  for (int v = 0; v < kMaxVars; ++v) f.stride[v] = 1, f.loop_value[v] = current_loop_[v];
  for (const Bound& b : bounds) {
    if (b.var < 0 || b.var >= kMaxVars) {
      failed_ = true;
      return;
    }
    f.lo[b.var] = std::max(f.lo[b.var], b.lo);
    f.hi[b.var] = std::min(f.hi[b.var], b.hi);
    if (b.stride > 1 && b.stride <= kLimit && f.stride[b.var] == 1) f.stride[b.var] = b.stride;
  }
  for (int v = 0; v < kMaxVars; ++v) {
    const long long m = f.stride[v];
    if (m == 1 || f.lo[v] > f.hi[v]) continue;
    f.lo[v] = (f.lo[v] + m - 1) / m * m;
    f.hi[v] = f.hi[v] / m * m;
  }
}

void Proof::access(int root, Access kind, bool known, const Form& index, std::initializer_list<Bound> bounds) {
  if (root < 0 || root >= int(roots_.size()) || families_.size() >= kMaxFamilies) {
    failed_ = true;
    return;
  }
  Family f{root, kind, epoch_, known, index, {}, {}, {}, {}};
  begin_family(f, bounds);
  for (const Term& t : index.terms)
    if (t.var < 0 || t.var >= kMaxVars || std::llabs(t.coeff) > kLimit) failed_ = true;
  if (std::llabs(index.constant) > kLimit) failed_ = true;
  families_.push_back(std::move(f));
}

void Proof::enumerated(int root, Access kind, const ThreadAccess& at, std::initializer_list<Bound> bounds) {
  if (root < 0 || root >= int(roots_.size()) || !roots_[root].shared || families_.size() >= kMaxFamilies) {
    failed_ = true;
    return;
  }
  Family f{root, kind, epoch_, true, Form{}, {}, {}, {}, {}};
  begin_family(f, bounds);
  f.enumerated = true;
  bool dead = false;
  for (int v = kBidX; v < kMaxVars; ++v) dead = dead || f.lo[v] > f.hi[v];
  if (!dead && !failed_) {
    const unsigned bx = in_.block.x, by = in_.block.y;
    for (long long z = f.lo[kTidZ]; z <= f.hi[kTidZ] && !failed_; z += f.stride[kTidZ])
      for (long long y = f.lo[kTidY]; y <= f.hi[kTidY] && !failed_; y += f.stride[kTidY])
        for (long long x = f.lo[kTidX]; x <= f.hi[kTidX] && !failed_; x += f.stride[kTidX]) {
          long long element = 0;
          bool ok = true;
          const bool makes = at(Thread{unsigned(x), unsigned(y), unsigned(z)}, element, ok);
          if (!ok || ++enumerated_points_ > kMaxEnumeratedPoints) failed_ = true;
          else if (makes) f.points.push_back({element, int((z * by + y) * bx + x)});
        }
  }
  families_.push_back(std::move(f));
}

void Proof::representable(const Form& value, long long lo, long long hi) { checks_.push_back({value, lo, hi}); }

namespace {

// The values variable v takes in both families: their union, as a digit's step (the stride both
// share, else 1) and count; count 0 when it takes a single value.
std::pair<long long, long long> union_digit(const long long alo[], const long long ahi[], const long long astride[],
                                            const long long blo[], const long long bhi[], const long long bstride[], int v) {
  const long long lo = std::min(alo[v], blo[v]), hi = std::max(ahi[v], bhi[v]);
  if (hi <= lo) return {1, 0};
  const long long m = astride[v] == bstride[v] ? astride[v] : 1;
  return {m, (hi - lo) / m + 1};
}

}  // namespace

// Two accesses of one root by two different threads never meet on an element: the same coefficients
// (one form shifted by a constant, itself a digit of the mixed radix), or value ranges apart.
bool Proof::pair_holds(const Family& a, const Family& b, bool shared) const {
  bool same = true;
  for (int v = 0; v < kMaxVars && same; ++v) same = coeff_of(a.index, v) == coeff_of(b.index, v);
  if (same) {
    std::vector<std::pair<long long, long long>> digits;
    for (int v = 0; v < kMaxVars; ++v) {
      if (shared && is_block_var(v)) continue;  // fixed within the block the variable lives in
      const long long c = coeff_of(a.index, v);
      const auto [step, count] = union_digit(a.lo, a.hi, a.stride, b.lo, b.hi, b.stride, v);
      if (count == 0) continue;
      if (c == 0 && !is_thread_var(v)) continue;  // one thread's own iterations
      digits.push_back({c * step, count});
    }
    const long long shift = b.index.constant - a.index.constant;
    if (shift != 0) digits.push_back({shift, 2});
    if (injective(digits)) return true;
  }
  return ranges_apart(a, b);
}

// Two accesses of global memory in different epochs: threads of one block are apart (a barrier
// separates them), so only threads of two blocks must never meet. With the same coefficients of the
// block indices these are digits above the reach of everything else (threads, loops, constants).
bool Proof::blocks_apart(const Family& a, const Family& b) const {
  bool same = true;
  for (int v = kBidX; v < kFirstLoop && same; ++v) same = coeff_of(a.index, v) == coeff_of(b.index, v);
  if (same) {
    // The rest of each form: its range over its own bounds.
    const auto rest_range = [](const Family& f, __int128& min, __int128& max) {
      Form rest{f.index.constant, {}};
      for (const Term& t : f.index.terms)
        if (!is_block_var(t.var)) rest.terms.push_back(t);
      form_range(rest, f.lo, f.hi, min, max);
    };
    __int128 a_min, a_max, b_min, b_max;
    rest_range(a, a_min, a_max);
    rest_range(b, b_min, b_max);
    const __int128 reach = std::max(a_max, b_max) - std::min(a_min, b_min);
    if (reach > kLimit) return ranges_apart(a, b);
    std::vector<std::pair<long long, long long>> digits;
    for (int v = kBidX; v < kFirstLoop; ++v) {
      const auto [step, count] = union_digit(a.lo, a.hi, a.stride, b.lo, b.hi, b.stride, v);
      if (count > 0) digits.push_back({coeff_of(a.index, v) * step, count});
    }
    if (reach > 0) digits.push_back({1, (long long)reach + 1});
    if (injective(digits)) return true;
  }
  return ranges_apart(a, b);
}

// Every pair of accesses of the root that may meet with a write between them is apart: in shared
// memory those of one epoch, in global memory those of one epoch between any two threads and those of
// different epochs between two blocks.
bool Proof::root_holds(int root) const {
  std::vector<const Family*> checked;
  for (const Family& f : families_) {
    if (f.root != root) continue;
    bool dead = false;
    for (int v = 0; v < kMaxVars; ++v) dead = dead || f.lo[v] > f.hi[v];
    if (!dead) checked.push_back(&f);
  }
  const bool shared = roots_[root].shared;
  if (!shared && checked.size() > kMaxGlobalFamiliesPerRoot) return false;
  // Families are recorded in epoch order: those of one epoch are consecutive.
  for (size_t i = 0; i < checked.size(); ++i) {
    if (shared && (i == 0 || checked[i - 1]->epoch != checked[i]->epoch)) {
      std::vector<const Family*> epoch;
      for (size_t j = i; j < checked.size() && checked[j]->epoch == checked[i]->epoch; ++j) epoch.push_back(checked[j]);
      if (std::any_of(epoch.begin(), epoch.end(), [](const Family* f) { return f->enumerated; })) {
        if (!epoch_points_hold(epoch)) return false;
        i += epoch.size() - 1;
        continue;
      }
    }
    for (size_t j = i; j < checked.size(); ++j) {
      const Family& a = *checked[i];
      const Family& b = *checked[j];
      const bool same_epoch = a.epoch == b.epoch;
      if (shared && !same_epoch) break;
      if (a.kind == kRead && b.kind == kRead) continue;
      if (a.kind == kAtomic && b.kind == kAtomic) continue;
      if (i == j && a.kind != kWrite) continue;  // one access by two threads: only stores race
      if (!a.known || !b.known) return false;
      if (!(same_epoch ? pair_holds(a, b, shared) : blocks_apart(a, b))) return false;
    }
  }
  return true;
}

namespace {

// The threads that touch one element, by kind: the first one and whether there is another.
struct Touchers {
  int first = -1;
  bool more = false;
  void add(int thread) {
    if (first < 0) first = thread;
    else if (thread != first) more = true;
  }
  bool any() const { return first >= 0; }
  // Some thread of these is not `thread`.
  bool other_than(int thread) const { return more || (first >= 0 && first != thread); }
};

}  // namespace

bool Proof::epoch_points_hold(const std::vector<const Family*>& epoch) const {
  // Indices the forms could not say meet only accesses they cannot race with.
  for (const Family* u : epoch) {
    if (u->known) continue;
    for (const Family* f : epoch) {
      if (f == u) {
        if (u->kind == kWrite) return false;
        continue;
      }
      if (!(u->kind == kRead && f->kind == kRead) && !(u->kind == kAtomic && f->kind == kAtomic)) return false;
    }
  }
  struct Point {
    long long element;
    int thread;
    Access kind;
    bool operator<(const Point& o) const { return element < o.element; }
  };
  std::vector<Point> points;
  const long long bx = in_.block.x, by = in_.block.y;
  for (const Family* f : epoch) {
    if (!f->known) continue;
    if (f->enumerated) {
      for (const auto& [element, thread] : f->points) points.push_back({element, thread, f->kind});
      continue;
    }
    // An affine family: every thread's every value (the block's own indices are fixed, the loops' all).
    std::vector<int> loops;
    __int128 count = 1;
    for (int v = 0; v < kMaxVars; ++v) {
      const long long c = coeff_of(f->index, v);
      if (c == 0) continue;
      if (is_block_var(v)) return false;
      const __int128 values = (f->hi[v] - f->lo[v]) / f->stride[v] + 1;
      count *= values;
      if (count > __int128(kMaxEnumeratedPoints)) return false;
      if (!is_thread_var(v)) loops.push_back(v);
    }
    long long value[kMaxVars];
    for (int v = 0; v < kMaxVars; ++v) value[v] = f->lo[v];
    const auto element = [&]() {
      long long e = f->index.constant;
      for (const Term& t : f->index.terms) e += t.coeff * value[t.var];
      return e;
    };
    for (value[kTidZ] = f->lo[kTidZ]; value[kTidZ] <= f->hi[kTidZ]; value[kTidZ] += f->stride[kTidZ])
      for (value[kTidY] = f->lo[kTidY]; value[kTidY] <= f->hi[kTidY]; value[kTidY] += f->stride[kTidY])
        for (value[kTidX] = f->lo[kTidX]; value[kTidX] <= f->hi[kTidX]; value[kTidX] += f->stride[kTidX]) {
          const int thread = int((value[kTidZ] * by + value[kTidY]) * bx + value[kTidX]);
          for (int v : loops) value[v] = f->lo[v];
          while (true) {
            points.push_back({element(), thread, f->kind});
            if (points.size() > kMaxEnumeratedPoints) return false;
            size_t k = 0;  // the next combination of the loops' counters, as an odometer
            for (; k < loops.size(); ++k) {
              value[loops[k]] += f->stride[loops[k]];
              if (value[loops[k]] <= f->hi[loops[k]]) break;
              value[loops[k]] = f->lo[loops[k]];
            }
            if (k == loops.size()) break;
          }
        }
  }
  std::sort(points.begin(), points.end());
  for (size_t i = 0; i < points.size();) {
    size_t j = i;
    Touchers writers, readers, atomics;
    for (; j < points.size() && points[j].element == points[i].element; ++j)
      (points[j].kind == kWrite ? writers : points[j].kind == kRead ? readers : atomics).add(points[j].thread);
    if (writers.more) return false;
    if (writers.any() && (readers.other_than(writers.first) || atomics.other_than(writers.first))) return false;
    if (readers.any() && atomics.any() && (readers.more || atomics.more || readers.first != atomics.first)) return false;
    i = j;
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
    if (!root_holds(r)) return false;
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
