// Calls of a helper that synchronizes inside larger statements, once refused as "not a statement of
// its own". moments: in the value of a local, `T mean = blockSum(v) / n;`, `spread = blockSum(d * d) /
// n;`, `T y = 2 * blockSum(v) + spread;`, three statements in a row (the helper's sites go around the
// whole statement), then a store of two calls' values (both hoisted, in source order). uses: a
// statement that does more with the value, its call hoisted into a temporary (CloneWriter): a store,
// `out[i] = blockSum(x);`, an `if` and a `switch` on it, a user function that stores it, an atomicAdd
// of it. Race-free: the checked output must equal native's in check and deterministic mode.
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
  out[i] = y + 0.5f * (blockSum(x) - blockSum(y));
  if (threadIdx.x == 0) out[n + blockIdx.x] = mean;
}

__device__ void record(float* out, int i, float v) { out[i] = v; }

__global__ void uses(const float* in, float* out, int* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = i < n ? in[i] : 0.0f;
  out[i] = blockSum(x);
  if (blockSum(x * x) > 100.0f) out[i] += 1.0f;
  switch (int(blockSum(1.0f))) {
    case 128: out[i] += 2.0f; break;
    default: out[i] -= 2.0f; break;
  }
  record(out, n + i, blockSum(x + 1.0f));
  atomicAdd(&counts[blockIdx.x], int(blockSum(x)));
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
  float* used = nullptr;
  int* counts = nullptr;
  cudaMalloc(&used, 2 * n * sizeof(float));
  cudaMalloc(&counts, blocks * sizeof(int));
  cudaMemset(counts, 0, blocks * sizeof(int));
  uses<<<blocks, threads>>>(in, used, counts, n);
  float host_used[2 * n];
  int host_counts[blocks];
  cudaMemcpy(host_used, used, sizeof host_used, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * n; i += 16) printf("%g%c", host_used[i], (i / 16) % 16 == 15 ? '\n' : ' ');
  for (int b = 0; b < blocks; ++b) printf("count %d\n", host_counts[b]);
  cudaFree(used);
  cudaFree(counts);
  cudaFree(in);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
