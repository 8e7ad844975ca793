// KNOWN TRANSLATOR BUG (registered WILL_FAIL): `auto block =
// cg::this_thread_block();` that is passed by const reference
// (cg::sync(block), cg::tiled_partition<32>(block)) is not recognized as
// unmodified, so instead of moving the declaration whole (as for block.sync(),
// see cooperative_groups.cu) the translator declares
// `::ldcc::rt::type_t<thread_block> block__ldcc1{};` at function scope and
// assigns it. thread_block's default constructor is private and its copy
// assignment is deleted: the output does not compile. Binding to a const
// reference is a read; the declaration must move whole.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void pairSwap(int *data) {
  __shared__ int buf[64];
  auto block = cg::this_thread_block();
  buf[threadIdx.x] = data[threadIdx.x];
  cg::sync(block);
  data[threadIdx.x] = buf[threadIdx.x ^ 1];
  cg::sync(block);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  data[threadIdx.x] += int(tile.thread_rank());
}

void run(int *data) {
  pairSwap<<<1, 64>>>(data);
}

// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/bug_cg_group_by_reference.cu", 18, 3, "cooperative_groups::sync()"}, {"{{.*}}/bug_cg_group_by_reference.cu", 20, 3, "cooperative_groups::sync()"},
// CHECK: #line 14 "{{.*}}/bug_cg_group_by_reference.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(64) pairSwap__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *data) {
// CHECK-SAME: auto block__ldcc1 = cg::this_thread_block();
// CHECK-SAME: ldcc_resume_2:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT:   buf[threadIdx.x] = (ldcc_loaded |= 1u, data)[threadIdx.x];
// CHECK-NEXT:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(data[threadIdx.x]))) = buf[threadIdx.x ^ 1];
// CHECK-NEXT:   { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT:   cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block__ldcc1);
