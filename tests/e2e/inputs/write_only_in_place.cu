// Deterministic mode on the program's own memory (deterministic.h, run_in_place): a launch
// whose global targets are all write-only runs with no copies, the warps of a block side by side,
// each store marking the words it writes with its warp.
//   tile_scan: 16 blocks scan their tiles across barriers and store them interleaved between warps
//     (every warp's stores span the block's tile, each word stored by one warp), race-free: it runs
//     in place and its output equals native;
//   last_warp: every warp of one block stores its number into *last in the same region, the lower
//     warps after a longer delay (natively the highest warp's store is seldom the last). Two warps
//     marked one word: the target gets its bytes back and the launch runs again on a copy per warp,
//     merged in warp order: the highest warp's store wins, *last == 7 on every run;
//   shared_cell: every block stores into out[0]; the last block, which stores first, the value
//     out[0] held. The footprints overlap, so the targets get their bytes back and the launch runs
//     again on block copies merged in block order: block 6 is the highest that changed out[0].
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kTiles = 16;
constexpr unsigned kKeep = 100;

__global__ void tile_scan(const unsigned* in, unsigned* scanned, unsigned* totals) {
  __shared__ unsigned s[kThreads];
  const int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * kThreads + tid];
  for (int off = 1; off < kThreads; off <<= 1) {
    __syncthreads();
    const unsigned add = tid >= off ? s[tid - off] : 0u;
    __syncthreads();
    s[tid] += add;
  }
  __syncthreads();
  const int k = (tid * 37) % kThreads;
  scanned[blockIdx.x * kThreads + k] = s[k];
  if (tid == 0) totals[blockIdx.x] = s[kThreads - 1];
}

__device__ unsigned spin(unsigned x, unsigned rounds) {
  for (unsigned i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;
  return x;
}

__global__ void last_warp(unsigned* last, unsigned* work) {
  const unsigned warp = threadIdx.x / 32;
  work[threadIdx.x] = spin(threadIdx.x, (blockDim.x / 32 - 1 - warp) * 20000u);
  if (threadIdx.x % 32 == 0) *last = warp;
}

__global__ void shared_cell(unsigned* out, unsigned keep) {
  const bool last_block = blockIdx.x == gridDim.x - 1;
  out[1 + blockIdx.x * blockDim.x + threadIdx.x] = spin(threadIdx.x, last_block ? 0u : 20000u);
  if (threadIdx.x == 0) out[0] = last_block ? keep : blockIdx.x;
}

static uint64_t fnv1a(const void* data, size_t bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 0x100000001b3ull;
  return h;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;
  std::vector<unsigned> in(kTiles * kThreads);
  uint32_t seed = 777u;
  for (unsigned& v : in) v = (seed = seed * 1664525u + 1013904223u) >> 20;
  unsigned *d_in, *d_scanned, *d_totals, *d_last, *d_work, *d_out;
  const int cells = 1 + 8 * 64;
  cudaMalloc(&d_in, in.size() * sizeof(unsigned));
  cudaMalloc(&d_scanned, in.size() * sizeof(unsigned));
  cudaMalloc(&d_totals, kTiles * sizeof(unsigned));
  cudaMalloc(&d_last, sizeof(unsigned));
  cudaMalloc(&d_work, kThreads * sizeof(unsigned));
  cudaMalloc(&d_out, cells * sizeof(unsigned));
  cudaMemcpy(d_in, in.data(), in.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(d_scanned, 0, in.size() * sizeof(unsigned));
  cudaMemset(d_last, 0xff, sizeof(unsigned));
  std::vector<unsigned> out(cells, kKeep);
  cudaMemcpy(d_out, out.data(), cells * sizeof(unsigned), cudaMemcpyHostToDevice);

  tile_scan<<<kTiles, kThreads>>>(d_in, d_scanned, d_totals);
  last_warp<<<1, kThreads>>>(d_last, d_work);
  shared_cell<<<8, 64>>>(d_out, kKeep);

  std::vector<unsigned> scanned(in.size()), totals(kTiles);
  unsigned last = 0;
  cudaMemcpy(scanned.data(), d_scanned, scanned.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(totals.data(), d_totals, totals.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&last, d_last, sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(out.data(), d_out, cells * sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  bool ok = true;
  for (int b = 0; b < kTiles; ++b) {
    unsigned run = 0;
    for (int i = 0; i < kThreads; ++i) {
      run += in[b * kThreads + i];
      ok = ok && scanned[b * kThreads + i] == run;
    }
    ok = ok && totals[b] == run;
  }
  printf("tile_scan: %s totals[0] %u totals[15] %u hash %016llx\n", ok ? "PASS" : "FAIL", totals[0], totals[kTiles - 1],
         (unsigned long long)fnv1a(scanned.data(), scanned.size() * sizeof(unsigned)));
  printf("last_warp: %u\n", last);
  printf("shared_cell: out[0] %u hash %016llx\n", out[0], (unsigned long long)fnv1a(out.data() + 1, (cells - 1) * 4));
  return 0;
}
