// radixsort (LD evaluation, CUDA-SDK 2.0 "radixSort" configuration of one block of 32 threads):
// least-significant-digit radix sort of 16384 unsigned 32-bit keys, 4 bits per pass, 8 passes,
// one launch per pass (ping-pong between two key buffers). In each pass the block
//   1. counts the keys of every digit value in shared memory (s_count, shared atomics),
//   2. turns the 16 counts into start offsets with an exclusive scan (s_offset),
//   3. scatters the keys tile by tile (32 keys, one per thread, in input order): the digits of
//      the tile go to shared memory (s_digits), each thread ranks its key among the tile's
//      earlier keys with the same digit, stores it at s_offset[digit] + rank, and the last key
//      of each digit advances s_offset[digit], so the pass is stable.
// Shared memory: 16 + 16 + 32 words (256 bytes). CPU reference: std::sort.
#include <algorithm>
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

static uint32_t g_seed = 32323u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define THREADS 32                   // one block of one warp
#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)      // 16 digit values
#define PASSES (32 / RADIX_BITS)     // 8
#define NUM_KEYS 16384

// One stable counting-sort pass on the digit (key >> shift) & (RADIX - 1): d_src -> d_dst.
__global__ void radixSortPass(unsigned* d_dst, const unsigned* d_src, int n, int shift) {
  __shared__ unsigned s_count[RADIX];
  __shared__ unsigned s_offset[RADIX];
  __shared__ unsigned s_digits[THREADS];
  const int tid = threadIdx.x;

  // 1. digit histogram
  if (tid < RADIX) s_count[tid] = 0;
  __syncthreads();
  for (int base = 0; base < n; base += THREADS) {
    int i = base + tid;
    if (i < n) atomicAdd(&s_count[(d_src[i] >> shift) & (RADIX - 1)], 1u);
  }
  __syncthreads();

  // 2. exclusive scan of the counts (Hillis-Steele on the first RADIX threads)
  if (tid < RADIX) s_offset[tid] = s_count[tid];
  for (int off = 1; off < RADIX; off <<= 1) {
    __syncthreads();
    unsigned add = (tid < RADIX && tid >= off) ? s_offset[tid - off] : 0;
    __syncthreads();
    if (tid < RADIX) s_offset[tid] += add;
  }
  __syncthreads();
  if (tid < RADIX) s_offset[tid] -= s_count[tid];  // inclusive -> exclusive
  __syncthreads();

  // 3. stable scatter, one tile of THREADS keys at a time
  for (int base = 0; base < n; base += THREADS) {
    int i = base + tid;
    unsigned key = 0;
    unsigned digit = RADIX;  // no key
    if (i < n) {
      key = d_src[i];
      digit = (key >> shift) & (RADIX - 1);
    }
    s_digits[tid] = digit;
    __syncthreads();
    unsigned rank = 0;
    bool lastOfDigit = true;
    for (int j = 0; j < THREADS; ++j) {
      unsigned dj = s_digits[j];
      if (dj == digit) {
        if (j < tid) ++rank;
        if (j > tid) lastOfDigit = false;
      }
    }
    if (i < n) d_dst[s_offset[digit] + rank] = key;
    __syncthreads();
    if (i < n && lastOfDigit) s_offset[digit] += rank + 1;
    __syncthreads();
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = NUM_KEYS;
  std::vector<unsigned> h_keys(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    if (i % 8 == 7) h_keys[i] = h_keys[lcg() % unsigned(i)];  // some duplicate keys
    else h_keys[i] = (lcg() << 8) ^ lcg();                    // 32 random bits
  }

  unsigned *d_a = nullptr, *d_b = nullptr;
  CHECK(cudaMalloc(&d_a, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_b, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_a, h_keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_b, 0, n * sizeof(unsigned)));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int pass = 0; pass < PASSES; ++pass) {
    // even passes a -> b, odd passes b -> a; after the 8th pass the keys are back in d_a
    if (pass % 2 == 0) radixSortPass<<<1, THREADS>>>(d_b, d_a, n, pass * RADIX_BITS);
    else radixSortPass<<<1, THREADS>>>(d_a, d_b, n, pass * RADIX_BITS);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  fprintf(stderr, "gpu_ms %.3f\n", ms);

  CHECK(cudaMemcpy(h_out.data(), d_a, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  std::vector<unsigned> ref(h_keys);
  std::sort(ref.begin(), ref.end());
  bool ok = (h_out == ref);
  int distinct = 0;
  for (int i = 0; i < n; ++i)
    if (i == 0 || h_out[i] != h_out[i - 1]) ++distinct;

  printf("keys %d  distinct %d  key[0] %u  key[%d] %u  key[%d] %u\n", n, distinct, h_out[0], n / 2,
         h_out[n / 2], n - 1, h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(unsigned)));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
