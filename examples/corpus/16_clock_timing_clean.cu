// A kernel that times itself with clock64() across its barriers, as profiling code does.
// The timings differ from run to run by nature; ldcc must not compare them between the two
// executions of a region. Only the sums are printed.
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

#define BLOCK 128

__global__ void timed_sum(const int* in, int* out, long long* cycles) {
  __shared__ int s[BLOCK];
  long long start = clock64();
  s[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  long long loaded = clock64() - start;
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  long long total = clock64() - start;
  if (threadIdx.x == 0) {
    out[blockIdx.x] = s[0];
    cycles[2 * blockIdx.x] = loaded;
    cycles[2 * blockIdx.x + 1] = total;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 64, n = blocks * BLOCK;
  std::vector<int> h_in(n), h_out(blocks);
  std::vector<long long> h_cycles(2 * blocks);
  for (int i = 0; i < n; ++i) h_in[i] = int(lcg() % 1000);
  int *d_in = nullptr, *d_out = nullptr;
  long long* d_cycles = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_cycles, 2 * blocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  timed_sum<<<blocks, BLOCK>>>(d_in, d_out, d_cycles);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_cycles.data(), d_cycles, 2 * blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int i = 0; i < BLOCK; ++i) s += h_in[b * BLOCK + i];
    if (h_out[b] != s) ok = false;
    if (h_cycles[2 * b + 1] < h_cycles[2 * b]) ok = false;
  }
  printf("out[0] %d  out[last] %d\n", h_out[0], h_out[blocks - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), blocks * sizeof(int)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_cycles));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
