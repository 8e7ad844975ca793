// Level W commits a region its warps wrote in without re-executing it when no thread of the block
// loaded, through a pointer parameter into a global target, anything the block stored
// (region_check.cuh, ends_without_rerun; the loads are the clone's marks, WriteOnlyParams.h).
//   relay: 8 regions each store a slice of `out` from `in`, a read-only input: the 8 end after pass 1
//          ("read nothing written"), the 9th (the last barrier to the exit) writes nothing;
//   aliased: `in` and `out` are one buffer: warp 1 loads in[0], which warp 0 stores in the same
//          region, into out[4]: the region re-executes and warp 1's read-write race on out[4] is
//          reported (a runtime that did not map `in` to out's target would commit it unchecked);
//   escaped: the load goes through a copy of the pointer (no mark: `out` counts as loaded in every
//          region): warp 1's race on out[2].
//   silent, split: write-write races the ww-check cannot see (warp 0 stores the 0 already in cell[5]
//          while warp 1 stores 7; warps 0 and 1 store 1 and 256 into cell[1], no byte changed by
//          both): the warps' store ranges overlap, so the region re-executes and pass 2's rw-check
//          reports warp 0 on cell[5], and warps 0 and 1 on cell[1].
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relay(const int* in, int* out) {
  for (int k = 0; k < 8; ++k) {
    out[k * 64 + threadIdx.x] = in[k * 64 + threadIdx.x] + k;
    __syncthreads();
  }
}

__global__ void aliased(const int* in, int* out) {
  if (threadIdx.x == 0) out[0] = 7;
  if (threadIdx.x == 32) out[4] = in[0];
  __syncthreads();
}

__global__ void escaped(int* out) {
  const int* copy = out;
  if (threadIdx.x == 0) out[0] = 9;
  if (threadIdx.x == 32) out[2] = copy[0];
  __syncthreads();
}

__global__ void silent(int* cell) {
  if (threadIdx.x == 0) cell[5] = 0;
  if (threadIdx.x == 32) cell[5] = 7;
  __syncthreads();
}

__global__ void split(int* cell) {
  if (threadIdx.x == 0) cell[1] = 1;
  if (threadIdx.x == 32) cell[1] = 256;
  __syncthreads();
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 512 * sizeof(int));
  cudaMalloc(&out, 512 * sizeof(int));
  int host[512];
  for (int i = 0; i < 512; ++i) host[i] = 3 * i;
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof host);
  relay<<<1, 64>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < 512; ++i) sum += (long long)(i + 1) * host[i];
  printf("relay %lld\n", sum);
  aliased<<<1, 64>>>(out, out);
  escaped<<<1, 64>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("out[0] %d out[100] %d\n", host[0], host[100]);
  int* cell = nullptr;
  cudaMalloc(&cell, 8 * sizeof(int));
  cudaMemset(cell, 0, 8 * sizeof(int));
  silent<<<1, 64>>>(cell);
  split<<<1, 64>>>(cell);
  cudaFree(cell);
  cudaFree(in);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
