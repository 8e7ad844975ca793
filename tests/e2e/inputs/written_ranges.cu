// Level W leaves a block's global footprint out of a site's checks when the region's executions stored
// nothing to global memory (LaunchCtx::global_store_flags). late_flag runs one block of two warps over
// out[i] = 1000 + i (so a union copy U that was never set to S would show):
//   region 1 (entry to the first barrier) stores only to shared memory: no global check;
//   region 2: thread 0 (warp 0) sets *flag and thread 32 (warp 1) reads it and stores 7 into
//             out[100] if it is set, else into out[200]. In pass 1 warp 1 sees its own copy's flag (0)
//             and stores into out[200]; in pass 2 it sees warp 0's flag and stores into out[100], a
//             byte pass 1 never stored: the check covers both, so both read-write races of warp 1
//             are reported, out[100] and out[200], and nothing else;
//   region 3: every thread stores its own element of out (race-free); out[64] and out[255] keep
//             1064 and 1255.
// shared_flag: thread 0 sets a shared flag and thread 32 stores 9 into out[150] if it sees it set: in
// pass 1 warp 1 sees its own copy (0) and stores nothing to global memory, in pass 2 it sees warp 0's
// flag and stores: the region's check, which pass 1 had left out, compares against U = S and reports
// exactly warp 1's read-write race on out[150].
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

__global__ void shared_flag(int* out) {
  __shared__ int s_flag;
  if (threadIdx.x == 0) s_flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) s_flag = 1;
  if (threadIdx.x == 32 && s_flag) out[150] = 9;
  __syncthreads();
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
  int host[256];
  for (int i = 0; i < 256; ++i) host[i] = 1000 + i;
  cudaMemcpy(out, host, sizeof host, cudaMemcpyHostToDevice);
  late_flag<<<1, 64>>>(flag, out);
  shared_flag<<<1, 64>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("out[0] %d out[63] %d out[64] %d out[255] %d\n", host[0], host[63], host[64], host[255]);
  cudaFree(flag);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
