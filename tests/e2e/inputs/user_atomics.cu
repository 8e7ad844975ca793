// Functions of the program's own named like CUDA's atomics, once refused as "the atomic operation
// atomicMaxFloat": a CAS-loop float maximum, called from a kernel and from a kernel template (an
// unresolved call in the template's pattern), and the double atomicAdd overload old code declares for
// devices without one (here under another name than CUDA's, which sm_60+ has). They are cloned like
// other helpers and the atomicCAS inside hooked (one spelled `::atomicCAS`, as such helpers often
// are), and a minimum whose CAS is in its loop's condition. halfCounts adds __half2 pairs with cuda_fp16.h's atomicAdd, an overload the header declares
// after ldcc's. Race-free: the checked output must equal native's.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ float atomicMaxFloat(float* addr, float v) {
  int* bits = (int*)addr;
  int old = *bits, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(bits, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

__device__ double atomicAddDouble(double* addr, double v) {
  unsigned long long* bits = (unsigned long long*)addr;
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    old = ::atomicCAS(bits, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
  } while (old != assumed);
  return __longlong_as_double(old);
}

// The same update written in the loop's condition (a spin-wait before 2026-11-30: refused).
__device__ float atomicMinFloat(float* addr, float v) {
  int* bits = (int*)addr;
  int assumed = *bits, old;
  while ((old = atomicCAS(bits, assumed, __float_as_int(fminf(v, __int_as_float(assumed))))) != assumed) assumed = old;
  return __int_as_float(old);
}

__global__ void minOf(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMinFloat(out, in[i]);
}

__global__ void maxOf(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxFloat(out, in[i]);
}

template <typename T>
__global__ void maxOfT(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxFloat(out, in[i]);
}

__global__ void sumOf(const float* in, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAddDouble(out, double(in[i]) * 0.5);
}

// Small integers in half precision: exact sums in any order (at most 2 * 125 per counter).
__global__ void halfCounts(__half2* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[i % 8], __halves2half2(__float2half(1.0f), __float2half(2.0f)));
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 1000;
  float host_in[n];
  for (int i = 0; i < n; ++i) host_in[i] = float((i * 37) % 1001) - 500.0f;
  float *in = nullptr, *out = nullptr;
  double* sum = nullptr;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, 2 * sizeof(float));
  cudaMalloc(&sum, sizeof(double));
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  const float lowest[2] = {-1e30f, -1e30f};
  cudaMemcpy(out, lowest, sizeof lowest, cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, sizeof(double));
  maxOf<<<(n + 127) / 128, 128>>>(in, out, n);
  maxOfT<float><<<(n + 127) / 128, 128>>>(in, out + 1, n);
  sumOf<<<(n + 127) / 128, 128>>>(in, sum, n);
  float host_out[2];
  double host_sum = 0;
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(&host_sum, sum, sizeof host_sum, cudaMemcpyDeviceToHost);
  // Halves of integers: the sum is exact in any order.
  printf("max %g %g sum %.1f\n", host_out[0], host_out[1], host_sum);
  __half2* counts = nullptr;
  cudaMalloc(&counts, 8 * sizeof(__half2));
  cudaMemset(counts, 0, 8 * sizeof(__half2));
  halfCounts<<<(n + 127) / 128, 128>>>(counts, n);
  __half2 host_counts[8];
  cudaMemcpy(host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i)
    printf("counts[%d] %g %g\n", i, __low2float(host_counts[i]), __high2float(host_counts[i]));
  const float highest = 1e30f;
  cudaMemcpy(out, &highest, sizeof highest, cudaMemcpyHostToDevice);
  minOf<<<(n + 127) / 128, 128>>>(in, out, n);
  cudaMemcpy(host_out, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("min %g\n", host_out[0]);
  cudaFree(in);
  cudaFree(out);
  cudaFree(sum);
  cudaFree(counts);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
