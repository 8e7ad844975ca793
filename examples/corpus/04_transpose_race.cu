// Tiled matrix transpose through a padded 32x33 shared tile with 32x8 thread blocks.
// Each block loads a tile, transposes it in place in shared memory (the thread above the
// diagonal swaps its pair) and stores it with coalesced writes.
// RACE (write-write, shared tile; also read-write): no barrier between the load and the swap, so
// a warp swapping row r reads and writes tile[tx][r] while warp tx % 8 is still loading row tx.
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

#define TILE 32
#define ROWS 8

// in: height x width (row-major); out: width x height.
__global__ void transpose_tile(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS) tile[ty + j][tx] = in[(y + j) * width + x];
  // race: missing __syncthreads() before the in-place swap
  for (int j = 0; j < TILE; j += ROWS) {
    int r = ty + j;
    if (tx > r) {
      float t = tile[r][tx];
      tile[r][tx] = tile[tx][r];
      tile[tx][r] = t;
    }
  }
  __syncthreads();
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * height + x] = tile[ty + j][tx];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int width = 256, height = 192, n = width * height;
  std::vector<float> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = float(1 + lcg() % 1000);

  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, ROWS), grid(width / TILE, height / TILE);
  transpose_tile<<<grid, block>>>(d_in, d_out, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

  printf("out[0] %.0f  out[1] %.0f  out[height] %.0f  out[n-1] %.0f\n", h_out[0], h_out[1],
         h_out[height], h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(float)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
