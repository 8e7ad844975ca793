// Parameters and locals in forms the translator once got wrong (a review's findings):
//   - a const pointer parameter the kernel writes through (`float* const __restrict__ out`), and a
//     const struct parameter holding one: the clone renames the parameter and rebases a mutable copy
//     under its name (before, the pointer was left out of the checked targets without a word);
//   - an unnamed pointer parameter is never used, and not rebased (before: `global_ptr(ldcc_t, )`);
//   - a helper's reference parameter may name memory another warp stores to before a barrier: a local
//     read from it is assigned in place, not moved to the entry;
//   - a volatile local across a barrier is compared by value (the translation compiles);
//   - refused, with the reason: two barriers in one statement (each site keeps one barrier result),
//     and an `auto` local with a dependent initializer across a barrier.

struct Args {
  float *out;
  int n;
};

__global__ void constOut(const float *const __restrict__ in, float *const __restrict__ out, const int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * in[i];
}

__global__ void constStruct(const Args a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) a.out[i] = 1.f;
}

__global__ void unnamed(float *out, const float *) { out[threadIdx.x] = 1.f; }

__device__ float later(const float &x, float *s) {
  s[threadIdx.x] = threadIdx.x * 2.f;
  __syncthreads();
  const float v = x;
  __syncthreads();
  return v;
}

__global__ void viaReference(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 0.f;
  __syncthreads();
  float r = later(s[(threadIdx.x + 1) % 64], s);
  out[threadIdx.x] = r;
}

__global__ void volatileLocal(int *out) {
  __shared__ int s[64];
  volatile int spins = threadIdx.x;
  s[threadIdx.x] = spins;
  __syncthreads();
  spins = spins + s[(threadIdx.x + 1) % 64];
  out[threadIdx.x] = spins;
}

__global__ void twoCounts(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int total = __syncthreads_count(s[threadIdx.x] & 1) + __syncthreads_count(s[threadIdx.x] & 2);
  out[threadIdx.x] = total;
}

template <typename T>
__global__ void dependentAuto(const T *in, T *out) {
  __shared__ T s[64];
  auto v = in[threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  v += s[(threadIdx.x + 1) % 64];
  out[threadIdx.x] = v;
}

void run(const float *in, float *out, int *iout, int n) {
  constOut<<<1, 64>>>(in, out, n);
  constStruct<<<1, 64>>>(Args{out, n});
  unnamed<<<1, 64>>>(out, in);
  viaReference<<<1, 64>>>(out);
  volatileLocal<<<1, 64>>>(iout);
  twoCounts<<<1, 64>>>(iout);
  dependentAuto<<<1, 64>>>(in, out);
}

// The const parameters' pointers are checked targets (parameter 1 of constOut, a.out of constStruct).
// CHECK: ldcc_desc_0_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, true, false},
// CHECK: ldcc_desc_1_globals[] = {{[{][{]}}"a.out", 0, 0ull, 4ull, false, false},
// CHECK: ldcc_desc_2_globals[] = {{[{][{]}}"out", 0, 0ull, 4ull, true, false},
// pointerArrays and constPointerArray (below):
// CHECK: ldcc_desc_{{[0-9]+}}_globals[] = {{[{][{]}}"o.out[0]", 0, 0ull, 4ull, false, false}, {"o.out[1]", 0, 8ull, 4ull, false, false}, {"o.out[2]", 0, 16ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: = {"pointerArrays",
// CHECK: = {"constPointerArray", {{.*}}, "a written pointer in a const member of a struct parameter (f.out[0])",

// CHECK: constOut__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const float *const __restrict__ in, float *const __restrict__ out__ldcc_const, const int n)
// CHECK-SAME: std::remove_const_t<decltype(out__ldcc_const)> out = out__ldcc_const; out = ::ldcc::rt::global_ptr(ldcc_t, out);
// CHECK: constStruct__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const Args a__ldcc_const)
// CHECK-SAME: std::remove_const_t<decltype(a__ldcc_const)> a = a__ldcc_const; a.out = ::ldcc::rt::global_ptr(ldcc_t, a.out);
// CHECK: unnamed__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, float *out, const float *)
// CHECK-SAME: out = ::ldcc::rt::global_ptr(ldcc_t, out); struct ldcc_frame

// x is read after the first barrier, where the other warps' stores to s are in.
// CHECK: later__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, const float &x, float *s) {::ldcc::rt::type_t<float> v__ldcc1{{[{}]*}};
// CHECK: { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT: v__ldcc1 = x;
// CHECK-NEXT: { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }

// CHECK: volatileLocal__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<volatile int> spins__ldcc{{[0-9]+}}{{[{}]*}};

// A const struct parameter with an array member, read across a barrier: reading `p.w[i]` decays a
// const array, which modifies nothing, so the parameter is not saved in the frame (whose copy of a
// const member did not compile).
struct Weights { float w[4]; int n; };
__global__ void constArrayMember(const Weights p, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = p.w[threadIdx.x % 4];
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64] * p.w[0] + p.n;
}
// CHECK: constArrayMember__ldcc_checked(
// CHECK-SAME: struct ldcc_frame { } ldcc_ck, ldcc_p1;

// A struct parameter with an array of pointers: each element is a pointer of its own, at its offset,
// rebased in the clone; a store through `o.out[k]` writes all of the array's (k is not known); the
// read-only array is rebased but not listed. Written through an array of const pointers, which the
// clone cannot rebase, the kernel runs unchecked. (Before 2026-11-30 both were refused as "a store
// through a pointer loaded from memory".)
struct Outs { float *out[3]; const float *in[2]; int n; };
struct FixedOuts { float *const out[2]; };
__global__ void pointerArrays(Outs o) {
  for (int k = 0; k < 3; ++k) o.out[k][threadIdx.x] = o.in[k % 2][threadIdx.x] * k;
  __syncthreads();
  o.out[0][threadIdx.x] += o.out[1][(threadIdx.x + 1) % 64];
}
__global__ void constPointerArray(FixedOuts f) { f.out[1][threadIdx.x] = 1.0f; }
void runArrays(Outs o, FixedOuts f) {
  pointerArrays<<<1, 64>>>(o);
  constPointerArray<<<1, 64>>>(f);
}
// CHECK: pointerArrays__ldcc_checked(
// CHECK-SAME: o.out[0] = ::ldcc::rt::global_ptr(ldcc_t, o.out[0]); o.out[1] = ::ldcc::rt::global_ptr(ldcc_t, o.out[1]); o.out[2] = ::ldcc::rt::global_ptr(ldcc_t, o.out[2]); o.in[0] = ::ldcc::rt::global_ptr(ldcc_t, o.in[0]); o.in[1] = ::ldcc::rt::global_ptr(ldcc_t, o.in[1]);

// WARN: param_forms.cu:58: warning: ldcc: kernel 'twoCounts' runs unchecked: two barriers in one statement
// WARN-NEXT: param_forms.cu:65: warning: ldcc: kernel 'dependentAuto' runs unchecked: the local 'v' lives across a barrier and cannot be moved to function scope (its type is a dependent auto)
// WARN-NEXT: param_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'constPointerArray' runs unchecked: a written pointer in a const member of a struct parameter (f.out[0])
