// Write-only pointer parameters (GlobalDesc::write_only, translator/rewrite/WriteOnlyParams.h): a
// parameter every use of which is the base of a plain assignment's left-hand side; updated in place
// (GlobalDesc::updated_in_place): every use the base of a plain or compound assignment's left-hand
// side or of ++/--, or of a load the thread follows with a store of the same element, at least one
// not plain. Level B leaves out its re-execution for blocks that store
// only into such memory, each where no other stores, so any other read of the memory, or a way to
// read memory the runtime cannot see, must leave both false.
#include <cuda_runtime.h>

struct Vec { float x, y; };
struct Table { const float *values; };  // a pointer inside a by-value parameter

__device__ float g_scale;  // a __device__ variable: may be a written buffer's storage
__device__ void keep(float *p, float v) { p[0] = v; }

// out, pairs, firsts, last: stores only (a struct assignment, a field, through *, through ->).
// sum: `+=` reads only what it stores (updated in place). mixed: stored and loaded. passed: handed to a helper. moved: arithmetic on the
// parameter itself. chained: the assignment's value is read.
__global__ void shapes(const float *in, float *out, float4 *pairs, Vec *firsts, Vec *last, float *sum, float *mixed,
                       float *passed, float *moved, float *chained, float *other) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  pairs[i] = make_float4(in[i], 0.f, 0.f, 1.f);
  firsts[i].x = in[i];
  if (i == 0) *out = 1.f;
  if (i == 0) last->y = 2.f;
  sum[0] += in[i];
  mixed[i] = in[i];
  other[i] = mixed[i ^ 1];
  keep(passed + i, in[i]);
  moved += 1;
  moved[i] = in[i];
  other[i] = chained[i] = in[i];
}
// CHECK: ldcc_desc_0_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, true, false}, {"pairs", 2, 0ull, 16ull, true, false}, {"firsts", 3, 0ull, 8ull, true, false}, {"last", 4, 0ull, 8ull, true, false}, {"sum", 5, 0ull, 4ull, false, true}, {"mixed", 6, 0ull, 4ull, false, false}, {"passed", 7, 0ull, 4ull, false, false}, {"moved", 8, 0ull, 4ull, false, false}, {"chained", 9, 0ull, 4ull, false, false}, {"other", 10, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};

// Reads the runtime could not attribute to a pointer argument: none is write-only.
__global__ void through_struct(Table t, float *out) { out[threadIdx.x] = t.values[threadIdx.x]; }
// CHECK: ldcc_desc_1_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
__global__ void through_device_variable(float *out) { out[threadIdx.x] = g_scale; }
// CHECK: ldcc_desc_2_globals[] = {{[{][{]}}"out", 0, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
__global__ void through_loaded_pointer(const float *const *rows, float *out) { out[threadIdx.x] = rows[0][threadIdx.x]; }
// CHECK: ldcc_desc_3_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
__global__ void through_texture(cudaTextureObject_t tex, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(tex, threadIdx.x);
}
// CHECK: ldcc_desc_4_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
__global__ void through_integer(unsigned long long address, float *out) {
  out[threadIdx.x] = reinterpret_cast<const float *>(address)[threadIdx.x];
}
// CHECK: ldcc_desc_5_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};
__device__ float loadPtx(const float *p) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}
__global__ void through_ptx(const float *in, float *out) { out[threadIdx.x] = loadPtx(in + threadIdx.x); }
// CHECK: ldcc_desc_6_globals[] = {{[{][{]}}"out", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};

// PTX without address operands (the lane id) reads no memory: out stays write-only.
__global__ void lane_ids(float *out) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = float(lane);
}
// CHECK: ldcc_desc_7_globals[] = {{[{][{]}}"out", 0, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};

// Updates in place: counts (++ and --, before and after), acc (-= and *= on a field, and a plain
// store), scaled (`+=` through *). Not: used (the update's value is read), reread (updated, then
// loaded), helped (updated, and passed to a helper).
__global__ void updates(const float *in, int *counts, Vec *acc, float *scaled, float *used, float *reread,
                        float *helped, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  counts[i]++;
  ++counts[i];
  --counts[i];
  counts[i]--;
  acc[i].x -= in[i];
  acc[i].y *= 2.f;
  acc[i] = Vec{1.f, 2.f};
  *scaled += in[i];
  out[i] = (used[i] += in[i]);
  reread[i] += 1.f;
  out[i] = reread[i];
  helped[i] += 1.f;
  keep(helped, 0.f);
}
// CHECK: ldcc_desc_8_globals[] = {{[{][{]}}"counts", 1, 0ull, 4ull, false, true}, {"acc", 2, 0ull, 8ull, false, true}, {"scaled", 3, 0ull, 4ull, false, true}, {"used", 4, 0ull, 4ull, false, false}, {"reread", 5, 0ull, 4ull, false, false}, {"helped", 6, 0ull, 4ull, false, false}, {"out", 7, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};

// A template: `p[i] += t` may call a user operator found when T is known (one reading p[i + 1], say),
// so neither kind is marked, not even for out's plain store. Instantiated with such an operator, which
// also stores, the template runs unchecked (golden test template_instantiation_calls); with float,
// it is checked and still gets no marks.
namespace user {
struct Shift {};
__device__ float &operator+=(float &a, Shift) { return a = a + (&a)[1]; }
}  // namespace user
template <typename T>
__global__ void templated(float *p, float *out, T t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] += t;
  out[i] = 1.f;
}
template <typename T>
__global__ void templatedPlain(float *p, float *out, T t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] += t;
  out[i] = 1.f;
}
// CHECK: ldcc_desc_9 = {"templated", "check", {{.*}}, "a call that its template arguments resolve to user::operator+=, which synchronizes or writes memory", "{{.*}}/write_only_params.cu:101", ldcc_desc_9_globals, 0u, nullptr, false};
// CHECK: ldcc_desc_10_globals[] = {{[{][{]}}"p", 0, 0ull, 4ull, false, false}, {"out", 1, 0ull, 4ull, false, false}, {nullptr, 0, 0ull, 0ull, false, false}};

// Loads of an element the thread then stores (updated in place): labels (kmeans' membership: compared,
// a shared counter bumped, then stored), doubled (in the storing statement itself), lanes (indexed by
// threadIdx.x), rows (a field, through a local index). Not: cond (the store may not follow), stepped
// (the index changes between), aliased (the index has its address taken), early (a return between),
// called (a user function between), other_field (another field is stored), indirect (the index is
// loaded from memory), late (loaded after the store), lambda (loaded in a lambda).
__global__ void loads_then_stores(const float *in, int *labels, float *doubled, float *lanes, Vec *rows, float *cond,
                                  float *stepped, float *aliased, float *early, float *called, Vec *other_field,
                                  float *indirect, const int *ids, float *late, float *lambda, int *counts) {
  __shared__ int s_changed;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = int(in[i]);
  if (labels[i] != c) atomicAdd(&s_changed, 1);
  labels[i] = c;
  doubled[i] = doubled[i] * 2.f;
  lanes[threadIdx.x] = lanes[threadIdx.x] + in[i];
  int r = i / 2;
  const float x = rows[r].x;
  rows[r].x = x + 1.f;
  const float v = cond[i];
  if (v > 0.f) cond[i] = 0.f;
  int k = i;
  float sum = 0.f;
  for (int n = 0; n < 2; ++n) {
    sum += stepped[k];
    k += 1;
  }
  stepped[k] = sum;
  int a = i;
  int *pa = &a;
  const float kept = aliased[a];
  *pa = 0;
  aliased[a] = kept;
  const float e = early[i];
  if (e < 0.f) return;
  early[i] = e;
  const float h = called[i];
  keep(&sum, h);
  called[i] = h;
  other_field[i].y = other_field[i].x;
  indirect[ids[i]] = indirect[ids[i]] + 1.f;
  late[i] = 1.f;
  sum += late[i];
  auto get = [&] { return lambda[i]; };
  lambda[i] = get();
  counts[blockIdx.x] = s_changed + int(sum);
}
// CHECK: ldcc_desc_11_globals[] = {{[{][{]}}"labels", 1, 0ull, 4ull, false, true}, {"doubled", 2, 0ull, 4ull, false, true}, {"lanes", 3, 0ull, 4ull, false, true}, {"rows", 4, 0ull, 8ull, false, true}, {"cond", 5, 0ull, 4ull, false, false}, {"stepped", 6, 0ull, 4ull, false, false}, {"aliased", 7, 0ull, 4ull, false, false}, {"early", 8, 0ull, 4ull, false, false}, {"called", 9, 0ull, 4ull, false, false}, {"other_field", 10, 0ull, 8ull, false, false}, {"indirect", 11, 0ull, 4ull, false, false}, {"late", 13, 0ull, 4ull, false, false}, {"lambda", 14, 0ull, 4ull, false, false}, {"counts", 15, 0ull, 4ull, true, false}, {nullptr, 0, 0ull, 0ull, false, false}};

// Not updated in place either: captured (a lambda called between changes the index), pointed (the
// element's address loads memory: *(pointed + pointed[0]) may be another element at the store; nor is
// pointer arithmetic on a parameter taken for an element). kept is: indexed by a local no lambda
// changes.
__global__ void loads_then_stores_apart(int *captured, int *pointed, int *kept) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  auto bump = [&] { ++j; };
  const int x = captured[j];
  bump();
  captured[j] = x;
  const int y = *(pointed + pointed[0]);
  pointed[0] = 5;
  *(pointed + pointed[0]) = y;
  pointed[0] = 5;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int z = kept[k];
  kept[k] = z + 1;
}
// CHECK: ldcc_desc_12_globals[] = {{[{][{]}}"captured", 0, 0ull, 4ull, false, false}, {"pointed", 1, 0ull, 4ull, false, false}, {"kept", 2, 0ull, 4ull, false, true}, {nullptr, 0, 0ull, 0ull, false, false}};

// A user destructor (a local's, at the end of its scope) or constructor between a load and its store
// may end the thread there (inline PTX `exit`), so that it never stores what it read: destroyed and
// constructed are not updated in place. A trivially constructed and destroyed local between does not
// matter: plain is.
struct Quit {
  __device__ ~Quit() {
    if (threadIdx.x & 1) asm volatile("exit;");
  }
};
struct Checked {
  int n;
  __device__ explicit Checked(int v) : n(v) {
    if (v < 0) asm volatile("exit;");
  }
};
struct Pair { int a, b; };
__global__ void loads_then_stores_constructed(int *destroyed, int *constructed, int *plain) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = destroyed[i];
  { Quit q; }
  destroyed[i] = v + 1;
  const int w = constructed[i];
  Checked c(w);
  constructed[i] = c.n + 1;
  const int u = plain[i];
  Pair pair{u, 1};
  plain[i] = pair.a + pair.b;
}
// CHECK: ldcc_desc_13_globals[] = {{[{][{]}}"destroyed", 0, 0ull, 4ull, false, false}, {"constructed", 1, 0ull, 4ull, false, false}, {"plain", 2, 0ull, 4ull, false, true}, {nullptr, 0, 0ull, 0ull, false, false}};

void run(const float *in, float *f, float4 *p4, Vec *v, Table t, const float *const *rows, cudaTextureObject_t tex) {
  shapes<<<1, 64>>>(in, f, p4, v, v, f, f, f, f, f, f);
  through_struct<<<1, 64>>>(t, f);
  through_device_variable<<<1, 64>>>(f);
  through_loaded_pointer<<<1, 64>>>(rows, f);
  through_texture<<<1, 64>>>(tex, f);
  through_integer<<<1, 64>>>(0ull, f);
  through_ptx<<<1, 64>>>(in, f);
  lane_ids<<<1, 64>>>(f);
  updates<<<1, 64>>>(in, nullptr, v, f, f, f, f, f);
  templated<<<1, 64>>>(f, f, user::Shift{});
  templatedPlain<<<1, 64>>>(f, f, 1.f);
  loads_then_stores<<<1, 64>>>(in, nullptr, f, f, v, f, f, f, f, f, v, f, nullptr, f, f, nullptr);
  loads_then_stores_apart<<<1, 64>>>(nullptr, nullptr, nullptr);
  loads_then_stores_constructed<<<1, 64>>>(nullptr, nullptr, nullptr);
}

// WARN: write_only_params.cu:101: warning: ldcc: kernel 'templated' runs unchecked: a call that its template arguments resolve to user::operator+=, which synchronizes or writes memory
// WARN-NOT: warning
