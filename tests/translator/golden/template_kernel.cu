// A template kernel with a barrier under `if constexpr`: the clone keeps the
// template header, drops `constexpr` from that if (a jump back into a discarded
// constexpr branch would be ill-formed) and its shared array keeps its dependent
// type. A launch with explicit template arguments keeps them on both the
// original and the clone; a launch with deduced arguments gets them written
// out; a deduced launch inside a template cannot be resolved and stays native,
// with a warning.

namespace lib {

template <typename T, int BLOCK>
__global__ void scaleTile(T *data, T factor) {
  __shared__ T tile[BLOCK];
  tile[threadIdx.x] = data[blockIdx.x * BLOCK + threadIdx.x];
  if constexpr (BLOCK > 32) {
    __syncthreads();
    tile[threadIdx.x] = tile[BLOCK - 1 - threadIdx.x] * factor;
  }
  __syncthreads();
  data[blockIdx.x * BLOCK + threadIdx.x] = tile[threadIdx.x];
}

template <typename T>
__global__ void fill(T *data, T value) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

}  // namespace lib

template <typename T>
void fillAll(T *data, int blocks) {
  lib::fill<<<blocks, 64>>>(data, T(0));
}

void run(float *f, double *d, int blocks) {
  lib::scaleTile<float, 128><<<blocks, 128>>>(f, 2.0f);
  lib::scaleTile<double, 32><<<blocks, 32>>>(d, 0.5);
  lib::fill<<<blocks, 64>>>(d, 1.0);
  lib::fill<int><<<blocks, 64>>>(reinterpret_cast<int *>(f), 7);
  fillAll(d, blocks);
}

// One descriptor per template (shared by its instantiations), named with its namespace.
// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/template_kernel.cu", 16, 5, "__syncthreads()"}, {"{{.*}}/template_kernel.cu", 19, 3, "__syncthreads()"}, {"{{.*}}/template_kernel.cu", 12, 17, "kernel entry"}, {"{{.*}}/template_kernel.cu", 21, 1, "kernel exit"}, {"{{.*}}/template_kernel.cu", 24, 17, "kernel entry"}, {"{{.*}}/template_kernel.cu", 26, 1, "kernel exit"}, };
// CHECK: ldcc_desc_0_targets[] = {"tile", nullptr};
// CHECK-NEXT: ldcc_desc_0_globals[] = {{[{][{]}}"data", 0, 0ull, 0ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_0 = {"lib::scaleTile", "check", ldcc_sites, 6u, ldcc_desc_0_targets, 1u, ldcc_locals, {{[0-9]+}}u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};
// CHECK-NEXT: ldcc_desc_1_targets[] = {nullptr};
// CHECK-NEXT: ldcc_desc_1_globals[] = {{[{][{]}}"data", 0, 0ull, 0ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_1 = {"lib::fill", "check", ldcc_sites, 6u, ldcc_desc_1_targets, 0u, ldcc_locals, {{[0-9]+}}u, nullptr, nullptr, ldcc_desc_1_globals, {{[0-9]+}}u, nullptr, false};

// The original keeps its `if constexpr`.
// CHECK: __global__ void scaleTile(T *data, T factor) {
// CHECK:   if constexpr (BLOCK > 32) {

// The clone: same template header, a dependent shared type, plain `if` around the site.
// CHECK: #line 11 "{{.*}}/template_kernel.cu"
// CHECK-NEXT: template <typename T, int BLOCK>
// CHECK-NEXT: __global__ void __launch_bounds__(128) scaleTile__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, T *data, T factor) {
// CHECK-SAME: using ldcc_shared_type_0 = T[BLOCK];
// CHECK-SAME: ::ldcc::rt::describe<ldcc_shared_type_0>(ldcc_ctx.query_out, 0u);
// CHECK-SAME: ldcc_shared_type_0& tile = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]);
// CHECK-SAME: switch (ldcc_t.open) { case 0u: goto ldcc_resume_0; case 1u: goto ldcc_resume_1; case 3u: goto ldcc_exit; default: goto ldcc_resume_2; } } ldcc_resume_2:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: tile[threadIdx.x]{{.*}} = data[blockIdx.x * BLOCK + threadIdx.x];
// CHECK-NOT: constexpr
// CHECK-NEXT:   if (BLOCK > 32) {
// CHECK-NEXT:     { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT: tile[threadIdx.x]{{.*}} = tile[BLOCK - 1 - threadIdx.x] * factor;
// CHECK-NEXT:   }
// CHECK-NEXT:   { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(data[blockIdx.x * BLOCK + threadIdx.x]))) = tile[threadIdx.x];
// CHECK-NEXT: } ldcc_exit:
// CHECK-NEXT: #line 21 "{{.*}}/template_kernel.cu"

// CHECK: #line 23 "{{.*}}/template_kernel.cu"
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: __global__ void __launch_bounds__(64) fill__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, T *data, T value) {
// CHECK: #line 26 "{{.*}}/template_kernel.cu"

// Inside a template the deduced arguments are unknown: the launch is left alone (and warned).
// CHECK: void fillAll(T *data, int blocks) {
// CHECK-NEXT:   lib::fill<<<blocks, 64>>>(data, T(0));

// Explicit arguments are kept, and the clone gets the same ones.
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, lib::scaleTile<float, 128>, lib::scaleTile__ldcc_checked<float, 128>, lib::scaleTile__ldcc_checked_in_shared<float, 128>, lib::scaleTile__ldcc_blocks<float, 128>, blocks, 128, 0, 0, f, 2.0f);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_0, lib::scaleTile<double, 32>, lib::scaleTile__ldcc_checked<double, 32>, lib::scaleTile__ldcc_checked_in_shared<double, 32>, lib::scaleTile__ldcc_blocks<double, 32>, blocks, 32, 0, 0, d, 0.5);
// Deduced arguments are written out for both.
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_1, lib::fill<double>, lib::fill__ldcc_checked<double>, nullptr, lib::fill__ldcc_blocks<double>, blocks, 64, 0, 0, d, 1.0);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_1, lib::fill<int>, lib::fill__ldcc_checked<int>, nullptr, lib::fill__ldcc_blocks<int>, blocks, 64, 0, 0, reinterpret_cast<int *>(f), 7);
// CHECK-NEXT: fillAll(d, blocks);

// WARN: template_kernel.cu:32: warning: ldcc: kernel 'fill' runs unchecked: a launch of a kernel template with deduced template arguments inside a template runs unchecked; write them explicitly (fill<...><<<...>>>)
// WARN-NOT: runs unchecked
