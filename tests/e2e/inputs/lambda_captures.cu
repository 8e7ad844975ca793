// Lambdas that name __shared__ and written __device__ variables, which the translation makes them
// capture by reference (they name this unit's copies in the clones). rotate: `[]`, `[k]`, `[=]` and a
// nested lambda read the block's shared array after a barrier, and a `[=]` one reads a __device__
// variable thread 0 set in an earlier region; accessed: a `[]` lambda reads the dynamic shared memory
// through an accessor. Both race-free: their output must equal native's in check and deterministic
// mode. peeked: thread 0 reads, through a `[]` lambda, s[40], which warp 1 stores in the same region:
// exactly one read-write race, on out[0] (what the read made differ in the re-execution).
#include <cstdio>
#include <cuda_runtime.h>

__device__ float scale;

template <class T> __device__ T* dynamicShared() {
  extern __shared__ __align__(16) unsigned char smem[];
  return reinterpret_cast<T*>(smem);
}

__global__ void rotate(const float* in, float* out) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  if (t == 0) scale = 0.5f * float(in[0] + 9.0f);
  __syncthreads();
  const int k = 5;
  auto at = [](int i) { return s[i % 128]; };
  auto shifted = [k](int i) { return s[(i + k) % 128]; };
  auto scaled = [=](int i) { return scale * s[(i + 64) % 128]; };
  auto nested = [](int i) { return [&] { return s[(127 - i) % 128]; }(); };
  out[blockIdx.x * 128 + t] = at(t + 1) + 2.0f * shifted(t) + scaled(t) + 4.0f * nested(t);
}

__global__ void accessed(float* out) {
  float* d = dynamicShared<float>();
  d[threadIdx.x] = float(threadIdx.x * threadIdx.x);
  __syncthreads();
  auto at = [](int i) { return dynamicShared<float>()[i]; };
  out[threadIdx.x] = at((threadIdx.x + 33) % blockDim.x);
}

__global__ void peeked(const float* in, float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = 0.0f;
  __syncthreads();
  s[threadIdx.x] = in[threadIdx.x];
  auto peek = [](int i) { return s[i]; };
  if (threadIdx.x == 0) out[0] = peek(40);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 1, n = blocks * 128;  // one block: each block's thread 0 sets scale
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = float((i * 13) % 17) - 8.0f;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
  rotate<<<blocks, 128>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  accessed<<<1, 96, 96 * sizeof(float)>>>(out);
  cudaMemcpy(host, out, 96 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 96; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  cudaMemset(out, 0, n * sizeof(float));
  peeked<<<1, 64>>>(in, out);
  cudaMemcpy(host, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("peeked %g\n", host[0]);
  cudaFree(in);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
