// Early returns in a kernel, before and after a barrier, with and without
// braces: each `return;` becomes `goto ldcc_exit;`, where the returning thread
// parks at the kernel-exit site and keeps taking part in the block's sites until
// the whole block is done.

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float buf[258];
  if (blockIdx.x * 256 >= n) return;
  const int g = blockIdx.x * 256 + threadIdx.x;
  buf[threadIdx.x + 1] = g < n ? in[g] : 0.0f;
  if (threadIdx.x == 0) buf[0] = g > 0 ? in[g - 1] : 0.0f;
  if (threadIdx.x == 255) {
    buf[257] = g + 1 < n ? in[g + 1] : 0.0f;
  }
  __syncthreads();
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i >= n) {
    return;
  }
  out[i] = buf[threadIdx.x] + buf[threadIdx.x + 1] + buf[threadIdx.x + 2];
}

void run(const float *in, float *out, int n) {
  stencil<<<(n + 255) / 256, 256>>>(in, out, n);
}

// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/early_return.cu", 15, 3, "__syncthreads()"}, {"{{.*}}/early_return.cu", 6, 17, "kernel entry"}, {"{{.*}}/early_return.cu", 21, 1, "kernel exit"}, };
// CHECK: ldcc_desc_0 = {"stencil", "check", ldcc_sites, 3u, ldcc_desc_0_targets, 1u, ldcc_locals, 0u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};

// The original keeps its returns.
// CHECK: __global__ void stencil(const float *in, float *out, int n) {
// CHECK-NEXT:   __shared__ float buf[258];
// CHECK-NEXT:   if (blockIdx.x * 256 >= n) return;

// In the clone the dispatch knows the exit site (2) as a place a rewind may start from.
// CHECK: #line 6 "{{.*}}/early_return.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) stencil__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out, int n) {
// CHECK-SAME: switch (ldcc_t.open) { case 0u: goto ldcc_resume_0; case 2u: goto ldcc_exit; default: goto ldcc_resume_1; } } ldcc_resume_1:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT:   if (blockIdx.x * 256 >= n) goto ldcc_exit;
// CHECK-NOT: return
// CHECK:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// i does not live across a barrier: it stays as written.
// CHECK-NEXT:   const int i = blockIdx.x * 256 + threadIdx.x;
// CHECK-NEXT:   if (i >= n) {
// CHECK-NEXT:     goto ldcc_exit;
// CHECK-NEXT:   }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[i]))) = buf[threadIdx.x] + buf[threadIdx.x + 1] + buf[threadIdx.x + 2];
// A thread that exits parks at the exit site and keeps arriving until the block is done.
// CHECK-NEXT: } ldcc_exit: ldcc_t.at_exit = true; for (;;) { const int ldcc_a = ldcc_site(2u); if (ldcc_a == ::ldcc::rt::kDone) return; if (ldcc_a == ::ldcc::rt::kRewind) goto ldcc_dispatch; } }
// CHECK-NEXT: #line 21 "{{.*}}/early_return.cu"
// Level B's clone keeps both returns and the barrier as written: its threads leave as the
// original's do (BlockRunState's destructor publishes what they stored).
// CHECK: stencil__ldcc_blocks(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out, int n) {
// CHECK-SAME: ::ldcc::rt::BlockRunState ldcc_t; ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, 0u);
// CHECK-NEXT: {{^ +$}}
// CHECK-NEXT:   if (blockIdx.x * 256 >= n) return;
// CHECK:   __syncthreads();
// CHECK-NEXT:   const int i = blockIdx.x * 256 + threadIdx.x;
// CHECK-NEXT:   if (i >= n) {
// CHECK-NEXT:     return;
// CHECK-NEXT:   }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[i]))) = buf[threadIdx.x] + buf[threadIdx.x + 1] + buf[threadIdx.x + 2];
// CHECK-NEXT: } }

// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, stencil, stencil__ldcc_checked, stencil__ldcc_checked_in_shared, stencil__ldcc_blocks, (n + 255) / 256, 256, 0, 0, in, out, n);
