// The predicate forms of __syncthreads.
// RUN: ldcc-scan %s | FileCheck %s

__global__ void vote(const int *flags, int *out) {
  int f = flags[blockIdx.x * blockDim.x + threadIdx.x];
  int count = __syncthreads_count(f != 0);
  int all = __syncthreads_and(f > 0);
  int any = __syncthreads_or(f < 0);
  if (threadIdx.x == 0) {
    out[3 * blockIdx.x] = count;
    out[3 * blockIdx.x + 1] = all;
    out[3 * blockIdx.x + 2] = any;
  }
}

// CHECK: kernel vote {{.*}}syncthreads_count.cu:4:17 plain
// CHECK-NEXT: sync block __syncthreads_count {{.*}}syncthreads_count.cu:6:15 vote kernel
// CHECK-NEXT: sync block __syncthreads_and {{.*}}syncthreads_count.cu:7:13 vote kernel
// CHECK-NEXT: sync block __syncthreads_or {{.*}}syncthreads_count.cu:8:13 vote kernel
// CHECK-NEXT: summary {{.*}} device: 1 kernels, 3 sync sites
