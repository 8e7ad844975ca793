// A kernel whose name and parameter list are apart (a space, a comment): it still gets the clone for
// copies in shared memory, and its launch passes it.

__global__ void spaced /* tile sum */ (const float *in, float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x] + tile[63 - threadIdx.x];
}

void run(const float *in, float *out, int blocks) {
  spaced<<<blocks, 64>>>(in, out);
}

// CHECK: spaced__ldcc_checked /* tile sum */ (__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out) {
// CHECK-SAME: ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]);
// CHECK: spaced__ldcc_checked_in_shared /* tile sum */ (__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out) {
// CHECK-SAME: ::ldcc::rt::target_ref<ldcc_shared_type_0>(::ldcc::rt::copy_in_shared(ldcc_t, ldcc_dynamic_shared), ldcc_ctx.offsets[0]);
// CHECK: spaced__ldcc_blocks /* tile sum */ (
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, spaced, spaced__ldcc_checked, spaced__ldcc_checked_in_shared, spaced__ldcc_blocks, blocks, 64, 0, 0, in, out);
