// Reference locals and const class locals that live across a barrier. A reference is hoisted as a
// pointer to what it names (`float& r = s[i];` -> `r__ldcc1 = &(s[i]);`), each use reading through it
// (`(*r__ldcc1)`); a const local of class type (float4, a plain struct, one with const and non-const
// overloads) is hoisted without its const and read as const (`::ldcc::rt::as_const(q__ldcc2)`: every
// call resolves as in the program). Refused (here the first two): a reference bound to a temporary or
// a part of one, one with a braced initializer, an rvalue reference, one a lambda captures, one whose
// initializer calls a function that synchronizes.

struct Params {
  float scale;
  int offset;
};

struct Pair {
  float a, b;
  __device__ float sum() const { return a + b; }
};

struct Counter {
  int n;
  __device__ int next() { return ++n; }
  __device__ int next() const { return n + 1; }
};

__global__ void throughReferences(float *out, const Params *params) {
  __shared__ float s[64];
  __shared__ float tile[2][32];
  float &mine = s[threadIdx.x];
  float (&row)[32] = tile[threadIdx.x / 32];
  const Params &p = params[blockIdx.x];
  mine = p.scale * threadIdx.x;
  row[threadIdx.x % 32] = 1.0f;
  __syncthreads();
  mine += s[63 - threadIdx.x] + row[31 - threadIdx.x % 32];
  out[threadIdx.x + p.offset] = mine;
}

__global__ void constClasses(const float4 *in, float *out) {
  __shared__ float s[64];
  const float4 v = in[threadIdx.x];
  const Pair q{v.x, v.y};
  const Pair r = {v.z, v.w};
  s[threadIdx.x] = v.x;
  __syncthreads();
  out[threadIdx.x] = v.y + q.sum() + r.a + s[63 - threadIdx.x];
}

__global__ void temporaryReference(const float *in, float *out) {
  __shared__ float s[64];
  const float &t = in[threadIdx.x] + 1.0f;
  s[threadIdx.x] = t;
  __syncthreads();
  out[threadIdx.x] = t + s[63 - threadIdx.x];
}

__global__ void bracedReference(float *out) {
  __shared__ float s[64];
  float &r{s[threadIdx.x]};
  r = 1.0f;
  __syncthreads();
  out[threadIdx.x] = r + s[63 - threadIdx.x];
}

__global__ void constWithMutators(const int *in, int *out) {
  __shared__ int s[64];
  const Counter c{in[threadIdx.x]};
  s[threadIdx.x] = c.n;
  __syncthreads();
  out[threadIdx.x] = c.next() + s[63 - threadIdx.x];
}

// A const array is hoisted with elements that are not const and read as const (its initializer reads
// shared memory: it cannot move whole); a const object with a mutable member is saved in the frame
// even where its initializer could move it whole (a re-execution restores what `c.hits++` changed).
// A const volatile array is refused.
struct Hits {
  float base;
  mutable int hits;
};

__global__ void constArrays(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  const float pair[2] = {s[threadIdx.x], s[63 - threadIdx.x]};
  const Hits c{0.5f, 0};
  __syncthreads();
  s[threadIdx.x] = pair[0] + pair[1] + float(sizeof(pair));
  c.hits++;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64] + c.base + c.hits;
}

__global__ void volatileConstArray(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  const volatile float pair[2] = {s[threadIdx.x], s[63 - threadIdx.x]};
  __syncthreads();
  out[threadIdx.x] = pair[0] + s[(threadIdx.x + 1) % 64];
}

// WARN: reference_locals.cu:50: warning: ldcc: kernel 'temporaryReference' runs unchecked: the reference 't' lives across a barrier and binds a temporary or a part of one
// WARN-NEXT: reference_locals.cu:58: warning: ldcc: kernel 'bracedReference' runs unchecked: the reference 'r' lives across a barrier and is not initialized by `= value`
// WARN-NEXT: reference_locals.cu:98: warning: ldcc: kernel 'volatileConstArray' runs unchecked: the local 'pair' lives across a barrier and cannot be moved to function scope (a const volatile array)
// WARN-NOT: warning

// CHECK-LABEL: throughReferences__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<float *> mine__ldcc1{}; ::ldcc::rt::type_t<float (*)[32]> row__ldcc2{}; ::ldcc::rt::type_t<const Params *> p__ldcc3{};
// CHECK: mine__ldcc1 = &(s[threadIdx.x]);
// CHECK-NEXT: row__ldcc2 = &(tile[threadIdx.x / 32]);
// CHECK-NEXT: p__ldcc3 = &(params[blockIdx.x]);
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &((*mine__ldcc1)))) = (*p__ldcc3).scale * threadIdx.x;
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &((*row__ldcc2)[threadIdx.x % 32]))) = 1.0f;
// CHECK: (*::ldcc::rt::store(ldcc_t, &((*mine__ldcc1)))) += s[63 - threadIdx.x] + (*row__ldcc2)[31 - threadIdx.x % 32];
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(out[threadIdx.x + (*p__ldcc3).offset]))) = (*mine__ldcc1);

// CHECK-LABEL: constClasses__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<float4> v__ldcc1{}; ::ldcc::rt::type_t<Pair> q__ldcc2{}; ::ldcc::rt::type_t<Pair> r__ldcc3{};
// CHECK: v__ldcc1 = in[threadIdx.x];
// CHECK-NEXT: { decltype(q__ldcc2) ldcc_init{::ldcc::rt::as_const(v__ldcc1).x, ::ldcc::rt::as_const(v__ldcc1).y}; ::ldcc::rt::assign(q__ldcc2, ldcc_init); }
// CHECK-NEXT: { decltype(r__ldcc3) ldcc_init = {::ldcc::rt::as_const(v__ldcc1).z, ::ldcc::rt::as_const(v__ldcc1).w}; ::ldcc::rt::assign(r__ldcc3, ldcc_init); }
// CHECK: = ::ldcc::rt::as_const(v__ldcc1).y + ::ldcc::rt::as_const(q__ldcc2).sum() + ::ldcc::rt::as_const(r__ldcc3).a + s[63 - threadIdx.x];

// CHECK-LABEL: constWithMutators__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<Counter> c__ldcc1{};
// CHECK: = ::ldcc::rt::as_const(c__ldcc1).next() + s[63 - threadIdx.x];
// CHECK-LABEL: constArrays__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::type_t<float[2]> pair__ldcc1{}; ::ldcc::rt::type_t<Hits> c__ldcc2{}; struct ldcc_frame { decltype(pair__ldcc1) pair__ldcc1; decltype(c__ldcc2) c__ldcc2; }
// CHECK: { decltype(pair__ldcc1) ldcc_init = {s[threadIdx.x], s[63 - threadIdx.x]}; ::ldcc::rt::assign(pair__ldcc1, ldcc_init); }
// CHECK-NEXT: { decltype(c__ldcc2) ldcc_init{0.5f, 0}; ::ldcc::rt::assign(c__ldcc2, ldcc_init); }
// CHECK: = ::ldcc::rt::as_const(pair__ldcc1)[0] + ::ldcc::rt::as_const(pair__ldcc1)[1] + float(sizeof(::ldcc::rt::as_const(pair__ldcc1)));
// CHECK-NEXT: ::ldcc::rt::as_const(c__ldcc2).hits++;
// CHECK-NOT: temporaryReference__ldcc_checked
// CHECK-NOT: bracedReference__ldcc_checked
