// Best class per sample: the argmax over 8192 integer scores (0..999) of each of 1024 rows. A row
// is split over 8 blocks of 256 threads (grid 8 x 1024, 1024 columns per block); every thread
// keeps the row's running maximum and its column up to date in global memory.
// RACE (write-write, global row_max, between blocks): the update is a plain check-then-store,
// if (v > row_max[row]) { row_max[row] = v; row_arg[row] = c; }, done by all 8 blocks of a row at
// once. A thread that read an older maximum overwrites a larger one, and which of a row's tied
// 999s ends up in row_arg depends on which block got there first; both depend on the timing of the
// blocks, so row_max and row_arg change from run to run. In ldcc's terms every block raises
// row_max[row] (and sets row_arg[row]) in its private copy: a write-write race (row_max is also
// read by every block: one race per element, reported as ww; row_arg races the same way).
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

static uint32_t g_seed = 2804u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define ROWS 1024
#define COLS 8192
#define CHUNK 1024  // columns per block
#define BLOCK 256

__global__ void row_argmax(const int* scores, int* row_max, int* row_arg) {
  int row = blockIdx.y;
  const int* r = scores + (size_t)row * COLS;
  int end = (blockIdx.x + 1) * CHUNK;
  for (int c = blockIdx.x * CHUNK + threadIdx.x; c < end; c += blockDim.x) {
    int v = r[c];
    if (v > row_max[row]) {  // race: check-then-store by every block of the row
      row_max[row] = v;
      row_arg[row] = c;
    }
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t elems = (size_t)ROWS * COLS;
  std::vector<int> h_scores(elems), h_max(ROWS, -1), h_arg(ROWS, -1), ref_max(ROWS, -1);
  for (size_t i = 0; i < elems; ++i) {
    h_scores[i] = int(lcg() % 1000);
    int row = int(i / COLS);
    if (h_scores[i] > ref_max[row]) ref_max[row] = h_scores[i];
  }

  int *d_scores = nullptr, *d_max = nullptr, *d_arg = nullptr;
  CHECK(cudaMalloc(&d_scores, elems * sizeof(int)));
  CHECK(cudaMalloc(&d_max, ROWS * sizeof(int)));
  CHECK(cudaMalloc(&d_arg, ROWS * sizeof(int)));
  CHECK(cudaMemcpy(d_scores, h_scores.data(), elems * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_max, h_max.data(), ROWS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_arg, h_arg.data(), ROWS * sizeof(int), cudaMemcpyHostToDevice));
  row_argmax<<<dim3(COLS / CHUNK, ROWS), BLOCK>>>(d_scores, d_max, d_arg);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_max.data(), d_max, ROWS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_arg.data(), d_arg, ROWS * sizeof(int), cudaMemcpyDeviceToHost));

  int wrong_max = 0, first_hit = 0;
  for (int row = 0; row < ROWS; ++row) {
    if (h_max[row] != ref_max[row]) ++wrong_max;
    int first = -1;
    for (int c = 0; c < COLS && first < 0; ++c)
      if (h_scores[(size_t)row * COLS + c] == ref_max[row]) first = c;
    if (h_arg[row] == first) ++first_hit;
  }
  printf("row 0: max %d at %d  row 1: max %d at %d  wrong max %d rows  first argmax %d of %d\n",
         h_max[0], h_arg[0], h_max[1], h_arg[1], wrong_max, first_hit, ROWS);
  uint64_t h = fnv1a(h_max.data(), ROWS * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_arg.data(), ROWS * sizeof(int), h));
  CHECK(cudaFree(d_scores));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_arg));
  return 0;
}
