// A helper function template with its own `static __shared__ T partial[32]` (the usual
// blockReduceSum<T>), once refused as "a __shared__ variable in a function template other than a
// kernel". Each kernel (instantiation) describes the array with the type of the helper instantiation
// it reaches: float from a plain kernel, float and double from two instantiations of a kernel
// template (deduced there).
//   rowSum, rowSumT: race-free; output equal to native's in check and deterministic mode;
//   stamped:         the helper stamp<int> lets both warps store slot[0..3] in one region.
#include <cstdio>
#include <cuda_runtime.h>

template <typename T>
__device__ T blockReduceSum(T val) {
  static __shared__ T partial[32];
  const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffffu, val, offset);
  if (lane == 0) partial[wid] = val;
  __syncthreads();
  val = threadIdx.x < blockDim.x / 32 ? partial[lane] : T(0);
  if (wid == 0)
    for (int offset = 16; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffffu, val, offset);
  return val;
}

__global__ void rowSum(const float* in, float* out, int n) {
  float v = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[blockIdx.x * n + i];
  const float total = blockReduceSum<float>(v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

template <typename T, int SCALE>
__global__ void rowSumT(const T* in, T* out, int n) {
  T v = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += T(in[blockIdx.x * n + i]) * T(SCALE);
  const T total = blockReduceSum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

template <typename T>
__device__ void stamp(T v) {
  static __shared__ T slot[4];
  if (threadIdx.x % 32 < 4) slot[threadIdx.x % 4] = v;
  __syncthreads();
}

template <typename T>
__global__ void stamped(T* out) {
  stamp<T>(T(threadIdx.x + 1));
  out[threadIdx.x] = T(1);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int rows = 4, n = 1000;
  float* host = new float[rows * n];
  double* host_d = new double[rows * n];
  for (int i = 0; i < rows * n; ++i) host_d[i] = host[i] = float(i % 13) - 6.0f;
  float *in = nullptr, *out = nullptr;
  double *in_d = nullptr, *out_d = nullptr;
  cudaMalloc(&in, rows * n * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMalloc(&in_d, rows * n * sizeof(double));
  cudaMalloc(&out_d, rows * sizeof(double));
  cudaMemcpy(in, host, rows * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(in_d, host_d, rows * n * sizeof(double), cudaMemcpyHostToDevice);
  float sums[rows];
  double sums_d[rows];
  rowSum<<<rows, 256>>>(in, out, n);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  printf("rowSum: %g %g %g %g\n", sums[0], sums[1], sums[2], sums[3]);
  rowSumT<float, 2><<<rows, 128>>>(in, out, n);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  printf("rowSumT<float, 2>: %g %g %g %g\n", sums[0], sums[1], sums[2], sums[3]);
  rowSumT<double, 3><<<rows, 64>>>(in_d, out_d, n);
  cudaMemcpy(sums_d, out_d, sizeof sums_d, cudaMemcpyDeviceToHost);
  printf("rowSumT<double, 3>: %g %g %g %g\n", sums_d[0], sums_d[1], sums_d[2], sums_d[3]);
  stamped<float><<<1, 64>>>(out);
  cudaFree(in);
  cudaFree(out);
  cudaFree(in_d);
  cudaFree(out_d);
  delete[] host;
  delete[] host_d;
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
