// Tree reduction in shared memory: one partial sum per block.
// The halving loop runs log2(blockDim.x) times with a barrier in every iteration.
// Thread 0 of block 0 prints one line from the device (the corpus's only device printf).
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

static uint32_t g_seed = 20240601u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void reduce_sum(const float* in, float* out, int n) {
  __shared__ float sdata[BLOCK];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (gid < n) ? in[gid] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    out[blockIdx.x] = sdata[0];
    if (blockIdx.x == 0) printf("device: block 0 sum %.0f\n", sdata[0]);
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 200 * BLOCK - 77;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<float> h_in(n), h_out(blocks);
  for (int i = 0; i < n; ++i) h_in[i] = float(1 + lcg() % 16);

  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  reduce_sum<<<blocks, BLOCK>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));

  bool ok = true;
  double total = 0;
  for (int b = 0; b < blocks; ++b) {
    float ref = 0;
    for (int i = b * BLOCK; i < n && i < (b + 1) * BLOCK; ++i) ref += h_in[i];
    if (h_out[b] != ref) ok = false;
    total += h_out[b];
  }
  printf("blocks %d  sum[0] %.0f  sum[1] %.0f  sum[last] %.0f  total %.0f\n", blocks,
         h_out[0], h_out[1], h_out[blocks - 1], total);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), blocks * sizeof(float)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
