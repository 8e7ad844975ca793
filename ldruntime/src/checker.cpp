// The checked launch of the library API: the two-pass check of DESIGN.md section 3 over the rounds of
// a memory-adaptive plan (section 5), or the one-pass deterministic merge (section 7).
#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "device_buffer.h"
#include "flags.h"
#include "ldcc/kernels/check_kernels.h"
#include "ldcc/ldcc.h"
#include "ldcc/planner.h"
#include "race_filter.h"
#include "report.h"

namespace ldcc {
namespace {

struct TargetInfo {
  std::string name;
  uint8_t* ptr;
  uint64_t bytes;
  uint64_t element_size;
};

const char* const kWholeKernelRegion = "kernel entry .. kernel exit";

bool cuda_ok(cudaError_t error, const std::string& kernel, const char* what, std::string& warning) {
  if (error == cudaSuccess) return true;
  warning = "CUDA error during the checked launch of " + kernel + " (" + what + "): " + cudaGetErrorString(error);
  return false;
}

uint64_t memory_budget(const Options& options) {
  return options.memory_budget ? options.memory_budget : DeviceBuffer::memory_budget();
}

}  // namespace

Options::Options() : mode(parse_mode(flags().mode).value_or(Mode::Check)) {
  if (!parse_mode(flags().mode)) {
    static bool warned = false;
    if (!warned) std::fprintf(stderr, "ldcc: LDCC_MODE='%s' is not check, deterministic or off; using check\n", flags().mode.c_str());
    warned = true;
  }
}

struct Checker::State {
  std::string kernel;
  Options options;
  std::vector<TargetInfo> targets;

  // Arena layout: per target, `slots` padded copies side by side (check mode: M private copies then U;
  // deterministic mode: one copy per unit).
  DeviceView view(uint32_t execution, const uint32_t* copy_of_unit, const DeviceBuffer& arena, uint64_t slots) const {
    DeviceView v;
    v.execution = execution;
    v.num_targets = uint32_t(targets.size());
    v.copy_of_unit = copy_of_unit;
    uint64_t offset = 0;
    for (size_t i = 0; i < targets.size(); ++i) {
      const uint64_t stride = padded_copy_bytes(targets[i].bytes);
      v.targets[i] = ViewTarget{targets[i].ptr, arena ? arena.get() + offset : nullptr, stride};
      offset += slots * stride;
    }
    return v;
  }

  // The kernels' view of target i: `copies` private copies, then U in the next slot when `slots` has one.
  TargetBuffers buffers(size_t i, const DeviceBuffer& arena, uint32_t copies, uint64_t slots) const {
    const ViewTarget t = view(DeviceView::First, nullptr, arena, slots).targets[i];
    uint8_t* uni = slots > copies ? t.copies + uint64_t(copies) * t.stride : nullptr;
    return TargetBuffers{t.original, targets[i].bytes, t.copies, t.stride, uni, copies, uint32_t(i)};
  }

  uint64_t bytes_per_copy() const {
    uint64_t bytes = 0;
    for (const TargetInfo& t : targets) bytes += padded_copy_bytes(t.bytes);
    return bytes;
  }

  Race race_from(const RaceRecord& r, const CheckPlan& plan, uint32_t round,
                 std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>>& units_cache) const {
    auto units = [&](uint32_t copy) -> std::vector<uint32_t> {
      if (copy == kNoUnit) return {};
      auto key = std::make_pair(round, copy);
      auto it = units_cache.find(key);
      if (it == units_cache.end()) it = units_cache.emplace(key, plan.units_in_copy(round, copy)).first;
      return it->second;
    };
    const TargetInfo& t = targets[r.target];
    return Race{RaceKind(r.kind), "global", kernel, kWholeKernelRegion, t.name, t.element_size, r.byte_lo, r.byte_hi,
                options.unit_kind, units(r.unit_a), units(r.unit_b)};
  }
};

Checker::Checker(std::string kernel, Options options) : state_(new State{std::move(kernel), options, {}}) {}
Checker::~Checker() = default;

uint32_t Checker::add_target(std::string name, void* device_ptr, uint64_t bytes, uint64_t element_size) {
  if (state_->targets.size() == kMaxViewTargets)
    throw std::length_error("ldcc: a checked launch takes at most " + std::to_string(kMaxViewTargets) + " targets");
  state_->targets.push_back({std::move(name), static_cast<uint8_t*>(device_ptr), bytes, std::max<uint64_t>(element_size, 1)});
  return uint32_t(state_->targets.size() - 1);
}

cudaStream_t Checker::stream() const { return state_->options.stream; }

LaunchResult Checker::run(uint32_t units, const std::function<void(const DeviceView&)>& launch) {
  State& s = *state_;
  const cudaStream_t stream = s.options.stream;
  LaunchResult result;

  auto finish = [&](LaunchResult r) {
    r.deterministic = s.options.mode == Mode::Deterministic;
    r.races = coalesce(std::move(r.races));
    ProcessReport::instance().add(r);
    return r;
  };
  auto run_unchecked = [&](const std::string& why) {
    LaunchResult r;
    r.warning = why;
    if (!why.empty()) std::fprintf(stderr, "ldcc: warning: %s\n", why.c_str());
    launch(s.view(DeviceView::Unchecked, nullptr, DeviceBuffer(), 0));
    return finish(r);
  };

  if (s.options.mode == Mode::Off) return run_unchecked("");
  const uint64_t per_copy = s.bytes_per_copy();
  const uint64_t log_capacity = parse_count(flags().log_capacity).value_or(65536);
  const uint64_t log_bytes = sizeof(unsigned long long) + log_capacity * sizeof(RaceRecord);

  // A single unit cannot race with another at this level, nor be reordered: one plain execution.
  if (units <= 1 || per_copy == 0) {
    launch(s.view(DeviceView::First, nullptr, DeviceBuffer(), 0));
    result.checked = true;
    return finish(result);
  }

  if (s.options.mode == Mode::Deterministic) {
    // One private copy per unit, one execution, then the ordered merge.
    const uint64_t needed = uint64_t(units) * per_copy;
    DeviceBuffer arena, table;
    if (needed <= memory_budget(s.options)) {
      arena = DeviceBuffer::allocate(needed, stream);
      table = DeviceBuffer::allocate(uint64_t(units) * sizeof(uint32_t), stream);
    }
    if (!arena || !table)
      return run_unchecked(s.kernel + " ran natively: " + std::to_string(needed) +
                           " bytes of private copies do not fit, so its determinism is not guaranteed");
    std::vector<uint32_t> identity(units);
    for (uint32_t u = 0; u < units; ++u) identity[u] = u;
    cudaMemcpyAsync(table.get(), identity.data(), units * sizeof(uint32_t), cudaMemcpyHostToDevice, stream);
    for (size_t i = 0; i < s.targets.size(); ++i) kernels::replicate(s.buffers(i, arena, units, units), stream);
    launch(s.view(DeviceView::First, table.get<uint32_t>(), arena, units));
    for (size_t i = 0; i < s.targets.size(); ++i) kernels::merge_ordered(s.buffers(i, arena, units, units), false, stream);
    if (!cuda_ok(cudaStreamSynchronize(stream), s.kernel, "deterministic merge", result.warning))
      std::fprintf(stderr, "ldcc: %s\n", result.warning.c_str());
    result.checked = result.warning.empty();
    result.copies = units;
    result.rounds = 1;
    result.extra_device_bytes = arena.bytes() + table.bytes();
    return finish(result);
  }

  // Find the largest plan whose buffers the device actually gives us.
  uint64_t budget = memory_budget(s.options);
  std::optional<CheckPlan> plan;
  DeviceBuffer arena, table, log;
  while ((plan = plan_for_budget(units, per_copy, budget))) {
    arena = DeviceBuffer::allocate(plan_bytes(*plan, per_copy), stream);
    table = DeviceBuffer::allocate(uint64_t(units) * sizeof(uint32_t), stream);
    log = DeviceBuffer::allocate(log_bytes, stream);
    if (arena && table && log) break;
    arena = DeviceBuffer();
    table = DeviceBuffer();
    log = DeviceBuffer();
    budget = plan_bytes(*plan, per_copy) / 2;
  }
  if (!plan)
    return run_unchecked(s.kernel + " ran unchecked: checking " + std::to_string(units) + " units needs at least " +
                         std::to_string(3 * per_copy) + " bytes of device memory for private copies");

  const uint32_t copies = plan->copies();
  result.copies = copies;
  result.rounds = plan->rounds();
  result.extra_device_bytes = arena.bytes() + table.bytes() + log.bytes();
  auto* count = log.get<unsigned long long>();
  const RaceLogView log_view{reinterpret_cast<RaceRecord*>(log.get() + sizeof(unsigned long long)), count,
                             uint32_t(log_capacity)};
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> units_cache;
  std::vector<RaceRecord> records;
  std::vector<uint64_t> element_sizes;
  for (const TargetInfo& t : s.targets) element_sizes.push_back(t.element_size);
  RaceFilter filter(element_sizes);
  std::vector<std::pair<uint32_t, RaceRecord>> found;  // (round, record)

  for (uint32_t round = 0; round < plan->rounds(); ++round) {
    const std::vector<uint32_t> copy_of = plan->copy_table(round);
    cudaMemcpyAsync(table.get(), copy_of.data(), units * sizeof(uint32_t), cudaMemcpyHostToDevice, stream);
    cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream);
    const bool last_round = round + 1 == plan->rounds();
    for (size_t i = 0; i < s.targets.size(); ++i) kernels::replicate(s.buffers(i, arena, copies, copies + 1), stream);
    launch(s.view(round == 0 ? DeviceView::First : DeviceView::Repeat, table.get<uint32_t>(), arena, copies + 1));
    for (size_t i = 0; i < s.targets.size(); ++i) kernels::ww_check_fused(s.buffers(i, arena, copies, copies + 1), log_view, stream);
    launch(s.view(DeviceView::Repeat, table.get<uint32_t>(), arena, copies + 1));
    for (size_t i = 0; i < s.targets.size(); ++i) kernels::rw_check(s.buffers(i, arena, copies, copies + 1), log_view, last_round, stream);

    unsigned long long logged = 0;
    if (!cuda_ok(cudaMemcpyAsync(&logged, count, sizeof logged, cudaMemcpyDeviceToHost, stream), s.kernel, "log", result.warning) ||
        !cuda_ok(cudaStreamSynchronize(stream), s.kernel, "round", result.warning)) {
      std::fprintf(stderr, "ldcc: %s\n", result.warning.c_str());
      return finish(result);
    }
    records.resize(std::min<unsigned long long>(logged, log_capacity));
    if (!records.empty())
      cudaMemcpy(records.data(), log_view.records, records.size() * sizeof(RaceRecord), cudaMemcpyDeviceToHost);
    if (logged > log_capacity) result.dropped_records += logged - log_capacity;
    for (const RaceRecord& r : filter.next_round(records)) found.emplace_back(round, r);
  }
  for (const auto& [round, r] : found)
    if (filter.survives(r)) result.races.push_back(s.race_from(r, *plan, round, units_cache));
  result.checked = true;
  if (flags().verbose == "1")
    std::fprintf(stderr, "ldcc: %s: %u units, %u copies, %u rounds, %llu extra bytes\n", s.kernel.c_str(), units, copies,
                 plan->rounds(), (unsigned long long)result.extra_device_bytes);
  return finish(result);
}

}  // namespace ldcc
