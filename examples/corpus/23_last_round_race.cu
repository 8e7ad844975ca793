// Segment fill: 64 blocks of 128 threads, block b fills its own 1024-int segment of out with
// b * 100000 + 3 * i + 1.
// RACE (write-write, global out, between blocks 6 and 7 only): a stray store makes thread 0 of
// block 7 write -7 into the first element of block 6's segment, which block 6 fills with 600001.
// Blocks 6 and 7 are adjacent: a checker that groups blocks into copies by index and splits the
// groups round by round (a budget of 2 copies) keeps them in one copy until the last round.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
              cudaGetErrorString(err_));                                   \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 128
#define SEG 1024

__global__ void fill_segments(int* out) {
  int* seg = out + blockIdx.x * SEG;
  for (int i = threadIdx.x; i < SEG; i += blockDim.x) seg[i] = int(blockIdx.x) * 100000 + 3 * i + 1;
  if (blockIdx.x == 7 && threadIdx.x == 0) out[6 * SEG] = -7;  // race: block 6's element
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 64;
  const int n = blocks * SEG;
  std::vector<int> h_out(n);

  int* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemset(d_out, 0, n * sizeof(int)));
  fill_segments<<<blocks, BLOCK>>>(d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  printf("out[0] %d  out[%d] %d  out[%d] %d  out[n-1] %d\n", h_out[0], 6 * SEG, h_out[6 * SEG],
         7 * SEG, h_out[7 * SEG], h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(int)));
  CHECK(cudaFree(d_out));
  return 0;
}
