// Level W checks global memory in each block's footprint, and blocks' footprints may be neighbours
// inside one 16-byte chunk: here each block stores one 4-byte element of sums. The store hooks'
// footprints are byte-exact and disjoint, so level W checks them (the copies' diffs, widened to whole
// chunks, overlap: sums then went unchecked between warps).
//   block_sums (4 blocks of 64 threads, race-free): a shared-memory reduction, thread 0 stores its
//     block's sum into sums[block], every thread its own element of out. Its output equals native.
//   both_warps (4 blocks of 64 threads): lane 0 of warp 0 and lane 0 of warp 1 both store into
//     sums[block] in one region: a write-write race between the two warps in every block, on
//     sums[0] .. sums[3] (and warp 0's read-write record on the same element), and nothing else. Warp 1 sleeps first, so level B's two executions of a
//     block end with the same value (a block whose last writer changes between them gives level B
//     read-write records, and those keep level W off global memory: README, "cannot see").
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kBlocks = 4, kThreads = 64;

__global__ void block_sums(const int* in, int* sums, int* out) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x, b = blockIdx.x;
  s[t] = in[b * kThreads + t];
  __syncthreads();
  for (int d = kThreads / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) sums[b] = s[0];
  out[b * kThreads + t] = 2 * in[b * kThreads + t];
}

__global__ void both_warps(int* sums) {
  if (threadIdx.x == 32)
    for (int i = 0; i < 50; ++i) __nanosleep(20000);
  if (threadIdx.x % 32 == 0) sums[blockIdx.x] = 100 * blockIdx.x + threadIdx.x / 32 + 1;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  int host_in[kBlocks * kThreads], host_out[kBlocks * kThreads], host_sums[kBlocks];
  for (int i = 0; i < kBlocks * kThreads; ++i) host_in[i] = (i * 37) % 101;
  int *in = nullptr, *sums = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, sizeof host_out);
  cudaMalloc(&sums, sizeof host_sums);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof host_out);
  cudaMemset(sums, 0, sizeof host_sums);
  block_sums<<<kBlocks, kThreads>>>(in, sums, out);
  cudaMemcpy(host_sums, sums, sizeof host_sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  long long out_sum = 0;
  for (int v : host_out) out_sum += v;
  printf("sums %d %d %d %d out %lld\n", host_sums[0], host_sums[1], host_sums[2], host_sums[3], out_sum);
  both_warps<<<kBlocks, kThreads>>>(sums);
  cudaFree(in);
  cudaFree(out);
  cudaFree(sums);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
