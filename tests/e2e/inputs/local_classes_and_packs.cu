// A class defined inside a kernel (its member function returns; the kernel returns early too) and a
// kernel template whose parameter pack lives across a barrier (saved and restored as a PackFrame).
// clamped and weighted are race-free: the checked output must equal native's in check and
// deterministic mode. racyWeighted's warps 0 and 1 both store to buf[0] in one region: its races
// on buf[0] are reported, and nothing else.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void clamped(float* out, const float* in, int n) {
  struct Clamp {
    float lo, hi;
    __device__ float operator()(float v) const {
      if (v < lo) return lo;
      if (v > hi) return hi;
      return v;
    }
  };
  __shared__ float buf[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  {
    Clamp c{-1.0f, 2.0f};
    buf[threadIdx.x] = c(in[i]);
  }
  __syncthreads();
  if (i >= n) return;
  out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

template <typename... Ts>
__global__ void weighted(float* out, Ts... weights) {
  __shared__ float buf[128];
  buf[threadIdx.x] = float(blockIdx.x * blockDim.x + threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (buf[blockDim.x - 1 - threadIdx.x] * ... * float(weights));
}

template <typename... Ts>
__global__ void racyWeighted(float* out, Ts... weights) {
  __shared__ float buf[64];
  if (threadIdx.x % 32 == 0) buf[0] = (float(threadIdx.x + 1) * ... * float(weights));
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 4, threads = 128, n = blocks * threads - 5;
  float host[blocks * threads];
  for (int i = 0; i < blocks * threads; ++i) host[i] = float((i * 7) % 11) - 5.0f;
  float *in = nullptr, *out = nullptr, *scratch = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMalloc(&scratch, 64 * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof host);
  clamped<<<blocks, threads>>>(out, in, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * threads; i += 4) printf("%g%c", host[i], (i / 4) % 16 == 15 ? '\n' : ' ');
  weighted<<<blocks, threads>>>(out, 2, 0.5f, 3u);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * threads; i += 4) printf("%g%c", host[i], (i / 4) % 16 == 15 ? '\n' : ' ');
  racyWeighted<<<1, 64>>>(scratch, 2, 3);
  cudaFree(in);
  cudaFree(out);
  cudaFree(scratch);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
