#include "device_buffer.h"

#include <mutex>

#include "flags.h"

namespace ldcc {
namespace {

std::mutex cache_mutex;

// Made on first use, with LDCC_POOL_KEEP resolved against the memory free then; lives to the exit.
BlockCache& cache() {
  static BlockCache* kept = [] {
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    cudaGetLastError();
    return new BlockCache(parse_mem_limit(flags().pool_keep).value_or(MemLimit{true, 5.0}).resolve(free_bytes));
  }();
  return *kept;
}

// cudaFree waits for the device, so no work still using the block can see it go.
void give_back(const std::vector<CachedBlock>& blocks) {
  for (const CachedBlock& b : blocks) {
    cudaFree(b.ptr);
    if (b.ready) cudaEventDestroy(static_cast<cudaEvent_t>(b.ready));
  }
  cudaGetLastError();
}

}  // namespace

DeviceBuffer DeviceBuffer::allocate(uint64_t bytes, cudaStream_t stream) {
  DeviceBuffer b;
  if (bytes == 0) return b;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return b;
  }
  const uint64_t rounded = (bytes + 511) & ~uint64_t(511);
  bool reused;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    reused = cache().take(device, rounded, b.block_);
  }
  if (reused) {
    // The block's last use was ordered on the stream that freed it.
    if (b.block_.ready) cudaStreamWaitEvent(stream, static_cast<cudaEvent_t>(b.block_.ready), 0);
  } else {
    void* p = nullptr;
    if (cudaMalloc(&p, rounded) != cudaSuccess) {
      // What the cache keeps may be what is missing: give it back and try once more.
      cudaGetLastError();
      std::vector<CachedBlock> kept;
      {
        std::lock_guard<std::mutex> lock(cache_mutex);
        kept = cache().take_all(device);
      }
      give_back(kept);
      if (cudaMalloc(&p, rounded) != cudaSuccess) {
        cudaGetLastError();
        return b;
      }
    }
    b.block_ = CachedBlock{device, p, rounded, nullptr};
  }
  b.bytes_ = bytes;
  b.stream_ = stream;
  return b;
}

DeviceBuffer::~DeviceBuffer() {
  if (!block_.ptr) return;
  if (!block_.ready) {
    cudaEvent_t e = nullptr;
    if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess) block_.ready = e;
  }
  std::vector<CachedBlock> leaving{block_};
  if (block_.ready && cudaEventRecord(static_cast<cudaEvent_t>(block_.ready), stream_) == cudaSuccess) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    leaving = cache().keep(block_);
  }
  give_back(leaving);
}

}  // namespace ldcc
