// Parameters in forms the translator once got wrong (golden param_forms has the translations):
//   overlap: a const pointer parameter written (`float* const __restrict__ out`): block b writes
//            out[64 b .. 64 b + 64) and thread 0 of block 1 also out[0] (1, where block 0 stores the
//            0 already there): reported on out[0] (before, a const pointer was not a checked target and
//            the race went unreported). Block 0's store leaves no trace in its copy, so the race shows
//            as block 0 reading what block 1 wrote, as a silent store does at level W (cross_reads);
//   later:   a helper reads its reference parameter after a barrier, where another warp's store is
//            in; race-free, output equal to native (before, the read was moved to the entry).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void overlap(const float* const __restrict__ in, float* const __restrict__ out) {
  const int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = 2.f * in[i];
  if (blockIdx.x == 1 && threadIdx.x == 0) out[0] = 1.f;
}

__device__ float later(const float& x, float* s) {
  s[threadIdx.x] = threadIdx.x * 2.f;
  __syncthreads();
  const float v = x;
  __syncthreads();
  return v;
}

__global__ void reads_later(float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = 0.f;
  __syncthreads();
  const float r = later(s[(threadIdx.x + 1) % 64], s);
  out[threadIdx.x] = r;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  float host[128];
  for (int i = 0; i < 128; ++i) host[i] = float(i);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof host);
  overlap<<<2, 64>>>(in, out);
  reads_later<<<1, 64>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  cudaFree(in);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
