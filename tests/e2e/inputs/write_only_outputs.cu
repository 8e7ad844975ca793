// Level B without re-execution (GlobalDesc::write_only): blocks that only store into the memory
// they write, each where no other block stores, cannot read one another's writes, so level B runs
// them once. Every launch has 8 blocks of one warp (level W has nothing to compare: level B's
// verdict is the launch's).
//   scatter (race-free): out[i] = 3 * in[i], each block its own 64 elements. No re-execution; its
//     output equals native.
//   same_value (race): block 0 stores the value out[5] already holds, block 7 another one. Only the
//     stores' footprints show the clash (block 0's copy does not change): they overlap, so level B
//     re-executes, and block 0's store of its value over block 7's is reported.
//   shift (race): dst is write-only in the kernel, but the host passes src = buf, dst = buf + 32:
//     block b + 1 reads what block b writes. The runtime sees src pointing into dst's allocation, so
//     level B re-executes and reports the read-write races.
//   tail_reads (race): out is write-only, and the host passes end = out + 256, just past the
//     allocation's end: thread i reads end[-1 - i], which block 7 - b writes. Re-executed, and every
//     element reported (before 1 pointer just past a target was not moved to the copies, so the
//     reads went to the original memory and saw no other block's write).
//   fill_range (race-free): every thread fills a grid-stride slice of [begin, end) through a local
//     pointer compared with end, which is one past the allocation: end must move to the copies with
//     begin, or the loop runs over the wrong range. Its output equals native in both modes.
//   next_input (race-free): dst[i] = src[i] + 2 where src is another allocation that starts just
//     where dst's ends (cudaMalloc packs small allocations; the program finds such a pair). src is
//     that allocation's pointer, not dst's end pointer: moved to dst's copies, it read their padding
//     and the next copy, which gave false races and wrong deterministic output (scan's ping-pong
//     buffers). No re-execution either: src does not point into dst.
// tail_reads' and fill_range's allocations are followed by a freed gap, so their end pointers are
// not another allocation's (of the program: ldcc's own allocations may land there).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kBlocks = 8, kThreads = 32;

__global__ void scatter(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 3 * in[i];
}

__global__ void same_value(int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) out[5] = 0;
  if (blockIdx.x == kBlocks - 1) out[5] = 7;
}

__global__ void shift(const int* src, int* dst) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i] + 1;
}

__global__ void tail_reads(const int* end, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = end[-1 - i] + 1;
}

__global__ void next_input(int* dst, const int* src) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i] + 2;
}
__global__ void fill_range(int* begin, const int* end) {
  for (int* p = begin + blockIdx.x * blockDim.x + threadIdx.x; p < end; p += gridDim.x * blockDim.x)
    *p = int(p - begin) * 5 + 1;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  constexpr int n = kBlocks * kThreads;
  int host_in[n], host_out[n];
  for (int i = 0; i < n; ++i) host_in[i] = (i * 29) % 97;
  int *in = nullptr, *out = nullptr, *zeros = nullptr, *buf = nullptr, *tail = nullptr;
  // After out and tail an allocation freed once the program has made all of its own: none of the
  // program's allocations starts at their ends (ldcc's may: they do not count).
  void* gaps[2] = {};
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, sizeof host_out);
  cudaMalloc(&gaps[0], 4096);
  cudaMalloc(&zeros, sizeof host_out);
  cudaMalloc(&tail, sizeof host_out);
  cudaMalloc(&gaps[1], 4096);
  cudaMalloc(&buf, 2 * sizeof host_in);
  // Two allocations, one starting where the other ends.
  int* pool[8] = {};
  int *dst = nullptr, *src = nullptr;
  for (int*& p : pool) cudaMalloc(&p, sizeof host_in);
  for (int* a : pool)
    for (int* b : pool)
      if (b == a + n) dst = a, src = b;
  if (!dst) {
    fprintf(stderr, "no two allocations where one ends and the next starts\n");
    return 3;
  }
  for (void* gap : gaps) cudaFree(gap);
  cudaMemcpy(src, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof host_out);
  cudaMemset(zeros, 0, sizeof host_out);
  cudaMemset(tail, 0, sizeof host_out);
  cudaMemset(buf, 0, 2 * sizeof host_in);
  scatter<<<kBlocks, kThreads>>>(in, out);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int v : host_out) sum += v;
  printf("scatter %d %d %lld\n", host_out[0], host_out[n - 1], sum);
  same_value<<<kBlocks, kThreads>>>(zeros);
  shift<<<kBlocks, kThreads>>>(buf, buf + kThreads);
  tail_reads<<<kBlocks, kThreads>>>(tail + n, tail);
  next_input<<<kBlocks, kThreads>>>(dst, src);
  cudaMemcpy(host_out, dst, sizeof host_out, cudaMemcpyDeviceToHost);
  sum = 0;
  for (int v : host_out) sum += v;
  printf("next_input %d %d %lld\n", host_out[0], host_out[n - 1], sum);
  fill_range<<<kBlocks, kThreads>>>(out, out + n);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  sum = 0;
  for (int v : host_out) sum += v;
  printf("fill_range %d %d %lld\n", host_out[0], host_out[n - 1], sum);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(zeros);
  cudaFree(tail);
  cudaFree(buf);
  for (int* p : pool) cudaFree(p);
  return 0;
}
