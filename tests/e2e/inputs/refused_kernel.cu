// A program with one kernel the translator refuses (a barrier in a for-loop header) and one it
// accepts: in check mode the refused one runs unchecked, in deterministic mode natively, each with
// ldcc's warning; the program's output is the same in every mode.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stepped(int* p) {
  for (int i = 0; i < 3; __syncthreads(), ++i) p[threadIdx.x] += i;
}

__global__ void doubled(int* p) { p[blockIdx.x * blockDim.x + threadIdx.x] *= 2; }

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  int* d = nullptr;
  if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess) return 2;
  cudaMemset(d, 0, 64 * sizeof(int));
  stepped<<<1, 64>>>(d);
  doubled<<<2, 32>>>(d);
  int h[64];
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  long sum = 0;
  for (int v : h) sum += v;
  printf("p[0] %d p[63] %d sum %ld\n", h[0], h[63], sum);
  cudaFree(d);
  return 0;
}
