// Sizing a CSR matrix: one 1024-thread block per row of a mostly-zero dense matrix counts the
// row's nonzeros into a shared counter and thread 0 stores the count in row_nnz[row]; the host
// turns the counts into CSR row pointers.
// RACE (write-write, shared s_nnz, between warps): the counter is bumped with a plain
// read-modify-write (s_nnz++) instead of atomicAdd. The 32 warps of a block each load their
// elements from global memory and then increment, so their increments overwrite each other
// depending on when each warp's loads return; the lost increments, and with them row_nnz and the
// row pointers, change from run to run. (The lanes of one warp also collapse into one increment,
// which is the same every run and invisible to ldcc.) In ldcc's terms every warp that sees a
// nonzero changes s_nnz in its private copy: a write-write race (the element is also read and
// written by every warp: one race, reported as ww). row_nnz is written once per block.
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

static uint32_t g_seed = 2501u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define ROWS 1024
#define COLS 8192
#define BLOCK 1024

__global__ void count_row_nnz(const float* a, int* row_nnz, int cols) {
  __shared__ int s_nnz;
  if (threadIdx.x == 0) s_nnz = 0;
  __syncthreads();
  const float* row = a + (size_t)blockIdx.x * cols;
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    if (row[j] != 0.0f) s_nnz++;  // race: not atomic, all warps bump the one counter
  __syncthreads();
  if (threadIdx.x == 0) row_nnz[blockIdx.x] = s_nnz;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t elems = (size_t)ROWS * COLS;
  // About 1 in 24 entries is nonzero (a small integer), so some warps of a row see a nonzero in a
  // given step and others do not.
  std::vector<float> h_a(elems);
  long long true_nnz = 0;
  for (size_t i = 0; i < elems; ++i) {
    h_a[i] = (lcg() % 24 == 0) ? float(1 + lcg() % 9) : 0.0f;
    if (h_a[i] != 0.0f) ++true_nnz;
  }
  std::vector<int> h_nnz(ROWS), h_row_ptr(ROWS + 1);

  float* d_a = nullptr;
  int* d_nnz = nullptr;
  CHECK(cudaMalloc(&d_a, elems * sizeof(float)));
  CHECK(cudaMalloc(&d_nnz, ROWS * sizeof(int)));
  CHECK(cudaMemcpy(d_a, h_a.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_nnz, 0, ROWS * sizeof(int)));
  count_row_nnz<<<ROWS, BLOCK>>>(d_a, d_nnz, COLS);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_nnz.data(), d_nnz, ROWS * sizeof(int), cudaMemcpyDeviceToHost));

  h_row_ptr[0] = 0;
  for (int r = 0; r < ROWS; ++r) h_row_ptr[r + 1] = h_row_ptr[r] + h_nnz[r];
  printf("row_nnz[0] %d  row_nnz[1] %d  row_nnz[last] %d  nnz %d (true %lld)\n", h_nnz[0], h_nnz[1],
         h_nnz[ROWS - 1], h_row_ptr[ROWS], true_nnz);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_nnz.data(), ROWS * sizeof(int)));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_nnz));
  return 0;
}
