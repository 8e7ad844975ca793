// Level B with fewer copies than blocks because copying costs more than executing (planner.h
// cheapest_copies): add_segments runs 512 blocks over a 4 MiB buffer, one 8 KiB segment each; its
// first two launches measure a round with a copy per block, and the launches after them check in rounds.
//   clean:      launches 1-6 are race-free: the output equals native.
//   warps race: launch 7 (mode 1): threads 0 (warp 0) and 32 (warp 1) of block 7 both store -777 into
//               element 0 of the block's segment in the same region (the same value every time, so
//               the block's result does not depend on their order): level B sees no race between
//               blocks, and level W, with footprints from level B's store hooks, reports the
//               write-write race on data[14336] between warps 0 and 1 of block (7,0,0).
//   blocks race: launch 8 (mode 2): thread 0 of block 9 also stores -2 into element 5 of block 10's
//               segment: level B finds a write-write race in its rounds and checks again with a
//               copy per block, so the report names blocks (9,0,0) and (10,0,0) on data[20485].
// mark_segments does what add_segments does and thread 0 of every block also stores 0 into status[0],
// which holds 0: no change, so no race, but every block's store footprint in status covers it. When
// its launches would check in rounds, those footprints overlap and level W could not check global
// memory: level B checks again with a copy per block (whose footprints leave status[0] out), and so
// from then on. Launch 6 (mode 1) races between warps 0 and 1 of block 7 on data[14336], reported
// (they store -555: add_segments' later -777 must differ from what is there, or value-based checking
// cannot see the write).
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBlocks = 512, kThreads = 256, kSegment = 2048;

__global__ void add_segments(int* data, int step, int mode) {
  int* segment = data + blockIdx.x * kSegment;
  for (int i = threadIdx.x; i < kSegment; i += blockDim.x) segment[i] += step + i % 7;
  if (mode == 1 && blockIdx.x == 7 && threadIdx.x % 32 == 0 && threadIdx.x < 64) segment[0] = -777;
  if (mode == 2 && blockIdx.x == 9 && threadIdx.x == 0) data[10 * kSegment + 5] = -2;
  __syncthreads();
  for (int i = threadIdx.x; i < kSegment; i += blockDim.x) segment[i] ^= (i & 3);
}

__global__ void mark_segments(int* data, int* status, int step, int mode) {
  int* segment = data + blockIdx.x * kSegment;
  for (int i = threadIdx.x; i < kSegment; i += blockDim.x) segment[i] += step;
  if (threadIdx.x == 0) status[0] = 0;
  if (mode == 1 && blockIdx.x == 7 && threadIdx.x % 32 == 0 && threadIdx.x < 64) segment[0] = -555;
  __syncthreads();
  for (int i = threadIdx.x; i < kSegment; i += blockDim.x) segment[i] ^= (i & 1);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t n = size_t(kBlocks) * kSegment;
  std::vector<int> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = int(i * 2654435761u % 1000u);
  int* data = nullptr;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemcpy(data, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  for (int step = 1; step <= 6; ++step) add_segments<<<kBlocks, kThreads>>>(data, step, 0);
  cudaMemcpy(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost);
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) hash = (hash ^ uint32_t(host[i])) * 0x100000001b3ull;
  printf("clean: %016llx %d %d %d\n", (unsigned long long)hash, host[0], host[n / 2], host[n - 1]);
  int* status = nullptr;
  cudaMalloc(&status, sizeof(int));
  cudaMemset(status, 0, sizeof(int));
  for (int step = 1; step <= 5; ++step) mark_segments<<<kBlocks, kThreads>>>(data, status, step, 0);
  cudaMemcpy(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost);
  hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) hash = (hash ^ uint32_t(host[i])) * 0x100000001b3ull;
  printf("marked: %016llx %d %d %d\n", (unsigned long long)hash, host[0], host[n / 2], host[n - 1]);
  mark_segments<<<kBlocks, kThreads>>>(data, status, 6, 1);
  add_segments<<<kBlocks, kThreads>>>(data, 7, 1);
  add_segments<<<kBlocks, kThreads>>>(data, 8, 2);
  const cudaError_t err = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(err));
  cudaFree(data);
  cudaFree(status);
  return err == cudaSuccess ? 0 : 1;
}
