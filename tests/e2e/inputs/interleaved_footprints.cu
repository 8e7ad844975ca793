// Blocks whose write footprints interleave: a grid-stride loop (each block stores every other run of
// 64 elements), a query loop like b+tree's (block b stores element b, b + 4, ...: the blocks share
// every 16-byte chunk, each block its own 4-byte words), and bytes stored the same way (the blocks
// share 4-byte words). Level W checks each block's global memory in per-block lists of its chunks and
// words, so the warps of a block are checked against each other in the first two; the third is left
// out, and the summary and the JSON report say so. `tiled` gives each block one contiguous tile.
// Each *_race* kernel has one warp store over another's element in the same region. A site looks a
// region's few chunks up in the owner maps (strided_race, per_query*) and walks the block's lists
// for many (strided and strided_race_once: 16384 chunks).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void strided(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = 3 * i;
}

__global__ void strided_race(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = 3 * i + 1;
    if (threadIdx.x == 32) out[i - 32] = -1;
  }
}

// Only at element `at`.
__global__ void strided_race_once(int* out, int n, int at) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = 3 * i + 1;
    if (threadIdx.x == 32 && i - 32 == at) out[at] = -1;
  }
}

__global__ void tiled(int* out, int n) {
  const int per = n / gridDim.x;
  for (int i = threadIdx.x; i < per; i += blockDim.x) out[blockIdx.x * per + i] = 5 * i + int(blockIdx.x);
}

// Each level a thread of another warp takes the query's node one step on, after a barrier.
__global__ void per_query(int* curr, int* out, int count, int height) {
  for (int q = blockIdx.x; q < count; q += gridDim.x) {
    for (int level = 0; level < height; ++level) {
      if (threadIdx.x == (q + 23 * level) % blockDim.x) curr[q] = curr[q] * 3 + level;
      __syncthreads();
    }
    if (threadIdx.x == 40) out[q] = curr[q] + 1;
  }
}

__global__ void per_query_race(int* res, int count) {
  for (int q = blockIdx.x; q < count; q += gridDim.x) {
    if (threadIdx.x == 0) res[q] = q + 1;
    if (threadIdx.x == 32 && q == 5) res[q] = 100;
  }
}

// The same in blocks of 48 threads, whose second warp is partial: their threads take the words' bytes.
__global__ void per_query_race48(int* res, int count) {
  for (int q = blockIdx.x; q < count; q += gridDim.x) {
    if (threadIdx.x == 0) res[q] = q + 1;
    if (threadIdx.x == 40 && q == 6) res[q] = 100;
  }
}

__global__ void per_query_bytes(char* flags, int count) {
  for (int q = blockIdx.x; q < count; q += gridDim.x)
    if (threadIdx.x == 0) flags[q] = char(q + 1);
}

static bool fetch(void* host, const void* device, size_t bytes) {
  return cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 1 << 16, count = 16;
  int *a = nullptr, *b = nullptr, *r = nullptr, *once = nullptr, *curr = nullptr, *out = nullptr, *res = nullptr,
      *res48 = nullptr;
  char* flags = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&r, 256 * sizeof(int));
  cudaMalloc(&once, n * sizeof(int));
  cudaMalloc(&curr, count * sizeof(int));
  cudaMalloc(&out, count * sizeof(int));
  cudaMalloc(&res, count * sizeof(int));
  cudaMalloc(&res48, count * sizeof(int));
  cudaMalloc(&flags, count);
  cudaMemset(r, 0, 256 * sizeof(int));  // so every racing store changes what it stores to
  cudaMemset(once, 0, n * sizeof(int));
  cudaMemset(res, 0, count * sizeof(int));
  cudaMemset(res48, 0, count * sizeof(int));
  cudaMemset(curr, 0, count * sizeof(int));
  cudaMemset(flags, 0, count);
  strided<<<2, 64>>>(a, n);
  strided_race<<<2, 64>>>(r, 256);
  strided_race_once<<<2, 64>>>(once, n, 12800);  // run 200 of 64 elements: block 0's
  tiled<<<2, 64>>>(b, n);
  per_query<<<4, 64>>>(curr, out, count, 5);
  per_query_race<<<4, 64>>>(res, count);
  per_query_race48<<<4, 48>>>(res48, count);
  per_query_bytes<<<4, 64>>>(flags, count);
  static int ha[n], hb[n];
  int hout[count];
  char hflags[count];
  if (!fetch(ha, a, sizeof ha) || !fetch(hb, b, sizeof hb) || !fetch(hout, out, sizeof hout) ||
      !fetch(hflags, flags, sizeof hflags)) {
    fprintf(stderr, "CUDA error\n");
    return 1;
  }
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += (long long)ha[i] * (i + 1) + hb[i];
  printf("strided, tiled: %lld %d %d\n", sum, ha[n - 1], hb[n - 1]);
  printf("per_query:");
  for (int q = 0; q < count; ++q) printf(" %d", hout[q]);
  printf("\nper_query_bytes:");
  for (int q = 0; q < count; ++q) printf(" %d", hflags[q]);
  printf("\n");
  return 0;
}
