// Row sums and block totals of a ragged array (CSR layout: row r is values[row_start[r] ..
// row_start[r + 1]), 32768 rows of 0..511 values): 1024 blocks of 1024 threads, one warp per row.
// Each warp sums its row with a strided loop and a shuffle reduction and lane 0 stores the sum in
// row_sum[row] and in s_partial[warp]; warp 0 then adds up the 32 warp sums and leaves the block
// total in s_partial[0], which thread 0 stores in block_total[blockIdx.x] after a barrier.
// RACE (read-write, shared s_partial, between warps): there is no barrier between the warps'
// s_partial[warp] stores and warp 0 reading all 32 of them. Rows have different lengths, so when
// warp 0 has finished its own row, warps with longer rows (and, by the timing of their loads, some
// with rows about as long) have not stored their sums yet, and warp 0 adds the zeros left by the
// initialization instead; which warps it misses changes from run to run, and so does
// block_total. In ldcc's terms warp 0 writes the total computed from other warps' s_partial
// entries back into s_partial[0] in the same barrier interval, and re-run after their stores it
// reads other values: a read-write race. row_sum is race-free (one warp per row).
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

static uint32_t g_seed = 3107u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 1024
#define WARPS (BLOCK / 32)
#define BLOCKS 1024
#define ROWS (BLOCKS * WARPS)
#define MAX_LEN 512
#define FULL_MASK 0xffffffffu

__global__ void ragged_block_sums(const int* values, const int* row_start, int* row_sum,
                                  int* block_total, int rows) {
  __shared__ int s_partial[WARPS];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < WARPS) s_partial[threadIdx.x] = 0;
  __syncthreads();

  int row = blockIdx.x * WARPS + warp;
  int sum = 0;
  if (row < rows)
    for (int i = row_start[row] + lane; i < row_start[row + 1]; i += 32) sum += values[i];
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, off);
  if (lane == 0) {
    s_partial[warp] = sum;
    if (row < rows) row_sum[row] = sum;
  }
  // missing __syncthreads(): warp 0 reads the other warps' sums before they are all stored
  if (warp == 0) {
    int v = s_partial[lane];  // race
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL_MASK, v, off);
    if (lane == 0) s_partial[0] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0) block_total[blockIdx.x] = s_partial[0];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  std::vector<int> h_start(ROWS + 1), h_row_sum(ROWS), h_total(BLOCKS), ref_total(BLOCKS, 0);
  h_start[0] = 0;
  for (int r = 0; r < ROWS; ++r) h_start[r + 1] = h_start[r] + int(lcg() % MAX_LEN);
  const int nvals = h_start[ROWS];
  std::vector<int> h_values(nvals);
  for (int i = 0; i < nvals; ++i) h_values[i] = 1 + int(lcg() % 50);
  for (int r = 0; r < ROWS; ++r)
    for (int i = h_start[r]; i < h_start[r + 1]; ++i) ref_total[r / WARPS] += h_values[i];

  int *d_values = nullptr, *d_start = nullptr, *d_row_sum = nullptr, *d_total = nullptr;
  CHECK(cudaMalloc(&d_values, nvals * sizeof(int)));
  CHECK(cudaMalloc(&d_start, (ROWS + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_row_sum, ROWS * sizeof(int)));
  CHECK(cudaMalloc(&d_total, BLOCKS * sizeof(int)));
  CHECK(cudaMemcpy(d_values, h_values.data(), nvals * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_start, h_start.data(), (ROWS + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_row_sum, 0, ROWS * sizeof(int)));
  CHECK(cudaMemset(d_total, 0, BLOCKS * sizeof(int)));
  ragged_block_sums<<<BLOCKS, BLOCK>>>(d_values, d_start, d_row_sum, d_total, ROWS);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_row_sum.data(), d_row_sum, ROWS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_total.data(), d_total, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost));

  int right = 0;
  for (int b = 0; b < BLOCKS; ++b) right += h_total[b] == ref_total[b];
  printf("row_sum[0] %d  block_total[0] %d (true %d)  block_total[last] %d (true %d)  right %d\n",
         h_row_sum[0], h_total[0], ref_total[0], h_total[BLOCKS - 1], ref_total[BLOCKS - 1], right);
  uint64_t h = fnv1a(h_row_sum.data(), ROWS * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_total.data(), BLOCKS * sizeof(int), h));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_start));
  CHECK(cudaFree(d_row_sum));
  CHECK(cudaFree(d_total));
  return 0;
}
