// Calls of a helper that synchronizes inside the value of a local, once refused as "not a statement
// of its own": `T mean = blockSum(v) / n;`, `spread = blockSum(d * d) / n;`, `T y = 2 * blockSum(v) +
// spread;`, three statements in a row. The helper's sites go around the whole statement. Race-free:
// the checked output must equal native's in check and deterministic mode.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float blockSum(float v) {
  __shared__ float partial[8];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  float total = 0;
  for (int w = 0; w < int(blockDim.x / 32); ++w) total += partial[w];
  __syncthreads();
  return total;
}

__global__ void moments(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = i < n ? in[i] : 0.0f;
  const float mean = blockSum(x) / float(blockDim.x);
  float spread;
  spread = blockSum((x - mean) * (x - mean)) / float(blockDim.x);
  const float y = 2.0f * blockSum(x * mean) + spread;
  out[i] = y;
  if (threadIdx.x == 0) out[n + blockIdx.x] = mean;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 4, threads = 128, n = blocks * threads;
  float host[n + blocks];
  for (int i = 0; i < n; ++i) host[i] = float((i * 7) % 11) - 5.0f;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n + blocks) * sizeof(float));
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
  moments<<<blocks, threads>>>(in, out, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n + blocks; i += 8) printf("%g%c", host[i], (i / 8) % 16 == 15 ? '\n' : ' ');
  printf("\n");
  cudaFree(in);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
