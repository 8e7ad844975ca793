// Where locals that live across a barrier go. A local that is never written
// and whose initializer is invariant (constants, unchanged parameters,
// threadIdx & co., other moved locals) moves whole to the top of the clone. Every
// other one is declared at function scope and its initialization becomes an
// assignment in place: in particular initializers that read memory (shared or
// global), which must run where they were written, after the barrier. Locals
// computed from clock64() are saved by checkpoints but not compared.

__global__ void placement(const float *in, float *out, float factor) {
  __shared__ float s[64];
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float twice = factor * 2.0f;
  s[threadIdx.x] = in[gid];
  out[gid] = 0.0f;
  __syncthreads();
  float v = s[63 - threadIdx.x];
  float w = out[(gid + 1) % 64];
  long long t0 = clock64();
  int count = 0;
  __syncthreads();
  count += v > 0.0f;
  out[gid] = v * twice + w + float(count) + float(clock64() - t0 > 0);
}

void run(const float *in, float *out) {
  placement<<<1, 64>>>(in, out, 1.5f);
}

// Compared locals: the three hoisted ones with deterministic values, not t0.
// CHECK: ldcc_locals[] = {"placement: v", "placement: w", "placement: count", nullptr};
// CHECK: ldcc_desc_0 = {"placement", "check", ldcc_sites, 4u, ldcc_desc_0_targets, 1u, ldcc_locals, 3u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};

// gid and twice move whole, in order, after the shared binding they do not need; v, w, t0
// and count are declared at function scope (no initializer of theirs runs at entry).
// CHECK: #line 9 "{{.*}}/local_placement.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(64) placement__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out, float factor) {
// CHECK-SAME: ldcc_shared_type_0& s = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]); const int gid__ldcc1 = blockIdx.x * blockDim.x + threadIdx.x; const float twice__ldcc2 = factor * 2.0f; ::ldcc::rt::type_t<float> v__ldcc3{{[{}]*}}; ::ldcc::rt::type_t<float> w__ldcc4{{[{}]*}}; ::ldcc::rt::type_t<long long> t0__ldcc5{{[{}]*}}; ::ldcc::rt::type_t<int> count__ldcc6{{[{}]*}};
// Checkpoints save all four; the register comparison skips t0.
// CHECK-SAME: struct ldcc_frame { decltype(v__ldcc3) v__ldcc3; decltype(w__ldcc4) w__ldcc4; decltype(t0__ldcc5) t0__ldcc5; decltype(count__ldcc6) count__ldcc6; } ldcc_ck, ldcc_p1;
// CHECK-SAME: auto ldcc_compare = [&](const ldcc_frame& f) { ::ldcc::rt::compare_local(ldcc_t, 0u, f.v__ldcc3, v__ldcc3); ::ldcc::rt::compare_local(ldcc_t, 1u, f.w__ldcc4, w__ldcc4); ::ldcc::rt::compare_local(ldcc_t, 2u, f.count__ldcc6, count__ldcc6); };
// CHECK-SAME: ldcc_resume_2:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT:   s[threadIdx.x] = (ldcc_loaded |= 1u, in)[gid__ldcc1];
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[gid__ldcc1]))) = 0.0f;
// CHECK-NEXT:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// The memory reads stay after the barrier that publishes what they read.
// CHECK-NEXT: {{^ *}}v__ldcc3 = s[63 - threadIdx.x];
// CHECK-NEXT: {{^ *}}w__ldcc4 = (ldcc_loaded |= 2u, out)[(gid__ldcc1 + 1) % 64];
// CHECK-NEXT: {{^ *}}t0__ldcc5 = ::ldcc::rt::ClockCall{ldcc_t}.clock64();
// CHECK-NEXT: {{^ *}}count__ldcc6 = 0;
// CHECK-NEXT:   { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT:   count__ldcc6 += v__ldcc3 > 0.0f;
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[gid__ldcc1]))) = v__ldcc3 * twice__ldcc2 + w__ldcc4 + float(count__ldcc6) + float(::ldcc::rt::ClockCall{ldcc_t}.clock64() - t0__ldcc5 > 0);
// CHECK-NEXT: } ldcc_exit:
// CHECK-NEXT: #line 23 "{{.*}}/local_placement.cu"
