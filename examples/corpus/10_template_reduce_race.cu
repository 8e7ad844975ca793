// Templated block reduction (template <typename T, int BLOCK>), unrolled at compile time with
// if constexpr, with a grid-stride first pass and warp shuffles for the last 64 values.
// Instantiated for <int, 256> and <double, 128>.
// RACE (read-write, shared sdata; only in <int, 256>): the barrier after the 256 -> 128 step is
// missing, so in the next step threads 0..63 (warps 0-1) read sdata[64..127] while warps 2-3
// are still updating it.
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

static uint32_t g_seed = 12345u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

template <typename T, int BLOCK>
__global__ void reduce_unrolled(const T* in, T* out, int n) {
  static_assert(BLOCK >= 64 && BLOCK <= 512, "BLOCK out of range");
  __shared__ T sdata[BLOCK];
  int tid = threadIdx.x;
  T sum = 0;
  for (int i = blockIdx.x * 2 * BLOCK + tid; i < n; i += 2 * BLOCK * gridDim.x) {
    sum += in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
  }
  sdata[tid] = sum;
  __syncthreads();
  if constexpr (BLOCK >= 512) {
    if (tid < 256) sdata[tid] += sdata[tid + 256];
    __syncthreads();
  }
  if constexpr (BLOCK >= 256) {
    if (tid < 128) sdata[tid] += sdata[tid + 128];  // race: missing __syncthreads() after this step
  }
  if constexpr (BLOCK >= 128) {
    if (tid < 64) sdata[tid] += sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
    T v = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

// Runs reduce_unrolled<T, BLOCK> on n values 1..50 and returns the hash of the per-block sums.
template <typename T, int BLOCK>
static uint64_t run(int n, int blocks) {
  std::vector<T> h_in(n), h_out(blocks);
  for (int i = 0; i < n; ++i) h_in[i] = T(1 + lcg() % 50);
  T *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(T)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(T)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  reduce_unrolled<T, BLOCK><<<blocks, BLOCK>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  T total = 0;
  for (int b = 0; b < blocks; ++b) total += h_out[b];
  printf("<%s,%d>  out[0] %.0f  out[last] %.0f  total %.0f\n", sizeof(T) == 4 ? "int" : "double",
         BLOCK, double(h_out[0]), double(h_out[blocks - 1]), double(total));
  uint64_t h = fnv1a(h_out.data(), blocks * sizeof(T));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return h;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  uint64_t h1 = run<int, 256>(100000, 48);
  uint64_t h2 = run<double, 128>(60001, 40);
  printf("hash %016llx\n", (unsigned long long)(h1 ^ (h2 * 0x100000001b3ull)));
  return 0;
}
