// Owning device allocation; allocation failure is a value, not an exception, so callers can degrade.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

namespace ldcc {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Returns an empty buffer when the device has no room; clears the (non-sticky) allocation error.
  static DeviceBuffer allocate(uint64_t bytes) {
    DeviceBuffer b;
    if (bytes == 0) return b;
    if (cudaMalloc(&b.ptr_, bytes) != cudaSuccess) {
      cudaGetLastError();
      b.ptr_ = nullptr;
      return b;
    }
    b.bytes_ = bytes;
    return b;
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  explicit operator bool() const { return ptr_ != nullptr; }
  template <typename T = uint8_t>
  T* get() const { return static_cast<T*>(ptr_); }
  uint64_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace ldcc
