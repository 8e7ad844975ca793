// The GPU checking kernels against their plain-C++ reference, on random states: every copy count
// path (register-resident 16/8/4-byte chunks and the streaming one), sizes that are not multiples of
// 16, unaligned S, no, sparse and dense races, and log overflow.
#include <random>

#include "gpu/gpu_test_support.h"
#include "ldcc/kernels/check_kernels.h"
#include "ldcc/kernels/footprint_lists.h"
#define LDCC_UNFILTERED_LOG
#include "ldcc/kernels/check_ops.cuh"
#include "reference/check_reference.h"

namespace ldcc::testing {
namespace {

using reference::Bytes;

// Deterministic mode's merge of a few chunks by whole warps (region_check.cuh), over a whole target:
// warp w of the grid merges chunks w, w + warps, ...
template <bool kReplicate>
__global__ void merge_by_warp_kernel(TargetBuffers t) {
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32, chunks = (t.bytes + 15) / 16;
  for (uint64_t c = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; c < chunks; c += warps)
    ops::merge_ordered_chunk_by_warp<kReplicate>(t, 16 * c, threadIdx.x % 32);
}

// Level W's ops on one chunk or word by a warp (region_check.cuh), over a whole target: warp w of the
// grid takes the kBytes at w, w + warps, ...
template <int kBytes>
__global__ void ww_check_by_warp_kernel(TargetBuffers t, RaceLogView log) {
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32, parts = (t.bytes + kBytes - 1) / kBytes;
  for (uint64_t w = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; w < parts; w += warps)
    ops::ww_check_by_warp<kBytes>(t, kBytes * w, log, threadIdx.x % 32);
}

template <int kBytes>
__global__ void rw_commit_by_warp_kernel(TargetBuffers t, RaceLogView log) {
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32, parts = (t.bytes + kBytes - 1) / kBytes;
  for (uint64_t w = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; w < parts; w += warps)
    ops::rw_commit_by_warp<kBytes>(t, kBytes * w, log, threadIdx.x % 32, true);
}

// S lives at `offset` inside an allocation with guard bytes around it, which no kernel may touch.
struct Target {
  static constexpr uint8_t kGuard = 0xA5;
  static constexpr size_t kGuardBytes = 64;
  size_t n, offset;
  uint32_t copies;
  uint64_t stride = padded_copy_bytes(n);
  DeviceArray<uint8_t> original{kGuardBytes + offset + n + kGuardBytes};
  DeviceArray<uint8_t> arena{stride * (copies + 1)};
  DeviceArray<RaceRecord> records;
  DeviceArray<unsigned long long> count{1};

  // The default log holds every record of the densest random case (~100k), so comparisons are exact.
  Target(size_t n_, size_t offset_, uint32_t copies_, size_t capacity = 1 << 19)
      : n(n_), offset(offset_), copies(copies_), records(capacity) {}

  TargetBuffers buffers() const {
    return TargetBuffers{original.ptr + kGuardBytes + offset, n, arena.ptr, stride, arena.ptr + stride * copies, copies, 3};
  }
  RaceLogView log() const { return RaceLogView{records.ptr, count.ptr, uint32_t(records.count)}; }

  void set_original(const Bytes& s) {
    Bytes all(original.count, kGuard);
    std::copy(s.begin(), s.end(), all.begin() + kGuardBytes + offset);
    original.upload(all);
  }
  Bytes get_original() const {
    const Bytes all = original.download();
    for (size_t i = 0; i < kGuardBytes + offset; ++i) EXPECT_EQ(all[i], kGuard) << "guard before S touched at " << i;
    for (size_t i = kGuardBytes + offset + n; i < all.size(); ++i) EXPECT_EQ(all[i], kGuard) << "guard after S touched";
    return Bytes(all.begin() + kGuardBytes + offset, all.begin() + kGuardBytes + offset + n);
  }
  // Copies are padded; the padding must stay 0. U, in the slot after the copies, is left as it is.
  void set_copies(const std::vector<Bytes>& p) {
    for (uint32_t k = 0; k < copies; ++k) {
      Bytes slot(stride, 0);
      std::copy(p[k].begin(), p[k].end(), slot.begin());
      cudaMemcpy(arena.ptr + k * stride, slot.data(), stride, cudaMemcpyHostToDevice);
    }
  }
  std::vector<Bytes> get_copies() const {
    const Bytes all = arena.download();
    std::vector<Bytes> p(copies);
    for (uint32_t k = 0; k < copies; ++k) {
      p[k].assign(all.begin() + k * stride, all.begin() + k * stride + n);
      for (size_t i = n; i < stride; ++i) EXPECT_EQ(all[k * stride + i], 0) << "padding of copy " << k << " at " << i;
    }
    return p;
  }
  Bytes get_union() const {
    const Bytes all = arena.download();
    return Bytes(all.begin() + stride * copies, all.begin() + stride * copies + n);
  }
  std::vector<RaceRecord> get_records(unsigned long long* total = nullptr) {
    unsigned long long logged = count.download()[0];
    if (total) *total = logged;
    else EXPECT_LE(logged, records.count) << "log overflowed: the comparison would not be exact";
    std::vector<RaceRecord> all = records.download();
    all.resize(std::min<size_t>(logged, records.count));
    count.upload({0});
    return all;
  }
};

Bytes random_bytes(std::mt19937_64& rng, size_t n) {
  Bytes b(n);
  for (auto& x : b) x = uint8_t(rng());
  return b;
}

// Pass-1 copies: S with random writes; `shared` is the chance that a write lands on a byte another
// copy may also write (a ww race), else each copy writes only bytes x with x % copies == k.
std::vector<Bytes> random_pass1(std::mt19937_64& rng, const Bytes& s, uint32_t copies, double density, double shared) {
  std::vector<Bytes> p(copies, s);
  std::uniform_real_distribution<> coin(0, 1);
  for (uint32_t k = 0; k < copies; ++k)
    for (size_t x = 0; x < s.size(); ++x) {
      if (coin(rng) >= density) continue;
      const size_t target = coin(rng) < shared ? x : x - x % copies + k;
      if (target < s.size()) p[k][target] = uint8_t(rng());
    }
  return p;
}

struct Case {
  size_t n;
  uint32_t copies;
  size_t offset;
  double density, shared;
};

void check_case(const Case& c, uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << "n=" << c.n << " copies=" << c.copies << " offset=" << c.offset
                                  << " density=" << c.density << " shared=" << c.shared);
  std::mt19937_64 rng(seed);
  Target t(c.n, c.offset, c.copies);
  const Bytes s = random_bytes(rng, c.n);
  t.set_original(s);

  // init
  kernels::replicate(t.buffers(), nullptr);
  std::vector<Bytes> ref_copies(c.copies);
  reference::replicate(s, ref_copies);
  ASSERT_EQ(t.get_copies(), ref_copies);

  // fused ww-check
  std::vector<Bytes> p1 = random_pass1(rng, s, c.copies, c.density, c.shared);
  t.set_copies(p1);
  kernels::ww_check_fused(t.buffers(), t.log(), nullptr);
  LDCC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<RaceRecord> ref_records;
  std::vector<Bytes> ref_p2 = p1;
  const Bytes ref_union = reference::ww_check_fused(s, ref_p2, 3, ref_records);
  EXPECT_EQ(t.get_union(), ref_union);
  EXPECT_EQ(t.get_copies(), ref_p2);
  EXPECT_EQ(reference::expand(t.get_records()), reference::expand(ref_records));

  // the same ww-check a warp per 4-byte word and per 16-byte chunk (at most 32 copies: one per
  // lane), from U = S
  for (int bytes : {4, 16}) {
    if (c.copies > 32) break;
    t.set_copies(p1);
    LDCC_CUDA_OK(cudaMemcpy(t.buffers().uni, s.data(), c.n, cudaMemcpyHostToDevice));
    if (bytes == 4) ww_check_by_warp_kernel<4><<<4, 64>>>(t.buffers(), t.log());
    else ww_check_by_warp_kernel<16><<<4, 64>>>(t.buffers(), t.log());
    LDCC_CUDA_OK(cudaDeviceSynchronize());
    EXPECT_EQ(t.get_union(), ref_union) << bytes;
    EXPECT_EQ(t.get_copies(), ref_p2) << bytes;
    EXPECT_EQ(reference::expand(t.get_records()), reference::expand(ref_records)) << bytes;
  }

  // the fused ww-check gathering the write footprints of every copy but the last (level B: the
  // atomics' copy comes last and has none)
  if (c.copies > 1) {
    const uint32_t noted = c.copies - 1;
    const std::vector<Bytes> noted_copies(p1.begin(), p1.begin() + noted);
    std::vector<unsigned long long> start(2 * noted, 0);
    std::fill_n(start.begin(), noted, ~0ull);
    DeviceArray<unsigned long long> bounds(start);
    DeviceArray<uint32_t> owners(std::vector<uint32_t>(t.stride / 4, kNoOwner));
    t.set_copies(p1);
    kernels::ww_check_fused(t.buffers(), t.log(), nullptr,
                            FootprintBounds{bounds.ptr, bounds.ptr + noted, noted, owners.ptr});
    LDCC_CUDA_OK(cudaDeviceSynchronize());
    t.get_records();
    EXPECT_EQ(bounds.download(), reference::footprints(s, noted_copies));
    std::vector<uint32_t> want_owners = reference::word_owners(s, noted_copies);
    want_owners.resize(t.stride / 4, kNoOwner);  // the padding: no copy changes it
    EXPECT_EQ(owners.download(), want_owners);
    EXPECT_EQ(t.get_copies(), ref_p2);
  }

  // the unfused pair computes the same
  t.set_copies(p1);
  kernels::ww_check_union(t.buffers(), t.log(), nullptr);
  kernels::init_pass2(t.buffers(), nullptr);
  LDCC_CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(t.get_union(), ref_union);
  EXPECT_EQ(t.get_copies(), ref_p2);
  EXPECT_EQ(reference::expand(t.get_records()), reference::expand(ref_records));

  // rw-check fused with commit, on pass-2 results where some copies diverge
  std::vector<Bytes> p2 = ref_p2;
  for (uint32_t k = 0; k < c.copies; ++k) p2[k] = ref_union;
  for (uint32_t k = 0; k < c.copies; k += 3)
    for (int i = 0; i < 3 && c.n; ++i) p2[k][rng() % c.n] ^= uint8_t(1 + rng() % 255);
  t.set_copies(p2);
  kernels::rw_check(t.buffers(), t.log(), true, nullptr);
  LDCC_CUDA_OK(cudaDeviceSynchronize());
  ref_records.clear();
  reference::rw_check(ref_union, p2, 3, ref_records);
  EXPECT_EQ(reference::expand(t.get_records()), reference::expand(ref_records));
  EXPECT_EQ(t.get_original(), ref_union);

  // the same a warp per 4-byte word and per 16-byte chunk, which also makes every copy U
  for (int bytes : {4, 16}) {
    if (c.copies > 32) break;
    t.set_original(s);
    t.set_copies(p2);
    LDCC_CUDA_OK(cudaMemcpy(t.buffers().uni, ref_union.data(), c.n, cudaMemcpyHostToDevice));
    if (bytes == 4) rw_commit_by_warp_kernel<4><<<4, 64>>>(t.buffers(), t.log());
    else rw_commit_by_warp_kernel<16><<<4, 64>>>(t.buffers(), t.log());
    LDCC_CUDA_OK(cudaDeviceSynchronize());
    EXPECT_EQ(reference::expand(t.get_records()), reference::expand(ref_records)) << bytes;
    EXPECT_EQ(t.get_original(), ref_union) << bytes;
    EXPECT_EQ(t.get_copies(), std::vector<Bytes>(c.copies, ref_union)) << bytes;
  }

  // commit alone
  t.set_original(s);
  kernels::commit(t.buffers(), nullptr);
  EXPECT_EQ(t.get_original(), ref_union);

  // deterministic merge, then merge + replicate
  for (bool replicate_after : {false, true}) {
    t.set_original(s);
    t.set_copies(p1);
    kernels::merge_ordered(t.buffers(), replicate_after, nullptr);
    Bytes merged = s;
    reference::merge_ordered(merged, p1);
    EXPECT_EQ(t.get_original(), merged);
    EXPECT_EQ(t.get_copies(), replicate_after ? std::vector<Bytes>(c.copies, merged) : p1);
  }

  // the same merge a warp per chunk (at most 32 copies: one per lane)
  for (bool replicate_after : {false, true}) {
    if (c.copies > 32) break;
    t.set_original(s);
    t.set_copies(p1);
    if (replicate_after) merge_by_warp_kernel<true><<<4, 64>>>(t.buffers());
    else merge_by_warp_kernel<false><<<4, 64>>>(t.buffers());
    LDCC_CUDA_OK(cudaDeviceSynchronize());
    Bytes merged = s;
    reference::merge_ordered(merged, p1);
    EXPECT_EQ(t.get_original(), merged);
    EXPECT_EQ(t.get_copies(), replicate_after ? std::vector<Bytes>(c.copies, merged) : p1);
  }

  // the same merge into a separate buffer (U's slot) that already holds an earlier batch; S stays
  Bytes earlier = s;
  for (size_t i = 0; i < c.n; i += 7) earlier[i] ^= 0x5a;
  Bytes into = earlier;
  reference::merge_ordered_into(s, p1, into);
  t.set_original(s);
  t.set_copies(p1);
  LDCC_CUDA_OK(cudaMemcpy(t.buffers().uni, earlier.data(), c.n, cudaMemcpyHostToDevice));
  kernels::merge_ordered_into(t.buffers(), t.buffers().uni, nullptr);
  LDCC_CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(t.get_union(), into);
  EXPECT_EQ(t.get_original(), s);
}

TEST(CheckKernels, MatchReferenceOnRandomStates) {
  LDCC_REQUIRE_GPU();
  uint64_t seed = 1;
  for (uint32_t copies : {1u, 2u, 3u, 4u, 5u, 8u, 13u, 16u, 17u, 32u, 33u, 64u, 65u, 100u})
    for (size_t n : {size_t(1), size_t(15), size_t(16), size_t(17), size_t(511), size_t(513), size_t(4099)})
      for (size_t offset : {size_t(0), size_t(3)})
        for (auto [density, shared] : {std::pair{0.0, 0.0}, std::pair{0.05, 0.0}, std::pair{0.05, 0.3}, std::pair{0.8, 0.9}})
          check_case({n, copies, offset, density, shared}, seed++);
}

TEST(CheckKernels, MatchReferenceOnLargeTargets) {
  LDCC_REQUIRE_GPU();
  check_case({(1 << 20) + 7, 8, 0, 0.001, 0.2}, 11);
  check_case({(1 << 20) + 9, 24, 5, 0.0005, 0.1}, 12);
  check_case({(1 << 22), 2, 0, 0.3, 0.0}, 13);
}

TEST(CheckKernels, SameValueAndRevertedWritesAreNotSeen) {
  LDCC_REQUIRE_GPU();
  Target t(100, 0, 2);
  const Bytes s(100, 42);
  t.set_original(s);
  std::vector<Bytes> p1(2, s);
  p1[0][7] = 42;  // same-value write: invisible by design (paper section 4.7)
  p1[1][7] = 42;
  t.set_copies(p1);
  kernels::ww_check_fused(t.buffers(), t.log(), nullptr);
  EXPECT_TRUE(t.get_records().empty());
  EXPECT_EQ(t.get_union(), s);
}

TEST(CheckKernels, FullLogCountsEveryRecordAndKeepsTheFirst) {
  LDCC_REQUIRE_GPU();
  const size_t n = 4096, racy_every = 64, capacity = 5;
  Target t(n, 0, 2, capacity);
  const Bytes s(n, 0);
  t.set_original(s);
  std::vector<Bytes> p1(2, s);
  for (size_t x = 0; x < n; x += racy_every) p1[0][x] = 1, p1[1][x] = 2;  // one record per racy byte
  t.set_copies(p1);
  kernels::ww_check_fused(t.buffers(), t.log(), nullptr);
  unsigned long long total = 0;
  const auto kept = t.get_records(&total);
  EXPECT_EQ(total, n / racy_every);
  ASSERT_EQ(kept.size(), capacity);
  for (const RaceRecord& r : kept) {
    EXPECT_EQ(r.byte_hi - r.byte_lo, 1u);
    EXPECT_EQ(r.byte_lo % racy_every, 0u);
    EXPECT_EQ(r.unit_a, 0u);
    EXPECT_EQ(r.unit_b, 1u);
  }
}

// The device's footprint lists, read back as the reference gives them.
reference::FootprintLists download_lists(const DeviceArray<uint32_t>& lists, const kernels::FootprintListLayout& layout) {
  const std::vector<uint32_t> l = lists.download();
  reference::FootprintLists out;
  out.chunks.resize(layout.blocks);
  out.words.resize(layout.blocks);
  for (uint32_t b = 0; b < layout.blocks; ++b) {
    for (uint32_t j = l[b]; j < l[b + 1]; ++j) out.chunks[b].push_back(l[layout.chunks_at() + j]);
    for (uint32_t j = l[layout.blocks + 1 + b]; j < l[layout.blocks + 2 + b]; ++j) out.words[b].push_back(l[layout.words_at() + j]);
  }
  out.chunk_owner.assign(l.begin() + layout.chunk_owners_at(), l.begin() + layout.word_owners_at());
  out.word_owner.assign(l.begin() + layout.word_owners_at(), l.begin() + layout.entries());
  return out;
}

// Word owners as a grid-stride loop leaves them: block b owns runs of `run` words, the blocks in turn;
// `mixed` of the chunks get a word of a random other block, `shared` a word two blocks changed, and
// `untouched` lose a word to no owner.
std::vector<uint32_t> strided_owners(std::mt19937_64& rng, uint64_t chunks, uint32_t blocks, uint32_t run, double mixed,
                                     double shared, double untouched) {
  std::vector<uint32_t> owners(4 * chunks);
  for (uint64_t w = 0; w < owners.size(); ++w) owners[w] = uint32_t(w / run % blocks);
  std::uniform_real_distribution<> coin(0, 1);
  for (uint64_t c = 0; c < chunks; ++c) {
    const uint64_t w = 4 * c + rng() % 4;
    if (coin(rng) < mixed) owners[w] = uint32_t(rng() % blocks);
    if (coin(rng) < shared) owners[w] = kSharedWord;
    if (coin(rng) < untouched) owners[w] = kNoOwner;
  }
  return owners;
}

TEST(FootprintLists, MatchReferenceOnStridedOwners) {
  LDCC_REQUIRE_GPU();
  std::mt19937_64 rng(5);
  struct ListCase {
    uint64_t chunks;
    uint32_t blocks, run;
    double mixed, shared, untouched;
  };
  for (const ListCase& c : {ListCase{32, 1, 4, 0, 0, 0}, ListCase{32, 4, 64, 0, 0, 0.5}, ListCase{4096, 7, 64, 0, 0, 0},
                            ListCase{4096, 7, 1, 0, 0, 0}, ListCase{4096, 120, 256, 0.01, 0, 0.01},
                            ListCase{100000, 300, 6, 0.1, 0.001, 0.2}, ListCase{64, 3, 4, 0, 0, 1.0}}) {
    SCOPED_TRACE(::testing::Message() << "chunks=" << c.chunks << " blocks=" << c.blocks << " run=" << c.run);
    const std::vector<uint32_t> owners = strided_owners(rng, c.chunks, c.blocks, c.run, c.mixed, c.shared, c.untouched);
    const kernels::FootprintListLayout layout{c.blocks, c.chunks};
    DeviceArray<uint32_t> device_owners(owners), lists(layout.entries()), scratch(c.chunks);
    uint64_t shared_words = 0;
    ASSERT_TRUE(kernels::build_footprint_lists(device_owners.ptr, layout, lists.ptr, scratch.ptr, nullptr, shared_words));
    reference::FootprintLists got = download_lists(lists, layout);
    got.shared_words = shared_words;
    EXPECT_EQ(got, reference::footprint_lists(owners, c.blocks));
  }
}

// The ww-check's word owners of one copy per block, made into lists: a 2-D tile per block, rows of
// 40 bytes, so rows of neighbouring blocks share chunks.
TEST(FootprintLists, FromTheWwCheckOfTiledBlocks) {
  LDCC_REQUIRE_GPU();
  const uint32_t blocks = 6, row = 40, rows = 9;
  const size_t n = size_t(blocks) * row * rows;
  Target t(n, 0, blocks + 1);  // the last copy is the atomics' (level B), in no footprint
  std::mt19937_64 rng(9);
  const Bytes s = random_bytes(rng, n);
  t.set_original(s);
  std::vector<Bytes> p1(blocks + 1, s);
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t x = 0; x < row; ++x) p1[b][(size_t(r) * blocks + b) * row + x] = uint8_t(s[(size_t(r) * blocks + b) * row + x] + 1);
  t.set_copies(p1);
  std::vector<unsigned long long> start(2 * blocks, 0);
  std::fill_n(start.begin(), blocks, ~0ull);
  DeviceArray<unsigned long long> bounds(start);
  DeviceArray<uint32_t> owners(std::vector<uint32_t>(t.stride / 4, kNoOwner));
  kernels::ww_check_fused(t.buffers(), t.log(), nullptr, FootprintBounds{bounds.ptr, bounds.ptr + blocks, blocks, owners.ptr});
  LDCC_CUDA_OK(cudaDeviceSynchronize());
  EXPECT_TRUE(t.get_records().empty());
  const kernels::FootprintListLayout layout{blocks, t.stride / 16};
  DeviceArray<uint32_t> lists(layout.entries()), scratch(layout.chunks);
  uint64_t shared_words = 0;
  ASSERT_TRUE(kernels::build_footprint_lists(owners.ptr, layout, lists.ptr, scratch.ptr, nullptr, shared_words));
  reference::FootprintLists got = download_lists(lists, layout);
  got.shared_words = shared_words;
  std::vector<uint32_t> want_owners = reference::word_owners(s, std::vector<Bytes>(p1.begin(), p1.begin() + blocks));
  want_owners.resize(t.stride / 4, kNoOwner);
  const reference::FootprintLists want = reference::footprint_lists(want_owners, blocks);
  EXPECT_EQ(got, want);
  EXPECT_EQ(want.shared_words, 0u);
  // Rows of 40 bytes: each block's row covers two whole chunks of its own and shares the rest.
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_FALSE(want.chunks[b].empty()) << b;
    EXPECT_EQ(4 * want.chunks[b].size() + want.words[b].size(), size_t(rows) * row / 4) << b;
  }
}

}  // namespace
}  // namespace ldcc::testing
