// Launch-time proofs (LDCC_PROOFS): the same kernels proven race-free at one launch and checked at
// another, where the launch's arguments make their threads meet. axpy's written pointer is alone in
// its allocation at the first launch and shares it with the read one at the second (x = y + 1: warp 0
// reads y[32], which warp 1 writes); spread's stride is 1 at the first launch and 0 at the second
// (every thread stores out[0]). Reductions with barriers in loops, proven step by step between their
// barriers: block_sum (threads below the stride), rows_sum (rows that are multiples of the step);
// unsynced_sum, without the loop's barrier, is not proven (its threads meet within a warp, which the
// checker does not report). Only the race-free launches' results are printed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float* y, const float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void spread(int* out, int stride) { out[threadIdx.x * stride] = threadIdx.x + 1; }

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[256];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void unsynced_sum(int* data) {
  __shared__ int partial[64];
  partial[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1)
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
  __syncthreads();
  if (threadIdx.x == 0) data[0] = partial[0];
}

// 16 x 16 threads per block: column tx of the block's tile summed over its 16 rows.
__global__ void rows_sum(const int* in, int* out) {
  __shared__ int tile[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.x * 16 + ty) * 16 + tx];
  __syncthreads();
  for (int i = 1; i <= 4; ++i) {
    const int step = 1 << i;
    if (ty % step == 0) tile[ty][tx] += tile[ty + step / 2][tx];
    __syncthreads();
  }
  if (ty == 0) out[blockIdx.x * 16 + tx] = tile[0][tx];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  constexpr int n = 256;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = float(i % 7), hy[i] = float(i % 5);
  float *x = nullptr, *y = nullptr;
  int* out = nullptr;
  if (cudaMalloc(&x, sizeof hx) != cudaSuccess || cudaMalloc(&y, sizeof hy) != cudaSuccess ||
      cudaMalloc(&out, 64 * sizeof(int)) != cudaSuccess)
    return 2;
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 64 * sizeof(int));

  axpy<<<n / 64, 64>>>(y, x, 2.0f, n);
  spread<<<1, 64>>>(out, 1);
  int hout[64];
  if (cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  double sum = 0;
  for (float v : hy) sum += v;
  long spread_sum = 0;
  for (int v : hout) spread_sum += v;
  printf("axpy sum %.1f y[255] %.1f spread sum %ld out[63] %d\n", sum, hy[255], spread_sum, hout[63]);

  int hin[512];
  for (int i = 0; i < 512; ++i) hin[i] = (i * 37) % 101;
  int *in = nullptr, *sums = nullptr;
  if (cudaMalloc(&in, sizeof hin) != cudaSuccess || cudaMalloc(&sums, 32 * sizeof(int)) != cudaSuccess) return 2;
  cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice);
  block_sum<<<2, 256>>>(in, sums);
  int hsums[32];
  if (cudaMemcpy(hsums, sums, 2 * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  printf("block sums %d %d\n", hsums[0], hsums[1]);
  rows_sum<<<2, dim3(16, 16)>>>(in, sums);
  if (cudaMemcpy(hsums, sums, sizeof hsums, cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  long columns = 0;
  for (int v : hsums) columns += v;
  printf("column sums %d %d total %ld\n", hsums[0], hsums[31], columns);
  unsynced_sum<<<1, 64>>>(in);

  axpy<<<1, 64>>>(y, y + 1, 2.0f, 63);
  spread<<<1, 64>>>(out, 0);
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  cudaFree(in);
  cudaFree(sums);
  cudaFree(x);
  cudaFree(y);
  cudaFree(out);
  return 0;
}
