// Global targets the translator traces (translator/rewrite/GlobalTargets.cpp) through what helpers
// return and through a struct parameter's array of pointers. Before 2026-11-30 a `__device__` variable
// reached only through a helper's returned pointer was not a target, so its stores went to the
// program's memory unchecked, and a store through `o.out[k]` refused the kernel.
//   throughHelpers: race-free, 2 blocks of 2 warps. Each thread writes its element of a row that
//                   rowOf returns and of a Grid through Grid::at's reference, one of two buffers that
//                   pick chooses, and adds 1 to g_total through countPtr() with atomicAdd; after the
//                   barrier it reads the other warp's elements through the same helpers.
//   pointerArrays:  race-free, 2 blocks of 2 warps; each thread writes its element of the three
//                   outputs of an Outs, from the inputs of its array of two read-only pointers; after
//                   a barrier it reads the other warp's element of the next output, and after another
//                   adds it to its own.
//   particles:      race-free, 2 blocks of 2 warps; a helper taking the struct parameter by reference
//                   moves each thread's particle, another reads through a pointer to it; after the
//                   barrier each thread reads the other warp's position.
//   racyCopy:       2 blocks of one thread; each copies its row of src over dst[0..15] with memcpy, a
//                   store no hook sees (its destination a target since 2026-11-30): exactly one
//                   write-write race between the blocks, on dst[0..15]. dst is not printed.
//   racyCount:      one block of 2 warps; lane 0 of each warp stores its warp + 1 through countPtr():
//                   exactly one write-write race, on g_count, between warps 0 and 1.
// Prints every result; racyCount's value is the last line (it depends on the order of the warps).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ int g_total;
__device__ int g_count;

__device__ int* totalPtr() { return &g_total; }
__device__ int* countPtr() { return &g_count; }
__device__ float* rowOf(float* base, int r) { return base + r * 64; }
__device__ float& pick(float& a, float& b, bool first) { return first ? a : b; }

struct Grid {
  float* data;
  int width;
  __device__ float& at(int r, int c) { return data[r * width + c]; }
};

__global__ void throughHelpers(Grid g, float* table, float* left, float* right, const float* in, float* out) {
  const int b = blockIdx.x, t = threadIdx.x, peer = (t + 32) % 64;
  rowOf(table, b)[t] = in[b * 64 + t] * 3.0f;
  g.at(b, t) = in[b * 64 + t] + 1.0f;
  pick(left[b * 64 + t], right[b * 64 + t], t % 2 == 0) = float(t);
  atomicAdd(totalPtr(), 1);
  __syncthreads();
  out[b * 64 + t] = rowOf(table, b)[peer] + g.at(b, peer) + pick(left[b * 64 + peer], right[b * 64 + peer], peer % 2 == 0);
}

struct Outs {
  float* out[3];
  const float* in[2];
};

__global__ void pointerArrays(Outs o) {
  const int g = blockIdx.x * 64 + threadIdx.x, peer = blockIdx.x * 64 + (threadIdx.x + 32) % 64;
  for (int k = 0; k < 3; ++k) o.out[k][g] = o.in[k % 2][g] * float(k + 1);
  __syncthreads();
  float next[3];
  for (int k = 0; k < 3; ++k) next[k] = o.out[(k + 1) % 3][peer];
  __syncthreads();
  for (int k = 0; k < 3; ++k) o.out[k][g] += next[k];
}

struct Particles {
  float* x;
  const float* v;
};

__device__ void advance(Particles& p, int i, float dt) { p.x[i] += p.v[i] * dt; }
__device__ float speedOf(const Particles* p, int i) { return p->v[i]; }

__global__ void particles(Particles p, float* out) {
  const int g = blockIdx.x * 64 + threadIdx.x;
  advance(p, g, 0.5f);
  __syncthreads();
  out[g] = p.x[blockIdx.x * 64 + (threadIdx.x + 32) % 64] + speedOf(&p, g);
}

__global__ void racyCopy(int* dst, const int* src) { memcpy(dst, src + 16 * blockIdx.x, 16 * sizeof(int)); }

__global__ void racyCount() {
  if (threadIdx.x % 32 == 0) *countPtr() = threadIdx.x / 32 + 1;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 128;
  float host_in[n];
  for (int i = 0; i < n; ++i) host_in[i] = float((i * 13) % 29) - 7.0f;
  float *in = nullptr, *table = nullptr, *grid = nullptr, *left = nullptr, *right = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  for (float** p : {&table, &grid, &left, &right, &out}) {
    cudaMalloc(p, n * sizeof(float));
    cudaMemset(*p, 0, n * sizeof(float));
  }
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  const int zero = 0;
  cudaMemcpyToSymbol(g_total, &zero, sizeof zero);
  cudaMemcpyToSymbol(g_count, &zero, sizeof zero);
  throughHelpers<<<2, 64>>>(Grid{grid, 64}, table, left, right, in, out);
  float host[n];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  for (float* p : {left, right}) {
    cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  }
  Outs o{{table, grid, left}, {in, out}};
  pointerArrays<<<2, 64>>>(o);
  for (float* p : {table, grid, left}) {
    cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  }
  particles<<<2, 64>>>(Particles{table, in}, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  int *rows = nullptr, *copied = nullptr;
  cudaMalloc(&rows, 32 * sizeof(int));
  cudaMalloc(&copied, 16 * sizeof(int));
  int host_rows[32];
  for (int i = 0; i < 32; ++i) host_rows[i] = i * 7 + 1;
  cudaMemcpy(rows, host_rows, sizeof host_rows, cudaMemcpyHostToDevice);
  racyCopy<<<2, 1>>>(copied, rows);
  cudaDeviceSynchronize();
  cudaFree(rows);
  cudaFree(copied);
  int total = 0, count = 0;
  cudaMemcpyFromSymbol(&total, g_total, sizeof total);
  printf("total %d\n", total);
  racyCount<<<1, 64>>>();
  cudaMemcpyFromSymbol(&count, g_count, sizeof count);
  printf("racy %d\n", count);
  for (float* p : {in, table, grid, left, right, out}) cudaFree(p);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
