// 1-D stencil (radius 3, weights 1 2 3 4 3 2 1) with the block's segment and its halo cells
// staged in shared memory; the first RADIUS threads load the left and right halos.
// RACE (write-write, shared temp): the right halo index lacks "+ RADIUS", so threads 0..2 (warp 0)
// store the next segment's values into temp[BLOCK..BLOCK+2], the cells threads 253..255 (warp 7)
// load; the real right halo cells are left unset.
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

static uint32_t g_seed = 1001u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define RADIUS 3
#define BLOCK 256

__global__ void stencil_1d(const int* in, int* out, int n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int gid = blockIdx.x * BLOCK + threadIdx.x;
  int lid = threadIdx.x + RADIUS;
  temp[lid] = (gid < n) ? in[gid] : 0;
  if (threadIdx.x < RADIUS) {
    int left = gid - RADIUS, right = gid + BLOCK;
    temp[lid - RADIUS] = (left >= 0 && left < n) ? in[left] : 0;
    temp[threadIdx.x + BLOCK] = (right < n) ? in[right] : 0;  // race: should be lid + BLOCK
  }
  __syncthreads();
  int result = 0;
  for (int k = -RADIUS; k <= RADIUS; ++k) result += (RADIUS + 1 - abs(k)) * temp[lid + k];
  if (gid < n) out[gid] = result;
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
  for (int i = 0; i < n; ++i) h_in[i] = int(lcg() % 100);

  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  stencil_1d<<<blocks, BLOCK>>>(d_in, d_out, n);
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
