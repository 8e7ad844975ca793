// Level B of translated kernels: global targets found at launch, then rounds of two launches of the
// clone with the fused checks between them (DESIGN.md sections 3 to 5).
#include "block_level.h"

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

#include "device_buffer.h"
#include "flags.h"
#include "profile.h"
#include "ldcc/kernels/check_kernels.h"
#include "ldcc/kernels/footprint_lists.h"
#include "ldcc/planner.h"
#include "race_filter.h"
#include "report.h"

namespace ldcc::rt {
namespace {

using GetAddressRange = CUresult (*)(CUdeviceptr*, size_t*, CUdeviceptr);

// The driver's cuMemGetAddressRange through the runtime, so programs need not link libcuda.
GetAddressRange address_range_function() {
  static GetAddressRange fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault, &status) != cudaSuccess ||
        status != cudaDriverEntryPointSuccess)
      p = nullptr;
    return reinterpret_cast<GetAddressRange>(p);
  }();
  return fn;
}

std::string dim3_text(uint32_t linear, dim3 grid) {
  return "(" + std::to_string(linear % grid.x) + "," + std::to_string(linear / grid.x % grid.y) + "," +
         std::to_string(linear / grid.x / grid.y) + ")";
}

}  // namespace

bool allocation_of(const void* pointer, const void*& base, size_t& bytes) {
  const GetAddressRange range = address_range_function();
  CUdeviceptr b = 0;
  if (!range || range(&b, &bytes, reinterpret_cast<CUdeviceptr>(pointer)) != CUDA_SUCCESS) return false;
  base = reinterpret_cast<const void*>(b);
  return true;
}

void place_in_allocation(Race& race, const GlobalAllocation& a, uint64_t lo, uint64_t hi) {
  const uint64_t from = lo >= a.name_offset ? a.name_offset : 0;
  race.target = a.name;
  race.element_size = a.element_size;
  race.byte_lo = lo - from;
  race.byte_hi = std::min(hi, a.bytes) - from;
  const uint64_t first = race.byte_lo / a.element_size, last = (race.byte_hi - 1) / a.element_size;
  race.element = a.name + "[" + std::to_string(first) + (last != first ? ".." + std::to_string(last) : "") + "]" +
                 (from == 0 && a.name_offset ? " (from the start of its allocation)" : "");
}

std::vector<GlobalAllocation> find_global_allocations(const KernelDesc& desc, void** args,
                                                      const unsigned long long* pointee_sizes, unsigned num_params,
                                                      const std::vector<unsigned long long>& query,
                                                      std::vector<std::string>& problems) {
  std::vector<GlobalAllocation> out;
  const GetAddressRange range = address_range_function();
  // A pointer parameter the kernel only stores through, or updates in place (the translator marks no
  // other kind).
  const auto write_only = [](const GlobalDesc& g) { return g.write_only && g.param >= 0 && g.offset == 0; };
  const auto reads_own_stores = [](const GlobalDesc& g) {
    return (g.write_only || g.updated_in_place) && g.param >= 0 && g.offset == 0;
  };
  for (unsigned i = 0; i < desc.num_globals; ++i) {
    const GlobalDesc& g = desc.globals[i];
    uint8_t* pointer = nullptr;
    uint64_t element_size = g.element_size;
    if (g.param >= 0) {
      std::memcpy(&pointer, static_cast<const uint8_t*>(args[1 + g.param]) + g.offset, sizeof pointer);
      if (!element_size && g.offset == 0) element_size = pointee_sizes[g.param];
    } else {
      const unsigned long long count = query[kSymbolWords];
      if (g.offset >= count) continue;
      pointer = reinterpret_cast<uint8_t*>(query[kSymbolWords + 1 + 2 * g.offset]);
    }
    if (pointer == nullptr) continue;
    CUdeviceptr base = 0;
    size_t bytes = 0;
    if (!range || range(&base, &bytes, reinterpret_cast<CUdeviceptr>(pointer)) != CUDA_SUCCESS) {
      problems.push_back(std::string(g.name) + " does not point into device memory cuMemGetAddressRange knows");
      continue;
    }
    uint8_t* b = reinterpret_cast<uint8_t*>(base);
    auto same = std::find_if(out.begin(), out.end(), [&](const GlobalAllocation& a) { return a.base == b; });
    if (same != out.end()) {  // two pointers into one allocation: one target, named by the first
      same->write_only = same->write_only && write_only(g);
      same->reads_own_stores = same->reads_own_stores && reads_own_stores(g);
      continue;
    }
    GlobalAllocation a;
    a.name = g.name;
    a.base = b;
    a.bytes = bytes;
    a.name_offset = uint64_t(pointer - b);
    a.element_size = std::max<uint64_t>(element_size, 1);
    a.write_only = write_only(g);
    a.reads_own_stores = reads_own_stores(g);
    CUdeviceptr next = 0;
    size_t next_bytes = 0;
    a.end_is_allocation = range(&next, &next_bytes, base + bytes) == CUDA_SUCCESS &&
                          !DeviceBuffer::allocated_by_ldcc(reinterpret_cast<const void*>(next));
    out.push_back(a);
  }
  // A pointer argument the kernel may read through (any but a write-only one) into a written
  // allocation, or just past its end (a loop reading backwards from there) unless another allocation
  // starts there: that allocation is read (by threads that may not store there, unless the pointer
  // is only updated in place).
  for (unsigned i = 0; i < num_params; ++i) {
    if (!pointee_sizes[i]) continue;
    const auto is_param = [&](const auto& kind) {
      return std::any_of(desc.globals, desc.globals + desc.num_globals,
                         [&](const GlobalDesc& g) { return kind(g) && g.param == int(i); });
    };
    if (is_param(write_only)) continue;
    const bool own_stores_param = is_param(reads_own_stores);
    uint8_t* pointer = nullptr;
    std::memcpy(&pointer, args[1 + i], sizeof pointer);
    for (GlobalAllocation& a : out)
      if (pointer >= a.base && (pointer < a.base + a.bytes || (pointer == a.base + a.bytes && !a.end_is_allocation))) {
        a.write_only = false;
        a.reads_own_stores = a.reads_own_stores && own_stores_param;
      }
  }
  return out;
}

std::optional<size_t> first_overlapping_target(const std::vector<unsigned long long>& footprints, size_t targets,
                                               uint32_t blocks) {
  for (size_t i = 0; i < targets; ++i) {
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    for (uint32_t b = 0; b < blocks; ++b) {
      const unsigned long long lo = footprints[2 * (uint64_t(b) * targets + i)];
      const unsigned long long hi = footprints[2 * (uint64_t(b) * targets + i) + 1];
      if (hi > lo) spans.emplace_back(lo, hi);
    }
    std::sort(spans.begin(), spans.end());
    for (size_t k = 1; k < spans.size(); ++k)
      if (spans[k].first < spans[k - 1].second) return i;
  }
  return std::nullopt;
}

void BlockFootprints::gather_owners(const std::vector<uint64_t>& strides, cudaStream_t stream) {
  if (!device_) return;  // of() hands the ww-check nothing to gather into, owners included
  uint64_t words = 0;
  for (uint64_t stride : strides) {
    owner_offsets_.push_back(words);
    words += stride / 4;
  }
  owners_ = DeviceBuffer::allocate(words * sizeof(uint32_t), stream);
  if (!owners_) return owner_offsets_.clear();
  strides_ = strides;
  cudaMemsetAsync(owners_.get(), 0xff, owners_.bytes(), stream);  // kNoOwner
}

DeviceBuffer BlockFootprints::lists(size_t i, const GlobalAllocation& target, cudaStream_t stream,
                                    uint64_t& largest_block_bytes, std::string& why) {
  if (!device_ || !owners_) {
    why = "no device memory for the blocks' word owners";
    return {};
  }
  // Thrust would raise an error the program has not read yet as its own, and clearing it would lose it.
  if (cudaPeekAtLastError() != cudaSuccess) {
    why = "a CUDA error of the program is pending";
    return {};
  }
  const kernels::FootprintListLayout layout{blocks_, strides_[i] / 16};
  // Word indices are 32-bit.
  if (4 * layout.chunks > 0xffffffffull) {
    why = target.name + " is too large for per-block footprint lists";
    return {};
  }
  // The sort's own temporary memory is about its keys and values again.
  const uint64_t needed = (layout.entries() + layout.chunks) * sizeof(uint32_t) + 2 * strides_[i];
  DeviceBuffer lists, scratch;
  if (needed <= DeviceBuffer::memory_budget()) {
    lists = DeviceBuffer::allocate(layout.entries() * sizeof(uint32_t), stream);
    scratch = DeviceBuffer::allocate(layout.chunks * sizeof(uint32_t), stream);
  }
  uint64_t shared_words = 0;
  if (!lists || !scratch ||
      !kernels::build_footprint_lists(owners_.get<uint32_t>() + owner_offsets_[i], layout, lists.get<uint32_t>(),
                                      scratch.get<uint32_t>(), stream, shared_words)) {
    why = "no device memory for per-block footprint lists of " + target.name;
    return {};
  }
  if (shared_words > 0) {
    why = "two blocks write into one 4-byte word of " + target.name;
    return {};
  }
  std::vector<uint32_t> offsets(2 * (uint64_t(blocks_) + 1));
  cudaMemcpyAsync(offsets.data(), lists.get(), offsets.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream);
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    cudaGetLastError();
    why = "the footprint lists of " + target.name + " could not be read";
    return {};
  }
  largest_block_bytes = 0;
  for (uint32_t b = 0; b < blocks_; ++b) {
    const uint64_t chunks = offsets[b + 1] - offsets[b], words = offsets[blocks_ + 2 + b] - offsets[blocks_ + 1 + b];
    largest_block_bytes = std::max(largest_block_bytes, 16 * chunks + 4 * words);
  }
  return lists;
}

namespace {

// The copies of one round layout: per target, M private copies, the atomics' copy, then U.
struct Arena {
  DeviceBuffer buffer, table, records, read_records, count;  // count: write-write, read-write records
  std::vector<uint64_t> offsets, strides;
};

// The blocks of each copy of each round and how a report names them, asked for once (a racy launch
// has thousands of records and the plan answers in time proportional to the blocks).
class CopyUnits {
 public:
  struct Units {
    std::vector<uint32_t> blocks;
    std::string text;  // "block (2,0,0)", or the list of a copy blocks share
  };
  CopyUnits(const CheckPlan& plan, dim3 grid) : plan_(plan), grid_(grid) {}
  const Units& operator()(uint32_t round, uint32_t copy) {
    auto it = known_.find({round, copy});
    if (it == known_.end()) {
      Units u{plan_.units_in_copy(round, copy), ""};
      u.text = u.blocks.size() == 1 ? "block " + dim3_text(u.blocks[0], grid_) : format_units("block", u.blocks);
      it = known_.emplace(std::make_pair(round, copy), std::move(u)).first;
    }
    return it->second;
  }

 private:
  const CheckPlan& plan_;
  dim3 grid_;
  std::map<std::pair<uint32_t, uint32_t>, Units> known_;
};

Race race_from(const RaceRecord& r, CopyUnits& copy_units, uint32_t round, uint32_t atomics_copy,
               const std::vector<GlobalAllocation>& targets, const KernelDesc& desc, dim3 grid,
               const std::string& region) {
  const GlobalAllocation& t = targets[r.target];
  Race race;
  race.kind = RaceKind(r.kind);
  race.space = "global";
  race.kernel = desc.name;
  race.region = region;
  race.unit_kind = "block";
  place_in_allocation(race, t, r.byte_lo, r.byte_hi);
  auto units = [&](uint32_t copy, std::vector<uint32_t>& list) -> std::string {
    if (copy == kNoUnit) return "another block";
    if (copy == atomics_copy) return "an atomic operation";
    const CopyUnits::Units& u = copy_units(round, copy);
    list = u.blocks;
    return u.text;
  };
  const std::string a = units(r.unit_a, race.units_a);
  const std::string b = units(r.unit_b, race.units_b);
  race.units_text = race.kind == RaceKind::WriteWrite
                        ? a + " and " + b + " both wrote it"
                        : a + " read a value another block wrote (blocks do not synchronize within a launch)";
  return race;
}

// One pass-1 launch with `watches` active: for each watch, the blocks that stored into it, ascending.
template <typename Buffers>
std::vector<std::vector<uint32_t>> attribute_writers(const std::vector<Watch>& watches, uint32_t blocks, Buffers buffers,
                                                     uint32_t copies, LaunchCtx& ctx, cudaStream_t stream,
                                                     const std::function<cudaError_t()>& launch) {
  if (watches.empty()) return {};
  const uint32_t capacity = std::max<uint32_t>(4096, 4 * blocks);
  DeviceBuffer log = DeviceBuffer::allocate((1 + uint64_t(capacity)) * sizeof(unsigned long long), stream);
  if (!log) return {};
  cudaMemsetAsync(log.get(), 0, sizeof(unsigned long long), stream);
  for (uint32_t i = 0; i < ctx.num_globals; ++i) kernels::replicate(buffers(i, copies + 1), stream);
  ctx.num_watches = uint32_t(watches.size());
  ctx.watch_capacity = capacity;
  ctx.watch_log = log.get<unsigned long long>();
  for (size_t w = 0; w < watches.size(); ++w) ctx.watches[w] = watches[w];
  const cudaError_t e = launch();
  ctx.num_watches = 0;
  std::vector<unsigned long long> entries(1 + capacity);
  if (e != cudaSuccess || cudaMemcpyAsync(entries.data(), log.get(), log.bytes(), cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  if (entries[0] > capacity) return {};  // incomplete: keep the group names
  std::vector<std::set<uint32_t>> sets(watches.size());
  for (unsigned long long k = 0; k < entries[0]; ++k) sets[entries[1 + k] >> 32].insert(uint32_t(entries[1 + k]));
  std::vector<std::vector<uint32_t>> out;
  for (const auto& set : sets) out.emplace_back(set.begin(), set.end());
  return out;
}

// What one level B round of a kernel's launches with one grid size and one size of written memory cost
// when measured: the round's wall time besides its copies (the clone's executions, launches,
// synchronization, reading the logs), and the checks per private copy (replicate, ww-check,
// rw-check; device time). The smallest seen is kept (a first launch pays one-time costs).
struct RoundCosts {
  double round_us = 0, copy_us = 0;
  uint32_t samples = 0;  // launches measured (kMeasuredLaunches at most: timing costs a little)
  bool racy = false;    // level B found races: later launches check with one copy per block at once
  bool own_copies = false;  // level W could not use the hooks' footprints: a copy per block from then on
  // Its probe (all_read_own_stores) failed: overlapping stores, or atomics on global memory. No more probes.
  bool probe_failed = false;
};

// Launches measured before the plan may take fewer copies (a first launch may pay one-time costs),
// and in all (timing costs a little).
constexpr uint32_t kSamplesBeforeChoosing = 2;
constexpr uint32_t kMeasuredLaunches = 3;

using CostKey = std::tuple<const KernelDesc*, uint32_t, uint64_t, int>;  // kernel, blocks, bytes per copy, device
std::mutex costs_mutex;
std::map<CostKey, RoundCosts>& round_costs() {
  static std::map<CostKey, RoundCosts> costs;
  return costs;
}

// Events around round 0's steps, read once the round has synchronized. Made once per host thread
// (creating them cost bfs's small launches more than a round).
class RoundTimer {
 public:
  // Around the checks only, each recorded before any host wait: the GPU's idle time is not theirs.
  enum Mark { kStart, kReplicated, kWwStart, kWwChecked, kPass2, kRwChecked, kMarks };
  // Events belong to the device current when they are made: one set per host thread and device.
  static RoundTimer& of_this_thread() {
    int device = 0;
    cudaGetDevice(&device);
    thread_local std::map<int, RoundTimer*> timers;
    RoundTimer*& timer = timers[device];
    if (!timer) timer = new RoundTimer();
    return *timer;
  }
  void mark(Mark m, cudaStream_t stream) {
    if (events_[m]) cudaEventRecord(events_[m], stream);
  }
  // Microseconds from mark a to b, or -1.
  double us(Mark a, Mark b) const {
    float ms = 0;
    if (!events_[a] || !events_[b] || cudaEventElapsedTime(&ms, events_[a], events_[b]) != cudaSuccess) {
      cudaGetLastError();
      return -1;
    }
    return 1000.0 * ms;
  }

 private:
  // Never destroyed: at exit the CUDA runtime may already be gone, and the process frees them.
  RoundTimer() {
    for (cudaEvent_t& e : events_)
      if (cudaEventCreate(&e) != cudaSuccess) e = nullptr;
    cudaGetLastError();
  }
  cudaEvent_t events_[kMarks] = {};
};

// One level B check with at most `copies_wanted` copies, within `budget` bytes (fewer copies if the
// device gives less); `measured`, if non-null, receives round 0's costs.
// `disjoint_probe`: a launch whose threads read only bytes they store (all_read_own_stores) runs
// round 0 on two copies, not replicated when its targets are all write-only; if the blocks' store
// footprints overlap it stops there, with probe_failed set.
BlockLevelOutcome check_blocks(const KernelDesc& desc, const std::vector<GlobalAllocation>& targets, dim3 grid,
                               LaunchCtx& ctx, cudaStream_t stream, const std::function<cudaError_t()>& launch,
                               const std::string& region, uint64_t budget, uint32_t copies_wanted, RoundCosts* measured,
                               bool disjoint_probe = false);

}  // namespace

BlockLevelOutcome run_block_level(const KernelDesc& desc, const std::vector<GlobalAllocation>& targets, dim3 grid,
                                  LaunchCtx& ctx, cudaStream_t stream, const std::function<cudaError_t()>& launch,
                                  const std::string& region, bool own_copies) {
  const uint32_t blocks = grid.x * grid.y * grid.z;
  const uint64_t per_copy = copy_bytes(targets);
  int device = 0;
  cudaGetDevice(&device);
  const CostKey key(&desc, blocks, per_copy, device);
  RoundCosts costs;
  {
    std::lock_guard<std::mutex> lock(costs_mutex);
    costs = round_costs()[key];
  }
  // Fewer copies than blocks, in more rounds, when the copies cost more than the extra executions
  // (many blocks writing large allocations). Only where the store hooks see every store, so each
  // block's footprint is known without a copy of its own (KernelDesc::warp_turns names stores they miss).
  const uint64_t budget = DeviceBuffer::memory_budget();
  const std::optional<CheckPlan> memory_plan =
      budget > per_copy ? plan_for_budget(blocks, per_copy, budget - per_copy) : std::nullopt;
  const uint32_t max_copies = memory_plan ? memory_plan->copies() : blocks;
  uint32_t wanted = max_copies;
  if (costs.samples >= kSamplesBeforeChoosing && !costs.racy && !costs.own_copies && !own_copies && !desc.warp_turns)
    wanted = cheapest_copies(blocks, max_copies, costs.round_us, costs.copy_us);
  // A launch whose threads read only bytes they store themselves (write-only targets, or updated in
  // place) first runs once on two copies (not replicated when nothing of them is read): when the
  // hooks find the blocks' stores disjoint, no byte has two writers and no block can see another's,
  // so that is the whole check; else the usual check follows. Its atomics act on shared memory (a
  // per-warp reduction object): an atomic's pointer argument makes a parameter neither write-only nor
  // updated in place, and no other pointer argument reaches these targets. Were one to act on global
  // memory, the probe's pass 1 would count it (kGlobalAtomics) and fail, as overlapping stores do.
  if (all_read_own_stores(targets) && !desc.warp_turns && blocks > 2 && !own_copies && !costs.own_copies &&
      !costs.probe_failed) {
    BlockLevelOutcome probe = check_blocks(desc, targets, grid, ctx, stream, launch, region, budget, 2, nullptr, true);
    if (!probe.probe_failed) {
      probe.fewer_copies_by_cost = probe.copies < max_copies;
      return probe;
    }
    std::lock_guard<std::mutex> lock(costs_mutex);
    round_costs()[key].probe_failed = true;
  }
  RoundCosts now;
  BlockLevelOutcome outcome = check_blocks(desc, targets, grid, ctx, stream, launch, region, budget, wanted,
                                           costs.samples < kMeasuredLaunches ? &now : nullptr);
  const bool racy = outcome.checked && (!outcome.races.empty() || outcome.read_records);
  if (racy && wanted < max_copies) {
    // Reports name the blocks a check with a copy each names (groups of blocks otherwise).
    if (parse_count(flags().verbose).value_or(0))
      std::fprintf(stderr, "ldcc: %s: level B found races with %u copies; again with %u\n", desc.name, outcome.copies,
                   max_copies);
    outcome = check_blocks(desc, targets, grid, ctx, stream, launch, region, budget, max_copies, nullptr);
  }
  std::lock_guard<std::mutex> lock(costs_mutex);
  RoundCosts& kept = round_costs()[key];
  if (now.samples) {
    kept.round_us = kept.samples ? std::min(kept.round_us, now.round_us) : now.round_us;
    kept.copy_us = kept.samples ? std::min(kept.copy_us, now.copy_us) : now.copy_us;
    ++kept.samples;
  }
  kept.racy = kept.racy || racy;
  kept.own_copies = kept.own_copies || own_copies;
  outcome.fewer_copies_by_cost = outcome.copies < max_copies;
  return outcome;
}

namespace {

BlockLevelOutcome check_blocks(const KernelDesc& desc, const std::vector<GlobalAllocation>& targets, dim3 grid,
                               LaunchCtx& ctx, cudaStream_t stream, const std::function<cudaError_t()>& launch,
                               const std::string& region, uint64_t budget, uint32_t copies_wanted, RoundCosts* measured,
                               bool disjoint_probe) {
  BlockLevelOutcome outcome;
  const uint32_t blocks = grid.x * grid.y * grid.z;
  const uint64_t per_copy = copy_bytes(targets);
  const uint64_t capacity = std::max<uint64_t>(parse_count(flags().log_capacity).value_or(65536), 1);

  // The largest plan (up to copies_wanted) whose buffers the device gives: M copies + the atomics'
  // copy + U per target.
  if (copies_wanted >= 2 && copies_wanted < blocks)
    budget = std::min(budget, plan_bytes(CheckPlan(blocks, copies_wanted), per_copy) + per_copy);
  std::optional<CheckPlan> plan;
  Arena arena;
  while (budget > per_copy && (plan = plan_for_budget(blocks, per_copy, budget - per_copy))) {
    arena.buffer = DeviceBuffer::allocate(plan_bytes(*plan, per_copy) + per_copy, stream);
    arena.table = DeviceBuffer::allocate(uint64_t(blocks) * sizeof(uint32_t), stream);
    arena.records = DeviceBuffer::allocate(capacity * sizeof(RaceRecord), stream);
    arena.read_records = DeviceBuffer::allocate(capacity * sizeof(RaceRecord), stream);
    arena.count = DeviceBuffer::allocate(2 * sizeof(unsigned long long), stream);
    if (arena.buffer && arena.table && arena.records && arena.read_records && arena.count) break;
    arena = Arena();
    budget = plan_bytes(*plan, per_copy) / 2 + per_copy;
    plan.reset();
  }
  if (!plan) {
    outcome.warning = "checking its " + std::to_string(blocks) + " blocks needs at least " + std::to_string(4 * per_copy) +
                      " bytes of device memory for copies of the global memory it writes (LDCC_MEM_LIMIT)";
    return outcome;
  }
  PhaseProfile::end("level B copies allocation");
  const uint32_t copies = plan->copies();
  const uint32_t slots = copies + 2;  // private copies, the atomics' copy, U
  uint64_t offset = 0;
  for (const GlobalAllocation& t : targets) {
    arena.offsets.push_back(offset);
    arena.strides.push_back(padded_copy_bytes(t.bytes));
    offset += slots * padded_copy_bytes(t.bytes);
  }
  auto buffers = [&](size_t i, uint32_t num_copies) {
    uint8_t* c = arena.buffer.get() + arena.offsets[i];
    return TargetBuffers{targets[i].base, targets[i].bytes, c, arena.strides[i],
                         c + uint64_t(copies + 1) * arena.strides[i], num_copies, uint32_t(i)};
  };
  ctx.level = kLevelBlocks;
  ctx.num_globals = uint32_t(targets.size());
  ctx.atomics_copy = copies;
  ctx.copy_of_block = arena.table.get<uint32_t>();
  for (size_t i = 0; i < targets.size(); ++i) {
    const TargetBuffers b = buffers(i, copies + 1);
    ctx.globals[i] = global_target(targets[i], b.copies, b.stride, uint64_t(copies + 1) * b.stride);
  }
  // Write-write and read-write records go to logs of their own: the read-write ones wait for level W
  // (BlockReads), and most of a racy launch's are of blocks that race within themselves.
  auto* count = arena.count.get<unsigned long long>();
  const RaceLogView log{arena.records.get<RaceRecord>(), count, uint32_t(capacity)};
  const RaceLogView read_log{arena.read_records.get<RaceRecord>(), count + 1, uint32_t(capacity)};
  // With one round, its read-write records stay on the device until level W says whether any of
  // them count; with more, each round's are copied before the next round reuses the log.
  const bool reads_on_device = plan->rounds() == 1;
  uint64_t device_reads = 0;

  std::vector<uint64_t> element_sizes;
  for (const GlobalAllocation& t : targets) element_sizes.push_back(t.element_size);
  RaceFilter filter(element_sizes);
  std::vector<std::pair<uint32_t, RaceRecord>> found;
  std::vector<std::vector<RaceRecord>> round_writes, round_reads;  // per round: coalesced ww, raw rw records
  bool atomics = false;
  auto failed = [&](cudaError_t e, const char* what) {
    outcome.warning = std::string("level B ") + what + " failed: " + cudaGetErrorString(e);
    cudaGetLastError();
    return outcome;
  };
  // Each block's footprint from its stores (round 0's pass 1), where the hooks see every store: the
  // only footprints with copies shared between blocks, and byte-exact (the copies' diffs are widened
  // for level W, see store_footprints in block_level.h).
  std::optional<BlockFootprints> store_footprints;
  if (!desc.warp_turns) {
    store_footprints.emplace(targets.size(), blocks, stream);
    if (!store_footprints->device()) store_footprints.reset();
  }
  uint64_t diff_footprint_bytes = 0;  // the copies' diff footprints, held until level W asks for them
  const bool write_only = all_write_only(targets), own_reads = all_read_own_stores(targets);
  std::vector<unsigned long long> early_store_footprints;  // read after pass 1 to leave pass 2 out
  // (run_block_level probes all_read_own_stores launches only.)
  if (disjoint_probe && !store_footprints) {
    outcome.probe_failed = true;
    return outcome;
  }
  bool no_reexecution = false;
  RoundTimer* timer = measured ? &RoundTimer::of_this_thread() : nullptr;
  for (uint32_t round = 0; round < plan->rounds(); ++round) {
    const std::vector<uint32_t> table = plan->copy_table(round);
    cudaMemcpyAsync(arena.table.get(), table.data(), table.size() * sizeof(uint32_t), cudaMemcpyHostToDevice, stream);
    cudaMemsetAsync(count, 0, arena.count.bytes(), stream);
    cudaMemsetAsync(ctx.counters + kGlobalAtomics, 0, sizeof(unsigned long long), stream);
    const bool timed = round == 0 && measured;
    const auto round_start = std::chrono::steady_clock::now();
    // The probe's blocks of a write-only launch read nothing of their copies: not replicated (see
    // run_block_level).
    if (timed) timer->mark(RoundTimer::kStart, stream);
    for (size_t i = 0; i < targets.size() && !(disjoint_probe && write_only); ++i)
      kernels::replicate(buffers(i, copies + 1), stream);
    if (timed) timer->mark(RoundTimer::kReplicated, stream);
    PhaseProfile::end("replicate");
    ctx.store_bounds = round == 0 && store_footprints ? store_footprints->device() : nullptr;
    const cudaError_t started = launch();
    ctx.store_bounds = nullptr;
    if (cudaError_t e = started; e != cudaSuccess) return failed(e, "pass 1");
    unsigned long long atomic_flag = 0;
    cudaMemcpyAsync(&atomic_flag, ctx.counters + kGlobalAtomics, sizeof atomic_flag, cudaMemcpyDeviceToHost, stream);
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) return failed(e, "pass 1");
    atomics = atomics || atomic_flag != 0;
    // Blocks that read only bytes they store themselves, each storing only where no other block
    // stores, cannot see one another's writes: a re-execution would store what pass 1 stored and the
    // rw-check would find nothing, so there is none; nor can two of them write one byte, so with
    // copies shared between blocks the later rounds would find nothing either. (Round 0 runs every
    // block.)
    if (round == 0 && !atomics && store_footprints && own_reads) {
      early_store_footprints = store_footprints->read(stream);
      no_reexecution = !early_store_footprints.empty() &&
                       !first_overlapping_target(early_store_footprints, targets.size(), blocks);
    }
    PhaseProfile::end("level B pass 1");
    if (disjoint_probe && !no_reexecution) {
      outcome.probe_failed = true;
      return outcome;
    }
    // The probe goes on only with disjoint stores: nothing to check on its copies (no byte has two
    // writers).
    // One copy per block (so a single round, and copy k is block k): the pass-1 diff is each
    // block's write footprint, kept for level W.
    std::shared_ptr<BlockFootprints> footprints;
    if (copies == blocks && !atomics && !disjoint_probe) {
      footprints = std::make_shared<BlockFootprints>(targets.size(), blocks, stream);
      footprints->gather_owners(arena.strides, stream);
    }
    if (timed) timer->mark(RoundTimer::kWwStart, stream);
    for (size_t i = 0; i < targets.size() && !disjoint_probe; ++i)
      kernels::ww_check_fused(buffers(i, copies + 1), log, stream, footprints ? footprints->of(i) : FootprintBounds{});
    if (timed) timer->mark(RoundTimer::kWwChecked, stream);
    if (footprints) {
      outcome.diff_footprints = footprints;
      diff_footprint_bytes = footprints->bytes();
    }
    PhaseProfile::end("ww-check and footprints");
    // Atomic results differ between executions by nature; a re-execution would compare them. With
    // global atomics level B checks write-write races only.
    if (!atomics && !no_reexecution) {
      if (cudaError_t e = launch(); e != cudaSuccess) return failed(e, "pass 2");
      PhaseProfile::end("level B pass 2");
      if (timed) timer->mark(RoundTimer::kPass2, stream);
      for (size_t i = 0; i < targets.size(); ++i) kernels::rw_check(buffers(i, copies), read_log, false, stream);
      if (timed) timer->mark(RoundTimer::kRwChecked, stream);
      PhaseProfile::end("rw-check");
    }
    unsigned long long logged[2] = {};
    cudaMemcpyAsync(logged, count, sizeof logged, cudaMemcpyDeviceToHost, stream);
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) return failed(e, "check");

    std::vector<RaceRecord> records(std::min<unsigned long long>(logged[0], capacity));
    if (!records.empty())
      cudaMemcpy(records.data(), arena.records.get(), records.size() * sizeof(RaceRecord), cudaMemcpyDeviceToHost);
    const uint64_t reads = std::min<unsigned long long>(logged[1], capacity);
    outcome.dropped_records += logged[0] - records.size() + logged[1] - reads;
    outcome.read_records += reads;
    std::vector<RaceRecord>& round_read = round_reads.emplace_back();
    if (reads_on_device) {
      device_reads = reads;
    } else if (reads) {
      round_read.resize(reads);
      cudaMemcpy(round_read.data(), arena.read_records.get(), reads * sizeof(RaceRecord), cudaMemcpyDeviceToHost);
    }
    // Write-write records become reports now (read-write records never change which of them are new).
    std::vector<RaceRecord>& writes = round_writes.emplace_back(coalesce_records(std::move(records), by_elements(element_sizes)));
    for (const RaceRecord& r : filter.next_round(writes)) found.emplace_back(round, r);
    PhaseProfile::end("reports: level B's log");
    if (timed) {
      const double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - round_start).count();
      const double replicate = timer->us(RoundTimer::kStart, RoundTimer::kReplicated);
      const double ww = timer->us(RoundTimer::kWwStart, RoundTimer::kWwChecked);
      const double rw = atomics || no_reexecution ? 0.0 : timer->us(RoundTimer::kPass2, RoundTimer::kRwChecked);
      if (replicate >= 0 && ww >= 0 && rw >= 0) {
        const double checks = replicate + ww + rw;
        // The checks stream the private copies, the atomics' copy and U.
        measured->copy_us = checks / (copies + 2);
        measured->round_us = std::max(0.0, wall - checks);
        measured->samples = 1;
      }
    }
    if (no_reexecution) break;
  }
  // Memory-limited rounds name groups of blocks that shared a copy. One more launch records which
  // blocks store into each write-write range, so the report names the blocks a full check would.
  std::vector<Watch> watches;
  for (const auto& [round, r] : found)
    if (copies < blocks && filter.survives(r) && RaceKind(r.kind) == RaceKind::WriteWrite &&
        r.unit_a != copies && r.unit_b != copies && watches.size() < kMaxWatches)
      watches.push_back(Watch{r.target, r.byte_lo, r.byte_hi});
  std::vector<std::vector<uint32_t>> writers = attribute_writers(watches, blocks, buffers, copies, ctx, stream, launch);
  PhaseProfile::end("attribution");
  CopyUnits copy_units(*plan, grid);
  outcome.races.reserve(found.size());
  for (const auto& [round, r] : found) {
    Race race = race_from(r, copy_units, round, copies, targets, desc, grid, region);
    size_t w = 0;
    while (w < watches.size() && !(watches[w].target == r.target && watches[w].lo == r.byte_lo && watches[w].hi == r.byte_hi)) ++w;
    if (w == watches.size() || w >= writers.size() || writers[w].size() < 2) {
      outcome.races.push_back(race);
      continue;
    }
    for (size_t k = 0; k + 1 < writers[w].size(); ++k) {
      race.units_a = {writers[w][k]};
      race.units_b = {writers[w][k + 1]};
      race.units_text = "block " + dim3_text(writers[w][k], grid) + " and block " + dim3_text(writers[w][k + 1], grid) +
                        " both wrote it";
      outcome.races.push_back(race);
    }
  }
  PhaseProfile::end("reports: level B's write-write races");
  // The rounds again with the read-write records of the blocks that did not race within themselves,
  // through a filter of their own: which reads are new depends on the reads of earlier rounds kept.
  std::shared_ptr<DeviceBuffer> read_records;
  if (device_reads) read_records = std::make_shared<DeviceBuffer>(std::move(arena.read_records));
  outcome.reads_device_bytes = read_records ? read_records->bytes() : 0;
  if (outcome.read_records)
    outcome.reads = [plan = *plan, round_writes = std::move(round_writes), round_reads = std::move(round_reads), copies,
                     read_records, device_reads, targets, element_sizes, &desc, grid, region](
                        const std::function<bool(uint32_t)>& raced_within, uint64_t& inconclusive) mutable {
      // Per round with records: whether the blocks of each copy raced within themselves.
      std::vector<std::vector<bool>> copy_raced(round_reads.size());
      for (uint32_t round = 0; round < round_reads.size(); ++round) {
        if (round_reads[round].empty() && !(round == 0 && read_records)) continue;
        const std::vector<uint32_t> table = plan.copy_table(round);
        copy_raced[round].assign(copies, false);
        for (uint32_t block = 0; block < table.size(); ++block)
          if (table[block] < copies && !copy_raced[round][table[block]] && raced_within(block))
            copy_raced[round][table[block]] = true;
      }
      if (read_records) {
        // Round 0's records, still on the device: copied only if some copy's blocks did not race
        // within themselves.
        if (std::all_of(copy_raced[0].begin(), copy_raced[0].end(), [](bool raced) { return raced; })) {
          inconclusive += device_reads;
        } else {
          round_reads[0].resize(device_reads);
          cudaMemcpy(round_reads[0].data(), read_records->get(), device_reads * sizeof(RaceRecord), cudaMemcpyDeviceToHost);
        }
        read_records.reset();
      }
      CopyUnits copy_units(plan, grid);
      std::vector<Race> out;
      for (const auto& [round, r] : kept_block_reads(round_writes, round_reads, copy_raced, element_sizes, inconclusive))
        out.push_back(race_from(r, copy_units, round, copies, targets, desc, grid, region));
      return out;
    };
  outcome.checked = true;
  outcome.atomics = atomics;
  const uint32_t rounds_run = no_reexecution ? 1 : plan->rounds();
  if (store_footprints && !atomics)
    outcome.store_footprints = no_reexecution ? std::move(early_store_footprints) : store_footprints->read(stream);
  outcome.copies = copies;
  outcome.rounds = rounds_run;
  outcome.extra_device_bytes = arena.buffer.bytes() + arena.table.bytes() + arena.records.bytes() +
                               (read_records ? read_records->bytes() : arena.read_records.bytes()) + arena.count.bytes() +
                               (store_footprints ? store_footprints->bytes() : 0) + diff_footprint_bytes;
  if (parse_count(flags().verbose).value_or(0)) {
    // (A probe that gets here ran without re-execution, and without atomics.)
    std::string how = atomics ? ", write-write only (global atomics)" : "";
    if (no_reexecution) how = std::string(", no re-execution (") + own_stores_kind(targets) + ", disjoint stores)";
    if (disjoint_probe) how += write_only ? ", copies not replicated" : ", on two copies";
    std::fprintf(stderr, "ldcc: %s: level B over %zu global targets (%llu bytes per copy): %u blocks, %u copies, %u rounds%s\n",
                 desc.name, targets.size(), (unsigned long long)per_copy, blocks, copies, rounds_run, how.c_str());
  }
  ctx.level = kLevelWarps;
  ctx.num_globals = 0;
  ctx.copy_of_block = nullptr;
  return outcome;
}

}  // namespace
}  // namespace ldcc::rt
