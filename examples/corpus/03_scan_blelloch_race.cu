// Work-efficient (Blelloch) exclusive scan of each block's 256-element segment with 128 threads,
// where the root is cleared by the last thread instead of thread 0.
// RACE (write-write, shared temp): in the last up-sweep level thread 0 (warp 0) writes
// temp[SEG - 1] += temp[SEG/2 - 1] while thread 127 (warp 3) writes 0 there; no barrier between.
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

static uint32_t g_seed = 31337u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define THREADS 128
#define SEG (2 * THREADS)

__global__ void scan_blelloch(const int* in, int* out, int n) {
  __shared__ int temp[SEG];
  int tid = threadIdx.x;
  int base = blockIdx.x * SEG;
  temp[2 * tid] = (base + 2 * tid < n) ? in[base + 2 * tid] : 0;
  temp[2 * tid + 1] = (base + 2 * tid + 1 < n) ? in[base + 2 * tid + 1] : 0;
  int offset = 1;
  for (int d = SEG >> 1; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset <<= 1;
  }
  if (tid == (int)blockDim.x - 1) temp[SEG - 1] = 0;  // race: thread 0 may still be adding into it
  for (int d = 1; d < SEG; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 80 * SEG - 3;
  const int blocks = (n + SEG - 1) / SEG;
  std::vector<int> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = 1 + int(lcg() % 20);

  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scan_blelloch<<<blocks, THREADS>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  printf("out[1] %d  out[255] %d  out[257] %d  out[n-1] %d\n", h_out[1], h_out[255], h_out[257],
         h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(int)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
