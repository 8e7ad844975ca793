// A templated kernel instantiated twice: listed once, its barriers once each.
// __syncthreads_count with a dependent argument stays unresolved in the template.
// RUN: ldcc-scan %s | FileCheck %s

template <typename T, int BLOCK>
__global__ void countNegative(const T *in, int *out) {
  __shared__ T tile[BLOCK];
  tile[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  int neg = __syncthreads_count(tile[BLOCK - 1 - threadIdx.x] < T(0));
  if (threadIdx.x == 0) out[blockIdx.x] = neg;
}

// An explicit specialization is user code of its own.
template <>
__global__ void countNegative<unsigned, 128>(const unsigned *, int *out) {
  out[blockIdx.x] = 0;
}

void run(const float *f, const double *d, int *out) {
  countNegative<float, 128><<<4, 128>>>(f, out);
  countNegative<double, 64><<<4, 64>>>(d, out);
}

// CHECK: kernel countNegative {{.*}}template_kernel.cu:6:17 template
// CHECK-NEXT: kernel countNegative {{.*}}template_kernel.cu:16:17 template
// CHECK-NEXT: sync block __syncthreads {{.*}}template_kernel.cu:9:3 countNegative kernel
// CHECK-NEXT: sync block __syncthreads_count {{.*}}template_kernel.cu:10:13 countNegative kernel
// CHECK-NEXT: summary {{.*}} device: 2 kernels, 2 sync sites
