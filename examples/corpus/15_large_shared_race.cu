// Column and row totals of 96x128 tiles held in one 48 KiB __shared__ array per block.
// RACE: the barrier after the load is missing, so a column's accumulation reads rows that
// other warps are still storing (read-write race on tile, inter-warp).
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

#define ROWS 96
#define COLS 128
#define BLOCK 256

// tile is 96 x 128 floats = 48 KiB: with 8 warps the private copies cannot fit in shared memory,
// so the checker keeps them in global scratch.
__global__ void column_totals(const float* in, float* col_out, float* row_out) {
  __shared__ float tile[ROWS][COLS];
  const float* src = in + (size_t)blockIdx.x * ROWS * COLS;
  for (int k = threadIdx.x; k < ROWS * COLS; k += BLOCK) tile[k / COLS][k % COLS] = src[k];
  if (threadIdx.x < COLS) {
    // Accumulate column c into its first row, in place.
    int c = threadIdx.x;
    for (int r = 1; r < ROWS; ++r) tile[0][c] += tile[r][c];
  }
  __syncthreads();
  if (threadIdx.x < COLS) col_out[blockIdx.x * COLS + threadIdx.x] = tile[0][threadIdx.x];
  if (threadIdx.x < ROWS) {
    float s = 0.0f;
    for (int c = 0; c < COLS; ++c) s += tile[threadIdx.x][c];
    row_out[blockIdx.x * ROWS + threadIdx.x] = s;
  }
}

static std::vector<float> in_tile(const std::vector<float>& in, int b) {
  return std::vector<float>(in.begin() + (size_t)b * ROWS * COLS, in.begin() + (size_t)(b + 1) * ROWS * COLS);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 24, n = blocks * ROWS * COLS;
  std::vector<float> h_in(n), h_col(blocks * COLS), h_row(blocks * ROWS);
  for (int i = 0; i < n; ++i) h_in[i] = float(lcg() % 50);
  float *d_in = nullptr, *d_col = nullptr, *d_row = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_col, h_col.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_row, h_row.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  column_totals<<<blocks, BLOCK>>>(d_in, d_col, d_row);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_col.data(), d_col, h_col.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_row.data(), d_row, h_row.size() * sizeof(float), cudaMemcpyDeviceToHost));
  [[maybe_unused]] bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    std::vector<float> t(in_tile(h_in, b));
    for (int c = 0; c < COLS; ++c) {
      float s = 0.0f;
      for (int r = 0; r < ROWS; ++r) s += t[r * COLS + c];
      if (h_col[b * COLS + c] != s) ok = false;
      t[c] = s;
    }
    for (int r = 0; r < ROWS; ++r) {
      float s = 0.0f;
      for (int c = 0; c < COLS; ++c) s += t[r * COLS + c];
      if (h_row[b * ROWS + r] != s) ok = false;
    }
  }
  printf("col[0] %.0f  col[last] %.0f  row[0] %.0f\n", h_col[0], h_col.back(), h_row[0]);
  uint64_t h = fnv1a(h_col.data(), h_col.size() * sizeof(float));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_row.data(), h_row.size() * sizeof(float), h));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_row));

  return 0;
}
