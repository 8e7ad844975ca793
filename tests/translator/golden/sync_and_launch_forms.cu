// Synchronizations and launches the checker cannot place, refused or warned about by name, and call
// spellings it rewrites (a 2026-11-30 review of realistic kernels):
// - refused: a sync() of a cooperative_groups::thread_group (it may be the block's: the Programming
//   Guide's reduce_sum), a barrier only a template's instantiation shows (g.sync() of a Group), a named
//   barrier (__barrier_sync), a loop that waits on a volatile flag or an atomic, a surface write;
// - warned: launches through cudaLaunchKernel, through a function pointer, and of a kernel defined in
//   another file;
// - checked: a cooperative-groups tile that lives across a block barrier (a handle no call changes,
//   moved whole), atomics, clock64 and printf spelled with `::` or `std::` (the qualifier goes with the
//   name), cuda_fp16.h's atomicAdd (declared after ldcc's header) and stores of char vectors (uchar4,
//   which NVVM rejected under __isGlobal).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_fp16.h>
#include <surface_types.h>
namespace cg = cooperative_groups;

__device__ int reduceSum(cg::thread_group g, int *temp, int val) {
  const int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    temp[lane] = val;
    g.sync();
    if (lane < i) val += temp[lane + i];
    g.sync();
  }
  return val;
}

__global__ void groupSum(int *sum) {
  __shared__ int temp[256];
  const int v = reduceSum(cg::this_thread_block(), temp, threadIdx.x);
  if (threadIdx.x == 0) *sum = v;
}

template <typename Group>
__device__ void groupSync(Group &g) { g.sync(); }

__global__ void genericSync(float *out) {
  __shared__ float s[256];
  auto block = cg::this_thread_block();
  s[threadIdx.x] = threadIdx.x;
  groupSync(block);
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void namedBarrier(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  __barrier_sync(0);
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void spinWait(volatile int *flags, int *out) {
  if (blockIdx.x > 0)
    while (flags[blockIdx.x - 1] == 0) {
    }
  out[blockIdx.x] = blockIdx.x;
  flags[blockIdx.x] = 1;
}

// A compare-and-swap update written in the condition expects a local the loop assigns: checked. A
// lock's CAS expects a constant only another thread restores: a wait, refused.
__device__ float atomicMinFloat(float *address, float val) {
  int *bits = (int *)address;
  int assumed = *bits, old;
  while ((old = atomicCAS(bits, assumed, __float_as_int(fminf(val, __int_as_float(assumed))))) != assumed) assumed = old;
  return __int_as_float(old);
}

__global__ void casInCondition(const float *in, float *m) { atomicMinFloat(m, in[threadIdx.x]); }

__global__ void casLock(int *lock, int *out) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  out[0] += 1;
  atomicExch(lock, 0);
}

__global__ void surfaceWrite(cudaSurfaceObject_t surface) {
  surf2Dwrite(1.0f, surface, threadIdx.x * 4, blockIdx.x);
}

__global__ void tileAcrossBarrier(const float *in, float *out) {
  __shared__ float partial[8];
  auto block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) out[tile.thread_rank()] = partial[tile.thread_rank() % 8];
}

__device__ float atomicMaxFloat(float *address, float val) {
  int *bits = (int *)address;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = ::atomicCAS(bits, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void qualifiedCalls(const float *in, float *m, long long *t, __half2 *h, uchar4 *pixels) {
  atomicMaxFloat(m, in[threadIdx.x]);
  ::atomicAdd(m + 1, 1.0f);
  t[threadIdx.x] = ::clock64();
  if (threadIdx.x == 0) std::printf("block %d\n", blockIdx.x);
  atomicAdd(&h[threadIdx.x % 4], __halves2half2(__float2half(1.0f), __float2half(2.0f)));
  pixels[threadIdx.x] = make_uchar4(1, 2, 3, 4);
  atomicOr((unsigned *)&pixels[0], 0u);
}

__global__ void elsewhere(float *out);

void run(float *a, int *s, volatile int *flags, cudaSurfaceObject_t surface, long long *t, __half2 *h, uchar4 *px) {
  void *args[] = {&a};
  cudaLaunchKernel((const void *)namedBarrier, dim3(1), dim3(256), args, 0, 0);
  void (*kernel)(float *) = namedBarrier;
  kernel<<<1, 256>>>(a);
  elsewhere<<<1, 256>>>(a);
  groupSum<<<1, 256>>>(s);
  genericSync<<<1, 256>>>(a);
  namedBarrier<<<1, 256>>>(a);
  spinWait<<<4, 1>>>(flags, s);
  surfaceWrite<<<1, 32>>>(surface);
  casInCondition<<<1, 64>>>(a, a);
  casLock<<<4, 1>>>(s, s);
  tileAcrossBarrier<<<1, 256>>>(a, a);
  qualifiedCalls<<<1, 64>>>(a, a, t, h, px);
}

// Waits the condition reaches through a function it calls: a volatile read, and inline PTX's acquire
// load. A wait whose load is in the loop's body is not seen here (the runtime's watchdog stops such a
// launch: e2e stuck_wait).
__device__ bool ready(volatile int *flag) { return *flag != 0; }
__device__ int acquired(const int *flag) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(flag));
  return v;
}
__global__ void helperWait(volatile int *flag, int *out) {
  while (!ready(flag)) {
  }
  out[0] = 1;
}
__global__ void asmWait(const int *flag, int *out) {
  while (acquired(flag) == 0) {
  }
  out[0] = 1;
}

// A helper with no clone (it only reads) still refuses its callers: a wait inside it, inline PTX that
// stores. An endless loop left where an atomic shows the others arrived, and a loop polling an atomic
// that changes nothing (hand-made grid barriers), wait too. A work queue's endless loop is checked: its
// atomic takes the next item, and its exit tests a local; so are loops whose condition or exit takes
// the next item itself (a counter's add ends by the loop's own progress).
__device__ void waitFor(volatile int *flag) {
  while (*flag == 0) {
  }
}
__device__ void storeStreaming(float *p, float v) { asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory"); }
__device__ unsigned arrived;
__global__ void waitInHelper(volatile int *flag, int *out) {
  waitFor(flag);
  out[0] = 1;
}
__global__ void ptxInHelper(float *out) { storeStreaming(out + threadIdx.x, 1.0f); }
__global__ void handBarrier(int *out, unsigned blocks) {
  if (threadIdx.x == 0) {
    atomicAdd(&arrived, 1u);
    for (;;) {
      if (atomicAdd(&arrived, 0u) >= blocks) break;
    }
  }
  out[blockIdx.x] = 1;
}
__global__ void pollingBarrier(int *out, unsigned blocks) {
  unsigned seen = 0;
  while (seen < blocks) seen = atomicOr(&arrived, 0u);
  out[blockIdx.x] = 1;
}
__global__ void workQueue(int *head, const float *in, float *out, int n) {
  while (true) {
    const int item = atomicAdd(head, 1);
    if (item >= n) break;
    out[item] = 2 * in[item];
  }
  int i;
  while ((i = atomicAdd(head + 1, 1)) < n) out[i] += 1.0f;
  for (;;) {
    if (atomicAdd(head + 2, 1) >= n) break;
  }
}

// WARN-DAG: sync_and_launch_forms.cu:31: warning: ldcc: kernel 'groupSum' runs unchecked: it calls reduceSum, which cannot be checked: a sync() of a cooperative_groups::thread_group, which may be the whole block
// WARN-DAG: sync_and_launch_forms.cu:42: warning: ldcc: kernel 'genericSync' runs unchecked: it calls groupSync, which cannot be checked: a barrier that depends on a template parameter (thread_block::sync() in groupSync)
// WARN-DAG: sync_and_launch_forms.cu:49: warning: ldcc: kernel 'namedBarrier' runs unchecked: a named barrier (__barrier_sync)
// WARN-DAG: sync_and_launch_forms.cu:55: warning: ldcc: kernel 'spinWait' runs unchecked: a loop that waits on memory other threads write (a volatile flag or an atomic in its condition, or in a function it calls)
// WARN-DAG: sync_and_launch_forms.cu:73: warning: ldcc: kernel 'casLock' runs unchecked: a loop that waits on memory other threads write (a volatile flag or an atomic in its condition, or in a function it calls)
// WARN-DAG: sync_and_launch_forms.cu:80: warning: ldcc: kernel 'surfaceWrite' runs unchecked: a surface write (surf2Dwrite)
// WARN-DAG: sync_and_launch_forms.cu:118: warning: ldcc: kernel 'namedBarrier' runs unchecked: a launch through cudaLaunchKernel runs unchecked (launch with <<<...>>> to check it)
// WARN-DAG: sync_and_launch_forms.cu:120: warning: ldcc: kernel '(launch)' runs unchecked: a launch through a function pointer runs unchecked
// WARN-DAG: sync_and_launch_forms.cu:121: warning: ldcc: kernel 'elsewhere' runs unchecked: a launch of a kernel not defined in this file runs unchecked (ldcc checks a kernel's launches in the file that defines it)
// WARN-DAG: sync_and_launch_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'helperWait' runs unchecked: a loop that waits on memory other threads write (a volatile flag or an atomic in its condition, or in a function it calls)
// WARN-DAG: sync_and_launch_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'asmWait' runs unchecked: a loop that waits on memory other threads write (a volatile flag or an atomic in its condition, or in a function it calls)
// WARN-DAG: sync_and_launch_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'waitInHelper' runs unchecked: it calls waitFor, which cannot be checked: a loop that waits on memory other threads write (a volatile flag or an atomic in its condition, or in a function it calls)
// WARN-DAG: sync_and_launch_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'ptxInHelper' runs unchecked: it calls storeStreaming, which cannot be checked: inline PTX that stores, synchronizes or does atomics
// WARN-DAG: sync_and_launch_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'handBarrier' runs unchecked: a loop that waits on memory other threads write (an atomic that changes nothing, polled)
// WARN-DAG: sync_and_launch_forms.cu:{{[0-9]+}}: warning: ldcc: kernel 'pollingBarrier' runs unchecked: a loop that waits on memory other threads write (an atomic that changes nothing, polled)
// WARN-NOT: warning

// The work queues are checked (no refusal in their descriptor).
// CHECK: ldcc_desc_{{[0-9]+}} = {"workQueue", "check", ldcc_sites, {{[0-9]+}}u, ldcc_desc_{{[0-9]+}}_targets, {{[0-9]+}}u, ldcc_locals, {{[0-9]+}}u, nullptr, nullptr,

// The CAS update in a condition is hooked in the helper's clone (the kernel is launched checked: below).
// CHECK: while ((old = ::ldcc::rt::AtomicCall{ldcc_t}.atomicCAS(bits, assumed, __float_as_int(fminf(val, __int_as_float(assumed))))) != assumed) assumed = old;

// CHECK-LABEL: tileAcrossBarrier__ldcc_checked(
// CHECK-SAME: cg::thread_block_tile<32> tile__ldcc2 = cg::tiled_partition<32>(block__ldcc1); ::ldcc::rt::type_t<float> v__ldcc3{};
// CHECK-NOT: decltype(tile__ldcc2)
// CHECK-LABEL: atomicMaxFloat__ldcc_checked(
// CHECK: old = ::ldcc::rt::AtomicCall{ldcc_t}.atomicCAS(bits, assumed,
// CHECK-LABEL: qualifiedCalls__ldcc_checked(
// CHECK: ::ldcc::rt::AtomicCall{ldcc_t}.atomicAdd(m + 1, 1.0f);
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(t[threadIdx.x]))) = ::ldcc::rt::ClockCall{ldcc_t}.clock64();
// CHECK-NEXT: if (threadIdx.x == 0) ::ldcc::rt::PrintfCall{ldcc_t}.printf("block %d\n", blockIdx.x);
// CHECK-NEXT: ::ldcc::rt::AtomicCall{ldcc_t}.atomicAdd(&h[threadIdx.x % 4],
// CHECK-NEXT: (*::ldcc::rt::store(ldcc_t, &(pixels[threadIdx.x]))) = make_uchar4(1, 2, 3, 4);
// CHECK-NEXT: ::ldcc::rt::AtomicCall{ldcc_t}.atomicOr((unsigned *)&pixels[0], 0u);
// CHECK: ::ldcc::rt::launch(::ldcc_desc_{{[0-9]+}}, casInCondition, casInCondition__ldcc_checked,
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_{{[0-9]+}}, casLock,
