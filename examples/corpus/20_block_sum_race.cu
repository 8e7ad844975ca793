// Sum of an array: each block reduces 2 * blockDim.x elements with a shared-memory tree, stores
// its sum in partial[blockIdx.x] and adds it into *result.
// RACE (write-write, global result, between blocks): thread 0 of every block updates *result
// with a plain load and store instead of an atomic, so every block writes its own value into the
// one slot (from private copies: its block sum; the block sums differ). The same element is also
// read and written by every block (one race per element, reported as ww). partial and the
// shared-memory tree are race-free.
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

static uint32_t g_seed = 2001u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void block_sums(const int* in, int* partial, int* result, int n) {
  __shared__ int sdata[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * (2 * BLOCK) + tid;
  int v = 0;
  if (i < n) v += in[i];
  if (i + BLOCK < n) v += in[i + BLOCK];
  sdata[tid] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = sdata[0];
    *result = *result + sdata[0];  // race: every block updates the one slot
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 100 * 2 * BLOCK - 300;
  const int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  std::vector<int> h_in(n), h_partial(blocks);
  for (int i = 0; i < n; ++i) h_in[i] = int(lcg() % 1000);

  int *d_in = nullptr, *d_partial = nullptr, *d_result = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_partial, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_result, sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_partial, 0, blocks * sizeof(int)));
  CHECK(cudaMemset(d_result, 0, sizeof(int)));
  block_sums<<<blocks, BLOCK>>>(d_in, d_partial, d_result, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int h_result = 0;
  CHECK(cudaMemcpy(h_partial.data(), d_partial, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_result, d_result, sizeof(int), cudaMemcpyDeviceToHost));

  printf("partial[0] %d  partial[1] %d  partial[last] %d  result %d\n", h_partial[0], h_partial[1],
         h_partial[blocks - 1], h_result);
  uint64_t h = fnv1a(h_partial.data(), blocks * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(&h_result, sizeof(int), h));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_result));
  return 0;
}
