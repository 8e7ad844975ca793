// Deterministic mode over global memory: batches of blocks on private copies, merged in block order.
#include "deterministic.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "device_buffer.h"
#include "flags.h"
#include "profile.h"
#include "ldcc/kernels/check_kernels.h"

namespace ldcc::rt {

namespace {

// LDCC_WARP_COPIES in bytes (a percentage: of the device's whole memory, so the choice does not
// depend on what happens to be free).
uint64_t warp_copies_cap() {
  static const uint64_t cap = [] {
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    return mem_limit_flag("LDCC_WARP_COPIES", flags().warp_copies, "1G").resolve(total);
  }();
  return cap;
}

// Store marks (GlobalTarget::marks) with their two flag words (kernels::find_shared_words), kept
// from launch to launch: all zero between launches (the scan clears each word it reads), so a launch
// clears nothing first. A launch takes one set of a pool per device (several host threads may run
// in place at once) and gives it back when its stream is done with it; a set larger than
// kKeptMarksBytes is freed then instead. Never freed at exit: the CUDA runtime may already be gone.
constexpr uint64_t kKeptMarksBytes = 64ull << 20;
constexpr uint64_t kMarkFlagWords = 2;
struct StoreMarks {
  int device = 0;
  DeviceBuffer buffer;
  uint32_t launch = 0;
  // Room for `words` marks after the flag words, zeroed when new; null when the device has none.
  uint32_t* room(uint64_t words, cudaStream_t stream) {
    const uint64_t bytes = (kMarkFlagWords + words) * sizeof(uint32_t);
    buffer.use_on(stream);  // the last launch that used it synchronized with its own stream
    if (buffer.bytes() < bytes) {
      buffer = DeviceBuffer();
      buffer = DeviceBuffer::allocate(bytes, stream);
      if (!buffer || cudaMemsetAsync(buffer.get(), 0, buffer.bytes(), stream) != cudaSuccess) {
        buffer = DeviceBuffer();
        cudaGetLastError();
        return nullptr;
      }
    }
    return buffer.get<uint32_t>();
  }
};

class StoreMarksPool {
 public:
  // A set of this device's, with `launch` numbers of its own.
  StoreMarks* take() {
    int device = 0;
    cudaGetDevice(&device);
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<StoreMarks*>& free = free_[device];
    if (free.empty()) return new StoreMarks{device};
    StoreMarks* marks = free.back();
    free.pop_back();
    return marks;
  }
  // After the launch's stream is done with it.
  void give_back(StoreMarks* marks) {
    if (marks->buffer.bytes() > kKeptMarksBytes) marks->buffer = DeviceBuffer();
    std::lock_guard<std::mutex> lock(mutex_);
    free_[marks->device].push_back(marks);
  }
  static StoreMarksPool& instance() {
    static StoreMarksPool* pool = new StoreMarksPool;
    return *pool;
  }

 private:
  std::mutex mutex_;
  std::map<int, std::vector<StoreMarks*>> free_;
};

}  // namespace

InPlaceOutcome run_in_place(const std::vector<GlobalAllocation>& targets, dim3 grid, uint32_t warps, LaunchCtx& ctx,
                            cudaStream_t stream, const std::function<cudaError_t()>& launch) {
  InPlaceOutcome outcome;
  const uint32_t blocks = grid.x * grid.y * grid.z;
  DeviceBuffer saved = DeviceBuffer::allocate(copy_bytes(targets), stream);
  BlockFootprints footprints(targets.size(), blocks, stream);
  if (!saved || !footprints.device()) {
    cudaGetLastError();
    return outcome;  // no room: block copies
  }
  // Store marks (GlobalTarget::marks) for blocks of several warps: the warps run side by side, none
  // waiting for the lower ones, and a word two warps stored to undoes the run as overlapping block
  // footprints do. Without room for them, stores wait in warp order (store_order), which orders an
  // update's load after the lower warps' stores only where the load follows its store hook (p[i] += v):
  // so only a write-only launch runs in place then.
  std::vector<uint64_t> words;
  uint64_t all_words = 0;
  for (const GlobalAllocation& t : targets) all_words += words.emplace_back(marked_words(t.bytes));
  const std::unique_ptr<StoreMarks, void (*)(StoreMarks*)> store_marks(
      StoreMarksPool::instance().take(), [](StoreMarks* m) { StoreMarksPool::instance().give_back(m); });
  uint32_t* const marks = warps > 1 && all_words ? store_marks->room(all_words, stream) : nullptr;
  if (warps > 1 && !marks && !all_write_only(targets)) return outcome;  // block copies
  const uint32_t launch_number = ++store_marks->launch;
  outcome.extra_device_bytes = saved.bytes() + footprints.bytes() + (marks ? store_marks->buffer.bytes() : 0);
  // The targets into `saved` (back to back, padded), or back from it.
  const auto copy_saved = [&](bool restore) {
    uint8_t* at = saved.get();
    for (const GlobalAllocation& t : targets) {
      cudaMemcpyAsync(restore ? t.base : at, restore ? at : t.base, t.bytes, cudaMemcpyDeviceToDevice, stream);
      at += padded_copy_bytes(t.bytes);
    }
  };
  copy_saved(false);
  // The program's memory is "copy 0": pointers into it stay where they are.
  for (size_t i = 0, at = kMarkFlagWords; i < targets.size(); at += words[i], ++i) {
    ctx.globals[i] = global_target(targets[i], targets[i].base, padded_copy_bytes(targets[i].bytes), targets[i].bytes);
    if (marks) ctx.globals[i].marks = marks + at;
  }
  PhaseProfile::end("saving in-place targets");
  ctx.num_globals = uint32_t(targets.size());
  ctx.warp_copies = 0;
  ctx.ordered_warps = 0;
  ctx.copy_of_block = nullptr;
  ctx.store_order = warps > 1 && !marks;
  ctx.store_bounds = footprints.device();
  outcome.error = launch();
  ctx.num_globals = 0;
  ctx.store_order = 0;
  ctx.store_bounds = nullptr;
  for (size_t i = 0; i < targets.size(); ++i) ctx.globals[i].marks = nullptr;
  if (outcome.error != cudaSuccess) {
    store_marks->buffer = DeviceBuffer();  // marks left set: the next launch starts a clear buffer
    return outcome;
  }
  // flags[0]: the last launch that found a word two warps stored to; flags[1]: the last scanned.
  uint32_t flags[kMarkFlagWords] = {};
  if (marks) {
    const bool error_pending = cudaPeekAtLastError() != cudaSuccess;  // the program's: left as it is
    kernels::find_shared_words(marks + kMarkFlagWords, all_words, marks, launch_number, stream);
    if (!error_pending) cudaGetLastError();  // a failed scan's launch error is ldcc's own
    cudaMemcpyAsync(flags, marks, sizeof flags, cudaMemcpyDeviceToHost, stream);
  }
  const std::vector<unsigned long long> bounds = footprints.read(stream);  // waits for the stream
  // A scan that did not run found nothing: the run is undone as if it had.
  const bool shared_words = marks && (flags[0] == launch_number || flags[1] != launch_number);
  PhaseProfile::end("deterministic kernel");
  if (bounds.empty()) {
    outcome.error = cudaStreamSynchronize(stream);
    if (outcome.error != cudaSuccess) return outcome;
  } else if (!first_overlapping_target(bounds, targets.size(), blocks)) {
    outcome.warps_overlapped = shared_words;  // the blocks being disjoint, two warps of one block
    outcome.ran = !outcome.warps_overlapped;
  }
  outcome.overlapped = !outcome.ran;
  if (!outcome.ran) copy_saved(true);
  PhaseProfile::end("footprints of in-place targets");
  return outcome;
}

OrderedBlocksOutcome run_ordered_blocks(const std::vector<GlobalAllocation>& targets, dim3 grid, uint32_t warps,
                                        bool warp_copies_allowed, LaunchCtx& ctx, cudaStream_t stream,
                                        const std::function<cudaError_t()>& launch) {
  OrderedBlocksOutcome outcome;
  const uint32_t blocks = grid.x * grid.y * grid.z;
  const uint64_t per_copy = copy_bytes(targets);

  // Copies per block: its own, and one per warp when the warps get theirs (a fixed choice, so the
  // result of a racy launch does not depend on free memory unless not even one block's fit).
  const uint64_t cap_copies = per_copy ? warp_copies_cap() / per_copy : UINT64_MAX;  // no overflow
  uint32_t per_block = warps > 1 && warp_copies_allowed && uint64_t(warps) <= cap_copies / blocks ? 1 + warps : 1;
  // Per target: `batch` times per_block copies, the atomics' copy, and (with more than one batch) the
  // buffer the batches are gathered in. The largest batch the device gives, halving the budget when
  // it refuses.
  uint64_t budget = DeviceBuffer::memory_budget();
  uint32_t batch = 0, extra = 0;
  DeviceBuffer arena, table;
  while (true) {
    const uint64_t fit = per_copy ? budget / per_copy : UINT64_MAX;
    if (fit >= uint64_t(blocks) * per_block + 1) {
      batch = blocks;
      extra = 1;
    } else if (fit >= per_block + 2) {
      batch = uint32_t((fit - 2) / per_block);
      extra = 2;
    } else if (per_block > 1) {
      per_block = 1;
      continue;
    } else {
      outcome.warning = "its " + std::to_string(blocks) + " blocks need at least " + std::to_string(3 * per_copy) +
                        " bytes of device memory for copies of the global memory it writes (LDCC_MEM_LIMIT)";
      return outcome;
    }
    arena = DeviceBuffer::allocate((uint64_t(batch) * per_block + extra) * per_copy, stream);
    table = DeviceBuffer::allocate(uint64_t(blocks) * sizeof(uint32_t), stream);
    if (arena && table) break;
    budget = (uint64_t(batch) * per_block + extra) * per_copy / 2;
  }
  const uint32_t batches = (blocks + batch - 1) / batch;
  PhaseProfile::end("deterministic copies allocation");

  std::vector<uint8_t*> copies;
  std::vector<uint64_t> strides;
  uint64_t offset = 0;
  for (size_t i = 0; i < targets.size(); ++i) {
    strides.push_back(padded_copy_bytes(targets[i].bytes));
    copies.push_back(arena.get() + offset);
    const uint64_t count = uint64_t(batch) * per_block + extra;
    offset += count * strides[i];
    ctx.globals[i] = global_target(targets[i], copies[i], strides[i], count * strides[i]);
  }
  auto buffers = [&](size_t i, uint32_t num_copies) {
    return TargetBuffers{targets[i].base, targets[i].bytes, copies[i], strides[i], nullptr, num_copies, uint32_t(i)};
  };
  auto gathered = [&](size_t i) { return copies[i] + uint64_t(batch + 1) * strides[i]; };
  // The warps' copies after the blocks', the atomics' and the gathering buffer.
  const uint32_t warp_copies = per_block > 1 ? batch + extra : 0;
  auto warp_buffers = [&](size_t i) {
    TargetBuffers b = buffers(i, batch * warps);
    b.copies += uint64_t(warp_copies) * strides[i];
    return b;
  };
  ctx.num_globals = uint32_t(targets.size());
  ctx.warp_copies = warp_copies;
  ctx.ordered_warps = !warp_copies && warps > 1;
  ctx.atomics_copy = batch;
  ctx.copy_of_block = table.get<uint32_t>();

  std::vector<uint32_t> copy_of(blocks);
  for (uint32_t b = 0; b < batches; ++b) {
    const uint32_t lo = b * batch, hi = std::min(blocks, lo + batch);
    const bool last = b + 1 == batches;
    for (uint32_t k = 0; k < blocks; ++k) copy_of[k] = k >= lo && k < hi ? k - lo : kSkipBlock;
    cudaMemcpyAsync(table.get(), copy_of.data(), table.bytes(), cudaMemcpyHostToDevice, stream);
    // The first batch also starts the atomics' copy and the gathering buffer from the start state.
    for (size_t i = 0; i < targets.size(); ++i) {
      kernels::replicate(buffers(i, b == 0 ? batch + extra : batch), stream);
      if (warp_copies) kernels::replicate(warp_buffers(i), stream);
    }
    PhaseProfile::end("replicate");
    if (cudaError_t e = launch(); e != cudaSuccess) {
      outcome.error = e;
      break;
    }
    PhaseProfile::end("deterministic kernel");
    // Blocks in block order (copy k is block lo + k; unused copies are unchanged), the atomics last.
    for (size_t i = 0; i < targets.size(); ++i)
      kernels::merge_ordered_into(buffers(i, last ? batch + 1 : batch), batches == 1 ? targets[i].base : gathered(i),
                                  stream);
    PhaseProfile::end("ordered merge");
  }
  if (outcome.error == cudaSuccess && batches > 1)
    for (size_t i = 0; i < targets.size(); ++i)
      cudaMemcpyAsync(targets[i].base, gathered(i), targets[i].bytes, cudaMemcpyDeviceToDevice, stream);
  if (parse_count(flags().verbose).value_or(0))
    std::fprintf(stderr, "ldcc: deterministic over %zu global targets (%llu bytes per copy): %u blocks in %u batches of %u, %s\n",
                 targets.size(), (unsigned long long)per_copy, blocks, batches, batch,
                 warp_copies ? "a copy per warp" : warps > 1 ? "warps in turn" : "one warp per block");
  ctx.num_globals = 0;
  ctx.warp_copies = 0;
  ctx.copy_of_block = nullptr;
  outcome.ran = outcome.error == cudaSuccess;
  outcome.batch = batch;
  outcome.batches = batches;
  outcome.extra_device_bytes = arena.bytes() + table.bytes();
  return outcome;
}

}  // namespace ldcc::rt
