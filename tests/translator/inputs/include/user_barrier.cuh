// A user header (found through -I, so not a system header): its sites are listed.
#pragma once

__device__ inline void stage(int *buf, int v) {
  buf[threadIdx.x] = v;
  __syncthreads();
}
