// Thrust and CUB bring many kernels and barriers of their own; they live in system
// headers and must not be listed. Only the user kernel and its barrier are.
// RUN: ldcc-scan %s | FileCheck %s

#include <thrust/device_vector.h>
#include <thrust/transform.h>
#include <thrust/functional.h>
#include <cub/cub.cuh>

__global__ void blockSums(const int *in, int *out) {
  using BlockReduce = cub::BlockReduce<int, 128>;
  __shared__ typename BlockReduce::TempStorage temp;
  int v = in[blockIdx.x * 128 + threadIdx.x];
  int sum = BlockReduce(temp).Sum(v);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

int main() {
  thrust::device_vector<int> a(1024, 1), b(1024);
  thrust::transform(a.begin(), a.end(), b.begin(), thrust::negate<int>());
  thrust::device_vector<int> sums(8);
  blockSums<<<8, 128>>>(thrust::raw_pointer_cast(b.data()),
                        thrust::raw_pointer_cast(sums.data()));
  return 0;
}

// CHECK: kernel blockSums {{.*}}thrust_cub.cu:10:17 plain
// CHECK-NEXT: sync block __syncthreads {{.*}}thrust_cub.cu:15:3 blockSums kernel
// CHECK-NEXT: summary {{.*}} device: 1 kernels, 1 sync sites
