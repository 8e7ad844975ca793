// Smoothing with the right neighbour, data[i] = data[i] + data[i + 1], in place on global memory.
// Each block stages its segment in shared memory; the block's last thread takes its right
// neighbour, the next block's first element, from global memory.
// RACE (read-write, global data, between blocks): the in-place update forgets that the next block
// updates its first element in the same launch. The last thread of block b reads data[gid + 1]
// while block b + 1 overwrites it with data[gid + 1] + data[gid + 2] (inputs are >= 1, so the two
// values always differ), and writes the sum back into data[gid]. Within a block there is no race:
// neighbours come from the shared copy, and the barrier separates the loads from the stores.
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

static uint32_t g_seed = 1801u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void smooth_inplace(int* data, int n) {
  __shared__ int seg[BLOCK];
  int gid = blockIdx.x * BLOCK + threadIdx.x;
  seg[threadIdx.x] = (gid < n) ? data[gid] : 0;
  __syncthreads();
  int right;
  if (threadIdx.x < BLOCK - 1) right = seg[threadIdx.x + 1];
  else right = (gid + 1 < n) ? data[gid + 1] : 0;  // race: the next block updates this element
  if (gid < n) data[gid] = seg[threadIdx.x] + right;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 150 * BLOCK - 100;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<int> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = 1 + int(lcg() % 100);

  int* d_data = nullptr;
  CHECK(cudaMalloc(&d_data, n * sizeof(int)));
  CHECK(cudaMemcpy(d_data, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  smooth_inplace<<<blocks, BLOCK>>>(d_data, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_data, n * sizeof(int), cudaMemcpyDeviceToHost));

  printf("out[0] %d  out[255] %d  out[256] %d  out[n-1] %d\n", h_out[0], h_out[255], h_out[256],
         h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(int)));
  CHECK(cudaFree(d_data));
  return 0;
}
