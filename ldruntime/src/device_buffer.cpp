#include "device_buffer.h"

#include <mutex>
#include <set>

#include "flags.h"

namespace ldcc {
namespace {

std::mutex cache_mutex;
std::set<const void*> ours;  // every block cudaMalloc gave ldcc and it has not freed (cache_mutex)

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

// After the block's last use (its event; cudaFree also waits for the device, but perhaps not for
// another device's work). Clears the CUDA error only if one of these calls failed.
void give_back(const std::vector<CachedBlock>& blocks) {
  for (const CachedBlock& b : blocks) {
    {
      std::lock_guard<std::mutex> lock(cache_mutex);
      ours.erase(b.ptr);
    }
    bool ok = true;
    if (b.ready) ok = cudaEventSynchronize(static_cast<cudaEvent_t>(b.ready)) == cudaSuccess;
    ok = cudaFree(b.ptr) == cudaSuccess && ok;
    if (b.ready) ok = cudaEventDestroy(static_cast<cudaEvent_t>(b.ready)) == cudaSuccess && ok;
    if (!ok) cudaGetLastError();
  }
}

}  // namespace

bool DeviceBuffer::allocated_by_ldcc(const void* base) {
  std::lock_guard<std::mutex> lock(cache_mutex);
  return ours.count(base) != 0;
}

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
  if (reused && b.block_.ready && cudaStreamWaitEvent(stream, static_cast<cudaEvent_t>(b.block_.ready), 0) != cudaSuccess) {
    // Without the wait the block may still be in use: give it back instead.
    cudaGetLastError();
    give_back({b.block_});
    b.block_ = CachedBlock{};
    reused = false;
  }
  if (!reused) {
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
    std::lock_guard<std::mutex> lock(cache_mutex);
    ours.insert(p);
  }
  b.bytes_ = bytes;
  b.stream_ = stream;
  return b;
}

uint64_t DeviceBuffer::kept_bytes() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  std::lock_guard<std::mutex> lock(cache_mutex);
  return cache().kept_bytes(device);
}

DeviceBuffer::~DeviceBuffer() {
  if (!block_.ptr) return;
  bool keepable;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    keepable = cache().fits(block_.bytes);
  }
  if (keepable && !block_.ready) {
    cudaEvent_t e = nullptr;
    if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess)
      block_.ready = e;
    else
      cudaGetLastError();
  }
  std::vector<CachedBlock> leaving{block_};
  if (keepable && block_.ready) {
    if (cudaEventRecord(static_cast<cudaEvent_t>(block_.ready), stream_) == cudaSuccess) {
      std::lock_guard<std::mutex> lock(cache_mutex);
      leaving = cache().keep(block_);
    } else {
      cudaGetLastError();
    }
  }
  give_back(leaving);
}

}  // namespace ldcc
