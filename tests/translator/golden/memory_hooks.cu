// Store, atomic and printf hooks. Stores through pointers and to __device__
// variables are wrapped in ::ldcc::rt::store so the block can undo them before a
// re-execution; stores to locals and to privatized shared variables are not.
// Atomics go through ::ldcc::rt::AtomicCall (logged, replayed), printf through
// ::ldcc::rt::PrintfCall (first execution only). A __device__ helper that writes
// memory gets a checked clone and its call is redirected; a pure one does not.
#include <cstdio>

struct Stats {
  int hits;
  float sum;
};

__device__ int g_total;

__device__ float square(float x) { return x * x; }

__device__ void put(float *p, float v) {
  *p = v;
}

__global__ void histogram(const int *keys, int n, unsigned *bins, Stats *stats, float *out) {
  __shared__ unsigned local[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  local[threadIdx.x % 16] = 0;
  int key = i < n ? keys[i] : 0;
  key &= 15;
  atomicAdd(&local[key], 1u);
  unsigned old = atomicAdd(&bins[key], 1u);
  atomicMax(&g_total, key);
  out[i] = float(old);
  out[i] += 1.0f;
  ++out[i];
  stats->hits = 1;
  stats[1].sum = square(2.0f);
  *(out + i) *= 2.0f;
  g_total = 3;
  put(out + i, 4.0f);
  if (i == 0) printf("block %d key %d\n", blockIdx.x, key);
}

void run(const int *keys, int n, unsigned *bins, Stats *stats, float *out) {
  histogram<<<(n + 255) / 256, 256>>>(keys, n, bins, stats, out);
}

// No barrier: only the entry and exit sites (the table is the whole file's: the other kernels' follow).
// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/memory_hooks.cu", 22, 17, "kernel entry"}, {"{{.*}}/memory_hooks.cu", 40, 1, "kernel exit"}, {"{{.*}}/memory_hooks.cu", {{[0-9]+}}, 17, "kernel entry"}, {{.*}}};
// Its last fields: the value of an atomicAdd is used, so deterministic mode runs its warps in turn;
// it makes atomics.
// CHECK: ldcc_desc_0 = {"histogram", "check", ldcc_sites, 13u, ldcc_desc_0_targets, 1u, ldcc_locals, 0u, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, "the order of atomicAdds shows in the results ({{.*}}/memory_hooks.cu:29)", true};
// Integer atomics whose values are discarded end the same in any order, one kind per variable; two
// kinds on one variable do not, nor does an exchange.
// CHECK: ldcc_desc_1 = {"tally", {{.*}}, ldcc_desc_1_globals, 3u, nullptr, true};
// CHECK: ldcc_desc_2 = {"mixed", {{.*}}, ldcc_desc_2_globals, 1u, "different atomic operations (atomicAdd, atomicMin) on one variable ({{.*}}/memory_hooks.cu:{{[0-9]+}})", true};
// CHECK: ldcc_desc_3 = {"lastWriter", {{.*}}, ldcc_desc_3_globals, 1u, "the order of atomicExchs shows in the results ({{.*}}/memory_hooks.cu:{{[0-9]+}})", true};
// An address whose variable is unknown (a or b) may be the variable another kind of atomic touches.
// CHECK: ldcc_desc_4 = {"mixedUnknown", {{.*}}, ldcc_desc_4_globals, 1u, "different atomic operations (atomicAdd, atomicMax) on one variable ({{.*}}/memory_hooks.cu:{{[0-9]+}})", true};

// The pure helper is not cloned; the writing one is, with the store hooked.
// CHECK: __device__ float square(float x) { return x * x; }
// CHECK-NOT: square__ldcc_checked
// CHECK: __device__ void put(float *p, float v) {
// CHECK-NEXT:   *p = v;
// CHECK-NEXT: }
// CHECK-NEXT: #line 18 "{{.*}}/memory_hooks.cu"
// CHECK-NEXT: __device__ void put__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, float *p, float v) {
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(*p))) = v;
// CHECK-NEXT: }
// CHECK-NEXT: #line 20 "{{.*}}/memory_hooks.cu"
// CHECK: __device__ void put__ldcc_blocks(::ldcc::rt::BlockRunState& ldcc_t, float *p, float v) {{[{][{]}}
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(*p))) = v;

// CHECK: #line 22 "{{.*}}/memory_hooks.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(256) histogram__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const int *keys, int n, unsigned *bins, Stats *stats, float *out) {
// CHECK-SAME: ldcc_shared_type_0& local = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]);
// CHECK-NEXT: {{^ $}}
// Locals and the privatized shared array: plain stores.
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   local[threadIdx.x % 16] = 0;
// CHECK-NEXT:   int key = i < n ? keys[i] : 0;
// CHECK-NEXT:   key &= 15;
// Atomics, on shared and global memory and on a __device__ variable.
// CHECK-NEXT:   ::ldcc::rt::AtomicCall{ldcc_t}.atomicAdd(&local[key], 1u);
// CHECK-NEXT:   unsigned old = ::ldcc::rt::AtomicCall{ldcc_t}.atomicAdd(&bins[key], 1u);
// CHECK-NEXT:   ::ldcc::rt::AtomicCall{ldcc_t}.atomicMax(&g_total, key);
// Stores through pointers: assignment, compound assignment, increment, member, deref.
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[i]))) = float(old);
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[i]))) += 1.0f;
// CHECK-NEXT:   ++(*::ldcc::rt::store(ldcc_t, &(out[i])));
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(stats->hits))) = 1;
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(stats[1].sum))) = square(2.0f);
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(*(out + i)))) *= 2.0f;
// A __device__ variable.
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(g_total))) = 3;
// The writing helper's clone, with the thread's state.
// CHECK-NEXT:   put__ldcc_checked(ldcc_t, out + i, 4.0f);
// CHECK-NEXT:   if (i == 0) ::ldcc::rt::PrintfCall{ldcc_t}.printf("block %d key %d\n", blockIdx.x, key);
// CHECK-NEXT: } ldcc_exit:
// CHECK-NEXT: #line 40 "{{.*}}/memory_hooks.cu"
// Level B's clone hooks the same stores, atomics and printf, and calls the helper's level B clone.
// CHECK: histogram__ldcc_blocks(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const int *keys, int n, unsigned *bins, Stats *stats, float *out) {
// CHECK-SAME: ::ldcc::rt::BlockRunState ldcc_t;
// CHECK-SAME: auto& g_total = *::ldcc::rt::global_ptr(ldcc_t, &::g_total);
// CHECK:   unsigned old = ::ldcc::rt::AtomicCall{ldcc_t}.atomicAdd(&bins[key], 1u);
// CHECK:   (*::ldcc::rt::store(ldcc_t, &(g_total))) = 3;
// CHECK-NEXT:   put__ldcc_blocks(ldcc_t, out + i, 4.0f);
// CHECK-NEXT:   if (i == 0) ::ldcc::rt::PrintfCall{ldcc_t}.printf("block %d key %d\n", blockIdx.x, key);
// CHECK-NEXT: } }

// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, histogram, histogram__ldcc_checked, histogram__ldcc_checked_in_shared, histogram__ldcc_blocks, (n + 255) / 256, 256, 0, 0, keys, n, bins, stats, out);

__global__ void tally(const int *keys, unsigned *bins, int *top, unsigned *seen) {
  const int key = keys[threadIdx.x] & 15;
  atomicAdd(&bins[key], 1u);
  if (key > 3) (void)atomicMax(top, key);
  for (int k = 0; k < 2; ++k) atomicOr(&seen[k], 1u << key);
}

__global__ void mixed(unsigned *h) {
  atomicAdd(&h[threadIdx.x % 4], 1u);
  atomicMin(h + 1, 9u);
}

__global__ void lastWriter(int *slot) { atomicExch(slot, int(threadIdx.x)); }

__global__ void mixedUnknown(unsigned *h, int c) {
  __shared__ unsigned a[4], b[4];
  atomicAdd(&a[0], 1u);
  atomicMax(c ? &a[1] : &b[1], 5u);
  h[threadIdx.x] = a[0];
}

// Warp-synchronous reductions store through volatile pointers, into shared and global memory: the
// store hook takes them (the translated file compiles; it did not before the hook converted the
// address itself).
__global__ void warpSum(const float *in, volatile float *out, volatile int *done) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32) {
    volatile float *v = s;
    v[threadIdx.x] += v[threadIdx.x + 32];
    v[threadIdx.x] += v[threadIdx.x + 16];
    if (threadIdx.x == 0) out[blockIdx.x] = v[0];
  }
  if (threadIdx.x == 0) *done = 1;
}
// CHECK: __global__ void {{.*}}warpSum__ldcc_checked(
// CHECK: (*::ldcc::rt::store(ldcc_t, &(v[threadIdx.x]))) += v[threadIdx.x + 32];
// CHECK: if (threadIdx.x == 0) (*::ldcc::rt::store(ldcc_t, &(out[blockIdx.x]))) = v[0];
// CHECK: if (threadIdx.x == 0) (*::ldcc::rt::store(ldcc_t, &(*done))) = 1;
