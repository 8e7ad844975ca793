// The launch-time race-freedom proofs (ldcc/proof.h): exact verdicts on the forms of real kernels,
// and soundness against brute force (every thread's every access enumerated) on random forms.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "ldcc/proof.h"
#include "proof_cache.h"

using namespace ldcc::rt::proof;

namespace {

// Fake device memory: allocations at 0x1000 * k, each 0x1000 bytes.
bool fake_lookup(const void* p, const void*& base, size_t& bytes) {
  const auto v = reinterpret_cast<uintptr_t>(p);
  if (v < 0x1000) return false;
  base = reinterpret_cast<const void*>(v & ~uintptr_t(0xfff));
  bytes = 0x1000;
  return true;
}

struct Launch {
  void* pointers[4] = {reinterpret_cast<void*>(0x1000), reinterpret_cast<void*>(0x2000),
                       reinterpret_cast<void*>(0x3000), reinterpret_cast<void*>(0x4000)};
  int scalar = 1024;
  void* args[6] = {nullptr, &pointers[0], &pointers[1], &pointers[2], &pointers[3], &scalar};
  ProofInput in;
  Launch(dim3 grid, dim3 block) : in{grid, block, args} {}
};

// uniform_add of scan: g_data[b * n + t] += uni and g_data[b * n + t + blockDim.x] += uni, with uni
// written by thread 0 before the barrier and read by every thread after it.
Proof uniform_add(const Launch& l, long long n, unsigned threads) {
  Proof p(l.in);
  p.pointer_params({0, 1});
  const int data = p.pointer_root(0), uni = p.shared_root();
  p.access(uni, kWrite, true, Form{0, {}}, {{kTidX, 0, 0}});
  p.barrier();
  p.access(uni, kRead, true, Form{0, {}}, {});
  for (long long shift : {0ll, (long long)threads}) {
    const Form f{shift, {{kTidX, 1}, {kBidX, n}}};
    p.access(data, kRead, true, f, {});
    p.access(data, kWrite, true, f, {});
  }
  return p;
}

TEST(Proof, UniformAddHolds) {
  Launch l(dim3(256), dim3(512));
  EXPECT_TRUE(uniform_add(l, 1024, 512).holds(fake_lookup));
}

TEST(Proof, SegmentsThatOverlapFail) {
  Launch l(dim3(256), dim3(512));
  // n = 768 < 2 * blockDim.x: block b's second half meets block b + 1's first.
  EXPECT_FALSE(uniform_add(l, 768, 512).holds(fake_lookup));
}

TEST(Proof, AliasedPointerArgumentsFail) {
  Launch l(dim3(256), dim3(512));
  l.pointers[1] = static_cast<char*>(l.pointers[0]) + 64;  // uniforms inside g_data's allocation
  EXPECT_FALSE(uniform_add(l, 1024, 512).holds(fake_lookup));
  l.pointers[1] = nullptr;  // a null argument points nowhere
  EXPECT_TRUE(uniform_add(l, 1024, 512).holds(fake_lookup));
}

TEST(Proof, UnknownAllocationFails) {
  Launch l(dim3(2), dim3(32));
  l.pointers[0] = reinterpret_cast<void*>(0x10);  // the driver knows no allocation there
  EXPECT_FALSE(uniform_add(l, 64, 32).holds(fake_lookup));
}

TEST(Proof, EveryThreadStoringOneElementFails) {
  Launch l(dim3(1), dim3(64));
  Proof p(l.in);
  p.pointer_params({0});
  const int out = p.pointer_root(0);
  p.access(out, kWrite, true, Form{0, {}}, {});
  EXPECT_FALSE(p.holds(fake_lookup));
  // The same store by thread 0 alone holds; by the threads of x == 0 of a 2-D block it does not.
  Proof q(l.in);
  q.pointer_params({0});
  q.access(q.pointer_root(0), kWrite, true, Form{0, {}}, {{kTidX, 0, 0}});
  EXPECT_TRUE(q.holds(fake_lookup));
  Launch wide(dim3(1), dim3(8, 8));
  Proof r(wide.in);
  r.pointer_params({0});
  r.access(r.pointer_root(0), kWrite, true, Form{0, {}}, {{kTidX, 0, 0}});
  EXPECT_FALSE(r.holds(fake_lookup));
}

TEST(Proof, AtomicsAmongThemselvesHoldButNotAgainstPlainAccesses) {
  Launch l(dim3(16), dim3(256));
  Proof p(l.in);
  p.pointer_params({0});
  const int over = p.pointer_root(0);
  p.access(over, kAtomic, true, Form{0, {}}, {});
  EXPECT_TRUE(p.holds(fake_lookup));
  p.access(over, kRead, true, Form{0, {}}, {});
  EXPECT_FALSE(p.holds(fake_lookup));
}

TEST(Proof, GridStrideLoopHolds) {
  // for (i = b * 256 + t; i < n; i += 256 * 16) out[i] = in[i];
  Launch l(dim3(16), dim3(256));
  Proof p(l.in);
  p.pointer_params({0, 1});
  const int out = p.pointer_root(0);
  p.loop(kFirstLoop, Form{0, {{kTidX, 1}, {kBidX, 256}}}, Form{100000, {}}, 4096, false);
  p.access(out, kWrite, true, Form{0, {{kTidX, 1}, {kBidX, 256}, {kFirstLoop, 4096}}}, {});
  EXPECT_TRUE(p.holds(fake_lookup));
  // A stride of one block only: blocks overlap from the second iteration on.
  Proof q(l.in);
  q.pointer_params({0, 1});
  const int o = q.pointer_root(0);
  q.loop(kFirstLoop, Form{0, {{kTidX, 1}, {kBidX, 256}}}, Form{100000, {}}, 256, false);
  q.access(o, kWrite, true, Form{0, {{kTidX, 1}, {kBidX, 256}, {kFirstLoop, 256}}}, {});
  EXPECT_FALSE(q.holds(fake_lookup));
}

TEST(Proof, BiasRowApartFromTheTilesHolds) {
  // backprop's adjust_weights: tiles of rows >= 1 by every block, row 0 by block 0 only; with every
  // block on row 0 (its racy version) the proof fails.
  const long long hid = 16, tiles = 4;
  for (bool racy : {false, true}) {
    Launch l(dim3(8), dim3(16, 16));
    Proof p(l.in);
    p.pointer_params({0});
    const int w = p.pointer_root(0);
    p.loop(kFirstLoop, Form{0, {}}, Form{tiles, {}}, 1, false);
    const Form tile{(hid + 1) + 1, {{kTidX, 1}, {kTidY, hid + 1}, {kFirstLoop, 16 * (hid + 1)}, {kBidX, tiles * 16 * (hid + 1)}}};
    p.access(w, kRead, true, tile, {});
    p.access(w, kWrite, true, tile, {});
    const Form bias{1, {{kTidX, 1}}};
    if (racy) {
      p.access(w, kRead, true, bias, {{kTidY, 0, 0}});
      p.access(w, kWrite, true, bias, {{kTidY, 0, 0}});
    } else {
      p.access(w, kRead, true, bias, {{kTidY, 0, 0}, {kBidX, 0, 0}});
      p.access(w, kWrite, true, bias, {{kTidY, 0, 0}, {kBidX, 0, 0}});
    }
    EXPECT_EQ(p.holds(fake_lookup), !racy) << racy;
  }
}

TEST(Proof, SharedBroadcastNeedsAllWritesBeforeTheBarrier) {
  Launch l(dim3(4), dim3(128));
  // s[t] = ...; __syncthreads(); ... = s[anything]: holds.
  Proof p(l.in);
  const int s = p.shared_root();
  p.access(s, kWrite, true, Form{0, {{kTidX, 1}}}, {});
  p.barrier();
  p.access(s, kRead, false, Form{}, {});
  EXPECT_TRUE(p.holds(fake_lookup));
  // A write after the barrier too: fails (no form for the read).
  Proof q(l.in);
  const int t = q.shared_root();
  q.access(t, kWrite, true, Form{0, {{kTidX, 1}}}, {});
  q.barrier();
  q.access(t, kRead, false, Form{}, {});
  q.access(t, kWrite, true, Form{0, {{kTidX, 1}}}, {});
  EXPECT_FALSE(q.holds(fake_lookup));
  // Without the barrier an unknown read fails.
  Proof r(l.in);
  const int u = r.shared_root();
  r.access(u, kWrite, true, Form{0, {{kTidX, 1}}}, {});
  r.access(u, kRead, false, Form{}, {});
  EXPECT_FALSE(r.holds(fake_lookup));
  // Shared memory is per block: blockIdx in a form does not separate threads of one block.
  Proof v(l.in);
  const int x = v.shared_root();
  v.access(x, kWrite, true, Form{0, {{kBidX, 1}}}, {});
  EXPECT_FALSE(v.holds(fake_lookup));
}

// backprop's tile reduction: for (i = 1; i <= 4; ++i) { p = 1 << i; if (ty % p == 0)
// m[ty][tx] += m[ty + p / 2][tx]; __syncthreads(); } over 16 x 16 threads, one epoch a step.
Proof tree_reduction(const Launch& l, bool barriers, bool strided) {
  Proof p(l.in);
  const int m = p.shared_root();
  for (int i = 1; i <= 4; ++i) {
    const long long power = 1ll << i;
    const Form own{0, {{kTidX, 1}, {kTidY, 16}}}, partner{power / 2 * 16, {{kTidX, 1}, {kTidY, 16}}};
    const Bound rows{kTidY, 0, 15, strided ? power : 1};
    p.access(m, kRead, true, own, {rows});
    p.access(m, kRead, true, partner, {rows});
    p.access(m, kWrite, true, own, {rows});
    if (barriers) p.barrier();
  }
  return p;
}

TEST(Proof, TreeReductionHoldsStepByStep) {
  Launch l(dim3(8), dim3(16, 16));
  EXPECT_TRUE(tree_reduction(l, true, true).holds(fake_lookup));
  // Without the rows' stride row 1 writes what row 0 reads; without the barriers row 0 of step 2
  // reads row 2, which step 1 writes.
  EXPECT_FALSE(tree_reduction(l, true, false).holds(fake_lookup));
  EXPECT_FALSE(tree_reduction(l, false, true).holds(fake_lookup));
}

TEST(Proof, GlobalAccessesOfOtherEpochsMeetOnlyAcrossBlocks) {
  Launch l(dim3(4), dim3(64));
  // out[b * 64 + t] = ...; __syncthreads(); out[b * 64 + 63 - t] = ...: another thread of the same
  // block, after the barrier: holds.
  Proof p(l.in);
  p.pointer_params({0});
  const int out = p.pointer_root(0);
  p.access(out, kWrite, true, Form{0, {{kTidX, 1}, {kBidX, 64}}}, {});
  p.barrier();
  p.access(out, kWrite, true, Form{63, {{kTidX, -1}, {kBidX, 64}}}, {});
  EXPECT_TRUE(p.holds(fake_lookup));
  // out[b * 64 + t + 1] after the barrier: thread 63 of block b meets thread 0 of block b + 1.
  Proof q(l.in);
  q.pointer_params({0});
  const int o = q.pointer_root(0);
  q.access(o, kWrite, true, Form{0, {{kTidX, 1}, {kBidX, 64}}}, {});
  q.barrier();
  q.access(o, kWrite, true, Form{1, {{kTidX, 1}, {kBidX, 64}}}, {});
  EXPECT_FALSE(q.holds(fake_lookup));
}

// kmeans' combining step: for (i = tid; i < s * 241; i += 128) r[i] += r[i + s * 241]. The trips
// counted from the bound reach past it (i up to 511 for s = 2); the loop's condition keeps i below.
TEST(Proof, BlockStrideLoopStaysBelowItsBound) {
  Launch l(dim3(2), dim3(128));
  for (long long shift : {482ll, 400ll}) {
    Proof p(l.in);
    const int r = p.shared_root();
    p.loop(kFirstLoop, Form{0, {{kTidX, 1}}}, Form{482, {}}, 128, false);
    const Form own{0, {{kTidX, 1}, {kFirstLoop, 128}}}, other{shift, {{kTidX, 1}, {kFirstLoop, 128}}};
    p.access(r, kRead, true, own, {});
    p.access(r, kWrite, true, own, {});
    p.access(r, kRead, true, other, {});
    EXPECT_EQ(p.holds(fake_lookup), shift == 482) << shift;  // 400: thread 0 reads r[400], which thread 16 writes
  }
}

TEST(Proof, TooManyMirroredTripsFail) {
  Launch l(dim3(1), dim3(32));
  Proof p(l.in);
  p.pointer_params({0});
  long long trips = 0;
  while (p.trip()) ++trips;
  EXPECT_EQ(trips, kMaxMirroredTrips);
  p.access(p.pointer_root(0), kWrite, true, Form{0, {{kTidX, 1}}}, {});
  EXPECT_FALSE(p.holds(fake_lookup));
}

TEST(Proof, RepresentableChecksTheTypesRange) {
  Launch l(dim3(1), dim3(64));
  Proof p(l.in);
  p.pointer_params({0});
  p.access(p.pointer_root(0), kWrite, true, Form{0, {{kTidX, 1}}}, {});
  p.representable(Form{-1, {{kTidX, 1}}}, 0, 0xffffffffll);  // `threadIdx.x - 1` widened: wraps for thread 0
  EXPECT_FALSE(p.holds(fake_lookup));
}

TEST(Proof, BadLoopStepFails) {
  Launch l(dim3(1), dim3(64));
  Proof p(l.in);
  p.pointer_params({0});
  p.loop(kFirstLoop, Form{0, {}}, Form{10, {}}, 0, false);
  p.access(p.pointer_root(0), kWrite, true, Form{0, {{kTidX, 1}}}, {});
  EXPECT_FALSE(p.holds(fake_lookup));
}

TEST(Proof, Injective) {
  EXPECT_TRUE(injective({{1, 512}, {1024, 256}, {512, 2}}));
  EXPECT_TRUE(injective({{1, 512}, {768, 256}}));  // gaps, but one-to-one
  EXPECT_FALSE(injective({{1, 512}, {500, 256}}));
  EXPECT_FALSE(injective({{0, 2}}));
  EXPECT_TRUE(injective({{0, 1}, {-3, 4}, {1, 3}}));
  EXPECT_FALSE(injective({{2, 3}, {3, 3}}));  // 2*0 + 3*2 == 2*3 + 3*0
}

// Random small launches, forms, guards (bounds and strides) and barriers between the accesses:
// whenever the proof holds, no two threads meet on an element with a plain write between them, two
// threads of one block only between the same two barriers (brute force over every thread and trip).
TEST(Proof, SoundAgainstBruteForce) {
  std::mt19937 rng(20261207);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int proven = 0, proven_with_barriers = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const dim3 block(pick(1, 6), pick(1, 3)), grid(pick(1, 4));
    Launch l(grid, block);
    Proof p(l.in);
    p.pointer_params({0});
    const bool shared = pick(0, 3) == 0;
    const int root = shared ? p.shared_root() : p.pointer_root(0);
    // A loop `for (i = from; i < bound; i += step)`: from 0 (counted trips), or from threadIdx.x (a
    // block-stride loop, whose threads stop at the bound after different trips).
    const int trips = pick(0, 3);
    const bool looped = pick(0, 1), strided_loop = looped && pick(0, 1);
    const int loop_step = strided_loop ? pick(1, 4) : 1, bound = strided_loop ? pick(0, 12) : trips;
    if (looped) p.loop(kFirstLoop, strided_loop ? Form{0, {{kTidX, 1}}} : Form{0, {}}, Form{bound, {}}, loop_step, false);
    struct Acc {
      Access kind;
      Form f;
      long long tx_lo, tx_hi, ty_stride;
      int epoch;
    };
    std::vector<Acc> accs;
    int epoch = 0;
    for (int a = pick(1, 4); a > 0; --a) {
      if (pick(0, 2) == 0) {
        p.barrier();
        ++epoch;
      }
      Form f{pick(-2, 8), {}};
      const int vars[] = {kTidX, kTidY, kBidX, kFirstLoop};
      for (int v : vars)
        if ((v != kFirstLoop || looped) && pick(0, 2)) f.terms.push_back({v, pick(-3, 12)});
      if (strided_loop && pick(0, 1)) {  // a * i, as the translator writes it: a * threadIdx.x + a * step * trip
        const int a = pick(-2, 3);
        f.terms.push_back({kTidX, a});
        f.terms.push_back({kFirstLoop, a * loop_step});
      }
      const Access kind = Access(pick(0, 2));
      const bool guarded = pick(0, 3) == 0;
      const long long g = pick(0, 3), stride = pick(0, 2) == 0 ? pick(2, 3) : 1;
      accs.push_back({kind, f, guarded ? g : 0, guarded ? g : 1000, stride, epoch});
      if (guarded) p.access(root, kind, true, f, {{kTidX, g, g}, {kTidY, 0, 1000, stride}});
      else p.access(root, kind, true, f, {{kTidY, 0, 1000, stride}});
    }
    if (!p.holds(fake_lookup)) continue;
    ++proven;
    proven_with_barriers += epoch > 0;
    struct Touch {
      long long block, thread;
      Access kind;
      int epoch;
    };
    std::map<long long, std::vector<Touch>> touched;  // element -> every access of it
    for (unsigned bx = 0; bx < grid.x; ++bx)
      for (unsigned ty = 0; ty < block.y; ++ty)
        for (unsigned tx = 0; tx < block.x; ++tx)
          for (const Acc& a : accs) {
            if ((long long)tx < a.tx_lo || (long long)tx > a.tx_hi || ty % a.ty_stride != 0) continue;
            for (int k = 0; looped ? (strided_loop ? (long long)tx + loop_step * k < bound : k < trips) : k < 1; ++k) {
              long long value = a.f.constant;
              for (const Term& t : a.f.terms)
                value += t.coeff * (t.var == kTidX ? tx : t.var == kTidY ? ty : t.var == kBidX ? bx : k);
              // Shared memory: one copy per block.
              const long long element = shared ? value * 16 + bx : value;
              touched[element].push_back({bx, (bx * block.y + ty) * block.x + tx, a.kind, a.epoch});
            }
          }
    for (const auto& [element, list] : touched)
      for (size_t i = 0; i < list.size(); ++i)
        for (size_t j = i + 1; j < list.size(); ++j) {
          const Touch& a = list[i];
          const Touch& b = list[j];
          if (a.thread == b.thread || (a.kind == kRead && b.kind == kRead) || (a.kind == kAtomic && b.kind == kAtomic))
            continue;
          if (a.block == b.block && a.epoch != b.epoch) continue;  // a barrier between them
          ADD_FAILURE() << "trial " << trial << ": threads " << a.thread << " and " << b.thread << " meet on " << element;
        }
  }
  // The test exercises proofs that hold, not only ones that fail.
  EXPECT_GT(proven, 300);
  EXPECT_GT(proven_with_barriers, 100);
}

// prescan of scan (Blelloch, one padding word per 32 elements): i + (i >> 5) is not affine, so its
// accesses are enumerated thread by thread, level by level (a barrier at the top of every level).
// `barrier_per_level` false: scan_race's up-sweep, its barrier hoisted out of the level loop.
Proof prescan(const Launch& l, int n, bool barrier_per_level) {
  Proof p(l.in);
  p.pointer_params({0, 1, 2});
  const int out = p.pointer_root(0), sums = p.pointer_root(2), s = p.shared_root();
  const auto padded = [](long long i) { return i + (i >> 5); };
  const auto at = [&](long long (*index)(const Thread&, int, int), int offset, int d) {
    return [=](const Thread& t, long long& element, bool&) {
      if ((long long)t.x >= d) return false;
      element = index(t, offset, d);
      return true;
    };
  };
  p.enumerated(s, kWrite, [&](const Thread& t, long long& e, bool&) { e = padded(t.x); return true; }, {});
  p.enumerated(s, kWrite, [&](const Thread& t, long long& e, bool&) { e = padded(t.x + n / 2); return true; }, {});
  const auto left = +[](const Thread& t, int offset, int) { long long i = offset * (2ll * t.x + 1) - 1; return i + (i >> 5); };
  const auto right = +[](const Thread& t, int offset, int) { long long i = offset * (2ll * t.x + 2) - 1; return i + (i >> 5); };
  int offset = 1;
  if (!barrier_per_level) p.barrier();
  for (int d = n >> 1; d > 0; d >>= 1, offset <<= 1) {
    if (barrier_per_level) p.barrier();
    p.enumerated(s, kRead, at(left, offset, d), {});
    p.enumerated(s, kRead, at(right, offset, d), {});
    p.enumerated(s, kWrite, at(right, offset, d), {});
  }
  p.access(sums, kWrite, true, Form{0, {{kBidX, 1}}}, {{kTidX, 0, 0}});
  p.access(s, kWrite, true, Form{padded(n - 1), {}}, {{kTidX, 0, 0}});
  for (int d = 1; d < n; d <<= 1) {
    offset >>= 1;
    p.barrier();
    p.enumerated(s, kRead, at(left, offset, d), {});
    p.enumerated(s, kWrite, at(left, offset, d), {});
    p.enumerated(s, kRead, at(right, offset, d), {});
    p.enumerated(s, kWrite, at(right, offset, d), {});
  }
  p.barrier();
  p.enumerated(s, kRead, [&](const Thread& t, long long& e, bool&) { e = padded(t.x); return true; }, {});
  p.access(out, kWrite, true, Form{0, {{kTidX, 1}, {kBidX, n}}}, {});
  return p;
}

TEST(Proof, EnumeratedScanHoldsLevelByLevel) {
  Launch l(dim3(256), dim3(512));
  EXPECT_TRUE(prescan(l, 1024, true).holds(fake_lookup));
  Launch sums(dim3(1), dim3(128));
  EXPECT_TRUE(prescan(sums, 256, true).holds(fake_lookup));
}

TEST(Proof, EnumeratedScanWithoutItsLevelBarriersFails) {
  Launch l(dim3(256), dim3(512));
  EXPECT_FALSE(prescan(l, 1024, false).holds(fake_lookup));
}

// A block reduction's warp leaders: s[tid >> 5] under (tid & 31) == 0 is each warp's own slot; without
// the condition every lane of a warp writes it.
TEST(Proof, WarpLeadersWriteTheirOwnSlot) {
  Launch l(dim3(60), dim3(256));
  for (bool leaders_only : {true, false}) {
    Proof p(l.in);
    p.pointer_params({0});
    const int s = p.shared_root();
    p.enumerated(s, kWrite, [&](const Thread& t, long long& e, bool&) {
      if (leaders_only && (t.x & 31) != 0) return false;
      e = t.x >> 5;
      return true;
    }, {});
    p.barrier();
    p.access(s, kRead, true, Form{0, {{kTidX, 1}}}, {{kTidX, 0, 7}});
    EXPECT_EQ(p.holds(fake_lookup), leaders_only);
  }
}

// Enumerated and affine families of one epoch are compared element by element; a barrier parts them.
TEST(Proof, EnumeratedMeetsAffineWithinAnEpoch) {
  Launch l(dim3(4), dim3(64));
  for (bool barrier : {false, true}) {
    Proof p(l.in);
    p.pointer_params({0});
    const int s = p.shared_root();
    p.access(s, kWrite, true, Form{0, {{kTidX, 1}}}, {});
    if (barrier) p.barrier();
    p.enumerated(s, kRead, [](const Thread& t, long long& e, bool&) { e = t.x ^ 1; return true; }, {});
    EXPECT_EQ(p.holds(fake_lookup), barrier);
  }
  // An affine loop of each thread over its own row is enumerated trip by trip.
  Proof p(l.in);
  p.pointer_params({0});
  const int s = p.shared_root();
  p.loop(kFirstLoop, Form{0, {}}, Form{4, {}}, 1, false);
  p.access(s, kWrite, true, Form{0, {{kTidX, 4}, {kFirstLoop, 1}}}, {});
  p.enumerated(s, kRead, [](const Thread& t, long long& e, bool&) { e = 4 * t.x + (t.x & 3); return true; }, {});
  EXPECT_TRUE(p.holds(fake_lookup));
  p.enumerated(s, kRead, [](const Thread& t, long long& e, bool&) { e = 4 * (t.x ^ 1); return true; }, {});
  EXPECT_FALSE(p.holds(fake_lookup));
}

TEST(Proof, EnumeratedAccessesNeedSharedMemoryAndAHostThatCanEvaluate) {
  Launch l(dim3(4), dim3(64));
  Proof global(l.in);
  global.pointer_params({0});
  global.enumerated(global.pointer_root(0), kWrite, [](const Thread& t, long long& e, bool&) { e = t.x; return true; }, {});
  EXPECT_FALSE(global.holds(fake_lookup));
  Proof trap(l.in);
  trap.pointer_params({0});
  trap.enumerated(trap.shared_root(), kWrite, [](const Thread& t, long long& e, bool& ok) {
    e = t.x;
    ok = t.x != 7;  // a division by zero the device would trap on
    return true;
  }, {});
  EXPECT_FALSE(trap.holds(fake_lookup));
  // Too many points to enumerate.
  Launch big(dim3(1), dim3(1024));
  Proof many(big.in);
  many.pointer_params({0});
  const int s = many.shared_root();
  for (size_t k = 0; k <= kMaxEnumeratedPoints / 1024; ++k) {
    many.barrier();
    many.enumerated(s, kWrite, [](const Thread& t, long long& e, bool&) { e = t.x; return true; }, {});
  }
  EXPECT_FALSE(many.holds(fake_lookup));
}

TEST(Proof, ShiftsTheTypeCannotHoldFail) {
  bool ok = true;
  EXPECT_EQ(shift_right(1056, 5, ok), 33);
  EXPECT_EQ(shift_left(1u, 31, ok), 0x80000000u);
  EXPECT_TRUE(ok);
  shift_left(1, 32, ok);
  EXPECT_FALSE(ok);
  ok = true;
  shift_right(1ll, -1, ok);
  EXPECT_FALSE(ok);
  ok = true;
  EXPECT_EQ(shift_left(1ll, 40, ok), 1ll << 40);
  EXPECT_TRUE(ok);
}

// A launch's verdict is kept under its grid, block, argument bytes and allocations: the same launch
// finds it, any change of those is another launch.
TEST(ProofCache, KeysTellLaunchesApart) {
  Launch l(dim3(256), dim3(512));
  const unsigned long long param_sizes[] = {8, 8, 8, 8, 4};
  const unsigned long long pointee_sizes[] = {4, 4, 4, 4, 0};
  const auto key = [&](dim3 grid, const AllocationLookup& lookup) {
    return launch_key(grid, l.in.block, l.args, param_sizes, pointee_sizes, 5, lookup);
  };
  const std::string first = key(dim3(256), fake_lookup);
  EXPECT_EQ(first, key(dim3(256), fake_lookup));
  EXPECT_NE(first, key(dim3(128), fake_lookup));
  l.scalar = 512;
  EXPECT_NE(first, key(dim3(256), fake_lookup));
  l.scalar = 1024;
  l.pointers[2] = reinterpret_cast<void*>(0x3004);
  EXPECT_NE(first, key(dim3(256), fake_lookup));
  l.pointers[2] = reinterpret_cast<void*>(0x3000);
  EXPECT_EQ(first, key(dim3(256), fake_lookup));
  // The same addresses in allocations of another size (freed and allocated again).
  const AllocationLookup bigger = [](const void* p, const void*& base, size_t& bytes) {
    if (!fake_lookup(p, base, bytes)) return false;
    bytes = 0x2000;
    return true;
  };
  EXPECT_NE(first, key(dim3(256), bigger));
}

TEST(ProofCache, KeepsVerdictsPerKernel) {
  VerdictCache cache;
  int kernel_a = 0, kernel_b = 0;
  EXPECT_FALSE(cache.find(&kernel_a, "k").has_value());
  cache.store(&kernel_a, "k", true);
  cache.store(&kernel_a, "j", false);
  EXPECT_EQ(cache.find(&kernel_a, "k"), std::optional<bool>(true));
  EXPECT_EQ(cache.find(&kernel_a, "j"), std::optional<bool>(false));
  EXPECT_FALSE(cache.find(&kernel_b, "k").has_value());
  // Full: the kernel's verdicts start over.
  for (size_t i = 0; i < kMaxVerdictsPerKernel; ++i) cache.store(&kernel_b, std::to_string(i), true);
  EXPECT_EQ(cache.find(&kernel_b, "0"), std::optional<bool>(true));
  cache.store(&kernel_b, "one more", true);
  EXPECT_FALSE(cache.find(&kernel_b, "0").has_value());
  EXPECT_EQ(cache.find(&kernel_b, "one more"), std::optional<bool>(true));
}

}  // namespace
