// Shared-memory privatization: a 2-D array, a struct from a namespace, two
// variables in one declaration, an extern (dynamic) array and a file-scope
// __shared__ variable. The checked clone removes every __shared__ declaration
// from its body and binds each name to this warp's copy at ldcc_ctx.offsets[N];
// the query launch describes each type.

namespace geo {
struct Accum {
  float sum;
  int count;
};
}  // namespace geo

__shared__ int g_rows;

__global__ void transposeScale(float *out, const float *in, int n) {
  __shared__ float tile[16][17];
  __shared__ geo::Accum acc;
  __shared__ int lo, hi;
  extern __shared__ float scale[];
  tile[threadIdx.y][threadIdx.x] = in[(blockIdx.y * 16 + threadIdx.y) * n + blockIdx.x * 16 + threadIdx.x];
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    acc.sum = 1.0f;
    acc.count = 0;
    lo = 0;
    hi = 15;
    g_rows = n;
  }
  if (threadIdx.y == 0) scale[threadIdx.x] = 2.0f;
  __syncthreads();
  out[(blockIdx.x * 16 + threadIdx.y) * g_rows + blockIdx.y * 16 + threadIdx.x] =
      tile[threadIdx.x][threadIdx.y] * scale[threadIdx.x] * acc.sum + float(hi - lo);
}

void run(float *out, const float *in, int n) {
  transposeScale<<<dim3(n / 16, n / 16), dim3(16, 16), 16 * sizeof(float)>>>(out, in, n);
}

// The tables: the barrier at 30:3, kernel entry at the name, exit at the closing brace;
// the targets in layout order (own variables, then the file-scope one); no local lives
// across the barrier.
// CHECK: #include <ldcc/translated.cuh>
// CHECK-NEXT: ldcc_sites[] = {{[{][{]}}"{{.*}}/shared_privatization.cu", 30, 3, "__syncthreads()"}, {"{{.*}}/shared_privatization.cu", 16, 17, "kernel entry"}, {"{{.*}}/shared_privatization.cu", 33, 1, "kernel exit"}, };
// CHECK-NEXT: ldcc_locals[] = {nullptr};
// CHECK-NEXT: ldcc_desc_0_targets[] = {"tile", "acc", "lo", "hi", "scale", "g_rows", nullptr};
// CHECK-NEXT: ldcc_desc_0_globals[] = {{[{][{]}}"out", 0, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ::ldcc::rt::KernelDesc ldcc_desc_0 = {"transposeScale", "check", ldcc_sites, 3u, ldcc_desc_0_targets, 6u, ldcc_locals, 0u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};
// CHECK-NEXT: #line 1 "{{.*}}/shared_privatization.cu"

// The original kernel is left as it was.
// CHECK: __global__ void transposeScale(float *out, const float *in, int n) {
// CHECK-NEXT:   __shared__ float tile[16][17];
// CHECK-NEXT:   __shared__ geo::Accum acc;
// CHECK-NEXT:   __shared__ int lo, hi;
// CHECK-NEXT:   extern __shared__ float scale[];
// CHECK:   __syncthreads();
// CHECK:   tile[threadIdx.x][threadIdx.y] * scale[threadIdx.x] * acc.sum + float(hi - lo);
// CHECK-NEXT: }

// The clone follows, mapped to the kernel's first line: one alias per variable (the
// extern array keeps its unknown bound), the query describes each, then each name
// is bound to this warp's copy.
// CHECK-NEXT: #line 16 "{{.*}}/shared_privatization.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) transposeScale__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, float *out, const float *in, int n) {
// CHECK-SAME: using ldcc_shared_type_0 = float[16][17]; using ldcc_shared_type_1 = geo::Accum; using ldcc_shared_type_2 = int; using ldcc_shared_type_3 = int; using ldcc_shared_type_4 = float[]; using ldcc_shared_type_5 = int;
// CHECK-SAME: if (ldcc_ctx.query_out) { if (::ldcc::rt::thread_rank() == 0 && ::ldcc::rt::block_rank() == 0) { ldcc_ctx.query_out[0] = 6ull; ldcc_ctx.query_out[1] = {{[0-9]+}}ull; ::ldcc::rt::describe<ldcc_shared_type_0>(ldcc_ctx.query_out, 0u); ::ldcc::rt::describe<ldcc_shared_type_1>(ldcc_ctx.query_out, 1u); ::ldcc::rt::describe<ldcc_shared_type_2>(ldcc_ctx.query_out, 2u); ::ldcc::rt::describe<ldcc_shared_type_3>(ldcc_ctx.query_out, 3u); ::ldcc::rt::describe<ldcc_shared_type_4>(ldcc_ctx.query_out, 4u); ::ldcc::rt::describe<ldcc_shared_type_5>(ldcc_ctx.query_out, 5u); } return; }
// CHECK-SAME: ::ldcc::rt::ThreadState ldcc_t; ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, 1u);
// CHECK-SAME: ldcc_shared_type_0& tile = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]);
// CHECK-SAME: ldcc_shared_type_1& acc = ::ldcc::rt::target_ref<ldcc_shared_type_1>(ldcc_t.base, ldcc_ctx.offsets[1]);
// CHECK-SAME: ldcc_shared_type_2& lo = ::ldcc::rt::target_ref<ldcc_shared_type_2>(ldcc_t.base, ldcc_ctx.offsets[2]);
// CHECK-SAME: ldcc_shared_type_3& hi = ::ldcc::rt::target_ref<ldcc_shared_type_3>(ldcc_t.base, ldcc_ctx.offsets[3]);
// CHECK-SAME: ldcc_shared_type_4& scale = ::ldcc::rt::target_ref<ldcc_shared_type_4>(ldcc_t.base, ldcc_ctx.offsets[4]);
// CHECK-SAME: ldcc_shared_type_5& g_rows = ::ldcc::rt::target_ref<ldcc_shared_type_5>(ldcc_t.base, ldcc_ctx.offsets[5]);
// CHECK-SAME: ldcc_resume_1:; {

// The four __shared__ declarations are gone and their lines stay (blank), so the statements
// below keep their own line numbers. Shared variables are used by name and their stores
// are not hooked; the store through `out` is.
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT:   tile[threadIdx.y][threadIdx.x] = (ldcc_loaded |= 2u, in)[(blockIdx.y * 16 + threadIdx.y) * n + blockIdx.x * 16 + threadIdx.x];
// CHECK-NEXT:   if (threadIdx.x == 0 && threadIdx.y == 0) {
// CHECK-NEXT:     acc.sum = 1.0f;
// CHECK-NEXT:     acc.count = 0;
// CHECK-NEXT:     lo = 0;
// CHECK-NEXT:     hi = 15;
// CHECK-NEXT:     g_rows = n;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (threadIdx.y == 0) scale[threadIdx.x] = 2.0f;
// CHECK-NEXT:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[(blockIdx.x * 16 + threadIdx.y) * g_rows + blockIdx.y * 16 + threadIdx.x]))) =
// CHECK-NEXT:       tile[threadIdx.x][threadIdx.y] * scale[threadIdx.x] * acc.sum + float(hi - lo);
// CHECK-NEXT: } ldcc_exit: ldcc_t.at_exit = true; for (;;) { const int ldcc_a = ldcc_site(2u);
// CHECK-NEXT: #line 33 "{{.*}}/shared_privatization.cu"

// The same clone for copies in dynamic shared memory: each name is bound to this warp's copy
// reached from the extern array (the compiler then knows the address space).
// CHECK: #line 16 "{{.*}}/shared_privatization.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) transposeScale__ldcc_checked_in_shared(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, float *out, const float *in, int n) {
// CHECK-SAME: ::ldcc::rt::ThreadState ldcc_t; ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, 1u);
// CHECK-SAME: ldcc_shared_type_0& tile = ::ldcc::rt::target_ref<ldcc_shared_type_0>(::ldcc::rt::copy_in_shared(ldcc_t, ldcc_dynamic_shared), ldcc_ctx.offsets[0]);
// CHECK-SAME: ldcc_shared_type_5& g_rows = ::ldcc::rt::target_ref<ldcc_shared_type_5>(::ldcc::rt::copy_in_shared(ldcc_t, ldcc_dynamic_shared), ldcc_ctx.offsets[5]);
// CHECK-SAME: ldcc_resume_1:; {
// CHECK:   { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK: #line 33 "{{.*}}/shared_privatization.cu"
// CHECK: transposeScale__ldcc_blocks(

// The launch goes through the runtime with the original, the clone and the full configuration.
// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, transposeScale, transposeScale__ldcc_checked, transposeScale__ldcc_checked_in_shared, transposeScale__ldcc_blocks, dim3(n / 16, n / 16), dim3(16, 16), 16 * sizeof(float), 0, out, in, n);
