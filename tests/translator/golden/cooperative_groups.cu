// cooperative_groups block synchronization. `auto block = cg::this_thread_block();`
// lives across the barriers; it is never written and its initializer is
// invariant, so the declaration moves whole to function scope (thread_block
// cannot be default-constructed or assigned). block.sync() and
// cg::this_thread_block().sync() are sites; a warp tile's sync() is not a block
// barrier and stays as it is.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void rotate(int *data) {
  __shared__ int buf[256];
  auto block = cg::this_thread_block();
  const unsigned r = block.thread_rank();
  buf[r] = data[blockIdx.x * 256 + r];
  block.sync();
  int v = buf[(r + 1) % 256];
  v += int(r);
  block.sync();
  buf[r] = v;
  cg::this_thread_block().sync();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  tile.sync();
  data[blockIdx.x * 256 + r] = buf[(r + 2) % 256] + int(tile.thread_rank());
}

void run(int *data, int blocks) {
  rotate<<<blocks, 256>>>(data);
}

// Three block barriers; the tile's sync() is not among the sites.
// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/cooperative_groups.cu", 16, 3, "thread_block::sync()"}, {"{{.*}}/cooperative_groups.cu", 19, 3, "thread_block::sync()"}, {"{{.*}}/cooperative_groups.cu", 21, 3, "thread_block::sync()"}, {"{{.*}}/cooperative_groups.cu", 11, 17, "kernel entry"}, {"{{.*}}/cooperative_groups.cu", 25, 1, "kernel exit"}, };
// CHECK-NEXT: ldcc_locals[] = {"rotate: v", nullptr};
// CHECK: ldcc_desc_0 = {"rotate", "check", ldcc_sites, 5u, ldcc_desc_0_targets, 1u, ldcc_locals, 1u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};

// block and r move whole, in order (r's initializer uses block); v is declared at function scope.
// CHECK: #line 11 "{{.*}}/cooperative_groups.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) rotate__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *data) {
// CHECK-SAME: ldcc_shared_type_0& buf = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]); auto block__ldcc1 = cg::this_thread_block(); const unsigned r__ldcc2 = block__ldcc1.thread_rank(); ::ldcc::rt::type_t<int> v__ldcc3{{[{}]*}};
// CHECK-SAME: switch (ldcc_t.open) { case 0u: goto ldcc_resume_0; case 1u: goto ldcc_resume_1; case 2u: goto ldcc_resume_2; case 4u: goto ldcc_exit; default: goto ldcc_resume_3; } } ldcc_resume_3:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT:   buf[r__ldcc2] = (ldcc_loaded |= 1u, data)[blockIdx.x * 256 + r__ldcc2];
// CHECK-NEXT:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT: {{^ *}}v__ldcc3 = buf[(r__ldcc2 + 1) % 256];
// CHECK-NEXT:   v__ldcc3 += int(r__ldcc2);
// CHECK-NEXT:   { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT:   buf[r__ldcc2] = v__ldcc3;
// CHECK-NEXT:   { if (ldcc_site(2u)) goto ldcc_dispatch; ldcc_resume_2:; }
// CHECK-NEXT:   cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
// CHECK-NEXT:   tile.sync();
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(data[blockIdx.x * 256 + r__ldcc2]))) = buf[(r__ldcc2 + 2) % 256] + int(tile.thread_rank());
// CHECK-NEXT: } ldcc_exit:
// CHECK-NEXT: #line 25 "{{.*}}/cooperative_groups.cu"

// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, rotate, rotate__ldcc_checked, rotate__ldcc_checked_in_shared, rotate__ldcc_blocks, blocks, 256, 0, 0, data);
