// Helpers for tests that need a CUDA device: they skip where there is none (CI).
#pragma once
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ldcc::testing {

bool gpu_available();

#define LDCC_REQUIRE_GPU() \
  if (!::ldcc::testing::gpu_available()) GTEST_SKIP() << "no CUDA device"

#define LDCC_CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

// A device allocation filled from / read back into host vectors.
template <typename T>
struct DeviceArray {
  T* ptr = nullptr;
  size_t count = 0;
  explicit DeviceArray(size_t n) : count(n) { cudaMalloc(&ptr, n * sizeof(T) + 1); cudaMemset(ptr, 0, n * sizeof(T) + 1); }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) { upload(host); }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  void upload(const std::vector<T>& host) { cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice); }
  std::vector<T> download() const {
    std::vector<T> host(count);
    cudaMemcpy(host.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }
};

}  // namespace ldcc::testing
