// Barriers inside __device__ helpers (a block reduction), a __host__ __device__
// function, a lambda and a macro: all are sites; the kernels that call the
// helpers contain no barrier themselves.
// RUN: ldcc-scan %s | FileCheck %s

#define BLOCK_BARRIER() __syncthreads()

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  __syncwarp();
  return v;
}

__device__ float blockReduce(float v) {
  __shared__ float perWarp[32];
  v = warpSum(v);
  if (threadIdx.x % 32 == 0) perWarp[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? perWarp[threadIdx.x] : 0.0f;
  BLOCK_BARRIER();
  return threadIdx.x < 32 ? warpSum(v) : 0.0f;
}

__host__ __device__ inline int clampIndex(int i, int n) { return i < n ? i : n - 1; }

__global__ void reduceKernel(const float *in, float *out, int n) {
  float v = in[clampIndex(blockIdx.x * blockDim.x + threadIdx.x, n)];
  float total = blockReduce(v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

__global__ void lambdaKernel(int *data) {
  auto step = [&](int k) {
    data[threadIdx.x] += k;
    __syncthreads();
  };
  step(1);
  step(2);
}

// CHECK: kernel reduceKernel {{.*}}device_helper.cu:27:17 plain
// CHECK-NEXT: kernel lambdaKernel {{.*}}device_helper.cu:33:17 plain
// CHECK-NEXT: sync warp __syncwarp {{.*}}device_helper.cu:11:3 warpSum device
// CHECK-NEXT: sync block __syncthreads {{.*}}device_helper.cu:19:3 blockReduce device
// CHECK-NEXT: sync block __syncthreads {{.*}}device_helper.cu:21:3 blockReduce device
// CHECK-NEXT: sync block __syncthreads {{.*}}device_helper.cu:36:5 lambdaKernel kernel lambda
// CHECK-NEXT: summary {{.*}} device: 2 kernels, 4 sync sites
