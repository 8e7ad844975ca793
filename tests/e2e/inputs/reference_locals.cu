// Reference locals and const class locals across barriers, which the translation hoists (a reference
// as a pointer to what it names, a const float4 or plain struct without its const). throughReferences
// (a reference to a shared element, to a row of a shared 2-D array, to a struct in global memory) and
// constClasses (const float4 and const structs, read as const: a call overloaded on constness picks
// the const overload, as in the program) and constArraysAndMutables (const arrays of shared values,
// hoisted without their const and read as const; a const struct whose mutable counter a region that
// re-executes increments, saved and restored like any local: a second increment would print 2) are
// race-free: their output must equal native's in check and deterministic mode. racyReference: thread 0 reads, through a reference declared before
// the store, s[32], which warp 1 stores in the same region: exactly one read-write race, on out[0].
#include <cstdio>
#include <cuda_runtime.h>

struct Params {
  float scale;
  int offset;
};

struct Pair {
  float a, b;
  __device__ float sum() const { return a + b; }
};

// Overloads on constness: the program's const locals pick the const one (1.0f, not 0.0f).
__device__ float kind(Pair&) { return 0.0f; }
__device__ float kind(const Pair&) { return 1.0f; }

__global__ void throughReferences(float* out, const Params* params) {
  __shared__ float s[64];
  __shared__ float tile[2][32];
  float& mine = s[threadIdx.x];
  float(&row)[32] = tile[threadIdx.x / 32];
  const Params& p = params[blockIdx.x];
  mine = p.scale * threadIdx.x;
  row[threadIdx.x % 32] = float(threadIdx.x % 7);
  __syncthreads();
  const float other = s[63 - threadIdx.x] + row[31 - threadIdx.x % 32];
  __syncthreads();
  mine += other;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x + p.offset] = mine + s[(threadIdx.x + 1) % 64];
}

__global__ void constClasses(const float4* in, float* out) {
  __shared__ float s[64];
  const float4 v = in[threadIdx.x];
  const Pair q{v.x, v.y};
  const Pair r = {v.z, v.w};
  s[threadIdx.x] = v.x;
  __syncthreads();
  out[threadIdx.x] = v.y + q.sum() + 2.0f * r.a + 3.0f * r.b + s[63 - threadIdx.x] + 100.0f * kind(q);
}

struct Counter {
  float base;
  mutable int hits;
};

__device__ float firstOf(const float* v) { return v[0]; }

__global__ void constArraysAndMutables(float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = float(threadIdx.x % 9);
  __syncthreads();
  const float pair[2] = {s[threadIdx.x], s[63 - threadIdx.x]};
  const float grid[2][2] = {{s[1], s[2]}, {s[3], s[(threadIdx.x + 5) % 64]}};
  const Counter c{0.5f * float(threadIdx.x % 4), 0};
  __syncthreads();
  s[threadIdx.x] = pair[0] + 2.0f * pair[1] + grid[1][1] + firstOf(pair) + float(sizeof(grid));
  c.hits++;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64] + 10.0f * grid[0][1] + c.base + 1000.0f * c.hits;
}

__global__ void racyReference(float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = 0.0f;
  __syncthreads();
  const float& peer = s[(threadIdx.x + 32) % 64];
  s[threadIdx.x] = float(threadIdx.x + 1);
  if (threadIdx.x == 0) out[0] = peer;
  __syncthreads();
  out[64 + threadIdx.x] = peer;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 2;
  Params host_params[blocks] = {{0.5f, 0}, {-1.5f, 0}};
  Params* params = nullptr;
  float* out = nullptr;
  float4* in = nullptr;
  cudaMalloc(&params, sizeof host_params);
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMalloc(&in, 64 * sizeof(float4));
  cudaMemcpy(params, host_params, sizeof host_params, cudaMemcpyHostToDevice);
  float4 host_in[64];
  for (int i = 0; i < 64; ++i) host_in[i] = make_float4(float(i % 5), float(i % 3) - 1.0f, float(i % 11), 0.25f * i);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  float host[256];
  throughReferences<<<blocks, 64>>>(out, params);
  cudaMemcpy(host, out, blocks * 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * 64; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  constClasses<<<1, 64>>>(in, out);
  cudaMemcpy(host, out, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  constArraysAndMutables<<<1, 64>>>(out);
  cudaMemcpy(host, out, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  cudaMemset(out, 0, 256 * sizeof(float));
  racyReference<<<1, 64>>>(out);
  cudaMemcpy(host, out, 128 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 64; i < 128; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  printf("racy %g\n", host[0]);
  cudaFree(params);
  cudaFree(out);
  cudaFree(in);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
