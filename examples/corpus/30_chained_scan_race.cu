// Single-pass in-place inclusive scan of 2 M unsigned ints: 2048 blocks of 256 threads, one tile
// of 1024 elements per block (4 consecutive elements per thread). Each block scans its tile in
// shared memory (per-thread runs, a warp-shuffle scan, a scan of the 8 warp totals) and adds a
// carry: the previous tile's last element, which is the running total of everything before this
// tile once the previous block has written its result.
// RACE (read-write, global data, between blocks): the carry is read from data[base - 1] in the
// same launch that overwrites it, on the assumption that blocks finish in index order (a correct
// single-pass scan waits on a per-tile status flag, or the carry comes from a second pass). Block
// b reads either the previous tile's raw input element or its final prefix, depending on whether
// block b - 1 has stored its tile yet, and the blocks run side by side, so the output changes from
// run to run. In ldcc's terms block b writes its tile from a value it read from data, and re-run
// after block b - 1's changes it reads a different one (inputs are >= 1, so a prefix is larger
// than the raw element): a read-write race. Blocks write disjoint tiles (no write-write race) and
// the shared-memory steps are separated by barriers.
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

static uint32_t g_seed = 3006u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256
#define ITEMS 4
#define TILE (BLOCK * ITEMS)
#define WARPS (BLOCK / 32)
#define FULL_MASK 0xffffffffu

__global__ void scan_inplace(unsigned* data, int n) {
  __shared__ unsigned s_tile[TILE];
  __shared__ unsigned s_warp[WARPS];
  __shared__ unsigned s_carry;
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  int base = blockIdx.x * TILE;
  for (int i = tid; i < TILE; i += BLOCK) s_tile[i] = base + i < n ? data[base + i] : 0u;
  __syncthreads();

  // Each thread scans its ITEMS consecutive elements, then the warp scans the threads' totals.
  unsigned run = 0;
  for (int k = 0; k < ITEMS; ++k) {
    run += s_tile[tid * ITEMS + k];
    s_tile[tid * ITEMS + k] = run;
  }
  unsigned incl = run;
  for (int off = 1; off < 32; off <<= 1) {
    unsigned y = __shfl_up_sync(FULL_MASK, incl, off);
    if (lane >= off) incl += y;
  }
  if (lane == 31) s_warp[warp] = incl;
  __syncthreads();

  // Warp 0 scans the warp totals; thread 0 fetches the carry from the previous tile.
  if (warp == 0) {
    unsigned w = lane < WARPS ? s_warp[lane] : 0u;
    for (int off = 1; off < WARPS; off <<= 1) {
      unsigned y = __shfl_up_sync(FULL_MASK, w, off);
      if (lane >= off) w += y;
    }
    if (lane < WARPS) s_warp[lane] = w;
  }
  // race: block b - 1 may not have stored its tile yet
  if (tid == 0) s_carry = blockIdx.x > 0 ? data[base - 1] : 0u;
  __syncthreads();

  unsigned offset = s_carry + (warp > 0 ? s_warp[warp - 1] : 0u) + (incl - run);
  for (int k = 0; k < ITEMS; ++k) {
    int idx = base + tid * ITEMS + k;
    if (idx < n) data[idx] = s_tile[tid * ITEMS + k] + offset;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 2048 * TILE - 300;
  const int blocks = (n + TILE - 1) / TILE;
  std::vector<unsigned> h_data(n), ref(n);
  unsigned acc = 0;
  for (int i = 0; i < n; ++i) {
    h_data[i] = 1u + lcg() % 100u;
    acc += h_data[i];
    ref[i] = acc;
  }

  unsigned* d_data = nullptr;
  CHECK(cudaMalloc(&d_data, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, h_data.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  scan_inplace<<<blocks, BLOCK>>>(d_data, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_data.data(), d_data, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  int correct_tiles = 0;
  for (int b = 0; b < blocks; ++b) {
    int last = b * TILE + TILE - 1 < n ? b * TILE + TILE - 1 : n - 1;
    if (h_data[last] == ref[last]) ++correct_tiles;
  }
  printf("data[%d] %u  data[%d] %u  data[last] %u (true %u)  tiles ending right %d of %d\n",
         TILE - 1, h_data[TILE - 1], TILE, h_data[TILE], h_data[n - 1], ref[n - 1], correct_tiles,
         blocks);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_data.data(), n * sizeof(unsigned)));
  CHECK(cudaFree(d_data));
  return 0;
}
