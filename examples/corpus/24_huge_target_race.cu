// One 4.5 GiB buffer: 1024 blocks of 256 threads, block b fills its own contiguous slice of
// words_per_block words with (b << 21) | i (i < 2^21: every word of the buffer is distinct).
// Only every 4096th word is copied back and hashed, to keep host time short.
// RACE (write-write, global big, between blocks 999 and 1000 only): an off-by-one makes thread 0
// of block 1000 also store its own tag into the word just before its slice, the last word of
// block 999's slice: (1000 << 21) | 0x1fffff against block 999's (999 << 21) | (words_per_block
// - 1), always different.
// Exits 77 ("skipped: needs 4.5 GiB") when the device cannot allocate the buffer.
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

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256
#define BLOCKS 1024
#define WORDS_PER_BLOCK ((size_t)1179648)  // 4.5 MiB of words: 1024 slices make 4.5 GiB
#define SAMPLE_STRIDE ((size_t)4096)

__global__ void fill_huge(unsigned int* big, size_t words_per_block) {
  size_t first = (size_t)blockIdx.x * words_per_block;
  for (size_t i = threadIdx.x; i < words_per_block; i += blockDim.x)
    big[first + i] = (unsigned(blockIdx.x) << 21) | unsigned(i & 0x1fffff);
  if (blockIdx.x == 1000 && threadIdx.x == 0)
    big[first - 1] = (unsigned(blockIdx.x) << 21) | 0x1fffffu;  // race: block 999's last word
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t words = (size_t)BLOCKS * WORDS_PER_BLOCK;
  const size_t samples = words / SAMPLE_STRIDE;
  unsigned int* d_big = nullptr;
  cudaError_t err = cudaMalloc(&d_big, words * sizeof(unsigned int));
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the (non-sticky) allocation error
    fprintf(stderr, "skipped: needs 4.5 GiB\n");
    return 77;
  }
  CHECK(err);
  fill_huge<<<BLOCKS, BLOCK>>>(d_big, WORDS_PER_BLOCK);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // Every SAMPLE_STRIDE-th word, gathered by one strided 2-D copy.
  std::vector<unsigned int> h_sample(samples);
  CHECK(cudaMemcpy2D(h_sample.data(), sizeof(unsigned int), d_big,
                     SAMPLE_STRIDE * sizeof(unsigned int), sizeof(unsigned int), samples,
                     cudaMemcpyDeviceToHost));
  unsigned int h_edge[2] = {0, 0};  // the last word of block 999's slice, the first of block 1000's
  CHECK(cudaMemcpy(h_edge, d_big + 1000 * WORDS_PER_BLOCK - 1, sizeof(h_edge),
                   cudaMemcpyDeviceToHost));

  printf("big[0] %08x  big[1000*wpb-1] %08x  big[1000*wpb] %08x  sample[last] %08x\n", h_sample[0],
         h_edge[0], h_edge[1], h_sample[samples - 1]);
  uint64_t h = fnv1a(h_sample.data(), samples * sizeof(unsigned int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_edge, sizeof(h_edge), h));
  CHECK(cudaFree(d_big));
  return 0;
}
