// Owning device allocation; allocation failure is a value, not an exception, so callers can degrade.
// Freed buffers' blocks are kept (up to LDCC_POOL_KEEP bytes, block_cache.h) and reused by later
// launches: a program launching a checked kernel in a loop allocates its copies once, and freeing a
// kept block does not wait for the device. A kept block is reused in stream order: the new stream
// waits for an event recorded where the old buffer was freed. A block the cache does not keep goes
// back with cudaFree, which waits for the device. Neither touches the program's pending CUDA error
// unless one of these calls fails.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "block_cache.h"
#include "flags.h"

namespace ldcc {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Ordered on `stream`, which must outlive the buffer: use it there (or after synchronizing with it).
  // Returns an empty buffer when the device has no room (after giving back what the cache keeps);
  // clears the allocation error.
  static DeviceBuffer allocate(uint64_t bytes, cudaStream_t stream);
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : block_(std::exchange(o.block_, CachedBlock{})), bytes_(std::exchange(o.bytes_, 0)), stream_(o.stream_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(block_, o.block_);
    std::swap(bytes_, o.bytes_);
    std::swap(stream_, o.stream_);
    return *this;
  }
  ~DeviceBuffer();
  explicit operator bool() const { return block_.ptr != nullptr; }
  template <typename T = uint8_t>
  T* get() const { return static_cast<T*>(block_.ptr); }
  uint64_t bytes() const { return bytes_; }
  // From now on ordered on `stream` (its free too): for a buffer kept past the stream it was
  // allocated on, where the caller has synchronized with that stream.
  void use_on(cudaStream_t stream) { stream_ = stream; }
  // What the cache keeps for the current device: free for ldcc's next allocations.
  static uint64_t kept_bytes();
  // The device memory a check may use now: LDCC_MEM_LIMIT over free memory plus kept_bytes().
  static uint64_t memory_budget() { return mem_limit_bytes(kept_bytes()); }
  // Whether `base` is the start of a block ldcc allocated (in use or kept), not one of the program's.
  static bool allocated_by_ldcc(const void* base);

 private:
  CachedBlock block_;  // what cudaMalloc gave (possibly larger than bytes_) and its reuse event
  uint64_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
};

}  // namespace ldcc
