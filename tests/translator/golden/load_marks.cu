// Loads through pointer parameters (translator/rewrite/WriteOnlyParams.h, paramLoads): each load of
// an element gets a mark `(ldcc_loaded |= 1u << i, p)` that the kernel clone's sites pass to
// ::ldcc::rt::arrive; a parameter with any other use is loaded in every region (ldcc_loaded's value
// after a site); where the kernel could read global memory other than through its pointer parameters,
// or is a template, there is no ldcc_loaded and arrive takes its default, kUnknownLoads. Marks are
// made before the locals' edits, so declarations that are hoisted or moved keep them.
#include <cuda_runtime.h>

struct Pair {
  int x, y;
};

__device__ void keep(float *p, float v) { p[0] = v; }

#define AT(p, i) p[i]

// in: a load (bit 1). out: stores only. acc: an update in place reads it (bit 4). passed: a call
// argument, stepped: copied into a local, macro: loaded in a macro, lambda: loaded in a lambda
// (8 | 16 | 32 | 64 = 120, loaded in every region).
__global__ void marks(const float *in, float *out, float *acc, float *passed, float *stepped, const float *macro,
                      const float *lambda) {
  __shared__ float s[64];
  const int i = threadIdx.x;
  s[i] = in[i];
  __syncthreads();
  out[i] = s[63 - i];
  acc[0] += s[i];
  keep(passed + i, s[i]);
  float *q = stepped;
  q[i] = AT(macro, i);
  auto get = [&] { return lambda[i]; };
  out[i + 64] = get();
}
// CHECK-LABEL: marks__ldcc_checked(__grid_constant__
// CHECK: ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, {{[0-9]+}}u); unsigned ldcc_loaded = 120u;
// CHECK-SAME: ::ldcc::rt::arrive(ldcc_t, ldcc_s, ldcc_loaded); ldcc_loaded = 120u; if (ldcc_a
// CHECK: s[i__ldcc1] = (ldcc_loaded |= 1u, in)[i__ldcc1];
// CHECK-NEXT: { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; }
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(out[i__ldcc1]))) = s[63 - i__ldcc1];
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &((ldcc_loaded |= 4u, acc)[0]))) += s[i__ldcc1];
// CHECK-NEXT: keep__ldcc_checked(ldcc_t, passed + i__ldcc1, s[i__ldcc1]);
// CHECK-NEXT: float *q = stepped;
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(q[i__ldcc1]))) = AT(macro, i__ldcc1);
// CHECK-NEXT: auto get = [&] { return lambda[i__ldcc1]; };

// Locals that live across the barrier are hoisted: their declarations become assignments that keep
// the marks, whatever their form (several declarators, a comment between them, braces, aggregates).
__global__ void hoisted(const int *a, int *out, const Pair *d) {
  const int i = threadIdx.x;
  int lo = a[i],
      hi = a[i + 1];
  int u = a[i], *q = out;
  int w = a[0] /* first */, z = a[1];
  int v{a[i]};
  Pair p{a[0], d->y};
  Pair r = {d->x, d[1].y};
  __syncthreads();
  out[i] = lo + hi + u + w + z + v + p.x + p.y + r.x + r.y;
  q[1] = 1;
}
// CHECK-LABEL: hoisted__ldcc_checked(__grid_constant__
// CHECK-SAME: unsigned ldcc_loaded = 2u;
// CHECK: lo__ldcc2 = (ldcc_loaded |= 1u, a)[i__ldcc1]; hi__ldcc3 = (ldcc_loaded |= 1u, a)[i__ldcc1 + 1];
// CHECK-NEXT: u__ldcc4 = (ldcc_loaded |= 1u, a)[i__ldcc1]; q__ldcc5 = out;
// CHECK-NEXT: w__ldcc6 = (ldcc_loaded |= 1u, a)[0]; z__ldcc7 = (ldcc_loaded |= 1u, a)[1];
// CHECK-NEXT: { decltype(v__ldcc8) ldcc_init{(ldcc_loaded |= 1u, a)[i__ldcc1]}; ::ldcc::rt::assign(v__ldcc8, ldcc_init); }
// CHECK-NEXT: { decltype(p__ldcc9) ldcc_init{(ldcc_loaded |= 1u, a)[0], (ldcc_loaded |= 4u, d)->y}; ::ldcc::rt::assign(p__ldcc9, ldcc_init); }
// CHECK-NEXT: { decltype(r__ldcc10) ldcc_init = {(ldcc_loaded |= 4u, d)->x, (ldcc_loaded |= 4u, d)[1].y}; ::ldcc::rt::assign(r__ldcc10, ldcc_init); }

// A __device__ variable may be the storage of a written buffer: loads are unknown, no marks.
__device__ float g_scale;
__global__ void unknown(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x] * g_scale;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
// CHECK-LABEL: unknown__ldcc_checked(__grid_constant__
// CHECK-NOT: ldcc_loaded
// CHECK: ::ldcc::rt::arrive(ldcc_t, ldcc_s); if (ldcc_a
// CHECK-NOT: ldcc_loaded
// CHECK: s[threadIdx.x] = in[threadIdx.x] * g_scale;

// A template's element types and operators are not resolved: unknown too.
template <typename T>
__global__ void templated(const T *in, T *out) {
  __shared__ T s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
template __global__ void templated<float>(const float *, float *);
// CHECK-LABEL: templated__ldcc_checked(__grid_constant__
// CHECK-NOT: ldcc_loaded
// CHECK: ::ldcc::rt::arrive(ldcc_t, ldcc_s); if (ldcc_a
// CHECK-NOT: ldcc_loaded
// CHECK: (*::ldcc::rt::store(ldcc_t, &(s[threadIdx.x]))) = in[threadIdx.x];
