// A race-free kernel: each thread writes only its own element.
#include "saxpy.h"

#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int run_saxpy(int n, float a, const float *x, float *y) {
  float *dx = nullptr, *dy = nullptr;
  size_t bytes = n * sizeof(float);
  if (cudaMalloc(&dx, bytes) != cudaSuccess || cudaMalloc(&dy, bytes) != cudaSuccess) return 1;
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaError_t err = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return err == cudaSuccess ? 0 : 1;
}
