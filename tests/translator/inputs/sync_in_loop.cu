// A tree reduction: __syncthreads inside a loop, plus one before the loop.
// RUN: ldcc-scan %s | FileCheck %s

namespace app {

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

}  // namespace app

__global__ void scale(float *data, float factor) {
  data[blockIdx.x * blockDim.x + threadIdx.x] *= factor;
}

// A host function is not a kernel and has no sites.
void launch(const float *in, float *out, int n) {
  app::blockSum<<<(n + 255) / 256, 256>>>(in, out, n);
  scale<<<1, 1>>>(out, 2.0f);
}

// CHECK: kernel app::blockSum {{.*}}sync_in_loop.cu:6:17 plain
// CHECK-NEXT: kernel scale {{.*}}sync_in_loop.cu:21:17 plain
// CHECK-NEXT: sync block __syncthreads {{.*}}sync_in_loop.cu:11:3 app::blockSum kernel
// CHECK-NEXT: sync block __syncthreads {{.*}}sync_in_loop.cu:14:5 app::blockSum kernel
// CHECK-NEXT: summary {{.*}}sync_in_loop.cu device: 2 kernels, 2 sync sites
