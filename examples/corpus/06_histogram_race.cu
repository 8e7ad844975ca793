// Histogram with per-block privatization: each block counts into a shared histogram, then adds
// its counts into the global histogram with global atomics.
// RACE (write-write, shared hist; also read-write): the shared counts are incremented with a plain
// read-modify-write, so warps that hit the same bin overwrite each other's counts.
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

static uint32_t g_seed = 555u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define NBINS 64
#define BLOCK 256
#define ITEMS 8  // elements per thread

__global__ void histogram_shared(const unsigned* data, unsigned* g_hist, int n) {
  __shared__ unsigned hist[NBINS];
  for (int i = threadIdx.x; i < NBINS; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  int base = blockIdx.x * BLOCK * ITEMS;
  for (int k = 0; k < ITEMS; ++k) {
    int idx = base + k * BLOCK + threadIdx.x;
    if (idx < n) {
      unsigned bin = data[idx] % NBINS;
      hist[bin]++;  // race: not atomic
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
    if (hist[i] != 0) atomicAdd(&g_hist[i], hist[i]);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 100 * BLOCK * ITEMS - 1000;
  const int blocks = (n + BLOCK * ITEMS - 1) / (BLOCK * ITEMS);
  // Uniform values over 1024 (16 per bin): every warp hits most bins, some bins more often than
  // others, so different warps of a block update the same bins.
  std::vector<unsigned> h_data(n), h_hist(NBINS);
  for (int i = 0; i < n; ++i) h_data[i] = lcg() % 1024;

  unsigned *d_data = nullptr, *d_hist = nullptr;
  CHECK(cudaMalloc(&d_data, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_hist, NBINS * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, h_data.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_hist, 0, NBINS * sizeof(unsigned)));
  histogram_shared<<<blocks, BLOCK>>>(d_data, d_hist, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_hist.data(), d_hist, NBINS * sizeof(unsigned), cudaMemcpyDeviceToHost));

  unsigned long long total = 0;
  for (int b = 0; b < NBINS; ++b) total += h_hist[b];
  printf("bin[0] %u  bin[1] %u  bin[63] %u  total %llu (n %d)\n", h_hist[0], h_hist[1],
         h_hist[NBINS - 1], total, n);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_hist.data(), NBINS * sizeof(unsigned)));
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_hist));
  return 0;
}
