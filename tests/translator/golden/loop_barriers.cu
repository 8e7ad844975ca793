// Barriers inside loops: a tree reduction whose trip count depends on
// blockDim.x, and a loop nest with barriers in the inner loop. Every local that
// lives across a barrier is declared at function scope as name__ldccK (so that a
// jump back to a site inside a loop body is legal) and its initialization becomes
// an assignment in place, executed on every iteration as before.

__global__ void treeReduce(const float *in, float *out) {
  extern __shared__ float partial[];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void tiledSum(const float *a, float *out, int tiles, int rounds) {
  __shared__ float tile[64];
  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    for (int t = 0; t < tiles; ++t) {
      tile[threadIdx.x] = a[(r * tiles + t) * 64 + threadIdx.x];
      __syncthreads();
      float v = tile[63 - threadIdx.x];
      if (v < 0.0f) v = -v;
      acc += v;
      __syncthreads();
    }
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}

void run(const float *in, float *out, int blocks, int threads) {
  treeReduce<<<blocks, threads, threads * sizeof(float)>>>(in, out);
  tiledSum<<<blocks, 64>>>(in, out, 4, 2);
}

// Sites of both kernels in one table, then the compared locals, in declaration order.
// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/loop_barriers.cu", 10, 3, "__syncthreads()"}, {"{{.*}}/loop_barriers.cu", 13, 5, "__syncthreads()"}, {"{{.*}}/loop_barriers.cu", 7, 17, "kernel entry"}, {"{{.*}}/loop_barriers.cu", 16, 1, "kernel exit"}, {"{{.*}}/loop_barriers.cu", 24, 7, "__syncthreads()"}, {"{{.*}}/loop_barriers.cu", 28, 7, "__syncthreads()"}, {"{{.*}}/loop_barriers.cu", 18, 17, "kernel entry"}, {"{{.*}}/loop_barriers.cu", 32, 1, "kernel exit"}, };
// CHECK-NEXT: ldcc_locals[] = {"treeReduce: stride", "tiledSum: acc", "tiledSum: r", "tiledSum: t", "tiledSum: v", nullptr};
// CHECK-NEXT: ldcc_desc_0_targets[] = {"partial", nullptr};
// CHECK-NEXT: ldcc_desc_0_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_0 = {"treeReduce", "check", ldcc_sites, 8u, ldcc_desc_0_targets, 1u, ldcc_locals, 5u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};
// CHECK-NEXT: ldcc_desc_1_targets[] = {"tile", nullptr};
// CHECK-NEXT: ldcc_desc_1_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_1 = {"tiledSum", "check", ldcc_sites, 8u, ldcc_desc_1_targets, 1u, ldcc_locals, 5u, nullptr, nullptr, ldcc_desc_1_globals, {{[0-9]+}}u, nullptr, false};

// treeReduce: the loop variable (blockDim.x-dependent trip count) is declared at function
// scope, saved in the checkpoint frame and compared; the loop header assigns it. The
// dispatch can jump back to either site, the one inside the loop included.
// CHECK: #line 7 "{{.*}}/loop_barriers.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(1024) treeReduce__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out) {
// CHECK-SAME: ldcc_shared_type_0& partial = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]); ::ldcc::rt::type_t<unsigned int> stride__ldcc1{{[{}]*}};
// CHECK-SAME: struct ldcc_frame { decltype(stride__ldcc1) stride__ldcc1; } ldcc_ck, ldcc_p1;
// CHECK-SAME: ::ldcc::rt::compare_local(ldcc_t, 0u, f.stride__ldcc1, stride__ldcc1);
// CHECK-SAME: if (false) { ldcc_dispatch: switch (ldcc_t.open) { case 0u: goto ldcc_resume_0; case 1u: goto ldcc_resume_1; case 3u: goto ldcc_exit; default: goto ldcc_resume_2; } } ldcc_resume_2:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT:   partial[threadIdx.x] = (ldcc_loaded |= 1u, in)[blockIdx.x * blockDim.x + threadIdx.x];
// CHECK-NEXT:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT:   for (stride__ldcc1 = blockDim.x / 2; stride__ldcc1 > 0; stride__ldcc1 >>= 1) {
// CHECK-NEXT:     if (threadIdx.x < stride__ldcc1) partial[threadIdx.x] += partial[threadIdx.x + stride__ldcc1];
// CHECK-NEXT:     { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT:   }
// CHECK-NEXT:   if (threadIdx.x == 0) (*::ldcc::rt::store(ldcc_t, &(out[blockIdx.x]))) = partial[0];
// CHECK-NEXT: } ldcc_exit: ldcc_t.at_exit = true; for (;;) { const int ldcc_a = ldcc_site(3u);
// CHECK-NEXT: #line 16 "{{.*}}/loop_barriers.cu"

// tiledSum: the accumulator, both loop variables and v (declared in the inner body, written
// after its declaration) are declared at function scope; v's initialization stays in the
// loop body as an assignment, executed on every iteration.
// CHECK: #line 18 "{{.*}}/loop_barriers.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(64) tiledSum__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *a, float *out, int tiles, int rounds) {
// CHECK-SAME: ::ldcc::rt::type_t<float> acc__ldcc1{{[{}]*}}; ::ldcc::rt::type_t<int> r__ldcc2{{[{}]*}}; ::ldcc::rt::type_t<int> t__ldcc3{{[{}]*}}; ::ldcc::rt::type_t<float> v__ldcc4{{[{}]*}};
// CHECK-SAME: struct ldcc_frame { decltype(acc__ldcc1) acc__ldcc1; decltype(r__ldcc2) r__ldcc2; decltype(t__ldcc3) t__ldcc3; decltype(v__ldcc4) v__ldcc4; } ldcc_ck, ldcc_p1;
// CHECK-SAME: switch (ldcc_t.open) { case 4u: goto ldcc_resume_4; case 5u: goto ldcc_resume_5; case 7u: goto ldcc_exit; default: goto ldcc_resume_6; } } ldcc_resume_6:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ *}}acc__ldcc1 = 0.0f;
// CHECK-NEXT:   for (r__ldcc2 = 0; r__ldcc2 < rounds; ++r__ldcc2) {
// CHECK-NEXT:     for (t__ldcc3 = 0; t__ldcc3 < tiles; ++t__ldcc3) {
// CHECK-NEXT:       tile[threadIdx.x] = (ldcc_loaded |= 1u, a)[(r__ldcc2 * tiles + t__ldcc3) * 64 + threadIdx.x];
// CHECK-NEXT:       { if (ldcc_site(4u)) goto ldcc_dispatch; ldcc_resume_4:; }
// CHECK-NEXT: {{^ *}}v__ldcc4 = tile[63 - threadIdx.x];
// CHECK-NEXT:       if (v__ldcc4 < 0.0f) v__ldcc4 = -v__ldcc4;
// CHECK-NEXT:       acc__ldcc1 += v__ldcc4;
// CHECK-NEXT:       { if (ldcc_site(5u)) goto ldcc_dispatch; ldcc_resume_5:; }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[blockIdx.x * 64 + threadIdx.x]))) = acc__ldcc1;
// CHECK-NEXT: } ldcc_exit: ldcc_t.at_exit = true; for (;;) { const int ldcc_a = ldcc_site(7u);
// CHECK-NEXT: #line 32 "{{.*}}/loop_barriers.cu"

// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, treeReduce, treeReduce__ldcc_checked, treeReduce__ldcc_checked_in_shared, treeReduce__ldcc_blocks, blocks, threads, threads * sizeof(float), 0, in, out);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_1, tiledSum, tiledSum__ldcc_checked, tiledSum__ldcc_checked_in_shared, tiledSum__ldcc_blocks, blocks, 64, 0, 0, in, out, 4, 2);
