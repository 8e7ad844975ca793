// Locals that live across barriers, in forms the translator once broke (translator/rewrite,
// planLocals: every such local is hoisted to function scope or, when invariant, moved there whole):
//   bindings: structured bindings: of a struct by value, of an array, by reference into shared
//             memory (written through it), and of a tuple-like type, each used after a later barrier;
//   fetched:  `const int x = __ldcg(buf + j)` after a barrier: a library call given a pointer reads
//             memory, so it is not invariant: moved to the kernel's entry it read buf before the
//             other warp's stores.
// All race-free: the checked output must equal native's, in check and deterministic mode.
#include <cstdio>
#include <cuda/std/utility>
#include <cuda_runtime.h>

struct Loc {
  int a;
  int b;
};

__global__ void bindings(const Loc* locs, int* out) {
  __shared__ Loc pairs[64];
  __shared__ int s[64];
  const int i = threadIdx.x;
  pairs[i] = {i, -i};
  s[i] = i;
  __syncthreads();
  auto [a, b] = locs[i];
  int two[2] = {s[(i + 1) % 64], s[(i + 2) % 64]};
  auto [first, second] = two;
  auto& [pa, pb] = pairs[i];
  pa += a;
  auto [p, q] = cuda::std::pair<int, int>(s[(i + 3) % 64], 5 * i);
  __syncthreads();
  s[i] = a * b + first - second + pa + pb;
  __syncthreads();
  out[i] = s[(i + 32) % 64] + a - b + pa + p * q;
}

__global__ void fetched(int* buf, int* out) {
  const int i = threadIdx.x;
  buf[i] = 3 * i + 1;
  __syncthreads();
  const int x = __ldcg(buf + (i ^ 32));
  __syncthreads();
  out[i] = x;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  Loc host_locs[64];
  for (int i = 0; i < 64; ++i) host_locs[i] = {i + 1, 2 * i + 3};
  Loc* locs = nullptr;
  int *out = nullptr, *buf = nullptr;
  cudaMalloc(&locs, sizeof host_locs);
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&buf, 64 * sizeof(int));
  cudaMemcpy(locs, host_locs, sizeof host_locs, cudaMemcpyHostToDevice);
  cudaMemset(buf, 0, 64 * sizeof(int));
  int host[64];
  bindings<<<1, 64>>>(locs, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) printf("%d%c", host[i], i % 16 == 15 ? '\n' : ' ');
  fetched<<<1, 64>>>(buf, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) printf("%d%c", host[i], i % 16 == 15 ? '\n' : ' ');
  cudaFree(locs);
  cudaFree(out);
  cudaFree(buf);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
