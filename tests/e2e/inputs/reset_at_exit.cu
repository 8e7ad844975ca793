// The CUDA samples' ending: the last launch, its results printed, then cudaDeviceReset() and return.
// ldcc's exit summary runs after the reset and needs no device: a clean summary, the native output,
// exit code 0, in check mode and in deterministic mode.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotate(const int* in, int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x + 1) % 128] * 2;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 4 * 128;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i * 7 % 101;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  rotate<<<4, 128>>>(in, out);
  if (cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 1;
  }
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += (long long)host[i] * (i + 1);
  printf("%lld\n", sum);
  cudaFree(in);
  cudaFree(out);
  cudaDeviceReset();
  return 0;
}
