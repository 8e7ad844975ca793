// The watchdog (ldruntime/src/watchdog.h). handoff's block 1 waits for a flag block 0 raises, read
// through inline PTX in a helper in the loop's body, which the translator's spin-wait refusal (a
// volatile read or an atomic in a loop's condition, or in a function it calls) does not see: natively the
// wait ends, but a checked or deterministic launch runs each block on its own copy of the memory it
// writes, so block 1 waits on a copy no one raises. The runtime must stop the program with an error
// naming the kernel (exit code 124) rather than hang.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int loadFlag(const int* p) {
  int v;
  asm volatile("ld.volatile.global.s32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__global__ void handoff(int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    out[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    int seen = 0;
    do {
      seen = loadFlag(flag);
    } while (seen == 0);
    __threadfence();
    out[1] = out[0] + 1;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  int *flag = nullptr, *out = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMemset(out, 0, 2 * sizeof(int));
  handoff<<<2, 32>>>(flag, out);
  int host[2] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("out %d %d\n", host[0], host[1]);
  cudaFree(flag);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
