// Hillis-Steele inclusive scan of each block's 256-element segment, updated in place in a
// single shared buffer (the double buffer was "optimized" away).
// RACE (read-write, shared temp): thread tid reads temp[tid - offset] while the thread that owns
// it (in another warp when tid % 32 < offset) adds into it in the same step.
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

static uint32_t g_seed = 7u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void scan_hillis_steele(const int* in, int* out, int n) {
  __shared__ int temp[BLOCK];
  int tid = threadIdx.x;
  int gid = blockIdx.x * BLOCK + tid;
  temp[tid] = (gid < n) ? in[gid] : 0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset <<= 1) {
    if (tid >= offset) temp[tid] += temp[tid - offset];  // race: reads a value being updated
    __syncthreads();
  }
  if (gid < n) out[gid] = temp[tid];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 96 * BLOCK - 45;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<int> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = 1 + int(lcg() % 9);

  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scan_hillis_steele<<<blocks, BLOCK>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  printf("out[0] %d  out[255] %d  out[256] %d  out[n-1] %d\n", h_out[0], h_out[255], h_out[256],
         h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(int)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
