// Global targets (DESIGN.md sections 2 and 6): the descriptor lists the global memory each kernel
// writes, traced from its stores and atomics back to a pointer parameter, a pointer field of a
// by-value struct parameter, or a __device__ variable; read-only pointers are not listed (never
// copied) but are still rebased, so a read through an alias of a written buffer sees the copy.
// A store through a pointer loaded from memory makes the kernel run unchecked.
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
};

__device__ float *rowFrom(float **rows, int r) { return rows[r]; }

__global__ void returned(Grid g, float *table, float *left, float *right, float *unread, const float *in) {
  *countPtr() = 7;
  atomicAdd(countPtr(), 1);
  rowOf(table, blockIdx.x)[threadIdx.x] = in[threadIdx.x];
  g.at(blockIdx.x, threadIdx.x) = g.weights[threadIdx.x];
  g.row(0)[threadIdx.x] += 1.0f;
  pick(left[threadIdx.x], right[threadIdx.x], threadIdx.x % 2 == 0) = 2.0f;
  (void)unread;
}

__global__ void returnedLoaded(float **rows, float *out) {
  rowFrom(rows, blockIdx.x)[threadIdx.x] = 1.0f;
  out[0] = 2.0f;
}

void run(Buffers b, const float *w, float *s, int *r, int n, int **rows, int *out, float *f, Pair *pairs) {
  scale<<<(n + 255) / 256, 256>>>(b, w, s, r, n);
  chase<<<4, 32>>>(rows, out);
  streamed<<<1, 64>>>(f, 2.0f);
  polar<<<1, 64>>>(f, 2.0f);
  constructed<<<1, 64>>>(pairs, 1.0f);
  returned<<<2, 32>>>(Grid{f, f, 32}, f, f, f, f, f);
  returnedLoaded<<<2, 32>>>((float **)rows, f);
}

// scale writes b.out (offset 8 in Buffers), result (through the helper) and g_max; not b.in,
// b.flags, weights, scratch or g_table.
// CHECK: ldcc_desc_0_globals[] = {{[{][{]}}"b.out", 0, 8ull, 4ull, false, false}, {"result", 3, 0ull, 4ull, false, false}, {"g_max", -1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_0 = {"scale", {{.*}}, nullptr, nullptr, ldcc_desc_0_globals, 3u, nullptr, false};
// chase stores through a pointer it loaded from memory: unchecked, nothing listed.
// CHECK: ldcc_desc_1_globals[] = {{[{][{]}}nullptr, 0, 0ull, 0ull, false, false}};
// CHECK-NEXT: ldcc_desc_1 = {"chase", {{.*}}, "a store through a pointer loaded from memory", "{{.*}}/global_targets.cu:32", ldcc_desc_1_globals, 0u, nullptr, false};
// The last field, why deterministic mode runs the warps in turn: a store no hook sees (through a
// helper), then none (sincosf writes locals).
// CHECK: ldcc_desc_2 = {"streamed", {{.*}}, nullptr, nullptr, ldcc_desc_2_globals, {{[0-9]+}}u, "a call of __stwt, which may store where no hook sees it ({{.*}}/global_targets.cu:38)", false};
// CHECK: ldcc_desc_3 = {"polar", {{.*}}, nullptr, nullptr, ldcc_desc_3_globals, 1u, nullptr, false};
// CHECK: ldcc_desc_4 = {"constructed", {{.*}}, nullptr, nullptr, ldcc_desc_4_globals, {{[0-9]+}}u, "a placement new, whose constructor stores where no hook sees it ({{.*}}/global_targets.cu:{{[0-9]+}})", false};
// returned writes g.data (through the member functions: not g.weights), table (through rowOf), left
// and right (through pick's reference) and g_count (through countPtr, a store and an atomic); not
// unread. returnedLoaded stores through a pointer its helper read from memory: unchecked.
// CHECK: ldcc_desc_5_globals[] = {{[{][{]}}"g.data", 0, 0ull, 4ull, false, false}, {"table", 1, 0ull, 4ull, false, false}, {"left", 2, 0ull, 4ull, false, false}, {"right", 3, 0ull, 4ull, false, false}, {"g_count", -1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
// CHECK: ldcc_desc_6 = {"returnedLoaded", {{.*}}, "a store through a pointer loaded from memory", "{{.*}}/global_targets.cu:{{[0-9]+}}", ldcc_desc_6_globals, 0u, nullptr, false};

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

// WARN: global_targets.cu:32: warning: ldcc: kernel 'chase' runs unchecked: a store through a pointer loaded from memory
