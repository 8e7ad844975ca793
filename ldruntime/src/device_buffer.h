// Owning device allocation; allocation failure is a value, not an exception, so callers can degrade.
// Buffers come from a stream-ordered pool (one per device) that keeps up to LDCC_POOL_KEEP bytes
// between launches: a program launching a checked kernel in a loop pays for the mapping of its
// copies once, not at every launch, and a free does not wait for the whole device.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

namespace ldcc {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Ordered on `stream`: use it there (or after synchronizing with it). Returns an empty buffer when
  // the device has no room (after giving back what the pool keeps); clears the allocation error.
  static DeviceBuffer allocate(uint64_t bytes, cudaStream_t stream);
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), stream_(o.stream_), pooled_(o.pooled_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    std::swap(stream_, o.stream_);
    std::swap(pooled_, o.pooled_);
    return *this;
  }
  ~DeviceBuffer();
  explicit operator bool() const { return ptr_ != nullptr; }
  template <typename T = uint8_t>
  T* get() const { return static_cast<T*>(ptr_); }
  uint64_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  uint64_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  bool pooled_ = false;
};

}  // namespace ldcc
