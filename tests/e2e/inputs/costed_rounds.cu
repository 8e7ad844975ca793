// Level B with fewer copies than blocks because copying costs more than executing (planner.h
// cheapest_copies): add_segments runs 512 blocks over a 4 MiB buffer, one 8 KiB segment each; its
// first launch measures a round with a copy per block, and the launches after it check in rounds.
//   clean:      launches 1-6 are race-free: the output equals native.
//   warps race: launch 7 (mode 1): threads 0 (warp 0) and 32 (warp 1) of block 7 both store -777 into
//               element 0 of the block's segment in the same region (the same value every time, so
//               the block's result does not depend on their order): level B sees no race between
//               blocks, and level W, with footprints from level B's store hooks, reports the
//               write-write race on data[14336] between warps 0 and 1 of block (7,0,0).
//   blocks race: launch 8 (mode 2): thread 0 of block 9 also stores -2 into element 5 of block 10's
//               segment: level B finds a write-write race in its rounds and checks again with a
//               copy per block, so the report names blocks (9,0,0) and (10,0,0) on data[20485].
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
  add_segments<<<kBlocks, kThreads>>>(data, 7, 1);
  add_segments<<<kBlocks, kThreads>>>(data, 8, 2);
  const cudaError_t err = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(err));
  cudaFree(data);
  return err == cudaSuccess ? 0 : 1;
}
