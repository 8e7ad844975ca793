// Level W over the forms a store to shared memory takes, each reaching its warp's copy through the
// privatized variable (no hook: the sites diff the copies): one block of four warps each.
// forms_race, region 2:
//   warp 0 sets the bit-field f.ready and warp 1 f.level, in the same byte of f: a write-write race
//     on f, and warp 0's read-write race on it (its read-modify-write of the byte, re-run from its
//     own state, does not give the byte the union holds);
//   warp 2 stores a[5] through a pointer and warp 0 copies a[5] into seen[0]: warp 0's read-write
//     race, on seen[0];
//   warp 1 stores tri[1], 24 bytes over two 16-byte chunks, and warp 3 copies tri[1].z (in the
//     second) into seen[3]: warp 3's read-write race, on seen[3];
//   warp 0 sets the flag s_flag and warp 1 stores a[100] only when it sees it set, which it does in
//     pass 2 only: warp 1's read-write race, on a[100];
//   every thread adds 1 to hits with a shared atomic (atomics do not race among themselves).
// forms_clean: the same kinds of store, race-free (each warp its own bit-field struct, the copies
//   made after a barrier); it prints what it computed, which must equal the native run's.
// macro_store: stores inside a macro's body, race-free.
#include <cstdio>
#include <cuda_runtime.h>

struct Flags {
  unsigned ready : 1;
  unsigned level : 7;
};
struct Triple {
  double x, y, z;
};

__global__ void forms_race(int* out) {
  __shared__ Flags f;
  __shared__ int a[128];
  __shared__ int seen[4];
  __shared__ Triple tri[2];
  __shared__ unsigned hits;
  __shared__ int s_flag;
  const int t = threadIdx.x;
  a[t] = t;
  if (t < 4) seen[t] = -1;
  if (t == 0) {
    f.ready = 0;
    f.level = 0;
    tri[0] = Triple{0, 0, 0};
    tri[1] = Triple{0, 0, 0};
    hits = 0;
    s_flag = 0;
  }
  __syncthreads();
  if (t == 0) f.ready = 1;
  if (t == 32) f.level = 5;
  if (t == 64) {
    int* p = &a[5];
    *p = 77;
  }
  if (t == 1) seen[0] = a[5];
  if (t == 33) tri[1] = Triple{1.0, 2.0, 3.0};
  if (t == 97) seen[3] = int(tri[1].z);
  if (t == 2) s_flag = 1;
  if (t == 40 && s_flag) a[100] = -100;
  atomicAdd(&hits, 1u);
  __syncthreads();
  out[t] = a[t] + seen[t % 4] + int(hits) + int(f.level);
}

__global__ void forms_clean(int* out) {
  __shared__ Flags f[4];
  __shared__ int a[128];
  __shared__ Triple tri[2];
  __shared__ unsigned hits;
  const int t = threadIdx.x, warp = t / 32;
  a[t] = 3 * t;
  if (t == 0) {
    tri[0] = Triple{0, 0, 0};
    tri[1] = Triple{0, 0, 0};
    hits = 0;
  }
  __syncthreads();
  if (t % 32 == 0) {
    f[warp].ready = warp % 2;
    f[warp].level = warp + 3;
  }
  if (t == 64) {
    int* p = &a[5];
    *p += 77;
  }
  if (t == 33) tri[1] = Triple{1.5, 2.5, 3.5};
  atomicAdd(&hits, unsigned(t));
  __syncthreads();
  const Flags mine = f[(warp + 1) % 4];
  out[t] = a[(t + 5) % 128] + int(mine.ready) + 10 * int(mine.level) + int(2 * tri[1].z) + int(hits % 1000);
}

#define CLEAR(array, i) array[i] = 0

__global__ void macro_store(int* out) {
  __shared__ int b[128];
  CLEAR(b, threadIdx.x);
  __syncthreads();
  b[(threadIdx.x + 3) % 128] += int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = b[(threadIdx.x + 1) % 128];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  int* out = nullptr;
  cudaMalloc(&out, 3 * 128 * sizeof(int));
  forms_race<<<1, 128>>>(out);
  forms_clean<<<1, 128>>>(out + 128);
  macro_store<<<1, 128>>>(out + 256);
  int host[3 * 128];
  if (cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 1;
  }
  // forms_race's results depend on the races: only the race-free kernels' are printed.
  for (int i = 128; i < 3 * 128; ++i) printf("%d%c", host[i], i % 16 == 15 ? '\n' : ' ');
  cudaFree(out);
  return 0;
}
