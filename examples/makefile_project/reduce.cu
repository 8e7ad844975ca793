// A shared-memory tree reduction: barriers in a loop, race-free.
#include "reduce.h"

#include <cuda_runtime.h>

#include <vector>

__global__ void partial_sums(const int *in, int n, int *out) {
  __shared__ int tile[BLOCK_SUM_THREADS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}

int block_sum(const int *values, int n, long long *total) {
  int blocks = (n + BLOCK_SUM_THREADS - 1) / BLOCK_SUM_THREADS;
  int *d_in = nullptr, *d_out = nullptr;
  if (cudaMalloc(&d_in, n * sizeof(int)) != cudaSuccess ||
      cudaMalloc(&d_out, blocks * sizeof(int)) != cudaSuccess)
    return 1;
  cudaMemcpy(d_in, values, n * sizeof(int), cudaMemcpyHostToDevice);
  partial_sums<<<blocks, BLOCK_SUM_THREADS>>>(d_in, n, d_out);
  std::vector<int> partial(blocks);
  cudaError_t err = cudaMemcpy(partial.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  if (err != cudaSuccess) return 1;
  *total = 0;
  for (int p : partial) *total += p;
  return 0;
}
