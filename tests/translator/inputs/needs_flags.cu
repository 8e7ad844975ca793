// Needs -I inputs/include and -D LDCC_WITH_KERNEL=1 to parse and to have a kernel.
#include "user_barrier.cuh"

#if LDCC_WITH_KERNEL
__global__ void staged(int *out) {
  __shared__ int buf[64];
  stage(buf, threadIdx.x);
  out[threadIdx.x] = buf[63 - threadIdx.x];
}
#endif
