// Differences to the left neighbour, staged through shared memory.
// RACE: the barrier between the store and the neighbour read is missing. The value read from
// another warp's write lives in a register (left) across the next barrier and only then reaches
// memory: the shared-memory diff cannot see it, ldcc's comparison of locals does
// (read-write race through the local `left`, inter-warp at every warp boundary).
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

static uint32_t g_seed = 4242u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void diff_left(const int* in, int* out, int n) {
  __shared__ int s[BLOCK];
  int gid = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = gid < n ? in[gid] : 0;
  int left = threadIdx.x > 0 ? s[threadIdx.x - 1] : 0;  // missing __syncthreads() before this read
  __syncthreads();
  s[threadIdx.x] = 0;
  __syncthreads();
  if (gid < n) out[gid] = s[threadIdx.x] + (in[gid] - left);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 40, n = blocks * BLOCK;
  std::vector<int> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = int(1 + lcg() % 1000);
  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  diff_left<<<blocks, BLOCK>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  printf("out[0] %d  out[32] %d\n", h_out[0], h_out[32]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(int)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
