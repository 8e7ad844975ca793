// Level W checks global memory only where a block stored in a region's two executions
// (LaunchCtx::written_ranges). late_flag runs one block of two warps:
//   region 1 (entry to the first barrier) stores only to shared memory;
//   region 2: thread 0 (warp 0) sets *flag and thread 32 (warp 1) reads it and stores 7 into
//             out[100] if it is set, else into out[200]. In pass 1 warp 1 sees its own copy's flag (0)
//             and stores into out[200]; in pass 2 it sees warp 0's flag and stores into out[100], a
//             byte pass 1 never stored: the check covers both, so both read-write races of warp 1
//             are reported, out[100] and out[200], and nothing else;
//   region 3: every thread stores its own element of out (race-free).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void late_flag(int* flag, int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) *flag = 1;
  if (threadIdx.x == 32) out[*flag ? 100 : 200] = 7;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  int *flag = nullptr, *out = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMemset(out, 0, 256 * sizeof(int));
  late_flag<<<1, 64>>>(flag, out);
  int host[256];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("out[0] %d out[63] %d\n", host[0], host[63]);
  cudaFree(flag);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
