// Locals that live across a barrier in forms that need more than a renamed declaration
// (FunctionAnalysis.cpp, planLocals and planBindings; CloneWriter.cpp):
//   - a structured binding declares one hidden variable: hoisted as ldcc_bindingsN (a pointer where
//     it binds by reference), its bindings rewritten to their parts of it (`.a`, `[1]`, `(*p).a`),
//     or, for a tuple-like type, to ::ldcc::rt::binding<k, n> (get<k>, as the declaration binds them);
//   - a local in a macro argument the macro expands twice is renamed once;
//   - an array with an initializer is built in a temporary of the same type (decltype has the bounds);
//   - a library call given a pointer reads memory: its local is not invariant, so it is assigned
//     where it was declared, after the barrier, not moved to the kernel's entry.
#include <cuda/std/utility>

struct Loc {
  int a;
  int b;
};

__global__ void bindings(const Loc *locs, int *out) {
  __shared__ Loc pairs[64];
  const int i = threadIdx.x;
  pairs[i] = {i, -i};
  __syncthreads();
  auto [a, b] = locs[i];
  int two[2] = {pairs[(i + 1) % 64].a, pairs[(i + 2) % 64].b};
  const auto [first, second] = two;
  auto &[pa, pb] = pairs[i];
  pa += a;
  __syncthreads();
  out[i] = a * b + first - second + pa + pb;
}

__global__ void fetched(const int *buf, int *out) {
  const int i = threadIdx.x;
  const int twice = 2 * i;
  __syncthreads();
  const int x = __ldg(buf + (i ^ 32));
  __syncthreads();
  out[i] = x + twice;
}

__global__ void tupleLike(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  auto [p, q] = cuda::std::pair<int, int>(s[threadIdx.x], 1);
  __syncthreads();
  out[threadIdx.x] = p + q;
}

// A macro that expands its argument twice: the local is renamed once at its one spelling.
#define SQUARE(x) ((x) * (x))
__global__ void squared(const float *in, float *out) {
  __shared__ float s[64];
  float v = in[threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  out[threadIdx.x] = SQUARE(v) + s[63 - threadIdx.x];
}

void run(const Loc *locs, const int *buf, int *out) {
  bindings<<<1, 64>>>(locs, out);
  fetched<<<1, 64>>>(buf, out);
  tupleLike<<<1, 64>>>(out);
  squared<<<1, 64>>>((const float *)buf, (float *)out);
}

// Each structured binding is one compared local, named by its bindings.
// CHECK: ldcc_locals[] = {"bindings: [a, b]", "bindings: two", "bindings: [first, second]", "bindings: [pa, pb]", "fetched: x", "tupleLike: [p, q]", "squared: v", "aliased: t", "aliased: v", "named: buf", "named: v", "named: w", nullptr};

// The hidden variables at function scope: by value (const dropped: the clone assigns it), and a
// pointer for the one bound by reference.
// CHECK: bindings__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<Loc> ldcc_bindings2{{[{}]*}}; ::ldcc::rt::type_t<int[2]> two__ldcc3{{[{}]*}}; ::ldcc::rt::type_t<int[2]> ldcc_bindings4{{[{}]*}}; ::ldcc::rt::type_t<Loc *> ldcc_bindings5{{[{}]*}};
// CHECK: { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT: ::ldcc::rt::assign(ldcc_bindings2, {{ *}}locs[i__ldcc1]);
// CHECK-NEXT: { decltype(two__ldcc3) ldcc_init = {pairs[(i__ldcc1 + 1) % 64].a, pairs[(i__ldcc1 + 2) % 64].b}; ::ldcc::rt::assign(two__ldcc3, ldcc_init); }
// CHECK-NEXT: ::ldcc::rt::assign(ldcc_bindings4, {{ *}}two__ldcc3);
// CHECK-NEXT: ldcc_bindings5 = &({{ *}}pairs[i__ldcc1]);
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(((*ldcc_bindings5).a)))) += (ldcc_bindings2.a);
// CHECK-NEXT: { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(out[i__ldcc1]))) = (ldcc_bindings2.a) * (ldcc_bindings2.b) + (ldcc_bindings4[0]) - (ldcc_bindings4[1]) + ((*ldcc_bindings5).a) + ((*ldcc_bindings5).b);

// i and twice move to the entry; x, loaded through a pointer, is assigned after the first barrier.
// CHECK: fetched__ldcc_checked(
// CHECK-SAME: const int i__ldcc{{[0-9]+}} = threadIdx.x; const int twice__ldcc{{[0-9]+}} = 2 * i__ldcc{{[0-9]+}}; ::ldcc::rt::type_t<int> x__ldcc{{[0-9]+}}{{[{}]*}};
// CHECK: { if (ldcc_site({{[0-9]+}}u)) goto ldcc_dispatch; ldcc_resume_{{[0-9]+}}:; }
// CHECK-NEXT: x__ldcc{{[0-9]+}} = __ldg({{.*}}buf{{.*}} + (i__ldcc{{[0-9]+}} ^ 32));
// CHECK-NEXT: { if (ldcc_site({{[0-9]+}}u)) goto ldcc_dispatch; ldcc_resume_{{[0-9]+}}:; }

// CHECK: tupleLike__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<cuda::std::pair<int, int>> ldcc_bindings1{{[{}]*}};
// CHECK: ::ldcc::rt::assign(ldcc_bindings1, {{ *}}cuda::std::pair<int, int>(s[threadIdx.x], 1));
// CHECK-NEXT: { if (ldcc_site({{[0-9]+}}u)) goto ldcc_dispatch; ldcc_resume_{{[0-9]+}}:; }
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(out[threadIdx.x]))) = ::ldcc::rt::binding<0, 2>(ldcc_bindings1) + ::ldcc::rt::binding<1, 2>(ldcc_bindings1);

// CHECK: squared__ldcc_checked(
// CHECK: (*::ldcc::rt::store(ldcc_t, &(out[threadIdx.x]))) = SQUARE(v__ldcc{{[0-9]+}}) + s[63 - threadIdx.x];

// Aliases declared inside a kernel: the variables that move to the function's top (a __shared__
// array, hoisted locals) are declared with the aliased types themselves, and a declaration that
// would be moved whole (`const index_t t`) is hoisted instead, since its spelling names the alias.
__global__ void aliased(const float *in, float *out) {
  using real = float;
  typedef int index_t;
  __shared__ real buf[64];
  const index_t t = threadIdx.x;
  real v = in[t] * 2;
  buf[t] = v;
  __syncthreads();
  out[t] = v + buf[63 - t];
}
// CHECK: aliased__ldcc_checked(
// CHECK-SAME: using ldcc_shared_type_0 = float[64];
// CHECK-SAME: ::ldcc::rt::type_t<int> t__ldcc{{[0-9]+}}{}; ::ldcc::rt::type_t<float> v__ldcc{{[0-9]+}}{};

// Types that name other locals, renamed in the clone: an array bounded by a constexpr local (moved
// whole to the top, before the hoisted ones) and decltype of a hoisted local.
template <int N> __global__ void named(float *out) {
  constexpr int M = N * 2;
  float buf[M];
  for (int i = 0; i < M; ++i) buf[i] = out[i];
  __syncthreads();
  float v = buf[threadIdx.x % M];
  decltype(v) w = v * 2;
  __syncthreads();
  out[threadIdx.x] = w + buf[0];
}
void runNamed(float *out) { named<4><<<1, 64>>>(out); }
// CHECK: named__ldcc_checked(
// CHECK-SAME: constexpr int M__ldcc[[M:[0-9]+]] = N * 2; ::ldcc::rt::type_t<float[M__ldcc[[M]]]> buf__ldcc{{[0-9]+}}{}; ::ldcc::rt::type_t<float> v__ldcc[[V:[0-9]+]]{}; ::ldcc::rt::type_t<decltype(v__ldcc[[V]])> w__ldcc{{[0-9]+}}{};
