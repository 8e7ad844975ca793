// Loops with barriers: each block bitonic-sorts blockDim.x keys in shared memory (nested loops,
// barriers in the inner loop, trip counts depend on blockDim.x; each thread computes its own key's
// new value from its partner's), then finds the largest gap between neighbouring sorted keys
// with a max-reduction loop of log2(blockDim.x) barrier steps.
// RACE (read-write, shared s_keys): the barrier between reading the partner's key and
// overwriting our own is missing; from stage k = 64 on, partners tid ^ j lie in other warps.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
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

static uint32_t g_seed = 4096u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define MAX_BLOCK 1024

// blockDim.x must be a power of two <= MAX_BLOCK; each block sorts its own blockDim.x keys.
__global__ void sort_max_gap(const unsigned* keys, unsigned* sorted, unsigned* max_gap) {
  __shared__ unsigned s_keys[MAX_BLOCK];
  __shared__ unsigned s_gap[MAX_BLOCK];
  int tid = threadIdx.x, n = blockDim.x;
  s_keys[tid] = keys[blockIdx.x * n + tid];
  __syncthreads();
  for (int k = 2; k <= n; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      int partner = tid ^ j;
      unsigned mine = s_keys[tid], other = s_keys[partner];
      bool keep_min = ((tid & k) == 0) == (tid < partner);  // ascending run: lower index keeps min
      // race: no barrier here; the partner may not have read s_keys[tid] yet
      s_keys[tid] = keep_min ? min(mine, other) : max(mine, other);
      __syncthreads();
    }
  }
  sorted[blockIdx.x * n + tid] = s_keys[tid];
  s_gap[tid] = (tid + 1 < n) ? s_keys[tid + 1] - s_keys[tid] : 0u;
  __syncthreads();
  for (int stride = n / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s_gap[tid] = max(s_gap[tid], s_gap[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) max_gap[blockIdx.x] = s_gap[0];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 60, threads = 256, n = blocks * threads;
  // Distinct keys in each block (i * 1000 + noise, shuffled), so every swap changes a value.
  std::vector<unsigned> h_keys(n), h_sorted(n), h_gap(blocks);
  for (int b = 0; b < blocks; ++b) {
    unsigned* k = &h_keys[b * threads];
    for (int i = 0; i < threads; ++i) k[i] = unsigned(i) * 1000u + lcg() % 1000u;
    for (int i = threads - 1; i > 0; --i) std::swap(k[i], k[lcg() % (i + 1)]);
  }

  unsigned *d_keys = nullptr, *d_sorted = nullptr, *d_gap = nullptr;
  CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sorted, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_gap, blocks * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_keys, h_keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  sort_max_gap<<<blocks, threads>>>(d_keys, d_sorted, d_gap);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_sorted.data(), d_sorted, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_gap.data(), d_gap, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));

  printf("sorted[0] %u  sorted[255] %u  gap[0] %u  gap[last] %u\n", h_sorted[0], h_sorted[255],
         h_gap[0], h_gap[blocks - 1]);
  uint64_t h = fnv1a(h_sorted.data(), n * sizeof(unsigned));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_gap.data(), blocks * sizeof(unsigned), h));
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_sorted));
  CHECK(cudaFree(d_gap));
  return 0;
}
