// __shared__ variables whose name another variable of the kernel also has. The clones declare each
// shared variable's reference at the function's top, so before the translator renamed such ones:
//   shadowed:  an outer local `buf` (a pointer into out) shadowed the reference to the inner
//              `__shared__ float buf[64]`, and level B's clone, which keeps locals as written, stored
//              through the pointer into out instead (wrong output, no warning);
//   siblings:  two `__shared__ v` in the two branches of an if: both references declared under one name
//              (a compile error);
//   parameter: `__shared__ float buf[64]` in a block inside a kernel with a parameter `buf`: the
//              reference redeclared the parameter (a compile error).
// All race-free: the checked output must equal native's, in check and deterministic mode.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shadowed(const float* in, float* out) {
  float* buf = out + blockIdx.x * 64;
  const int t = threadIdx.x;
  {
    __shared__ float buf[64];
    buf[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    out[blockIdx.x * 64 + t] = buf[63 - t] * 2.0f;
  }
  buf[t] += 1.0f;
}

__global__ void siblings(int* out, int halves) {
  const int t = threadIdx.x, i = blockIdx.x * 64 + t;
  if (halves) {
    __shared__ float v[64];
    v[t] = t * 0.5f;
    __syncthreads();
    out[i] = int(v[63 - t] * 4.0f) + blockIdx.x;
  } else {
    __shared__ int v[64];
    v[t] = 3 * t;
    __syncthreads();
    out[i] = v[63 - t] + blockIdx.x;
  }
}

__global__ void parameter(float* buf) {
  const int t = threadIdx.x, i = blockIdx.x * 64 + t;
  float mirrored;
  {
    __shared__ float buf[64];
    buf[t] = float(i);
    __syncthreads();
    mirrored = buf[63 - t];
  }
  buf[i] = mirrored;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 4 * 64;
  float host_in[n], host_out[n];
  int host_ints[n];
  for (int i = 0; i < n; ++i) host_in[i] = 0.25f * i - 7.0f;
  float *in = nullptr, *out = nullptr;
  int* ints = nullptr;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, sizeof host_out);
  cudaMalloc(&ints, sizeof host_ints);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  shadowed<<<4, 64>>>(in, out);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%g%c", host_out[i], i % 16 == 15 ? '\n' : ' ');
  for (int halves = 0; halves < 2; ++halves) {
    siblings<<<4, 64>>>(ints, halves);
    cudaMemcpy(host_ints, ints, sizeof host_ints, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) printf("%d%c", host_ints[i], i % 16 == 15 ? '\n' : ' ');
  }
  parameter<<<4, 64>>>(out);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%g%c", host_out[i], i % 16 == 15 ? '\n' : ' ');
  cudaFree(in);
  cudaFree(out);
  cudaFree(ints);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
