// Deterministic mode's warp copies of global memory (DESIGN.md section 7): each warp of a block on
// its own copy of the global targets, merged in warp order at every site.
//   pass_along:  race-free, 4 blocks of 8 warps: every thread writes its element, and after each
//                barrier reads one another warp wrote before it (a loop of barriers, two buffers in
//                turn): the deterministic output equals native only if every site merges the warps'
//                writes into what the next region reads.
//   racy_warps:  one block of 4 warps; lane 0 of warp w reads `flag` (through a second pointer to it:
//                through `flag` itself, a load followed by a store of the same element, the launch
//                would update flag in place, whose warps take turns) and writes w + 1 to it, a race
//                between warps. With a copy per warp every warp reads the value at the region's
//                start (0) and the highest warp's write stays (4); when the warps take turns
//                (LDCC_WARP_COPIES=0), warp w reads w.
//   streamed:    race-free, 2 blocks of 2 warps; __stwt stores inside a CUDA header, where no hook
//                sees them, so the warps must take turns on their block's copy; after the barrier each
//                thread reads the other warp's element.
//   claim_slots: one block of 4 warps; lane 0 of each warp takes a slot from a shared counter with
//                atomicAdd and writes its warp there: the slots' order shows in the result, so the
//                warps take turns and `order` is 0 1 2 3 on every run (natively it varies).
// Prints every result.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBlocks = 4, kThreads = 256, kRounds = 5;

// buf holds two buffers of kBlocks * kThreads, written in turn.
__global__ void pass_along(int* buf, int* out) {
  const int n = kBlocks * kThreads, base = blockIdx.x * kThreads, t = threadIdx.x;
  buf[base + t] = base + 7 * t;
  __syncthreads();
  for (int r = 0; r < kRounds; ++r) {
    const int from = r % 2 == 0 ? 0 : n, to = n - from;
    buf[to + base + t] = buf[from + base + (t + 32 * (r + 1) + 1) % kThreads] + r;
    __syncthreads();
  }
  out[base + t] = buf[base + (t + 64) % kThreads] - buf[n + base + (kThreads - 1 - t)];
}

__global__ void racy_warps(int* flag, const int* current, int* seen) {
  const int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) {
    seen[warp] = *current;
    *flag = warp + 1;
  }
}

__device__ void put(int* p, int v) { __stwt(p, v); }

__global__ void streamed(int* buf, int* out) {
  const int g = blockIdx.x * 64 + threadIdx.x;
  put(&buf[g], 3 * g + 1);
  __syncthreads();
  out[g] = buf[g ^ 32];
}

__global__ void claim_slots(int* order) {
  __shared__ int next;
  if (threadIdx.x == 0) next = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) order[atomicAdd(&next, 1)] = threadIdx.x / 32;
}

static void print(const char* name, int* device, int n) {
  std::vector<int> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s:", name);
  for (int v : host) printf(" %d", v);
  printf("\n");
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = kBlocks * kThreads;
  int *buf2, *out, *flag, *order, *seen, *buf, *streamed_out;
  cudaMalloc(&buf2, 2 * n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&seen, 4 * sizeof(int));
  cudaMalloc(&buf, 128 * sizeof(int));
  cudaMalloc(&streamed_out, 128 * sizeof(int));
  cudaMalloc(&order, 4 * sizeof(int));
  cudaMemset(buf2, 0, 2 * n * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMemset(seen, 0xff, 4 * sizeof(int));
  cudaMemset(buf, 0, 128 * sizeof(int));
  pass_along<<<kBlocks, kThreads>>>(buf2, out);
  racy_warps<<<1, 128>>>(flag, flag, seen);
  streamed<<<2, 64>>>(buf, streamed_out);
  claim_slots<<<1, 128>>>(order);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "launch failed\n");
    return 1;
  }
  print("pass_along", out, n);
  print("streamed", streamed_out, 128);
  print("racy_warps flag", flag, 1);
  print("racy_warps seen", seen, 4);
  print("claim_slots order", order, 4);
  return 0;
}
