// DeviceBuffer's kept blocks on a real device: a freed block serves the next request of its size,
// and a block freed on one stream is reused on another only after the work that used it.
#include "device_buffer.h"
#include "gpu/gpu_test_support.h"

namespace ldcc::testing {
namespace {

// Spins for about `cycles` clock cycles, then fills the buffer: long enough that work queued on
// another stream without waiting would run first.
__global__ void late_fill(unsigned* out, uint32_t n, unsigned value, long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = value;
}

TEST(DeviceBuffer, AFreedBlockServesTheNextRequestOfItsSize) {
  LDCC_REQUIRE_GPU();
  void* first = nullptr;
  {
    DeviceBuffer a = DeviceBuffer::allocate(3 << 20, nullptr);
    ASSERT_TRUE(a);
    first = a.get();
  }
  DeviceBuffer b = DeviceBuffer::allocate(3 << 20, nullptr);
  ASSERT_TRUE(b);
  EXPECT_EQ(b.get(), first);
  EXPECT_EQ(b.bytes(), 3u << 20);
  DeviceBuffer c = DeviceBuffer::allocate(3 << 20, nullptr);  // the kept block is in use: a new one
  ASSERT_TRUE(c);
  EXPECT_NE(c.get(), first);
  EXPECT_EQ(DeviceBuffer::kept_bytes(), 0u);
}

TEST(DeviceBuffer, AnotherStreamReusesABlockOnlyAfterTheWorkThatUsedIt) {
  LDCC_REQUIRE_GPU();
  constexpr uint32_t n = 1 << 20;
  cudaStream_t s1, s2;
  LDCC_CUDA_OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  LDCC_CUDA_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  void* first = nullptr;
  {
    DeviceBuffer a = DeviceBuffer::allocate(n * sizeof(unsigned), s1);
    ASSERT_TRUE(a);
    first = a.get();
    late_fill<<<64, 256, 0, s1>>>(a.get<unsigned>(), n, 1u, 20'000'000);  // ~10 ms
  }
  {
    // Freed before its stream is destroyed: a buffer's free is ordered on its stream. Read without
    // writing first: only if s2 waited for late_fill are all the 1s there.
    DeviceBuffer b = DeviceBuffer::allocate(n * sizeof(unsigned), s2);
    ASSERT_TRUE(b);
    ASSERT_EQ(b.get(), first);
    std::vector<unsigned> host(n);
    LDCC_CUDA_OK(cudaMemcpyAsync(host.data(), b.get(), n * sizeof(unsigned), cudaMemcpyDeviceToHost, s2));
    LDCC_CUDA_OK(cudaStreamSynchronize(s2));
    size_t wrong = 0;
    for (unsigned v : host) wrong += v != 1u;
    EXPECT_EQ(wrong, 0u);
  }
  LDCC_CUDA_OK(cudaDeviceSynchronize());
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

}  // namespace
}  // namespace ldcc::testing
