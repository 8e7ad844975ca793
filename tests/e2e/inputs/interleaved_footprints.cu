// A grid-stride loop: each block stores every 128th run of 64 elements, so the blocks' write
// footprints interleave and level W, which checks each block's global memory inside its own
// footprint, cannot check the warps of a block against each other there. The launch is otherwise
// checked (level B between blocks), and the summary and the JSON report say what was left out.
// `tiled` gives each block one contiguous tile: nothing is left out.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void strided(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = 3 * i;
}

__global__ void tiled(int* out, int n) {
  const int per = n / gridDim.x;
  for (int i = threadIdx.x; i < per; i += blockDim.x) out[blockIdx.x * per + i] = 5 * i + int(blockIdx.x);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 512;
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  strided<<<2, 64>>>(a, n);
  tiled<<<2, 64>>>(b, n);
  int ha[n], hb[n];
  if (cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 1;
  }
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += (long long)ha[i] * (i + 1) + hb[i];
  printf("%lld %d %d\n", sum, ha[n - 1], hb[n - 1]);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
