// Launch-time proofs of race freedom (the LD paper, section 5.1: variables "with affine array indices
// that can be easily analyzed statically" need no checking; with the launch's values, as HGRD argues,
// the analysis is exact where a purely static one must guess).
//
// The translator (translator/rewrite/AffineProof.h) describes every access of a kernel to the memory
// it writes as an affine form over the thread's indices and the kernels' loop counters, with
// coefficients that depend only on the launch (its grid, block and scalar arguments), and emits a
// host function that fills a Proof from the launch's values. When the Proof holds, no two threads of
// the launch can touch one element with at least one plain write between them, so the launch runs the
// original kernel: a race-free result, the native speed. When it does not hold the launch is checked
// as any other. A proof is sound or absent: anything the forms cannot say keeps the kernel checked.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace ldcc::rt::proof {

// The variables of a form: the thread's indices, then one trip counter per loop (kFirstLoop + n).
enum Var : int { kTidX, kTidY, kTidZ, kBidX, kBidY, kBidZ, kFirstLoop };
constexpr int kMaxVars = 24;

enum Access : int { kRead, kWrite, kAtomic };

struct Term {
  int var;
  long long coeff;
};

// constant + sum of coeff * var.
struct Form {
  long long constant = 0;
  std::vector<Term> terms;
};

// An inclusive interval of a variable, of its multiples of `stride` (a guard `v % m == 0`) when that
// is above 1; an empty one (lo > hi) means the access never runs.
struct Bound {
  int var;
  long long lo, hi;
  long long stride = 1;
};

// The launch, as launch_kernel sees it: args[1 + i] points to parameter i (args[0] is the LaunchCtx).
struct ProofInput {
  dim3 grid, block;
  void** args;
};

template <typename T>
T arg(const ProofInput& in, int param) {
  T value;
  std::memcpy(&value, in.args[1 + param], sizeof value);
  return value;
}

// a / b and a % b in the kernel's types, for the launch values the translator evaluates: a division
// the device would trap on makes the proof fail instead of the host.
template <typename A, typename B>
auto quotient(A a, B b, bool& ok) -> decltype(a / b) {
  using R = decltype(a / b);
  if (b == 0 || (R(b) == R(-1) && R(-1) < R(0) && R(a) == std::numeric_limits<R>::min())) {
    ok = false;
    return R(0);
  }
  return a / b;
}
template <typename A, typename B>
auto remainder(A a, B b, bool& ok) -> decltype(a % b) {
  using R = decltype(a % b);
  if (b == 0 || (R(b) == R(-1) && R(-1) < R(0) && R(a) == std::numeric_limits<R>::min())) {
    ok = false;
    return R(0);
  }
  return a % b;
}
// a << b and a >> b: a shift count the type does not hold makes the proof fail (the host and the
// device disagree there).
template <typename A, typename B>
bool shift_fits(B b) {
  using R = decltype(+A());
  if constexpr (std::is_signed_v<B>)
    if (b < 0) return false;
  return (unsigned long long)b < sizeof(R) * 8;
}
template <typename A, typename B>
auto shift_left(A a, B b, bool& ok) -> decltype(a << b) {
  if (!shift_fits<A>(b)) {
    ok = false;
    return 0;
  }
  return a << b;
}
template <typename A, typename B>
auto shift_right(A a, B b, bool& ok) -> decltype(a >> b) {
  if (!shift_fits<A>(b)) {
    ok = false;
    return 0;
  }
  return a >> b;
}

// A thread of a block, for an access whose index the forms cannot say but the host can compute.
struct Thread {
  unsigned x, y, z;
};
// Whether thread t makes the access (the conditions around it hold), and at which element; `ok`
// false: the host cannot evaluate it as the device would (a division by zero, too wide a shift).
using ThreadAccess = std::function<bool(const Thread& t, long long& index, bool& ok)>;

// The allocation [base, base + bytes) a device pointer points into; false when the driver knows none.
using AllocationLookup = std::function<bool(const void* pointer, const void*& base, size_t& bytes)>;

class Proof {
 public:
  explicit Proof(const ProofInput& in);

  // Memory the kernel writes: a pointer parameter, or a __shared__ variable (per block: only the
  // threads of one block meet there, and blockIdx does not appear in its forms).
  int pointer_root(int param);
  int shared_root();
  // Every pointer parameter of the kernel: the written ones must each be alone in their allocation.
  void pointer_params(std::initializer_list<int> params);

  // Loop counter `var` counts the iterations of `for (v = from; v < to (or <= to); v += step)`.
  // Its trips are bounded over every value `from` and `to` can take.
  void loop(int var, const Form& from, const Form& to, long long step, bool inclusive);

  // A __syncthreads() every thread of a block reaches in the same order: the translator calls it
  // where the kernel's barriers are, inside host copies of the launch-uniform loops and ifs around
  // them, so that accesses between the same two barriers share an epoch. Two threads of one block
  // meet only within an epoch; threads of two blocks in any.
  void barrier() { ++epoch_; }
  // One more trip of such a host copy of a loop: false, and the proof fails, past kMaxMirroredTrips.
  bool trip();

  // One access, in the current epoch. `known` false: an index the forms could not describe (a read of
  // shared memory no thread of the block writes in that epoch is still race-free). `bounds`: the
  // guards of the access (if (tid == 0)).
  void access(int root, Access kind, bool known, const Form& index, std::initializer_list<Bound> bounds);

  // An access of shared memory whose index is a function of threadIdx and the launch's values that is
  // not affine (i + (i >> 5), tid >> 5 under (tid & 31) == 0): evaluated here for every thread of a
  // block within `bounds`, and its elements compared exactly with those of the other accesses of its
  // epoch. Past kMaxEnumeratedPoints in all the proof fails.
  void enumerated(int root, Access kind, const ThreadAccess& at, std::initializer_list<Bound> bounds);

  // The C value of a sub-expression equals the form's exact value only within [lo, hi] (the source and
  // destination types of an integer conversion, the type of an index).
  void representable(const Form& value, long long lo, long long hi);

  // Whether the proof holds for this launch; `lookup` finds the allocation of each pointer parameter.
  bool holds(const AllocationLookup& lookup) const;

 private:
  struct Family {
    int root;
    Access kind;
    int epoch;
    bool known;
    Form index;
    long long lo[kMaxVars], hi[kMaxVars];  // inclusive bounds of every variable for this access
    long long stride[kMaxVars];            // the variable takes the multiples of it in [lo, hi]
    int loop_value[kMaxVars];              // per loop counter: its loop_values_ entry, or -1
    bool enumerated = false;               // `points` hold its elements, not `index`
    std::vector<std::pair<long long, int>> points;  // (element, thread of the block)
  };
  struct Root {
    bool shared;
    int param;
  };
  struct Check {
    Form value;
    long long lo, hi;
  };
  void default_bounds(long long lo[kMaxVars], long long hi[kMaxVars]) const;
  bool root_holds(int root) const;
  bool pair_holds(const Family& a, const Family& b, bool shared) const;
  bool blocks_apart(const Family& a, const Family& b) const;
  // The values of a family's index: its form's range, narrowed by the conditions of the loops it is
  // in (a loop variable stays below the loop's bound however the trips are counted).
  void index_range(const Family& f, __int128& min, __int128& max) const;
  bool ranges_apart(const Family& a, const Family& b) const;
  void begin_family(Family& f, std::initializer_list<Bound> bounds);
  // Shared memory, the families of one epoch, some enumerated: every element any two threads touch
  // with a write between them, found exactly; affine families are enumerated too.
  bool epoch_points_hold(const std::vector<const Family*>& epoch) const;

  const ProofInput& in_;
  bool failed_ = false;
  std::vector<Root> roots_;
  std::vector<int> pointer_params_;
  long long trips_[kMaxVars] = {};
  bool has_trips_[kMaxVars] = {};
  // Each loop() as it was called: the loop variable's value (from + step * counter) and its
  // inclusive range; per counter, the latest one (families keep the one of their time).
  struct LoopValue {
    Form value;
    long long lo, hi;
  };
  std::vector<LoopValue> loop_values_;
  int current_loop_[kMaxVars];
  std::vector<Family> families_;
  std::vector<Check> checks_;
  int epoch_ = 0;
  long long mirrored_trips_ = 0;
  size_t enumerated_points_ = 0;
};

// Past these a launch's proof fails (the launch is checked) rather than take long on the host.
constexpr long long kMaxMirroredTrips = 1 << 14;
constexpr size_t kMaxFamilies = 1 << 16;
constexpr size_t kMaxGlobalFamiliesPerRoot = 2048;
constexpr size_t kMaxEnumeratedPoints = 1 << 21;

// The values a form takes over the variables' inclusive bounds, as [min, max].
void form_range(const Form& f, const long long lo[], const long long hi[], __int128& min, __int128& max);

// Whether (v_1, ..., v_n) -> sum c_i v_i is one-to-one over v_i in [0, sizes_i): sorted by |c|, each
// |c_k| exceeds the reach of the smaller ones, sum |c_j| (sizes_j - 1) (a mixed radix).
bool injective(std::vector<std::pair<long long, long long>> coeff_and_size);

}  // namespace ldcc::rt::proof
