// scan (LD evaluation, CUDA-SDK style "scan of large arrays"): exclusive prefix sums of a
// 262144-element array of unsigned ints (arithmetic mod 2^32), by the work-efficient
// (Blelloch) algorithm:
//   1. prescan: 256 blocks of 512 threads; each block scans its 1024-element segment in
//      shared memory (up-sweep, clear the root, down-sweep; a barrier at the top of every
//      level; one padding word per 32 elements against bank conflicts: 1056 words = 4.22 KB)
//      and stores the segment total in sums[block];
//   2. prescan again on the 256 segment totals (1 block of 128 threads), giving each segment
//      its offset in incr[] (and the array total in *total);
//   3. uniform_add: 256 blocks of 512 threads add incr[block] to their segment.
// The scan is applied PASSES times in a row (ping-pong buffers), so the result is the
// PASSES-th order prefix sum of the input: every pass works on the previous pass's output.
// The CPU reference applies a plain sequential exclusive scan PASSES times.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
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

static uint32_t g_seed = 60101u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define THREADS 512                 // threads per block of the segment scan
#define SEG (2 * THREADS)           // elements per block: 1024
#define BLOCKS 256                  // segments
#define N (BLOCKS * SEG)            // 262144 elements
#define PASSES 128                  // scans applied one after the other
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(i) ((i) >> LOG_NUM_BANKS)

// Exclusive scan of the n = 2 * blockDim.x elements g_idata[blockIdx.x * n ..] into g_odata;
// the segment total goes to g_blockSums[blockIdx.x]. Dynamic shared memory:
// (n + n / 32) unsigned ints.
__global__ void prescan(unsigned* g_odata, const unsigned* g_idata, unsigned* g_blockSums, int n) {
  extern __shared__ unsigned s_data[];
  int thid = threadIdx.x;
  int base = blockIdx.x * n;
  int ai = thid;
  int bi = thid + n / 2;
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  s_data[ai + bankOffsetA] = g_idata[base + ai];
  s_data[bi + bankOffsetB] = g_idata[base + bi];

  // up-sweep: build partial sums in place
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int i1 = offset * (2 * thid + 1) - 1;
      int i2 = offset * (2 * thid + 2) - 1;
      i1 += CONFLICT_FREE_OFFSET(i1);
      i2 += CONFLICT_FREE_OFFSET(i2);
      s_data[i2] += s_data[i1];
    }
    offset <<= 1;
  }

  // the root holds the segment total: save it and clear the root
  if (thid == 0) {
    int last = n - 1 + CONFLICT_FREE_OFFSET(n - 1);
    g_blockSums[blockIdx.x] = s_data[last];
    s_data[last] = 0;
  }

  // down-sweep: push the prefixes down the tree
  for (int d = 1; d < n; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int i1 = offset * (2 * thid + 1) - 1;
      int i2 = offset * (2 * thid + 2) - 1;
      i1 += CONFLICT_FREE_OFFSET(i1);
      i2 += CONFLICT_FREE_OFFSET(i2);
      unsigned t = s_data[i1];
      s_data[i1] = s_data[i2];
      s_data[i2] += t;
    }
  }
  __syncthreads();

  g_odata[base + ai] = s_data[ai + bankOffsetA];
  g_odata[base + bi] = s_data[bi + bankOffsetB];
}

// Adds the scanned segment total uniforms[blockIdx.x] to the block's n = 2 * blockDim.x elements.
__global__ void uniform_add(unsigned* g_data, const unsigned* uniforms, int n) {
  __shared__ unsigned uni;
  if (threadIdx.x == 0) uni = uniforms[blockIdx.x];
  __syncthreads();
  int address = blockIdx.x * n + threadIdx.x;
  g_data[address] += uni;
  g_data[address + blockDim.x] += uni;
}

static void cpu_exclusive_scan(std::vector<unsigned>& a) {
  unsigned run = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    unsigned v = a[i];
    a[i] = run;
    run += v;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  std::vector<unsigned> h_in(N), h_out(N);
  for (int i = 0; i < N; ++i) h_in[i] = lcg() % 1000u;

  unsigned *d_a = nullptr, *d_b = nullptr, *d_sums = nullptr, *d_incr = nullptr, *d_total = nullptr;
  CHECK(cudaMalloc(&d_a, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_b, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sums, BLOCKS * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_incr, BLOCKS * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_total, sizeof(unsigned)));
  CHECK(cudaMemcpy(d_a, h_in.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_b, 0, N * sizeof(unsigned)));
  CHECK(cudaMemset(d_sums, 0, BLOCKS * sizeof(unsigned)));
  CHECK(cudaMemset(d_incr, 0, BLOCKS * sizeof(unsigned)));
  CHECK(cudaMemset(d_total, 0, sizeof(unsigned)));

  const size_t smemSeg = (SEG + SEG / 32) * sizeof(unsigned);        // 4224 bytes
  const size_t smemSums = (BLOCKS + BLOCKS / 32) * sizeof(unsigned);  // 1056 bytes
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  unsigned* d_in = d_a;
  unsigned* d_out = d_b;
  CHECK(cudaEventRecord(start));
  for (int p = 0; p < PASSES; ++p) {
    prescan<<<BLOCKS, THREADS, smemSeg>>>(d_out, d_in, d_sums, SEG);
    CHECK(cudaGetLastError());
    prescan<<<1, BLOCKS / 2, smemSums>>>(d_incr, d_sums, d_total, BLOCKS);
    CHECK(cudaGetLastError());
    uniform_add<<<BLOCKS, THREADS>>>(d_out, d_incr, SEG);
    CHECK(cudaGetLastError());
    std::swap(d_in, d_out);
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  fprintf(stderr, "gpu_ms %.3f\n", ms);

  unsigned h_total = 0;
  CHECK(cudaMemcpy(h_out.data(), d_in, N * sizeof(unsigned), cudaMemcpyDeviceToHost));  // last output
  CHECK(cudaMemcpy(&h_total, d_total, sizeof(unsigned), cudaMemcpyDeviceToHost));

  // CPU reference: PASSES sequential exclusive scans; the last pass's total is the sum of
  // the last pass's input.
  std::vector<unsigned> ref(h_in);
  unsigned ref_total = 0;
  for (int p = 0; p < PASSES; ++p) {
    ref_total = 0;
    for (int i = 0; i < N; ++i) ref_total += ref[i];
    cpu_exclusive_scan(ref);
  }
  bool ok = (h_total == ref_total);
  int bad = 0;
  for (int i = 0; i < N; ++i)
    if (h_out[i] != ref[i]) ++bad;
  if (bad) ok = false;

  printf("passes %d  n %d  out[%d] %u  out[1000] %u  out[%d] %u  out[%d] %u  total %u\n", PASSES, N,
         PASSES, h_out[PASSES], h_out[1000], N / 2, h_out[N / 2], N - 1, h_out[N - 1], h_total);
  if (bad) printf("mismatches %d\n", bad);
  uint64_t h = fnv1a(h_out.data(), N * sizeof(unsigned));
  printf("hash %016llx\n", (unsigned long long)fnv1a(&h_total, sizeof(unsigned), h));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_incr));
  CHECK(cudaFree(d_total));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
