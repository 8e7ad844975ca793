#include "device_buffer.h"

#include <map>
#include <mutex>

#include "flags.h"

namespace ldcc {
namespace {

std::mutex pools_mutex;

// The current device's pool, made on first use; null when the device has no stream-ordered
// allocator (buffers then come from cudaMalloc).
cudaMemPool_t current_pool() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return nullptr;
  std::lock_guard<std::mutex> lock(pools_mutex);
  static std::map<int, cudaMemPool_t>* pools = new std::map<int, cudaMemPool_t>();  // lives to the exit
  auto it = pools->find(device);
  if (it != pools->end()) return it->second;
  int supported = 0;
  cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device);
  cudaMemPool_t pool = nullptr;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  if (!supported || cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
    cudaGetLastError();
    pool = nullptr;
  } else {
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    uint64_t keep = parse_mem_limit(flags().pool_keep).value_or(MemLimit{false, 256.0 * (1 << 20)}).resolve(free_bytes);
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  (*pools)[device] = pool;
  return pool;
}

}  // namespace

DeviceBuffer DeviceBuffer::allocate(uint64_t bytes, cudaStream_t stream) {
  DeviceBuffer b;
  if (bytes == 0) return b;
  if (cudaMemPool_t pool = current_pool()) {
    cudaError_t err = cudaMallocFromPoolAsync(&b.ptr_, bytes, pool, stream);
    if (err != cudaSuccess) {
      // What the pool keeps for reuse may be what is missing: give it back and try once more.
      cudaGetLastError();
      cudaStreamSynchronize(stream);
      cudaMemPoolTrimTo(pool, 0);
      err = cudaMallocFromPoolAsync(&b.ptr_, bytes, pool, stream);
    }
    if (err != cudaSuccess) {
      cudaGetLastError();
      b.ptr_ = nullptr;
      return b;
    }
    b.pooled_ = true;
  } else if (cudaMalloc(&b.ptr_, bytes) != cudaSuccess) {
    cudaGetLastError();
    b.ptr_ = nullptr;
    return b;
  }
  b.bytes_ = bytes;
  b.stream_ = stream;
  return b;
}

DeviceBuffer::~DeviceBuffer() {
  if (!ptr_) return;
  if (pooled_)
    cudaFreeAsync(ptr_, stream_);
  else
    cudaFree(ptr_);
}

}  // namespace ldcc
