// Launches of translated kernels (DESIGN.md sections 1, 4, 6): picks the original kernel or its
// checked clone by mode, sizes and places the per-warp copies of the shared-memory targets, runs the
// clone, and turns its race records into reports in the program's terms.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "block_level.h"
#include "deterministic.h"
#include "device_buffer.h"
#include "flags.h"
#include "profile.h"
#include "proof_cache.h"
#include "race_filter.h"
#include "ldcc/kernels/check_kernels.h"
#include "ldcc/translated.cuh"
#include "report.h"
#include "watchdog.h"

namespace ldcc::rt {
namespace {

std::mutex warn_mutex;

// Each message once per process: a kernel launched in a loop warns once.
void warn_once(const std::string& message) {
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(warn_mutex);
  if (said.insert(message).second) std::fprintf(stderr, "ldcc: warning: %s\n", message.c_str());
}

// Level B's read-write races, less those of blocks that raced within themselves (block_level.h).
void add_block_reads(std::vector<Race>& races, const BlockReads& reads, const std::function<bool(uint32_t)>& raced_within,
                     const std::string& kernel) {
  if (!reads) return;
  uint64_t inconclusive = 0;
  for (Race& r : reads(raced_within, inconclusive)) races.push_back(std::move(r));
  if (inconclusive)
    warn_once("kernel '" + kernel +
              "': blocks that race within themselves are not checked for reading other blocks' writes (their "
              "results differ between executions by themselves); write-write races between blocks still are");
}

Mode mode_for(const KernelDesc& desc) {
  const char* env = std::getenv("LDCC_MODE");
  const std::string text = env && *env ? env : (desc.default_mode ? desc.default_mode : "check");
  if (auto m = parse_mode(text)) return *m;
  warn_once("LDCC_MODE=" + text + " is not check, deterministic or off; checking");
  return Mode::Check;
}

std::string site_text(const KernelDesc& d, uint32_t site) {
  if (site >= d.num_sites) return "site " + std::to_string(site);
  const SiteDesc& s = d.sites[site];
  std::ostringstream out;
  out << s.what << " at " << s.file << ":" << s.line << ":" << s.column;
  return out.str();
}

std::string region_text(const KernelDesc& d, uint32_t region) {
  return "from " + site_text(d, region >> 16) + " to " + site_text(d, region & 0xffffu);
}

std::string dim3_text(dim3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

dim3 block_index(uint32_t linear, dim3 grid) {
  return dim3(linear % grid.x, linear / grid.x % grid.y, linear / grid.x / grid.y);
}

struct TargetLayout {
  std::string name;
  uint64_t offset = 0, bytes = 0, element_size = 1;
  std::vector<uint64_t> extents;  // of an array, outermost first
};

// "tile[3][5]" for the element that holds byte `lo` (element_text in report.cpp prints ranges of
// one-dimensional targets; a multi-dimensional one names its first element).
std::string element_name(const TargetLayout& t, uint64_t lo, uint64_t hi) {
  if (t.extents.size() <= 1) return "";
  uint64_t index = lo / t.element_size;
  std::vector<uint64_t> idx(t.extents.size());
  for (size_t i = t.extents.size(); i-- > 0;) {
    idx[i] = index % t.extents[i];
    index /= t.extents[i];
  }
  std::string out = t.name;
  for (uint64_t i : idx) out += "[" + std::to_string(i) + "]";
  if ((hi - 1) / t.element_size != lo / t.element_size) out += " and following";
  return out;
}

std::string warp_text(uint32_t warp, uint32_t warps) {
  return warp == warps ? std::string("an atomic operation") : "warp " + std::to_string(warp);
}

// Largest footprint one block checks byte by byte at every barrier before level W leaves global
// memory out (a block-wide loop over it per site).
constexpr uint64_t kMaxFootprintBytes = 4ull << 20;

// Why level W cannot check each block's global memory in these footprints ("" when it can): each
// block checks only its own, so they must be disjoint. `widen`: first widened in place to whole
// 16-byte chunks, for footprints from the copies' diffs (level B's values may differ from level W's
// in some bytes: a clock read is a count in level B, so a byte-exact diff could leave out bytes level
// W writes); the store hooks' footprints hold every byte stored, and are used as they are.
std::string footprint_problem(const std::vector<GlobalAllocation>& globals, std::vector<unsigned long long>& footprints,
                              uint32_t blocks, bool widen) {
  const size_t n = globals.size();
  if (footprints.size() != uint64_t(blocks) * n * 2) return "level B shared copies between blocks (memory budget)";
  // Either way within the allocation: a store past its end hits the copies' padding, and level W
  // must not read or write past the end of the program's memory.
  for (size_t k = 0; k < footprints.size(); k += 2)
    if (footprints[k + 1] > footprints[k]) {
      if (widen) {
        footprints[k] &= ~15ull;
        footprints[k + 1] = (footprints[k + 1] + 15) & ~15ull;
      }
      footprints[k + 1] = std::min<unsigned long long>(footprints[k + 1], globals[(k / 2) % n].bytes);
    }
  for (size_t k = 0; k < footprints.size(); k += 2)
    if (footprints[k + 1] > footprints[k] && footprints[k + 1] - footprints[k] > kMaxFootprintBytes)
      return "a block writes across more than 4 MiB of " + globals[(k / 2) % n].name;
  if (const std::optional<size_t> i = first_overlapping_target(footprints, n, blocks))
    return "the blocks' write footprints in " + globals[*i].name + " interleave";
  return "";
}

// The footprints level W checks each block's global memory in, one of:
//   bounds: [lo, hi) per block and target, laid out as LaunchCtx::footprints: the store hooks' if they
//     are disjoint, else the copies' diffs, widened. (The hooks' include stores of unchanged values,
//     so they may overlap where the diffs do not; the diffs, widened to 16-byte chunks, overlap where
//     blocks write neighbouring elements.)
//   lists: per target, each block's chunks and words (BlockFootprints::lists), where the blocks'
//     [lo, hi) interleave: grid-stride loops, 2-D tiles.
// Neither, with `why`, when none serves.
struct LevelWFootprints {
  std::vector<unsigned long long> bounds;
  std::vector<DeviceBuffer> lists;
  bool empty() const { return bounds.empty() && lists.empty(); }
};

LevelWFootprints level_w_footprints(const std::vector<GlobalAllocation>& globals, const BlockLevelOutcome& b,
                                    uint32_t blocks, cudaStream_t stream, std::string& why) {
  why = "level B gathered no footprints";
  LevelWFootprints out;
  for (bool from_stores : {true, false}) {
    std::vector<unsigned long long> f = from_stores         ? b.store_footprints
                                        : b.diff_footprints ? b.diff_footprints->read(stream)
                                                            : std::vector<unsigned long long>{};
    if (f.empty()) continue;
    why = footprint_problem(globals, f, blocks, !from_stores);
    if (why.empty()) {
      out.bounds = std::move(f);
      return out;
    }
  }
  if (!b.diff_footprints) return out;
  for (size_t i = 0; i < globals.size(); ++i) {
    uint64_t largest = 0;
    std::string problem;
    DeviceBuffer lists = b.diff_footprints->lists(i, globals[i], stream, largest, problem);
    if (!lists || largest > kMaxFootprintBytes) {
      why = lists ? "a block writes more than 4 MiB of " + globals[i].name : problem;
      out.lists.clear();
      return out;
    }
    out.lists.push_back(std::move(lists));
  }
  why.clear();
  return out;
}

// Level W over global memory (DESIGN.md section 4): warp w of every block shares copy w, and each
// block checks only its own write footprint from level B.
class WarpGlobals {
 public:
  // Fills ctx's global targets; returns why level W cannot check global memory ("" when it can).
  // `footprints`: disjoint, one per block and target (level_w_footprints); its lists stay here.
  std::string setup(const std::vector<GlobalAllocation>& globals, LevelWFootprints footprints, uint32_t warps,
                    LaunchCtx& ctx, cudaStream_t stream) {
    const size_t n = globals.size();
    const uint64_t per_copy = copy_bytes(globals);
    const uint64_t needed = uint64_t(warps + 1) * per_copy;
    if (needed > DeviceBuffer::memory_budget()) return std::to_string(needed) + " bytes of copies exceed the memory budget";
    arena_ = DeviceBuffer::allocate(needed, stream);
    const std::vector<unsigned long long>& bounds = footprints.bounds;
    if (!bounds.empty()) bounds_ = DeviceBuffer::allocate(bounds.size() * sizeof(unsigned long long), stream);
    if (!arena_ || (!bounds.empty() && !bounds_))
      return "no device memory for " + std::to_string(needed) + " bytes of copies";
    if (bounds_) cudaMemcpyAsync(bounds_.get(), bounds.data(), bounds_.bytes(), cudaMemcpyHostToDevice, stream);
    lists_ = std::move(footprints.lists);
    uint64_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t stride = padded_copy_bytes(globals[i].bytes);
      uint8_t* copies = arena_.get() + offset;
      // The warps' copies and U (copy `warps`): U is S wherever no site has checked yet.
      kernels::replicate(TargetBuffers{globals[i].base, globals[i].bytes, copies, stride, copies + warps * stride,
                                       warps + 1, uint32_t(i)},
                         stream);
      ctx.globals[i] = global_target(globals[i], copies, stride, uint64_t(warps) * stride);
      if (!lists_.empty()) ctx.globals[i].lists = lists_[i].get<uint32_t>();
      offset += uint64_t(warps + 1) * stride;
    }
    ctx.num_globals = uint32_t(n);
    ctx.footprints = bounds_ ? bounds_.get<unsigned long long>() : nullptr;
    return "";
  }
  uint64_t bytes() const {
    uint64_t total = arena_.bytes() + bounds_.bytes();
    for (const DeviceBuffer& l : lists_) total += l.bytes();
    return total;
  }

 private:
  DeviceBuffer arena_, bounds_;
  std::vector<DeviceBuffer> lists_;
};

struct Launch {
  const KernelDesc& desc;
  dim3 grid, block;
  uint32_t warps;
  std::vector<TargetLayout> targets;
  std::vector<GlobalAllocation> globals;

  // Region texts by region key, built once per launch (a racy launch makes thousands of reports in
  // a few regions, and each text formats two source positions).
  mutable std::unordered_map<uint32_t, std::string> region_texts;

  // How level W's records merge (coalesce_records): by the elements of the variable they are in.
  Continues record_continues() const {
    std::vector<LayoutVariable> shared;
    for (const TargetLayout& t : targets) shared.push_back({t.offset, t.bytes, t.element_size});
    std::vector<uint64_t> global_sizes;
    for (const GlobalAllocation& g : globals) global_sizes.push_back(g.element_size);
    return by_layout(std::move(shared), std::move(global_sizes));
  }

  Race race_from(const RaceRecord& r) const {
    Race race;
    race.kind = RaceKind(r.kind);
    race.kernel = desc.name;
    auto region = region_texts.find(r.region);
    if (region == region_texts.end()) region = region_texts.emplace(r.region, region_text(desc, r.region)).first;
    race.region = region->second;
    race.unit_kind = "warp";
    race.block = dim3_text(block_index(r.block, grid));
    race.units_a = {r.unit_a};
    if (r.unit_b != kNoUnit) race.units_b = {r.unit_b};
    if (r.target & kRegisterTarget) {
      const uint32_t local = r.target & 0xffffu;
      race.space = "register";
      race.target = local == kDiverged ? "control flow"
                  : local < desc.num_locals ? "local " + std::string(desc.locals[local])
                                            : "a local";
      race.element = "thread " + std::to_string(r.byte_lo);
      race.byte_lo = r.byte_lo;
      race.byte_hi = r.byte_hi;
      race.units_text = "warp " + std::to_string(r.unit_a) + " of block " + race.block +
                        (local == kDiverged ? " took another path in the re-execution"
                                            : " computed another value in the re-execution") +
                        ": it read a value another warp wrote in the same region";
      return race;
    }
    if ((r.target & kGlobalTarget) && (r.target & ~kGlobalTarget) < globals.size()) {
      race.space = "global";
      place_in_allocation(race, globals[r.target & ~kGlobalTarget], r.byte_lo, r.byte_hi);
    } else {
      race.space = "shared";
      for (const TargetLayout& t : targets) {
        if (r.byte_lo < t.offset || r.byte_lo >= t.offset + t.bytes) continue;
        race.target = t.name;
        race.element_size = t.element_size;
        race.byte_lo = r.byte_lo - t.offset;
        race.byte_hi = std::min(r.byte_hi, t.offset + t.bytes) - t.offset;
        race.element = element_name(t, race.byte_lo, race.byte_hi);
        break;
      }
    }
    if (race.target.empty()) {
      race.target = "shared memory";
      race.byte_lo = r.byte_lo;
      race.byte_hi = r.byte_hi;
    }
    if (race.kind == RaceKind::WriteWrite)
      race.units_text = warp_text(r.unit_a, warps) + " and " + warp_text(r.unit_b, warps) + " of block " +
                        race.block + " both wrote it";
    else
      race.units_text = "warp " + std::to_string(r.unit_a) + " of block " + race.block +
                        " read a value another warp wrote in the same region";
    return race;
  }
};

// LDCC_PROFILE's names for the level W kernel (when it cannot split it between sites and region
// code) and for the original kernel run after level B alone (the profile syncs after it).
constexpr const char* kLevelWPhase = "level W kernel (two passes per region, checks at barriers)";
constexpr const char* kOriginalKernelPhase = "original kernel (it makes the results when level W does not run)";

void run_original(const void* original, dim3 grid, dim3 block, size_t shared, cudaStream_t stream,
                  void** args) {
  // cudaLaunchKernel sets the error cudaGetLastError() reports, as <<<>>> does.
  (void)cudaLaunchKernel(original, grid, block, args + 1, shared, stream);
}

struct RegisteredProof {
  ProofFunction proof;
  bool deterministic;
};

std::unordered_map<const KernelDesc*, RegisteredProof>& registered_proofs() {
  static auto* proofs = new std::unordered_map<const KernelDesc*, RegisteredProof>();  // filled by static initializers
  return *proofs;
}

// Whether this launch's proof of race freedom holds (LDCC_PROOFS, ldcc/proof.h); a launch like an
// earlier one (proof_cache.h) has its verdict.
bool proven_race_free(const KernelDesc& desc, Mode mode, dim3 grid, dim3 block, void** args,
                      const unsigned long long* param_sizes, const unsigned long long* pointee_sizes, unsigned num_params) {
  const auto it = registered_proofs().find(&desc);
  if (it == registered_proofs().end() || (mode == Mode::Deterministic && !it->second.deterministic)) return false;
  if (!parse_count(flags().proofs).value_or(0)) return false;
  static auto* verdicts = new proof::VerdictCache();
  const std::string key = proof::launch_key(grid, block, args, param_sizes, pointee_sizes, num_params, allocation_of);
  if (const std::optional<bool> known = verdicts->find(&desc, key)) return *known;
  const bool holds = it->second.proof(proof::ProofInput{grid, block, args}, allocation_of);
  verdicts->store(&desc, key, holds);
  return holds;
}

void record_unchecked(const std::string& warning, Mode mode) {
  LaunchResult r;
  r.checked = false;
  r.deterministic = mode == Mode::Deterministic;
  r.warning = warning;
  ProcessReport::instance().add(r);
}

// Kernels (with their block counts) whose run on the program's memory was undone skip it on their
// next launches, twice as many after each further undo (up to kMaxInPlaceSkips), and try again after
// them: whether the stores overlap may change with the data. The path does not change a result
// (deterministic.h, run_in_place: a run that would not be undone leaves what the block copies leave),
// only what the launch costs. Kernels with device printf never take it (their warps take turns,
// KernelDesc::warp_turns): an undone run would have printed already.
class InPlaceBackoff {
 public:
  // Whether this launch tries the program's memory.
  bool try_now(const KernelDesc& desc, uint32_t blocks) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = history_.find({&desc, blocks});
    if (it == history_.end() || it->second.skips_left == 0) return true;
    --it->second.skips_left;
    return false;
  }
  void record(const KernelDesc& desc, uint32_t blocks, bool undone) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!undone) {
      history_.erase({&desc, blocks});
      return;
    }
    History& h = history_[{&desc, blocks}];
    h.skips = std::min(kMaxInPlaceSkips, h.skips ? 2 * h.skips : kFirstInPlaceSkips);
    h.skips_left = h.skips;
  }

 private:
  static constexpr uint32_t kFirstInPlaceSkips = 4, kMaxInPlaceSkips = 1024;
  struct History {
    uint32_t skips = 0, skips_left = 0;
  };
  std::mutex mutex_;
  std::map<std::pair<const KernelDesc*, uint32_t>, History> history_;
};
InPlaceBackoff in_place_backoff;

// Deterministic mode (DESIGN.md section 7): one execution of the clone at the deterministic level,
// whose sites merge the warps' shared copies in warp order; with global targets, the warps of a block
// run each region in warp order and, with several blocks, the blocks run on private copies merged in
// block order (deterministic.h). Returns "" when it ran, else why the kernel must run natively.
std::string run_deterministic(const KernelDesc& desc, const std::vector<GlobalAllocation>& globals, dim3 grid,
                              uint32_t warps, LaunchCtx& ctx, cudaStream_t stream, uint64_t launch_bytes,
                              const std::function<cudaError_t()>& start) {
  ctx.level = kLevelDeterministic;
  LaunchResult result;
  result.deterministic = true;
  result.checked = true;
  result.copies = 1;
  result.rounds = 1;
  result.extra_device_bytes = launch_bytes;
  cudaError_t err = cudaSuccess;
  // A launch whose threads read only what they store first on the program's own memory
  // (deterministic.h: where two blocks' or two warps' stores overlap it is undone and goes on below).
  const uint32_t blocks = grid.x * grid.y * grid.z;
  const bool several_units = blocks > 1 || warps > 1;
  const bool in_place_kind = !globals.empty() && all_read_own_stores(globals) && !desc.warp_turns && !desc.atomics;
  bool ran = false;
  uint64_t in_place_bytes = 0;
  if (in_place_kind && several_units && in_place_backoff.try_now(desc, blocks)) {
    const InPlaceOutcome o = run_in_place(globals, grid, warps, ctx, stream, start);
    err = o.error;
    ran = o.ran || err != cudaSuccess;
    if (err == cudaSuccess) in_place_backoff.record(desc, blocks, o.overlapped);
    in_place_bytes = o.extra_device_bytes;
    if (parse_count(flags().verbose).value_or(0) && err == cudaSuccess)
      std::fprintf(stderr, "ldcc: %s: deterministic on the program's memory (%s): %s\n", desc.name,
                   own_stores_kind(globals),
                   o.ran                ? "the blocks' footprints are disjoint"
                   : o.warps_overlapped ? "two warps of a block stored to one word, again on block copies"
                   : o.overlapped       ? "two blocks' footprints overlap, again on block copies"
                                        : "no room for its footprints, on block copies");
  }
  // Copies of the global targets with several blocks, or for the warps of one block, unless they
  // take turns anyway (then on the targets themselves), or it has atomics: global ones would act on a
  // copy of their own, which plain accesses do not see until the end (as between blocks).
  // A launch that could run in place and updates a target there keeps its warps in turns on the
  // block copies: racing updates add up in warp order, where a copy per warp would keep the highest
  // warp's alone. (In place, warps' updates of one word undo the run and send the launch here.)
  const bool warp_copies_allowed = !desc.warp_turns && !(in_place_kind && !all_write_only(globals));
  if (ran) {
    result.extra_device_bytes += in_place_bytes;
  } else if (!globals.empty() && (blocks > 1 || (warps > 1 && !desc.warp_turns && !desc.atomics))) {
    const OrderedBlocksOutcome o = run_ordered_blocks(globals, grid, warps, warp_copies_allowed, ctx, stream, start);
    if (!o.ran && o.error == cudaSuccess) return o.warning;
    err = o.error;
    result.copies = o.batch;
    result.rounds = o.batches;
    result.extra_device_bytes += std::max(in_place_bytes, o.extra_device_bytes);
  } else {
    ctx.ordered_warps = !globals.empty() && warps > 1;
    err = start();
    PhaseProfile::end("deterministic kernel");
  }
  if (err == cudaErrorInvalidConfiguration || err == cudaErrorLaunchOutOfResources) {
    cudaGetLastError();
    return std::string("its clone cannot run with this configuration (") + cudaGetErrorString(err) + ")";
  }
  if (err != cudaSuccess) {
    std::fprintf(stderr, "ldcc: error: the deterministic launch of '%s' failed: %s\n", desc.name, cudaGetErrorString(err));
    return "";
  }
  ProcessReport::instance().add(std::move(result));
  return "";
}

// Per (kernel, device): its attributes, asked once, and the most dynamic shared memory it has been
// allowed so far (cudaFuncGetAttributes and cudaFuncSetAttribute are driver calls, and a program makes
// thousands of checked launches of a few kernels).
struct KernelLimits {
  cudaFuncAttributes attributes{};
  bool known = false;  // the attributes were given (a failed query is asked again, as before the cache)
  uint64_t dynamic_allowed = 0;
};
std::mutex kernel_limits_mutex;
std::map<std::pair<const void*, int>, KernelLimits> kernel_limits;

KernelLimits& limits_of(const void* kernel, int device) {  // kernel_limits_mutex held
  KernelLimits& k = kernel_limits[{kernel, device}];
  if (!k.known) k.known = cudaFuncGetAttributes(&k.attributes, kernel) == cudaSuccess;
  return k;
}

cudaFuncAttributes attributes_of(const void* kernel, int device) {
  std::lock_guard<std::mutex> lock(kernel_limits_mutex);
  return limits_of(kernel, device).attributes;
}

// Whether `kernel` can take `bytes` of dynamic shared memory beside its static shared memory within
// the device's opt-in limit, raising its limit when needed (the opt-in is needed wherever static and
// dynamic shared memory together pass 48 KiB).
bool fits_dynamic_shared(const void* kernel, int device, uint64_t bytes, uint64_t optin) {
  std::lock_guard<std::mutex> lock(kernel_limits_mutex);
  KernelLimits& k = limits_of(kernel, device);
  if (k.attributes.sharedSizeBytes + bytes > optin) return false;
  if (bytes <= k.dynamic_allowed) return true;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  k.dynamic_allowed = bytes;
  return true;
}

// The layout queries' answers, per (clone, device).
std::mutex layouts_mutex;
std::map<std::pair<const void*, int>, std::vector<unsigned long long>> layouts;

// A clone's SeenTable on the device (race_record.h), made at its first launch that logs a record.
class DeviceSeenTable {
 public:
  // Half full at 64K keys (6 MiB); beyond that the host's SeenRecords still drops what it holds.
  // scan_race logs about 3.4K keys in its 384 launches (7.7K with a log that drops nothing).
  static constexpr uint32_t kSlots = 1u << 17;
  SeenTable view() const {
    if (!hashes_) return {};
    return SeenTable{hashes_.get<unsigned long long>(), keys_.get<RaceRecord>(), kSlots - 1, fill_.get<unsigned int>()};
  }
  uint64_t bytes() const { return hashes_.bytes() + keys_.bytes() + fill_.bytes(); }
  // Adds the keys of a launch's logged records (still on the device) on `stream`; the caller waits for
  // it, outside the lock, before the log is freed (the next launch may be on another stream).
  void remember(const RaceRecord* records, uint32_t count, cudaStream_t stream) {
    if (count == 0 || no_room_) return;
    if (!hashes_) {
      hashes_ = DeviceBuffer::allocate(kSlots * sizeof(unsigned long long), stream);
      keys_ = DeviceBuffer::allocate(kSlots * sizeof(RaceRecord), stream);
      fill_ = DeviceBuffer::allocate(sizeof(unsigned int), stream);
      if (!hashes_ || !keys_ || !fill_) {
        // No room: none of it is kept, and no later launch tries again (each try is an allocation
        // that fails under memory pressure); the host's SeenRecords still drops what it has seen.
        cudaGetLastError();
        hashes_ = {};
        keys_ = {};
        fill_ = {};
        no_room_ = true;
        return;
      }
      cudaMemsetAsync(hashes_.get(), 0, hashes_.bytes(), stream);
      cudaMemsetAsync(fill_.get(), 0, fill_.bytes(), stream);
    }
    kernels::remember_records(records, count, view(), stream);
  }

 private:
  DeviceBuffer hashes_, keys_, fill_;
  bool no_room_ = false;
};

std::mutex seen_mutex;
std::map<const void*, SeenRecords> seen_records;  // per clone
// Per (clone, device); never destroyed, so no device memory is freed after the runtime shut down.
auto& seen_tables = *new std::map<std::pair<const void*, int>, DeviceSeenTable>;

std::vector<unsigned long long> known_layout(const void* clone, int device) {
  std::lock_guard<std::mutex> lock(layouts_mutex);
  auto it = layouts.find({clone, device});
  return it == layouts.end() ? std::vector<unsigned long long>{} : it->second;
}

void remember_layout(const void* clone, int device, const std::vector<unsigned long long>& q) {
  std::lock_guard<std::mutex> lock(layouts_mutex);
  layouts[{clone, device}] = q;
}

// LDCC_TIMING: the wall time of one launch from the host, stream drained before and after, so
// native (mode off) and checked launches of the same binary compare directly; and the peak extra
// device memory of the process's checked launches so far.
class LaunchTimer {
 public:
  LaunchTimer(const KernelDesc& desc, Mode mode, cudaStream_t stream) : desc_(desc), mode_(mode), stream_(stream) {
    if (flags().timing_path.empty()) return;
    active_ = true;
    cudaStreamSynchronize(stream_);
    start_ = std::chrono::steady_clock::now();
  }
  ~LaunchTimer() {
    if (!active_) return;
    cudaStreamSynchronize(stream_);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
    std::lock_guard<std::mutex> lock(warn_mutex);
    if (FILE* f = std::fopen(flags().timing_path.c_str(), "a")) {
      std::fprintf(f, "%s,%s,%.1f,%llu\n", desc_.name, mode_name(mode_), us,
                   (unsigned long long)ProcessReport::instance().peak_extra_bytes());
      std::fclose(f);
    }
  }

 private:
  const KernelDesc& desc_;
  Mode mode_;
  cudaStream_t stream_;
  bool active_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

void launch_kernel(const KernelDesc& desc, const void* original, const void* checked, const void* checked_in_shared,
                   const void* blocks_clone, dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream, void** args,
                   const unsigned long long* param_sizes, const unsigned long long* pointee_sizes, unsigned num_params) {
  const Mode mode = mode_for(desc);
  LaunchTimer timer(desc, mode, stream);
  if (mode == Mode::Off) return run_original(original, grid, block, shared_bytes, stream, args);
  PhaseProfile profile(stream, desc.name);
  const std::string kernel = desc.name;
  auto unchecked = [&](const std::string& why) {
    warn_once("kernel '" + kernel + (mode == Mode::Deterministic ? "' runs natively, its determinism is not guaranteed: "
                                                                 : "' runs unchecked: ") + why);
    record_unchecked(why, mode);
    run_original(original, grid, block, shared_bytes, stream, args);
  };
  if (desc.unchecked_reason)
    return unchecked(std::string(desc.unchecked_reason) + " (" + desc.unchecked_where + ")");
  if (!checked || !blocks_clone) return unchecked("the translation gave it no checked clones");
  if (proven_race_free(desc, mode, grid, block, args, param_sizes, pointee_sizes, num_params)) {
    run_original(original, grid, block, shared_bytes, stream, args);
    PhaseProfile::end("launch-time proof and original kernel");
    if (parse_count(flags().verbose).value_or(0))
      std::fprintf(stderr, "ldcc: %s<<<%s, %s>>>: proven race-free at launch (affine accesses); the original kernel runs\n",
                   desc.name, dim3_text(grid).c_str(), dim3_text(block).c_str());
    LaunchResult proven;
    proven.checked = true;
    proven.deterministic = mode == Mode::Deterministic;
    proven.proven = true;
    proven.kernel = desc.name;
    ProcessReport::instance().add(std::move(proven));
    return;
  }
  // Destroyed after the launch's buffers (declared below): their stream-ordered frees are in the work
  // it watches.
  const LaunchWatch watch(desc.name, mode == Mode::Deterministic ? "deterministic" : "checked", stream);

  // A launch error of the user's own configuration is reported as native: launch the original.
  const uint32_t threads = block.x * block.y * block.z;
  if (threads == 0 || grid.x * grid.y * grid.z == 0) return run_original(original, grid, block, shared_bytes, stream, args);
  LaunchCtx& ctx = *static_cast<LaunchCtx*>(args[0]);
  ctx = LaunchCtx{};

  // 1. The clone describes its shared-memory targets (sizes depend on template arguments) and the
  // addresses of the __device__ variables it writes: fixed per clone and device, so asked once.
  int device = 0;
  cudaGetDevice(&device);
  std::vector<unsigned long long> q = known_layout(checked, device);
  uint64_t query_bytes = 0;  // extra device memory of this launch's query, if it asked
  if (q.empty()) {
    DeviceBuffer query = DeviceBuffer::allocate(sizeof(unsigned long long) * kQueryWords, stream);
    if (!query) return unchecked("no device memory for the layout query");
    cudaMemsetAsync(query.get<void>(), 0, query.bytes(), stream);
    // Its own phase: the process's first buffer sets up ldcc's block cache (with a stream-ordered
    // pool this took 11-13 ms on an H100, the first allocation from any cudaMemPool).
    PhaseProfile::end("layout query buffer");
    ctx.query_out = query.get<unsigned long long>();
    q.resize(kQueryWords);
    if (cudaLaunchKernel(checked, dim3(1), dim3(1), args, 0, stream) != cudaSuccess ||
        cudaMemcpyAsync(q.data(), query.get<void>(), query.bytes(), cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess) {
      const std::string why = cudaGetErrorString(cudaGetLastError());
      return unchecked("the checked kernel could not start (" + why + ")");
    }
    ctx.query_out = nullptr;
    query_bytes = query.bytes();
    remember_layout(checked, device, q);
  }
  PhaseProfile::end("layout query");

  Launch launch{desc, grid, block, (threads + 31) / 32, {}};
  uint64_t offset = 0;
  const uint32_t n = uint32_t(std::min<unsigned long long>(q[0], kMaxTargets));
  // Every extern __shared__ array (the kernel's, its helpers', an accessor's) names the launch's one
  // dynamic shared memory: they share one place in the layout, aligned for the most demanding.
  uint64_t dynamic_align = 16, dynamic_offset = UINT64_MAX;
  for (uint32_t i = 0; i < n; ++i)
    if (q[2 + 8 * i] == 0) dynamic_align = std::max<uint64_t>(dynamic_align, q[3 + 8 * i]);
  for (uint32_t i = 0; i < n; ++i) {
    const unsigned long long* d = &q[2 + 8 * i];
    TargetLayout t;
    t.name = i < desc.num_targets ? desc.targets[i] : "shared variable " + std::to_string(i);
    t.bytes = d[0] ? d[0] : shared_bytes;  // extern __shared__: the launch's dynamic size
    // At least 16: the clones' target_ref (region_check.cuh) rounds each offset down to 16 so the compiler
    // sees the alignment.
    const uint64_t align = d[0] ? std::max<uint64_t>(16, d[1]) : dynamic_align;
    t.element_size = std::max<unsigned long long>(1, d[2]);
    for (unsigned long long k = 0; k < std::min<unsigned long long>(d[3], 4); ++k) t.extents.push_back(d[4 + k]);
    if (!t.extents.empty() && t.extents[0] == 0) t.extents[0] = t.bytes / t.element_size;
    if (d[0] == 0 && dynamic_offset != UINT64_MAX) {
      t.offset = dynamic_offset;
    } else {
      offset = (offset + align - 1) / align * align;
      t.offset = offset;
      offset += t.bytes;
      if (d[0] == 0) dynamic_offset = t.offset;
    }
    ctx.offsets[i] = t.offset;
    launch.targets.push_back(t);
  }
  const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  std::vector<std::string> problems;
  const std::vector<GlobalAllocation> globals = find_global_allocations(desc, args, pointee_sizes, num_params, q, problems);
  for (const std::string& p : problems) warn_once("kernel '" + kernel + "': " + p + "; it is not checked");
  PhaseProfile::end("global allocation lookup");
  if (globals.size() > kMaxGlobalTargets)
    return unchecked("it writes " + std::to_string(globals.size()) + " global allocations; at most " +
                     std::to_string(kMaxGlobalTargets) + " are supported");
  const bool block_level = !globals.empty() && blocks > 1;
  if (offset == 0 && globals.empty() && mode == Mode::Deterministic) {
    // No memory ldcc finds written (the translator refuses stores it cannot trace): nothing to order.
    LaunchResult r;
    r.deterministic = r.checked = true;
    ProcessReport::instance().add(r);
    return run_original(original, grid, block, shared_bytes, stream, args);
  }
  if (offset == 0 && globals.empty()) {
    // Nothing to privatize: counted as unchecked so the summary does not claim a check that did not happen.
    return unchecked("it writes neither shared memory nor global memory ldcc can find");
  }
  ctx.layout_bytes = offset;
  ctx.stride = padded_copy_bytes(offset);
  const uint64_t area = uint64_t(launch.warps + 3) * ctx.stride;  // S, U, one copy per warp, atomics

  // 2. Copies in shared memory when they fit, else in a global scratch slot per resident block.
  int optin = 0, sms = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const cudaFuncAttributes attributes = attributes_of(checked, device);
  if (attributes.maxThreadsPerBlock > 0 && threads > uint32_t(attributes.maxThreadsPerBlock))
    return unchecked("its clone takes at most " + std::to_string(attributes.maxThreadsPerBlock) +
                     " threads per block (the largest constant block size of its launches in its file), this launch has " +
                     std::to_string(threads));
  size_t dynamic_bytes = 0;
  DeviceBuffer scratch, busy;
  // The clone that runs: with the copies in shared memory, the one compiled for them (its accesses to
  // shared variables are shared-memory instructions, not generic ones) where the kernel has one.
  const void* clone = checked;
  if (fits_dynamic_shared(checked, device, area, uint64_t(optin))) {
    dynamic_bytes = area;
    if (checked_in_shared && fits_dynamic_shared(checked_in_shared, device, area, uint64_t(optin)) &&
        threads <= uint32_t(attributes_of(checked_in_shared, device).maxThreadsPerBlock))
      clone = checked_in_shared;
  } else {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, checked, int(threads), 0);
    const uint64_t slots = std::min<uint64_t>(blocks, uint64_t(std::max(per_sm, 1)) * std::max(sms, 1));
    scratch = DeviceBuffer::allocate(slots * area, stream);
    busy = DeviceBuffer::allocate(slots * sizeof(uint32_t), stream);
    if (!scratch || !busy) {
      cudaGetLastError();
      return unchecked("not enough device memory for " + std::to_string(slots * area) + " bytes of private copies");
    }
    cudaMemsetAsync(busy.get<void>(), 0, busy.bytes(), stream);
    ctx.scratch = scratch.get<uint8_t>();
    ctx.slot_busy = busy.get<uint32_t>();
    ctx.num_slots = uint32_t(slots);
  }

  // 3. The race log and counters, then the checked launch.
  const uint32_t capacity = uint32_t(parse_count(flags().log_capacity).value_or(65536));
  DeviceBuffer records = DeviceBuffer::allocate(sizeof(RaceRecord) * std::max<uint32_t>(capacity, 1), stream);
  DeviceBuffer counters = DeviceBuffer::allocate(sizeof(unsigned long long) * (kNumCounters + 1), stream);
  if (!records || !counters) {
    cudaGetLastError();
    return unchecked("no device memory for the race log");
  }
  cudaMemsetAsync(counters.get<void>(), 0, counters.bytes(), stream);
  // Which blocks logged a race (level B's read-write records of those are inconclusive), and the keys
  // of the records earlier launches logged, which this one's log drops: only with the flags, since
  // without them which blocks raced comes from the log, which must then keep every record.
  DeviceBuffer raced_blocks = DeviceBuffer::allocate(blocks * sizeof(uint32_t), stream);
  uint64_t seen_bytes = 0;
  if (raced_blocks) {
    cudaMemsetAsync(raced_blocks.get<void>(), 0, raced_blocks.bytes(), stream);
    ctx.log_filter.raced_blocks = raced_blocks.get<uint32_t>();
    std::lock_guard<std::mutex> lock(seen_mutex);
    const DeviceSeenTable& seen = seen_tables[{checked, device}];
    ctx.log_filter.seen = seen.view();
    seen_bytes = seen.bytes();
  } else {
    cudaGetLastError();
  }
  ctx.log.records = records.get<RaceRecord>();
  ctx.log.count = counters.get<unsigned long long>() + kNumCounters;
  ctx.log.capacity = capacity;
  ctx.counters = counters.get<unsigned long long>();
  ctx.profile = !flags().profile_path.empty();

  const uint64_t launch_bytes =
      query_bytes + scratch.bytes() + busy.bytes() + records.bytes() + counters.bytes() + raced_blocks.bytes() + seen_bytes;
  PhaseProfile::end("copies and log allocation");
  const auto start_clone = [&] { return cudaLaunchKernel(clone, grid, block, args, dynamic_bytes, stream); };
  if (mode == Mode::Deterministic) {
    if (const std::string why = run_deterministic(desc, globals, grid, launch.warps, ctx, stream, launch_bytes, start_clone);
        !why.empty())
      unchecked(why);
    return;
  }

  // 4. Level B over the global memory it writes, then level W, whose execution is the one that stays.
  // Extra memory: what stays for the whole launch, plus the larger of level B's copies (freed before
  // level W) and level W's global copies.
  LaunchResult result;
  result.kernel = desc.name;
  LevelWFootprints footprints;  // level W's
  std::string no_footprints;    // why there are none
  BlockReads block_reads;            // empty when level B logged no read-write records
  uint64_t block_reads_bytes = 0;    // device memory block_reads holds through level W
  bool blocks_independent = blocks == 1;
  std::string no_warp_globals;  // why level W leaves global memory out ("" when it checks it)
  // One warp per block: no two units share a block, so level W has nothing to compare (LD's units are
  // warps); the original kernel makes the results.
  const bool one_warp = launch.warps == 1;
  if (block_level) {
    const std::string region = region_text(desc, uint32_t(q[1]));
    // Level B's clone keeps one copy of the shared targets, in dynamic shared memory: about what the
    // original kernel has (its shared variables, aligned, and ldcc's block state).
    const size_t block_level_bytes = ctx.stride;
    const bool block_level_fits = fits_dynamic_shared(blocks_clone, device, block_level_bytes, uint64_t(optin));
    const auto start_block_level = [&] {
      return cudaLaunchKernel(blocks_clone, grid, block, args, block_level_bytes, stream);
    };
    BlockLevelOutcome b;
    if (block_level_fits)
      b = run_block_level(desc, globals, grid, ctx, stream, start_block_level, region);
    else
      b.warning = "its shared memory (" + std::to_string(block_level_bytes) + " bytes) and ldcc's block state exceed the " +
                  std::to_string(optin) + " bytes a block can have";
    // Level W checks global memory only where the blocks are independent and a block has two warps;
    // elsewhere the footprints (read from the device) would be thrown away.
    const auto independent = [&] { return b.checked && b.races.empty() && !b.read_records && !b.atomics; };
    if (independent() && !one_warp) {
      footprints = level_w_footprints(globals, b, uint32_t(blocks), stream, no_footprints);
      if (footprints.empty() && b.fewer_copies_by_cost) {
        // Copies shared between blocks give only the hooks' footprints, and those overlap: a copy per
        // block gives the diffs' too, so level W may still check global memory.
        b = run_block_level(desc, globals, grid, ctx, stream, start_block_level, region, true);
        if (independent()) footprints = level_w_footprints(globals, b, uint32_t(blocks), stream, no_footprints);
      }
    }
    ctx.level = kLevelWarps;
    ctx.num_globals = 0;
    ctx.copy_of_block = nullptr;
    if (!b.checked) {
      warn_once("kernel '" + kernel + "': global memory runs unchecked: " + b.warning);
      no_warp_globals = "level B could not run: " + b.warning;
    } else if (b.atomics) {
      no_warp_globals = "its blocks make atomic operations on it";
    } else if (!b.races.empty()) {
      no_warp_globals = "level B found races between blocks";
    } else if (b.read_records) {
      no_warp_globals = "level B found blocks reading what other blocks wrote";
    }
    blocks_independent = independent();
    result.races = std::move(b.races);
    block_reads = std::move(b.reads);
    block_reads_bytes = b.reads_device_bytes;
    result.regions = b.checked ? 1 : 0;
    result.copies = b.copies;
    result.rounds = b.rounds;
    result.extra_device_bytes = launch_bytes + b.extra_device_bytes;
    result.dropped_records = b.dropped_records;
    result.checked = b.checked;
  }
  if (blocks == 1)
    for (const GlobalAllocation& g : globals) footprints.bounds.insert(footprints.bounds.end(), {0ull, g.bytes});
  WarpGlobals warp_globals;
  if (!globals.empty() && blocks_independent && !one_warp)
    no_warp_globals =
        footprints.empty() ? no_footprints : warp_globals.setup(globals, std::move(footprints), launch.warps, ctx, stream);
  PhaseProfile::end("level W global copies");
  if (!globals.empty() && !no_warp_globals.empty()) {
    if (parse_count(flags().verbose).value_or(0))
      std::fprintf(stderr, "ldcc: %s: global memory is not checked between warps: %s\n", desc.name, no_warp_globals.c_str());
    // What the summary says was left out of a launch otherwise checked; all of global memory when level
    // B could not run (its result is still unchecked here).
    const bool level_b_failed = block_level && !result.checked;
    if (!one_warp)
      result.gap = (level_b_failed ? "global memory (" : "global memory between the warps of a block (") + no_warp_globals + ")";
  }
  if ((offset == 0 || one_warp) && ctx.num_globals == 0) {
    // Nothing for level W to compare: the original kernel makes the results.
    if (one_warp && !block_level) result.checked = true;
    if (!result.checked) {
      // Level B already warned when it could not run; a single block says why here.
      if (block_level) {
        record_unchecked(no_warp_globals, mode);
        run_original(original, grid, block, shared_bytes, stream, args);
        PhaseProfile::end(kOriginalKernelPhase);
        return;
      }
      return unchecked(no_warp_globals);
    }
    add_block_reads(result.races, block_reads, [](uint32_t) { return false; }, kernel);
    result.races = coalesce(std::move(result.races));
    ProcessReport::instance().add(std::move(result));
    PhaseProfile::end("reports");
    run_original(original, grid, block, shared_bytes, stream, args);
    PhaseProfile::end(kOriginalKernelPhase);
    return;
  }
  launch.globals = globals;
  // Where the hooks see every store, a site whose region stored nothing to global memory skips it.
  ctx.global_store_flags = ctx.num_globals > 0 && desc.warp_turns == nullptr;
  // The global target each pointer argument points into: a region whose threads loaded through none
  // into a target their block wrote ends without re-execution (region_check.cuh, ends_without_rerun).
  for (uint32_t i = 0; i < kMarkedParams; ++i) {
    const void* pointer = nullptr;
    if (i < num_params && pointee_sizes[i]) std::memcpy(&pointer, args[1 + i], sizeof pointer);
    const int target = pointer ? target_holding(ctx.globals, ctx.num_globals, pointer) : -1;
    ctx.param_targets[i] = target < 0 ? kNoTarget : uint8_t(target);
  }
  result.extra_device_bytes = std::max(result.extra_device_bytes, launch_bytes + warp_globals.bytes() + block_reads_bytes);
  cudaError_t err = start_clone();
  if (err == cudaErrorInvalidConfiguration || err == cudaErrorLaunchOutOfResources) {
    cudaGetLastError();
    return unchecked(std::string("the checked kernel cannot run with this configuration (") + cudaGetErrorString(err) + ")");
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) {
    PhaseProfile::end(kLevelWPhase);
    std::fprintf(stderr, "ldcc: error: the checked launch of '%s' failed: %s\n", desc.name, cudaGetErrorString(err));
    return;
  }

  std::vector<unsigned long long> count(kNumCounters + 1);
  cudaMemcpy(count.data(), counters.get<void>(), counters.bytes(), cudaMemcpyDeviceToHost);
  if (count[kCyclesInKernel])
    PhaseProfile::end_split("level W kernel: checks at sites", "level W kernel: region code (both passes)",
                            std::min(1.0, double(count[kCyclesAtSites]) / double(count[kCyclesInKernel])));
  else
    PhaseProfile::end(kLevelWPhase);
  const uint64_t logged = count[kNumCounters];
  std::vector<RaceRecord> log(std::min<uint64_t>(logged, capacity));
  if (!log.empty()) {
    cudaMemcpy(log.data(), records.get<void>(), log.size() * sizeof(RaceRecord), cudaMemcpyDeviceToHost);
    {
      std::lock_guard<std::mutex> lock(seen_mutex);
      seen_tables[{checked, device}].remember(records.get<RaceRecord>(), uint32_t(log.size()), stream);
    }
    cudaStreamSynchronize(stream);
  }
  PhaseProfile::end("reports: copying level W's log");

  result.checked = true;
  result.copies = std::max(result.copies, launch.warps + 1);
  result.rounds = std::max(result.rounds, 1u);
  result.dropped_records += logged - log.size();
  result.regions += count[kRegionsChecked];
  std::vector<Race> races = std::move(result.races);
  if (block_reads) {
    // Blocks level W saw race within themselves: from the device's flags, else from the log (when it
    // overflowed, any block may have).
    std::vector<uint32_t> raced(blocks);
    bool overflowed = false;
    if (raced_blocks) {
      cudaMemcpy(raced.data(), raced_blocks.get<void>(), raced_blocks.bytes(), cudaMemcpyDeviceToHost);
    } else {
      overflowed = logged > log.size();
      for (const RaceRecord& r : log)
        if (r.block < raced.size()) raced[r.block] = 1;
    }
    add_block_reads(races, block_reads, [&](uint32_t b) { return overflowed || (b < raced.size() && raced[b]); }, kernel);
  }
  PhaseProfile::end("reports: level B's read-write records");
  // A record an earlier launch logged is not made into a report again. The same race in several
  // blocks is one report naming the first block and how many others.
  {
    std::lock_guard<std::mutex> lock(seen_mutex);
    seen_records[checked].drop_seen(log);
  }
  for (const BlockMergedRecord& m : merge_record_blocks(coalesce_records(std::move(log), launch.record_continues()))) {
    races.push_back(launch.race_from(m.record));
    races.back().other_blocks = m.other_blocks;
  }
  result.races = coalesce(std::move(races));
  PhaseProfile::end("reports: level W's records");
  if (parse_count(flags().verbose).value_or(0))
    std::fprintf(stderr,
                 "ldcc: %s<<<%s, %s>>>: %u warps x %llu bytes of shared targets in %s; %llu regions checked, %llu "
                 "without re-execution (a full log), %llu written by no warp, %llu that read nothing written; %llu "
                 "race records logged\n",
                 desc.name, dim3_text(grid).c_str(), dim3_text(block).c_str(), launch.warps + 1,
                 (unsigned long long)ctx.layout_bytes, dynamic_bytes ? "shared memory" : "global scratch",
                 count[kRegionsChecked], count[kPass2Skipped], count[kRegionsWithoutWrites],
                 count[kRegionsWithoutCrossReads], (unsigned long long)logged);
  ProcessReport::instance().add(std::move(result));
  PhaseProfile::end("reports: the process report");
}

ProofRegistration::ProofRegistration(const KernelDesc& desc, ProofFunction proof, bool deterministic) {
  registered_proofs()[&desc] = RegisteredProof{proof, deterministic};
}

}  // namespace ldcc::rt
