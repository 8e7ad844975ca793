// A small program for the driver tests: a kernel, a header found next to this file, main.
#include "helper.h"

#include <cstdio>

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = FILL_VALUE + i;
}

int main() {
  const int n = 256;
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
  fill<<<(n + 127) / 128, 128>>>(d, n);
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("h[10] = %d\n", h[10]);
  return h[10] == FILL_VALUE + 10 ? 0 : 1;
}
