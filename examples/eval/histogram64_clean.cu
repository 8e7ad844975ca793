// histogram64 (LD evaluation, CUDA-SDK style): 64-bin histogram of a 16 MiB byte array, each
// byte falling into bin (byte >> 2).
//   1. histogram64Kernel: 2067 blocks of 192 threads walk the data (read as 32-bit words) in a
//      grid-stride loop. Every thread owns a column of 64 8-bit counters in shared memory
//      (byte bin * THREAD_N + thread of s_Hist, 12 KB per block); a thread increments only its own
//      counters, so no atomics are needed (a thread sees at most 4 * 11 = 44 bytes, below 256).
//      After a barrier the first 64 threads each sum one bin over the 192 columns and store the
//      block's partial histogram in d_PartialHistograms[block * 64 + bin].
//   2. mergeHistogram64Kernel: 64 blocks (one per bin) of 256 threads sum the 2067 partial
//      histograms with a shared-memory tree.
// As the SDK sample does, the histogram is computed RUNS times in a row (the same data, the
// same result every run).
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

static uint32_t g_seed = 64064u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BIN_COUNT 64
#define THREAD_N 192                 // threads per block (6 warps)
#define BLOCK_N 2067                 // blocks of the histogram kernel
#define DATA_WORDS (4 * 1024 * 1024) // 16 MiB of bytes
#define MERGE_THREADS 256
#define RUNS 64

// 8-bit per-thread counters: every thread may see at most 255 bytes.
static_assert(4 * ((DATA_WORDS + BLOCK_N * THREAD_N - 1) / (BLOCK_N * THREAD_N)) <= 255,
              "per-thread byte counters would overflow");

__device__ inline void addByte(unsigned char* s_ThreadBase, unsigned data) {
  s_ThreadBase[data * THREAD_N]++;
}

__device__ inline void addWord(unsigned char* s_ThreadBase, unsigned data4) {
  addByte(s_ThreadBase, (data4 >> 2) & 0x3FU);
  addByte(s_ThreadBase, (data4 >> 10) & 0x3FU);
  addByte(s_ThreadBase, (data4 >> 18) & 0x3FU);
  addByte(s_ThreadBase, (data4 >> 26) & 0x3FU);
}

__global__ void histogram64Kernel(unsigned* d_PartialHistograms, const unsigned* d_Data, int dataN) {
  // 8-bit counters, four to a word: the counter of (bin, thread) is byte bin * THREAD_N + thread
  __shared__ unsigned s_Hist[BIN_COUNT * THREAD_N / 4];

  // clear all counters, four at a time
  for (int pos = threadIdx.x; pos < BIN_COUNT * THREAD_N / 4; pos += blockDim.x) s_Hist[pos] = 0;
  __syncthreads();

  // count into this thread's own column
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataN; pos += blockDim.x * gridDim.x)
    addWord(reinterpret_cast<unsigned char*>(s_Hist) + threadIdx.x, d_Data[pos]);
  __syncthreads();

  // sum each bin over the block's columns (the 192 counters of a bin are 48 words; thread
  // `bin` starts at word `bin` so that the 32 lanes of a warp hit different banks)
  for (int bin = threadIdx.x; bin < BIN_COUNT; bin += blockDim.x) {
    unsigned sum = 0;
    for (int i = 0; i < THREAD_N / 4; i++) {
      unsigned w = s_Hist[bin * (THREAD_N / 4) + (i + bin) % (THREAD_N / 4)];
      sum += (w & 0xFFU) + ((w >> 8) & 0xFFU) + ((w >> 16) & 0xFFU) + (w >> 24);
    }
    d_PartialHistograms[blockIdx.x * BIN_COUNT + bin] = sum;
  }
}

// One block per bin: sums that bin over all partial histograms.
__global__ void mergeHistogram64Kernel(unsigned* d_Histogram, const unsigned* d_PartialHistograms,
                                       int histogramCount) {
  __shared__ unsigned data[MERGE_THREADS];
  unsigned sum = 0;
  for (int i = threadIdx.x; i < histogramCount; i += MERGE_THREADS)
    sum += d_PartialHistograms[blockIdx.x + i * BIN_COUNT];
  data[threadIdx.x] = sum;
  for (int stride = MERGE_THREADS / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) d_Histogram[blockIdx.x] = data[0];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  // bytes with a triangular distribution (mean of two uniform bytes), packed four to a word
  std::vector<unsigned> h_Data(DATA_WORDS);
  for (int i = 0; i < DATA_WORDS; ++i) {
    unsigned w = 0;
    for (int k = 0; k < 4; ++k) {
      unsigned b = ((lcg() & 0xFFu) + (lcg() & 0xFFu)) >> 1;
      w |= b << (8 * k);
    }
    h_Data[i] = w;
  }

  unsigned *d_Data = nullptr, *d_Partial = nullptr, *d_Histogram = nullptr;
  CHECK(cudaMalloc(&d_Data, DATA_WORDS * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_Partial, BLOCK_N * BIN_COUNT * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_Histogram, BIN_COUNT * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_Data, h_Data.data(), DATA_WORDS * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_Partial, 0, BLOCK_N * BIN_COUNT * sizeof(unsigned)));
  CHECK(cudaMemset(d_Histogram, 0, BIN_COUNT * sizeof(unsigned)));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int run = 0; run < RUNS; ++run) {
    histogram64Kernel<<<BLOCK_N, THREAD_N>>>(d_Partial, d_Data, DATA_WORDS);
    CHECK(cudaGetLastError());
    mergeHistogram64Kernel<<<BIN_COUNT, MERGE_THREADS>>>(d_Histogram, d_Partial, BLOCK_N);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  fprintf(stderr, "gpu_ms %.3f\n", ms);

  std::vector<unsigned> h_Partial(BLOCK_N * BIN_COUNT), h_Histogram(BIN_COUNT);
  CHECK(cudaMemcpy(h_Partial.data(), d_Partial, BLOCK_N * BIN_COUNT * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_Histogram.data(), d_Histogram, BIN_COUNT * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));

  // CPU reference: word i is read by global thread i % (BLOCK_N * THREAD_N), i.e. by block
  // (i % (BLOCK_N * THREAD_N)) / THREAD_N.
  std::vector<unsigned> refPartial(BLOCK_N * BIN_COUNT, 0), refHist(BIN_COUNT, 0);
  const int totalThreads = BLOCK_N * THREAD_N;
  for (int i = 0; i < DATA_WORDS; ++i) {
    int block = (i % totalThreads) / THREAD_N;
    for (int k = 0; k < 4; ++k) {
      unsigned byte = (h_Data[i] >> (8 * k)) & 0xFFu;
      refPartial[block * BIN_COUNT + (byte >> 2)]++;
      refHist[byte >> 2]++;
    }
  }
  bool ok = (h_Partial == refPartial) && (h_Histogram == refHist);
  unsigned total = 0, peak = 0;
  int peakBin = 0;
  for (int b = 0; b < BIN_COUNT; ++b) {
    total += h_Histogram[b];
    if (h_Histogram[b] > peak) { peak = h_Histogram[b]; peakBin = b; }
  }
  if (total != 4u * DATA_WORDS) ok = false;

  printf("bytes %u  bins %d  hist[0] %u  hist[16] %u  hist[32] %u  hist[63] %u  peak bin %d (%u)\n",
         total, BIN_COUNT, h_Histogram[0], h_Histogram[16], h_Histogram[32], h_Histogram[63], peakBin,
         peak);
  uint64_t h = fnv1a(h_Partial.data(), h_Partial.size() * sizeof(unsigned));
  printf("hash %016llx\n",
         (unsigned long long)fnv1a(h_Histogram.data(), BIN_COUNT * sizeof(unsigned), h));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_Data));
  CHECK(cudaFree(d_Partial));
  CHECK(cudaFree(d_Histogram));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
