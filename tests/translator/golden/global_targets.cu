// Global targets (DESIGN.md sections 2 and 6): the descriptor lists the global memory each kernel
// writes, traced from its stores and atomics back to a pointer parameter, a pointer field of a
// by-value struct parameter, or a __device__ variable; read-only pointers are not listed (never
// copied) but are still rebased, so a read through an alias of a written buffer sees the copy.
// A store through a pointer loaded from memory makes the kernel run unchecked.
#include <cstdint>
#include <cstring>
#include <cuda/atomic>
#include <cuda/std/utility>
#include <new>

struct Buffers {
  const int *in;
  int *out;
  int *flags;
  int factor;
};

__device__ int g_max[64];
__device__ int g_table[16];  // read only

__device__ void bump(int *p, int v) { *p += v; }

__global__ void scale(Buffers b, const float *weights, float *scratch, int *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int *row = b.out + blockIdx.x * 8;
  row[threadIdx.x % 8] = b.in[i] * b.factor + g_table[i % 16];
  float w = weights[i] + scratch[i];
  bump(&result[0] - 0 + i, 1);
  if (threadIdx.x == 0) g_max[blockIdx.x % 64] = i;
  (void)w;
}

__global__ void chase(int **rows, int *out) {
  int *row = rows[blockIdx.x];
  row[threadIdx.x] = 1;
  out[0] = 2;
}

// A store no hook sees: __stwt writes through its pointer inside a CUDA header, here from a helper.
__device__ void streamOut(float *dst, float v) { __stwt(dst, v); }

__global__ void streamed(float *out, float a) {
  streamOut(out + threadIdx.x, a);
}

// sincosf writes only the caller's locals: nothing untraced.
__global__ void polar(float *out, float a) {
  float s, c;
  sincosf(a * threadIdx.x, &s, &c);
  out[threadIdx.x] = s + c;
}

// Placement new constructs into global memory where no hook sees the constructor's stores.
struct Pair {
  float a, b;
  __device__ Pair(float x) : a(x), b(2 * x) {}
};

__global__ void constructed(Pair *pairs, float a) {
  new (&pairs[threadIdx.x]) Pair(a);
}

// Stores through what a helper returns: a pointer to a __device__ variable, a pointer computed from
// an argument, a reference into a member function's object, and a pointer it loaded from memory.
__device__ int g_count;
__device__ int *countPtr() { return &g_count; }
__device__ float *rowOf(float *base, int r) { return base + r * 32; }
__device__ float &pick(float &a, float &b, bool first) { return first ? a : b; }

struct Grid {
  float *data;
  const float *weights;
  int width;
  __device__ float &at(int r, int c) { return data[r * width + c]; }
  __device__ float *row(int r) const { return data + r * width; }
  __device__ float &flat(int i) { return at(i / width, i % width); }  // through its own object
};

__device__ float *rowFrom(float **rows, int r) { return rows[r]; }

__global__ void returned(Grid g, float *table, float *left, float *right, float *unread, const float *in) {
  *countPtr() = 7;
  atomicAdd(countPtr(), 1);
  rowOf(table, blockIdx.x)[threadIdx.x] = in[threadIdx.x];
  g.at(blockIdx.x, threadIdx.x) = g.weights[threadIdx.x];
  g.row(0)[threadIdx.x] += 1.0f;
  g.flat(threadIdx.x) -= 1.0f;
  pick(left[threadIdx.x], right[threadIdx.x], threadIdx.x % 2 == 0) = 2.0f;
  (void)unread;
}

__global__ void returnedLoaded(float **rows, float *out) {
  rowFrom(rows, blockIdx.x)[threadIdx.x] = 1.0f;
  out[0] = 2.0f;
}

// Stores no hook sees, made by calls: their destinations are targets too (memcpy's and memset's,
// __stwt's through a helper that has no clone, cuda::std::swap's references); `unread` is only read.
// A pointer made from a pointer's address (aligned up) is traced to it; one made from an integer
// parameter refuses the kernel. libcu++'s atomics refuse it (ldcc hooks CUDA's atomic functions).
struct Rec { int id; float v[3]; };
__device__ void putThrough(int *p, int v) { __stwt(p, v); }
__global__ void untracedCalls(Rec *dst, const Rec *src, int *streamed, float *swapped, char *cleared, const int *unread) {
  memcpy(&dst[threadIdx.x], &src[threadIdx.x], sizeof(Rec));
  putThrough(&streamed[threadIdx.x], unread[threadIdx.x]);
  cuda::std::swap(swapped[threadIdx.x], swapped[63 - threadIdx.x]);
  memset(cleared, 0, 64);
}
__global__ void alignedUp(float *out, const float *in) {
  float *p = reinterpret_cast<float *>((reinterpret_cast<uintptr_t>(out) + 15) & ~uintptr_t(15));
  p[threadIdx.x] = in[threadIdx.x];
}
__global__ void fromAddress(unsigned long long address) { reinterpret_cast<float *>(address)[threadIdx.x] = 1.0f; }
__global__ void libcuAtomic(int *count) {
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*count);
  c.fetch_add(1);
}

// The output chosen by the conditional operator: both parameters (it was refused as loaded from
// memory). CUDA's cache-hint stores that clang's headers lack (__stcs, __stcg, __stwb; ldcc declares
// them for its parse): stores no hook sees, whose destinations are targets.
__global__ void chosen(float *a, float *b, int useA) {
  float *dst = useA ? a : b;
  dst[threadIdx.x] = 1.0f;
  (useA ? b : a)[threadIdx.x + 32] = 2.0f;
}
__global__ void cacheHints(float4 *out, const float4 *in, float *o2, const float *i2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcs(&out[i], __ldcs(&in[i]));
  __stcg(&o2[i], __ldca(&i2[i]) + __ldlu(&i2[i + 1]));
  __stwb(&o2[i + 4096], 1.0f);
}

// A struct parameter handed to a helper by reference, const reference or pointer: its pointer fields
// are the kernel's (they were refused as loaded from memory). Through a pointer to a struct in global
// memory (`P* ps`), or a copy of the struct, they are loaded from memory: refused.
struct Particles { float *x; int n; };
__device__ void moveRef(Particles &p, int i) { p.x[i] += 1.0f; }
__device__ void moveConstRef(const Particles &p, int i) { p.x[i] += 1.0f; }
__device__ void movePointer(const Particles *p, int i) { p->x[i] += 1.0f; }
__global__ void particlesByReference(Particles p, Particles q, Particles r) {
  moveRef(p, threadIdx.x);
  moveConstRef(q, threadIdx.x);
  movePointer(&r, threadIdx.x);
}
__global__ void particlesInMemory(Particles *ps) { movePointer(ps, threadIdx.x); }
__global__ void particlesCopied(Particles p) {
  Particles copy = p;
  moveRef(copy, threadIdx.x);
}

void run(Buffers b, const float *w, float *s, int *r, int n, int **rows, int *out, float *f, Pair *pairs) {
  scale<<<(n + 255) / 256, 256>>>(b, w, s, r, n);
  chase<<<4, 32>>>(rows, out);
  streamed<<<1, 64>>>(f, 2.0f);
  polar<<<1, 64>>>(f, 2.0f);
  constructed<<<1, 64>>>(pairs, 1.0f);
  returned<<<2, 32>>>(Grid{f, f, 32}, f, f, f, f, f);
  returnedLoaded<<<2, 32>>>((float **)rows, f);
  untracedCalls<<<2, 64>>>((Rec *)f, (const Rec *)f, out, f, (char *)f, out);
  alignedUp<<<1, 64>>>(f, f);
  fromAddress<<<1, 64>>>(0ull);
  libcuAtomic<<<1, 64>>>(out);
  chosen<<<1, 32>>>(f, f, 1);
  cacheHints<<<1, 64>>>((float4 *)f, (const float4 *)f, f, f);
  particlesByReference<<<1, 32>>>(Particles{f, 1}, Particles{f, 1}, Particles{f, 1});
  particlesInMemory<<<1, 32>>>((Particles *)f);
  particlesCopied<<<1, 32>>>(Particles{f, 1});
}

// scale writes b.out (offset 8 in Buffers), result (through the helper) and g_max; not b.in,
// b.flags, weights, scratch or g_table.
// CHECK: ldcc_desc_0_globals[] = {{[{][{]}}"b.out", 0, 8ull, 4ull, false, false}, {"result", 3, 0ull, 4ull, false, false}, {"g_max", -1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_0 = {"scale", {{.*}}, nullptr, nullptr, ldcc_desc_0_globals, 3u, nullptr, false};
// chase stores through a pointer it loaded from memory: unchecked, nothing listed.
// CHECK: ldcc_desc_1_globals[] = {{[{][{]}}nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_1 = {"chase", {{.*}}, "a store through a pointer loaded from memory", "{{.*}}/global_targets.cu:36", ldcc_desc_1_globals, 0u, nullptr, false};
// The last field, why deterministic mode runs the warps in turn: a store no hook sees (through a
// helper), then none (sincosf writes locals).
// CHECK: ldcc_desc_2 = {"streamed", {{.*}}, nullptr, nullptr, ldcc_desc_2_globals, {{[0-9]+}}u, "a call of __stwt, which may store where no hook sees it ({{.*}}/global_targets.cu:42)", false};
// CHECK: ldcc_desc_3 = {"polar", {{.*}}, nullptr, nullptr, ldcc_desc_3_globals, 1u, nullptr, false};
// CHECK: ldcc_desc_4 = {"constructed", {{.*}}, nullptr, nullptr, ldcc_desc_4_globals, {{[0-9]+}}u, "a placement new, whose constructor stores where no hook sees it ({{.*}}/global_targets.cu:{{[0-9]+}})", false};
// returned writes g.data (through the member functions: not g.weights), table (through rowOf), left
// and right (through pick's reference) and g_count (through countPtr, a store and an atomic); not
// unread. returnedLoaded stores through a pointer its helper read from memory: unchecked.
// CHECK: ldcc_desc_5_globals[] = {{[{][{]}}"g.data", 0, 0ull, 4ull, false, false}, {"table", 1, 0ull, 4ull, false, false}, {"left", 2, 0ull, 4ull, false, false}, {"right", 3, 0ull, 4ull, false, false}, {"g_count", -1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK: ldcc_desc_6 = {"returnedLoaded", {{.*}}, "a store through a pointer loaded from memory", "{{.*}}/global_targets.cu:{{[0-9]+}}", ldcc_desc_6_globals, 0u, nullptr, false};

// CHECK: ldcc_desc_7_globals[] = {{[{][{]}}"dst", 0, 0ull, 16ull, false, false}, {"streamed", 2, 0ull, 4ull, false, false}, {"swapped", 3, 0ull, 4ull, false, false}, {"cleared", 4, 0ull, 1ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK: ldcc_desc_8_globals[] = {{[{][{]}}"out", 0, 0ull, 4ull, {{.*}}}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK: ldcc_desc_9 = {"fromAddress", {{.*}}, "a store through a pointer made from an integer that is not a pointer's address", "{{.*}}/global_targets.cu:{{[0-9]+}}",
// CHECK: ldcc_desc_10 = {"libcuAtomic", {{.*}}, "a libcu++ atomic (atomic_ref::fetch_add; ldcc checks CUDA's atomic functions, atomicAdd and the others)",
// CHECK: ldcc_desc_11_globals[] = {{[{][{]}}"a", 0, 0ull, 4ull, false, false}, {"b", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK: ldcc_desc_12_globals[] = {{[{][{]}}"out", 0, 0ull, 16ull, false, false}, {"o2", 2, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_12 = {"cacheHints", {{.*}}, nullptr, nullptr, ldcc_desc_12_globals, 2u, "a call of __stcs, which may store where no hook sees it ({{.*}}/global_targets.cu:{{[0-9]+}})", false};
// CHECK: ldcc_desc_13_globals[] = {{[{][{]}}"p.x", 0, 0ull, 4ull, false, false}, {"q.x", 1, 0ull, 4ull, false, false}, {"r.x", 2, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK: ldcc_desc_14 = {"particlesInMemory", {{.*}}, "a store through a pointer loaded from memory (a field of what ps points to)",
// CHECK: ldcc_desc_15 = {"particlesCopied", {{.*}}, "a store through a pointer loaded from memory",

// The helper redirects nothing itself: it writes through the pointer it is given.
// CHECK: __device__ void bump__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, int *p, int v) {{[{][{]}} (*::ldcc::rt::store(ldcc_t, &(*p))) += v; } }

// The clone describes g_max in the query, rebases every pointer it receives (read-only ones too)
// and redirects both __device__ variables it uses.
// CHECK: __global__ void __launch_bounds__(256) scale__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, Buffers b, const float *weights, float *scratch, int *result, int n) {
// CHECK-SAME: ::ldcc::rt::describe_symbol(ldcc_ctx.query_out, 0u, &::g_max); } return; }
// CHECK-SAME: ::ldcc::rt::enter(ldcc_ctx, ldcc_bs, ldcc_t, ldcc_dynamic_shared, {{[0-9]+}}u); b.in = ::ldcc::rt::global_ptr(ldcc_t, b.in); b.out = ::ldcc::rt::global_ptr(ldcc_t, b.out); b.flags = ::ldcc::rt::global_ptr(ldcc_t, b.flags); weights = ::ldcc::rt::global_ptr(ldcc_t, weights); scratch = ::ldcc::rt::global_ptr(ldcc_t, scratch); result = ::ldcc::rt::global_ptr(ldcc_t, result);
// CHECK-SAME: auto& g_table = *::ldcc::rt::global_ptr(ldcc_t, &::g_table); auto& g_max = *::ldcc::rt::global_ptr(ldcc_t, &::g_max);
// CHECK: bump__ldcc_checked(ldcc_t, &result[0] - 0 + i, 1);
// CHECK: if (threadIdx.x == 0) (*::ldcc::rt::store(ldcc_t, &(g_max[blockIdx.x % 64]))) = i;

// WARN: global_targets.cu:36: warning: ldcc: kernel 'chase' runs unchecked: a store through a pointer loaded from memory
// WARN: global_targets.cu:{{[0-9]+}}: warning: ldcc: kernel 'fromAddress' runs unchecked: a store through a pointer made from an integer that is not a pointer's address
// WARN: global_targets.cu:{{[0-9]+}}: warning: ldcc: kernel 'libcuAtomic' runs unchecked: a libcu++ atomic (atomic_ref::fetch_add; ldcc checks CUDA's atomic functions, atomicAdd and the others)
// WARN: global_targets.cu:{{[0-9]+}}: warning: ldcc: kernel 'particlesInMemory' runs unchecked: a store through a pointer loaded from memory (a field of what ps points to)
// WARN: global_targets.cu:{{[0-9]+}}: warning: ldcc: kernel 'particlesCopied' runs unchecked: a store through a pointer loaded from memory
