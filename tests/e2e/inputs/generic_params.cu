// Kernel parameters whose type is a template parameter (`P echo`) and parameter packs, only read,
// pointing into memory the kernel writes through another parameter: the clone rebases them to the
// unit's copy as it rebases the pointer parameters (translator: KernelGlobals::genericParams).
//   echoOwn, echoConst (`const P`), echoPack, echoConstPack (`const Ps...`, which the translation
//     makes `Ps...`): each thread reads back, through the alias, what it has just stored: the
//     output equals native's in check and deterministic mode (read from the program's memory, the
//     echoes were the zeros there before);
//   genericAliased: warp 1 loads in[0], which warp 0 stores in the same region: exactly warp 1's
//     read-write race on out[4] (read from the program's memory in both executions, it went unseen).
#include <cstdio>
#include <cuda_runtime.h>

template <typename P>
__global__ void echoOwn(float* out, P echo) {
  const int i = threadIdx.x;
  out[i] = 2.0f * i;
  const float v = echo[i];
  __syncthreads();
  out[blockDim.x + i] = v;
}

template <typename P>
__global__ void echoConst(float* out, const P echo) {
  const int i = threadIdx.x;
  out[i] = 3.0f * i;
  const float v = echo[i] + 1.0f;
  __syncthreads();
  out[blockDim.x + i] = v;
}

template <typename... Ps>
__global__ void echoPack(float* out, Ps... srcs) {
  const int i = threadIdx.x;
  out[i] = 1.0f + i;
  const float v = (0.0f + ... + srcs[i]);
  __syncthreads();
  out[blockDim.x + i] = v;
}

template <typename... Ps>
__global__ void echoConstPack(float* out, const Ps... srcs) {
  const int i = threadIdx.x;
  out[i] = 4.0f + i;
  const float v = (1.0f + ... + srcs[i]);
  __syncthreads();
  out[blockDim.x + i] = v;
}

template <typename P>
__global__ void genericAliased(P in, int* out) {
  if (threadIdx.x == 0) out[0] = 7;
  if (threadIdx.x == 32) out[4] = in[0];
  __syncthreads();
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int threads = 64;
  float host[2 * threads];
  float* out = nullptr;
  int* cells = nullptr;
  cudaMalloc(&out, sizeof host);
  cudaMalloc(&cells, 8 * sizeof(int));
  cudaMemset(out, 0, sizeof host);
  cudaMemset(cells, 0, 8 * sizeof(int));
  echoOwn<<<1, threads>>>(out, static_cast<const float*>(out));
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * threads; i += 4) printf("%g%c", host[i], (i / 4) % 16 == 15 ? '\n' : ' ');
  cudaMemset(out, 0, sizeof host);
  echoConst<<<1, threads>>>(out, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * threads; i += 4) printf("%g%c", host[i], (i / 4) % 16 == 15 ? '\n' : ' ');
  cudaMemset(out, 0, sizeof host);
  echoPack<<<1, threads>>>(out, static_cast<const float*>(out), out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * threads; i += 4) printf("%g%c", host[i], (i / 4) % 16 == 15 ? '\n' : ' ');
  cudaMemset(out, 0, sizeof host);
  echoConstPack<<<1, threads>>>(out, out, static_cast<const float*>(out));
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * threads; i += 4) printf("%g%c", host[i], (i / 4) % 16 == 15 ? '\n' : ' ');
  genericAliased<<<1, threads>>>(static_cast<const int*>(cells), cells);
  cudaFree(out);
  cudaFree(cells);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
