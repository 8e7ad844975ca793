// Grid-wide drivers of the per-chunk operations in check_ops.cuh: a grid-stride loop over the padded
// chunks of one target. Copies are padded to kCopyPadding bytes, so the chunk count is a multiple of
// 32 and every warp runs whole iterations.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

#include "ldcc/kernels/check_kernels.h"
#define LDCC_UNFILTERED_LOG  // these kernels' logs have no LogFilter (check_ops.cuh)
#include "ldcc/kernels/check_ops.cuh"

namespace ldcc::kernels {
namespace {

constexpr int kThreads = 256;

template <int kBytes, typename Op>
__device__ __forceinline__ void for_each_chunk(const TargetBuffers& t, Op op) {
  const uint64_t chunks = t.stride / kBytes;
  for (uint64_t c = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks; c += uint64_t(gridDim.x) * blockDim.x)
    op(c * kBytes);
}

__global__ void replicate_kernel(TargetBuffers t) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::replicate_chunk<16>(t, off); });
}

template <int kBytes, int kMaxCopies, bool kWritePass2>
__global__ void __launch_bounds__(kThreads) ww_check_kernel(TargetBuffers t, RaceLogView log, FootprintBounds footprint) {
  for_each_chunk<kBytes>(t, [&](uint64_t off) { ops::ww_check_chunk<kBytes, kMaxCopies, kWritePass2>(t, off, log, footprint); });
}

template <bool kWritePass2>
__global__ void ww_check_streaming_kernel(TargetBuffers t, RaceLogView log, FootprintBounds footprint) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::ww_check_chunk_streaming<kWritePass2>(t, off, log, footprint); });
}

__global__ void init_pass2_kernel(TargetBuffers t) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::init_pass2_chunk<16>(t, off); });
}

template <bool kCommit>
__global__ void rw_check_kernel(TargetBuffers t, RaceLogView log) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::rw_check_chunk<16, kCommit>(t, off, log); });
}

__global__ void commit_kernel(TargetBuffers t) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::commit_chunk<16>(t, off); });
}

template <bool kReplicate>
__global__ void merge_ordered_kernel(TargetBuffers t) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::merge_ordered_chunk<16, kReplicate>(t, off); });
}

__global__ void merge_ordered_into_kernel(TargetBuffers t, TargetBuffers into) {
  for_each_chunk<16>(t, [&](uint64_t off) { ops::merge_ordered_chunk<16, false>(t, off, into); });
}

__global__ void find_shared_words_kernel(uint32_t* marks, uint64_t words, uint32_t* flags, uint32_t launch) {
  if (blockIdx.x == 0 && threadIdx.x == 0) flags[1] = launch;
  for (uint64_t w = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < words; w += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t warps = marks[w];
    if (!warps) continue;
    marks[w] = 0;
    if (warps & (warps - 1)) flags[0] = launch;
  }
}

__global__ void remember_records_kernel(const RaceRecord* records, uint32_t count, SeenTable table) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    ops::remember_record(table, records[i]);
}

// Enough blocks to fill the device at the kernel's occupancy, never more than there are chunks. The
// resident blocks per device are asked for once per kernel: a checked launch starts several of these
// kernels, and a program may make thousands of checked launches.
template <typename Kernel>
unsigned grid_for(Kernel kernel, uint64_t chunks) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, uint64_t> resident;  // (kernel, device) -> blocks
  int device = 0;
  cudaGetDevice(&device);
  uint64_t blocks = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = resident.find({reinterpret_cast<const void*>(kernel), device});
    if (it == resident.end()) {
      int sms = 0, per_sm = 0;
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0);
      it = resident.emplace(std::make_pair(reinterpret_cast<const void*>(kernel), device),
                            uint64_t(std::max(sms, 1)) * std::max(per_sm, 1)).first;
    }
    blocks = it->second;
  }
  const uint64_t needed = (chunks + kThreads - 1) / kThreads;
  return unsigned(std::max<uint64_t>(1, std::min<uint64_t>(needed, blocks)));
}

template <int kBytes, typename Kernel, typename... Args>
void launch(Kernel kernel, const TargetBuffers& t, cudaStream_t stream, Args... args) {
  if (t.stride == 0 || t.num_copies == 0) return;
  kernel<<<grid_for(kernel, t.stride / kBytes), kThreads, 0, stream>>>(t, args...);
}

template <bool kWritePass2>
void ww_check(const TargetBuffers& t, const RaceLogView& log, WwLayout layout, cudaStream_t stream,
              const FootprintBounds& fp = {}) {
  const uint32_t m = t.num_copies;
  if (layout == WwLayout::Auto) layout = auto_ww_layout(m);
  if (!ww_layout_supports(layout, m)) layout = WwLayout::Streaming;
  switch (layout) {
    case WwLayout::Registers16:
      if (m <= 2) return launch<16>(ww_check_kernel<16, 2, kWritePass2>, t, stream, log, fp);
      if (m <= 4) return launch<16>(ww_check_kernel<16, 4, kWritePass2>, t, stream, log, fp);
      if (m <= 8) return launch<16>(ww_check_kernel<16, 8, kWritePass2>, t, stream, log, fp);
      if (m <= 16) return launch<16>(ww_check_kernel<16, 16, kWritePass2>, t, stream, log, fp);
      return launch<16>(ww_check_kernel<16, 32, kWritePass2>, t, stream, log, fp);
    case WwLayout::Registers8:
      if (m <= 32) return launch<8>(ww_check_kernel<8, 32, kWritePass2>, t, stream, log, fp);
      return launch<8>(ww_check_kernel<8, 64, kWritePass2>, t, stream, log, fp);
    case WwLayout::Registers4:
      if (m <= 32) return launch<4>(ww_check_kernel<4, 32, kWritePass2>, t, stream, log, fp);
      return launch<4>(ww_check_kernel<4, 64, kWritePass2>, t, stream, log, fp);
    default:
      return launch<16>(ww_check_streaming_kernel<kWritePass2>, t, stream, log, fp);
  }
}

}  // namespace

bool ww_layout_supports(WwLayout layout, uint32_t copies) {
  switch (layout) {
    case WwLayout::Registers16: return copies <= 32;
    case WwLayout::Registers8:
    case WwLayout::Registers4: return copies <= 64;
    default: return true;
  }
}

// Measured on an H200 (bench/results): 16-byte chunks up to 32 copies (93% of copy bandwidth at 32),
// 8-byte chunks to 64 (90%; 4-byte chunks reach 75%), streaming beyond (63% at 64).
WwLayout auto_ww_layout(uint32_t copies) {
  if (copies <= 32) return WwLayout::Registers16;
  if (copies <= 64) return WwLayout::Registers8;
  return WwLayout::Streaming;
}

void ww_check_fused_with(const TargetBuffers& t, const RaceLogView& log, WwLayout layout, cudaStream_t stream) {
  ww_check<true>(t, log, layout, stream);
}

void replicate(const TargetBuffers& t, cudaStream_t stream) { launch<16>(replicate_kernel, t, stream); }

void ww_check_fused(const TargetBuffers& t, const RaceLogView& log, cudaStream_t stream, const FootprintBounds& footprint) {
  ww_check<true>(t, log, WwLayout::Auto, stream, footprint);
}

void ww_check_union(const TargetBuffers& t, const RaceLogView& log, cudaStream_t stream) {
  ww_check<false>(t, log, WwLayout::Auto, stream);
}

void init_pass2(const TargetBuffers& t, cudaStream_t stream) { launch<16>(init_pass2_kernel, t, stream); }

void rw_check(const TargetBuffers& t, const RaceLogView& log, bool commit, cudaStream_t stream) {
  if (commit) launch<16>(rw_check_kernel<true>, t, stream, log);
  else launch<16>(rw_check_kernel<false>, t, stream, log);
}

void commit(const TargetBuffers& t, cudaStream_t stream) { launch<16>(commit_kernel, t, stream); }

void remember_records(const RaceRecord* records, uint32_t count, const SeenTable& table, cudaStream_t stream) {
  if (count == 0 || table.hashes == nullptr) return;
  remember_records_kernel<<<std::min<uint32_t>((count + kThreads - 1) / kThreads, 1024), kThreads, 0, stream>>>(records, count, table);
}

void find_shared_words(uint32_t* marks, uint64_t words, uint32_t* flags, uint32_t launch, cudaStream_t stream) {
  find_shared_words_kernel<<<grid_for(find_shared_words_kernel, std::max<uint64_t>(words, 1)), kThreads, 0, stream>>>(
      marks, words, flags, launch);
}

void merge_ordered(const TargetBuffers& t, bool replicate_after, cudaStream_t stream) {
  if (replicate_after) launch<16>(merge_ordered_kernel<true>, t, stream);
  else launch<16>(merge_ordered_kernel<false>, t, stream);
}

void merge_ordered_into(const TargetBuffers& t, uint8_t* into, cudaStream_t stream) {
  TargetBuffers destination = t;
  destination.original = into;
  launch<16>(merge_ordered_into_kernel, t, stream, destination);
}

}  // namespace ldcc::kernels
