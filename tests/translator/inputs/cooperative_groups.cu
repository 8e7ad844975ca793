// cooperative_groups block synchronization: this_thread_block().sync(), a named
// block's sync(), and the free cooperative_groups::sync(block). A warp tile's
// sync() is not a block barrier and is not listed.
// RUN: ldcc-scan %s | FileCheck %s

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void shiftLeft(int *data) {
  __shared__ int buf[256];
  buf[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  cg::this_thread_block().sync();
  int v = buf[(threadIdx.x + 1) % 256];
  cg::thread_block block = cg::this_thread_block();
  block.sync();
  buf[threadIdx.x] = v;
  cg::sync(block);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  tile.sync();
  data[blockIdx.x * 256 + threadIdx.x] = buf[threadIdx.x];
}

// CHECK: kernel shiftLeft {{.*}}cooperative_groups.cu:10:17 plain
// CHECK-NEXT: sync block cooperative_groups::thread_block::sync {{.*}}cooperative_groups.cu:13:3 shiftLeft kernel
// CHECK-NEXT: sync block cooperative_groups::thread_block::sync {{.*}}cooperative_groups.cu:16:3 shiftLeft kernel
// CHECK-NEXT: sync block cooperative_groups::sync {{.*}}cooperative_groups.cu:18:3 shiftLeft kernel
// CHECK-NEXT: summary {{.*}} device: 1 kernels, 3 sync sites
