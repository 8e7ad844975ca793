// Histogram of an 8-bit grayscale image (4096 x 4096, a wrapping gradient with noise) straight
// into a global 256-bin histogram: 4096 blocks of 256 threads, 16 pixels per thread.
// RACE (write-write, global hist, between blocks): the bins are incremented with a plain
// read-modify-write (hist[bin]++) instead of atomicAdd. Thousands of threads on every SM update
// the same 256 counters at once, so increments that overlap in time are lost; how many are lost
// in each bin depends on the timing of all blocks, so the histogram changes from run to run. In
// ldcc's terms every block changes the bins of its pixels in its private copy, and neighbouring
// blocks share most bins: a write-write race (each bin is also read and written by every block:
// one race per element, reported as ww). There is no shared memory.
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

static uint32_t g_seed = 2703u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define NBINS 256
#define WIDTH 4096
#define HEIGHT 4096
#define BLOCK 256
#define PIXELS 16  // per thread

__global__ void histogram_global(const unsigned char* img, unsigned* hist, int n) {
  int base = blockIdx.x * (BLOCK * PIXELS) + threadIdx.x;
  for (int k = 0; k < PIXELS; ++k) {
    int idx = base + k * BLOCK;
    if (idx < n) hist[img[idx]]++;  // race: not atomic
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = WIDTH * HEIGHT;
  const int blocks = (n + BLOCK * PIXELS - 1) / (BLOCK * PIXELS);
  std::vector<unsigned char> h_img(n);
  std::vector<unsigned> h_hist(NBINS), ref(NBINS, 0);
  for (int y = 0; y < HEIGHT; ++y)
    for (int x = 0; x < WIDTH; ++x) {
      unsigned char p = (unsigned char)(((x + y) / 32 + lcg() % 48) & 255);
      h_img[(size_t)y * WIDTH + x] = p;
      ++ref[p];
    }

  unsigned char* d_img = nullptr;
  unsigned* d_hist = nullptr;
  CHECK(cudaMalloc(&d_img, n));
  CHECK(cudaMalloc(&d_hist, NBINS * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_img, h_img.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_hist, 0, NBINS * sizeof(unsigned)));
  histogram_global<<<blocks, BLOCK>>>(d_img, d_hist, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_hist.data(), d_hist, NBINS * sizeof(unsigned), cudaMemcpyDeviceToHost));

  unsigned long long total = 0;
  for (int b = 0; b < NBINS; ++b) total += h_hist[b];
  printf("bin[0] %u (true %u)  bin[128] %u (true %u)  bin[255] %u (true %u)  total %llu (n %d)\n",
         h_hist[0], ref[0], h_hist[128], ref[128], h_hist[255], ref[255], total, n);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_hist.data(), NBINS * sizeof(unsigned)));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_hist));
  return 0;
}
