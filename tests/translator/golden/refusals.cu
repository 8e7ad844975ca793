// Kernels the translator refuses keep their original only: no clone, their
// launches become ::ldcc::rt::launch_unchecked(...), their KernelDesc carries
// the reason and file:line, and ldcc warns on stderr. A checked kernel in the
// same file is not affected.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void ptxStore(int *out, int v) {
  int *p = out + blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("st.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__global__ void gridSum(const int *in, int *partial, int *out) {
  partial[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  cg::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = partial[0] + partial[gridDim.x - 1];
}

__global__ void barrierInForHeader(int *data, int n) {
  for (int i = 0; i < n; ++i, __syncthreads()) data[threadIdx.x] += i;
}

__device__ int nextStep(int i) {
  __syncthreads();
  return i + 1;
}

__global__ void syncingCallInForHeader(int *data, int n) {
  for (int i = 0; i < n; i = nextStep(i)) data[threadIdx.x] += i;
}

__global__ void fine(int *data) {
  data[threadIdx.x] = 1;
}

// An overloaded operator that stores is called without its name: no call of it can be redirected to
// a checked copy, so it gets none and its callers run unchecked.
struct Clamp { int hi; };
__device__ int &operator<<=(int &a, Clamp c) { return a = a < c.hi ? a : c.hi; }

__global__ void clampAll(int *data, int hi) {
  data[threadIdx.x] <<= Clamp{hi};
}

// A pointer member declared const cannot be rebased to the checker's copy: its stores would bypass
// the copies, so the kernel runs unchecked (a const pointer *parameter* is rebased).
struct Outputs { int *const data; int n; };

__global__ void constMember(Outputs o) {
  o.data[threadIdx.x % o.n] = 1;
}

// A range-based for whose body synchronizes: its variables are assigned by the loop itself, so none
// can be saved and restored at the barrier.
__global__ void rangeForBarrier(int *data) {
  __shared__ int s[64];
  const int steps[3] = {1, 2, 3};
  for (int step : steps) {
    s[threadIdx.x] = step;
    __syncthreads();
    data[threadIdx.x] += s[(threadIdx.x + step) % 64];
    __syncthreads();
  }
}

// A friend of a class may use its private members; its checked copies would not be friends (nvcc
// rejected the translation before 2026-11-30).
__global__ void relax(float *b, int n);
class Solver {
  static __device__ float half(float v) { return v * 0.5f; }
  friend __global__ void relax(float *b, int n);
};
__global__ void relax(float *b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = Solver::half(b[i]);
}

void run(int *a, int *b, int *c, int n) {
  ptxStore<<<1, 32>>>(a, 7);
  gridSum<<<4, 64>>>(a, b, c);
  barrierInForHeader<<<1, 64>>>(a, n);
  syncingCallInForHeader<<<1, 64>>>(a, n);
  fine<<<1, 64>>>(a);
  clampAll<<<1, 64>>>(a, n);
  constMember<<<1, 64>>>(Outputs{a, n});
  rangeForBarrier<<<1, 64>>>(a);
  relax<<<1, 64>>>((float *)a, n);
}

// Each refused kernel's descriptor names the construct and where it is.
// CHECK: ldcc_desc_0 = {"ptxStore", "check", {{.*}}, "inline PTX that stores, synchronizes or does atomics", "{{.*}}/refusals.cu:11", ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_1 = {"gridSum", "check", {{.*}}, "grid-wide synchronization", "{{.*}}/refusals.cu:16", ldcc_desc_1_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_2 = {"barrierInForHeader", "check", {{.*}}, "a barrier in the header of a for loop", "{{.*}}/refusals.cu:21", ldcc_desc_2_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_3 = {"syncingCallInForHeader", "check", {{.*}}, "a call of nextStep (which synchronizes) in the header of a loop", "{{.*}}/refusals.cu:30", ldcc_desc_3_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_4 = {"fine", "check", {{.*}}, nullptr, nullptr, ldcc_desc_4_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_5 = {"clampAll", "check", {{.*}}, "it calls operator<<=, which cannot be checked: an overloaded operator or conversion that synchronizes or writes memory (operator<<=)", "{{.*}}/refusals.cu:43", ldcc_desc_5_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_6 = {"constMember", "check", {{.*}}, "a written pointer in a const member of a struct parameter (o.data)", "{{.*}}/refusals.cu:50", ldcc_desc_6_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_7 = {"rangeForBarrier", "check", {{.*}}, "a range-based for loop whose body synchronizes (an index loop can be checked)", "{{.*}}/refusals.cu:59", ldcc_desc_7_globals, {{[0-9]+}}u, nullptr, false};

// Refused kernels stay exactly as written, with no clone after them.
// CHECK: __global__ void ptxStore(int *out, int v) {
// CHECK-NEXT:   int *p = out + blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   asm volatile("st.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
// CHECK-NEXT: }
// CHECK-NOT: __ldcc_checked
// CHECK: __global__ void gridSum(const int *in, int *partial, int *out) {
// CHECK-NEXT:   partial[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
// CHECK-NEXT:   cg::this_grid().sync();
// CHECK-NOT: __ldcc_checked
// CHECK: __global__ void barrierInForHeader(int *data, int n) {
// CHECK-NEXT:   for (int i = 0; i < n; ++i, __syncthreads()) data[threadIdx.x] += i;
// CHECK-NEXT: }
// CHECK-NOT: barrierInForHeader__ldcc_checked
// CHECK: __global__ void syncingCallInForHeader(int *data, int n) {
// CHECK-NEXT:   for (int i = 0; i < n; i = nextStep(i)) data[threadIdx.x] += i;
// CHECK-NEXT: }
// CHECK-NOT: __ldcc_checked

// The checked kernel in the same file gets its clone.
// CHECK: __global__ void fine(int *data) {
// CHECK: #line 33 "{{.*}}/refusals.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(64) fine__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *data) {
// Neither the storing operator nor its caller gets a clone.
// CHECK: __device__ int &operator<<=(int &a, Clamp c) { return a = a < c.hi ? a : c.hi; }
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void clampAll(int *data, int hi) {
// CHECK-NEXT:   data[threadIdx.x] <<= Clamp{hi};
// CHECK-NEXT: }
// CHECK-NOT: __ldcc_checked

// Refused kernels launch through launch_unchecked (original only); the checked one does not.
// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch_unchecked(::ldcc_desc_0, ptxStore, 1, 32, 0, 0, a, 7);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_1, gridSum, 4, 64, 0, 0, a, b, c);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_2, barrierInForHeader, 1, 64, 0, 0, a, n);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_3, syncingCallInForHeader, 1, 64, 0, 0, a, n);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_4, fine, fine__ldcc_checked, nullptr, fine__ldcc_blocks, 1, 64, 0, 0, a);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_5, clampAll, 1, 64, 0, 0, a, n);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_6, constMember, 1, 64, 0, 0, Outputs{a, n});
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_7, rangeForBarrier, 1, 64, 0, 0, a);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_8, relax, 1, 64, 0, 0, (float *)a, n);

// One warning per refused kernel, at the construct's line; none for `fine`.
// WARN: refusals.cu:11: warning: ldcc: kernel 'ptxStore' runs unchecked: inline PTX that stores, synchronizes or does atomics
// WARN-NEXT: refusals.cu:16: warning: ldcc: kernel 'gridSum' runs unchecked: grid-wide synchronization
// WARN-NEXT: refusals.cu:21: warning: ldcc: kernel 'barrierInForHeader' runs unchecked: a barrier in the header of a for loop
// WARN-NEXT: refusals.cu:30: warning: ldcc: kernel 'syncingCallInForHeader' runs unchecked: a call of nextStep (which synchronizes) in the header of a loop
// WARN-NEXT: refusals.cu:43: warning: ldcc: kernel 'clampAll' runs unchecked: it calls operator<<=, which cannot be checked: an overloaded operator or conversion that synchronizes or writes memory (operator<<=)
// WARN-NEXT: refusals.cu:50: warning: ldcc: kernel 'constMember' runs unchecked: a written pointer in a const member of a struct parameter (o.data)
// WARN-NEXT: refusals.cu:59: warning: ldcc: kernel 'rangeForBarrier' runs unchecked: a range-based for loop whose body synchronizes (an index loop can be checked)
// WARN-NEXT: refusals.cu:72: warning: ldcc: kernel 'relax' runs unchecked: a function declared a friend of a class (its checked copies would not be friends)
// WARN-NOT: warning
