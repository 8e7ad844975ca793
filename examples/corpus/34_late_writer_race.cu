// A flag handed from warp to warp without a barrier, where the reader stores only when it sees the
// flag: warp 0's thread 0 sets s_slots[0] after a global load, and warp 1 polls it once and, if set,
// fills s_slots[32..63] (a read-write race on shared memory between warps 0 and 1). Run alone, warp 1
// sees its own copy's 0 and stores nothing; only its re-execution, which starts from warp 0's flag,
// stores. So a check that visited only the copies of the warps that stored in the first execution
// would miss it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
              cudaGetErrorString(err_));                                   \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static uint32_t g_seed = 34034u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 64
#define BLOCKS 128

__global__ void late_writer(const int* in, int* out) {
  __shared__ int s_slots[BLOCK];
  s_slots[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x == 0) s_slots[0] = in[blockIdx.x] | 1;  // never 0
  // missing __syncthreads(): warp 1 polls the flag once
  if (threadIdx.x >= 32 && s_slots[0] != 0) s_slots[threadIdx.x] = 7 + int(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * BLOCK + threadIdx.x] = s_slots[threadIdx.x];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  std::vector<int> h_in(BLOCKS), h_out(BLOCKS * BLOCK);
  for (int i = 0; i < BLOCKS; ++i) h_in[i] = int(lcg() % 1000);

  int *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, BLOCKS * sizeof(int)));
  CHECK(cudaMalloc(&d_out, BLOCKS * BLOCK * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), BLOCKS * sizeof(int), cudaMemcpyHostToDevice));
  late_writer<<<BLOCKS, BLOCK>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, BLOCKS * BLOCK * sizeof(int), cudaMemcpyDeviceToHost));

  int saw_flag = 0;
  for (int b = 0; b < BLOCKS; ++b) saw_flag += h_out[b * BLOCK + 32] != 0;
  printf("blocks %d  flag[0] %d  blocks whose warp 1 saw the flag %d\n", BLOCKS, h_out[0], saw_flag);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), h_out.size() * sizeof(int)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
