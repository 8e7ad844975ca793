// 33_volatile_warp_reduce_clean with the tree's barrier moved to the top of its loop: the last
// step's writes of sdata[32..63] by warp 1 are not behind a barrier when warp 0's volatile tail
// reads them (a read-write race on shared memory between warps 0 and 1).
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

static uint32_t g_seed = 33033u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

// The last warp's steps: each lane reads before any lane of the warp writes.
__device__ void warp_tail(volatile int* v, int tid) {
  for (int s = 32; s > 0; s >>= 1) {
    const int sum = v[tid] + v[tid + s];
    __syncwarp();
    v[tid] = sum;
    __syncwarp();
  }
}

__global__ void block_sums(const int* in, volatile int* out, int n) {
  __shared__ int sdata[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  sdata[tid] = gid < n ? in[gid] : 0;
  for (int s = BLOCK / 2; s > 32; s >>= 1) {
    __syncthreads();
    if (tid < s) sdata[tid] += sdata[tid + s];
  }
  if (tid < 32) warp_tail(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 300 * BLOCK - 123;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<int> h_in(n), h_out(blocks);
  for (int i = 0; i < n; ++i) h_in[i] = int(lcg() % 1000);

  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_sums<<<blocks, BLOCK>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));

  bool ok = true;
  long long total = 0;
  for (int b = 0; b < blocks; ++b) {
    int ref = 0;
    for (int i = b * BLOCK; i < n && i < (b + 1) * BLOCK; ++i) ref += h_in[i];
    if (h_out[b] != ref) ok = false;
    total += h_out[b];
  }
  printf("blocks %d  sum[0] %d  sum[1] %d  sum[last] %d  total %lld\n", blocks, h_out[0], h_out[1],
         h_out[blocks - 1], total);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), blocks * sizeof(int)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("%s\n", ok ? "matches the CPU sums" : "differs from the CPU sums");
  return 0;
}
