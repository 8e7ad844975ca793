// A __device__ block-reduction helper with its own static __shared__ array and
// a barrier, called from a kernel. The helper gets a clone
// blockSum__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, ...) whose shared
// array lives in the kernel's layout (ldcc_helper_shared_N, offset from
// ldcc_t.bs->helper_off[N]); the call is redirected and framed by two sites.

__device__ float blockSum(float v) {
  static __shared__ float perWarp[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (lane == 0) perWarp[warp] = v;
  __syncthreads();
  float total = 0.0f;
  if (threadIdx.x == 0)
    for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) total += perWarp[w];
  return total;
}

__global__ void reduceRows(const float *in, float *out, int n) {
  float v = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[blockIdx.x * n + i];
  float total = blockSum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

void run(const float *in, float *out, int rows, int n) {
  reduceRows<<<rows, 256>>>(in, out, n);
}

// Sites: the helper's barrier, entry and return, then the two sites around the call.
// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/device_helper.cu", 12, 3, "__syncthreads()"}, {"{{.*}}/device_helper.cu", 7, 18, "entry of blockSum"}, {"{{.*}}/device_helper.cu", 16, 3, "return from blockSum"}, {"{{.*}}/device_helper.cu", 22, 17, "call of blockSum"}, {"{{.*}}/device_helper.cu", 22, 17, "return from blockSum"}, {"{{.*}}/device_helper.cu", 19, 17, "kernel entry"}, {"{{.*}}/device_helper.cu", 24, 1, "kernel exit"}, };
// CHECK-NEXT: ldcc_locals[] = {"blockSum: lane", "blockSum: warp", "blockSum: v", "reduceRows: v", "reduceRows: total", nullptr};
// The helper's shared array is one of the kernel's targets.
// CHECK-NEXT: ldcc_desc_0_targets[] = {"perWarp", nullptr};
// CHECK-NEXT: ldcc_desc_0_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_0 = {"reduceRows", "check", ldcc_sites, 7u, ldcc_desc_0_targets, 1u, ldcc_locals, 5u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};

// The original helper is unchanged.
// CHECK: __device__ float blockSum(float v) {
// CHECK-NEXT:   static __shared__ float perWarp[32];
// CHECK:   return total;
// CHECK-NEXT: }

// Its clone takes the thread's state and binds perWarp to this warp's copy at the offset
// the kernel publishes in helper_off[0]; the modified parameter v is checkpointed.
// CHECK-NEXT: #line 7 "{{.*}}/device_helper.cu"
// CHECK-NEXT: using ldcc_helper_shared_0 = float[32]; __device__ float blockSum__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, float v) {
// CHECK-SAME: using ldcc_helper_shared_0_local = float[32]; ldcc_helper_shared_0_local& perWarp = ::ldcc::rt::target_ref<ldcc_helper_shared_0_local>(ldcc_t.base, ldcc_t.bs->helper_off[0]);
// CHECK-SAME: ::ldcc::rt::type_t<unsigned int> lane__ldcc1{{[{}]*}}; ::ldcc::rt::type_t<unsigned int> warp__ldcc2{{[{}]*}};
// CHECK-SAME: struct ldcc_frame { decltype(lane__ldcc1) lane__ldcc1; decltype(warp__ldcc2) warp__ldcc2; decltype(v) v; } ldcc_ck, ldcc_p1;
// CHECK-SAME: ldcc_t.open = 1u; ldcc_save(ldcc_ck);
// CHECK-SAME: switch (ldcc_t.open) { case 0u: goto ldcc_resume_0; default: goto ldcc_resume_1; } } ldcc_resume_1:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ *}}lane__ldcc1 = threadIdx.x % 32; warp__ldcc2 = threadIdx.x / 32;
// CHECK-NEXT:   for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
// CHECK-NEXT:   if (lane__ldcc1 == 0) perWarp[warp__ldcc2] = v;
// CHECK-NEXT:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT:   float total = 0.0f;
// CHECK-NEXT:   if (threadIdx.x == 0)
// CHECK-NEXT:     for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) total += perWarp[w];
// The return is a site of its own: the region ends before the value leaves.
// CHECK-NEXT:   { if (ldcc_site(2u)) goto ldcc_dispatch; } return total;
// CHECK-NEXT: } }
// CHECK-NEXT: #line 17 "{{.*}}/device_helper.cu"
// Level B's clone of the helper: its shared variable in the layout, reached from the dynamic shared
// memory (so the compiler knows its address space), its barrier and return as written, no hoisted
// local and no site.
// CHECK: #line 7 "{{.*}}/device_helper.cu"
// CHECK-NEXT: __device__ float blockSum__ldcc_blocks(::ldcc::rt::BlockRunState& ldcc_t, float v) {extern __shared__ __align__(16) unsigned char ldcc_dynamic_shared[]; using ldcc_helper_shared_0_local = float[32]; ldcc_helper_shared_0_local& perWarp = ::ldcc::rt::target_ref<ldcc_helper_shared_0_local>(ldcc_dynamic_shared, ldcc_t.bs->helper_off[0]); {
// CHECK-NEXT: {{^ +$}}
// CHECK-NEXT:   const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
// CHECK-NEXT:   for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
// CHECK-NEXT:   if (lane == 0) perWarp[warp] = v;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   float total = 0.0f;
// CHECK-NEXT:   if (threadIdx.x == 0)
// CHECK-NEXT:     for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) total += perWarp[w];
// CHECK-NEXT:   return total;
// CHECK-NEXT: } }

// The kernel's query describes the helper's array through its namespace-scope alias and
// publishes its offset before entering.
// CHECK: #line 19 "{{.*}}/device_helper.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) reduceRows__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out, int n) {
// CHECK-SAME: ldcc_ctx.query_out[0] = 1ull; ldcc_ctx.query_out[1] = {{[0-9]+}}ull; ::ldcc::rt::describe<::ldcc_helper_shared_0>(ldcc_ctx.query_out, 0u); } return; }
// CHECK-SAME: ldcc_bs.helper_off[0] = ldcc_ctx.offsets[0]; ::ldcc::rt::ThreadState ldcc_t; ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, 5u);
// CHECK-SAME: ::ldcc::rt::type_t<float> v__ldcc1{{[{}]*}}; ::ldcc::rt::type_t<float> total__ldcc2{{[{}]*}};
// CHECK-SAME: switch (ldcc_t.open) { case 3u: goto ldcc_resume_3; case 4u: goto ldcc_resume_4; case 6u: goto ldcc_exit; default: goto ldcc_resume_5; } } ldcc_resume_5:; {
// CHECK-NEXT: {{^ *}}v__ldcc1 = 0.0f;
// CHECK-NEXT:   for (int i = threadIdx.x; i < n; i += blockDim.x) v__ldcc1 += (ldcc_loaded |= 1u, in)[blockIdx.x * n + i];
// The call goes to the clone with the thread's state, between a site before it and a
// resume point (with a fresh checkpoint) after it.
// CHECK-NEXT:   { if (ldcc_site(3u)) goto ldcc_dispatch; ldcc_resume_3:; } total__ldcc2 = blockSum__ldcc_checked(ldcc_t, v__ldcc1); ldcc_t.open = 4u; ldcc_save(ldcc_ck); ldcc_resume_4:;
// CHECK-NEXT:   if (threadIdx.x == 0) (*::ldcc::rt::store(ldcc_t, &(out[blockIdx.x]))) = total__ldcc2;
// CHECK-NEXT: } ldcc_exit:
// CHECK-NEXT: #line 24 "{{.*}}/device_helper.cu"
// Level B's clone of the kernel calls the helper's, with no site around the call.
// CHECK: #line 19 "{{.*}}/device_helper.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) reduceRows__ldcc_blocks(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *in, float *out, int n) { __shared__ ::ldcc::rt::BlockState ldcc_bs; extern __shared__ __align__(16) unsigned char ldcc_dynamic_shared[]; ldcc_bs.helper_off[0] = ldcc_ctx.offsets[0]; ::ldcc::rt::BlockRunState ldcc_t; ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, 0u); in = ::ldcc::rt::global_ptr(ldcc_t, in); out = ::ldcc::rt::global_ptr(ldcc_t, out); {
// CHECK-NEXT:   float v = 0.0f;
// CHECK-NEXT:   for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[blockIdx.x * n + i];
// CHECK-NEXT:   float total = blockSum__ldcc_blocks(ldcc_t, v);
// CHECK-NEXT:   if (threadIdx.x == 0) (*::ldcc::rt::store(ldcc_t, &(out[blockIdx.x]))) = total;
// CHECK-NEXT: } }

// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, reduceRows, reduceRows__ldcc_checked, nullptr, reduceRows__ldcc_blocks, rows, 256, 0, 0, in, out, n);
