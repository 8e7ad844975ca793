// Pairwise scaling with the buffers passed in a struct BY VALUE. Block r handles row r of a
// 64 x 500 matrix: for each pair (x, y) = (in[2k], in[2k + 1]) it stores x * factor + y and
// y * factor + x into row r of b.out (a cudaMallocPitch allocation: rows are n ints apart),
// and x > y into b.flags (a cudaMallocAsync allocation on a stream; the kernel gets a pointer
// FLAG_OFFSET ints past its start). Thread 0 of each block stores the row's largest output in the
// __device__ array g_max (exactly 64 blocks: one slot each).
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

static uint32_t g_seed = 2201u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256
#define ROWS 64
#define COLS 500
#define PAIRS (COLS / 2)
#define FLAG_OFFSET 40

struct Buffers {
  const int* in;
  int* out;
  int* flags;
  int factor;
};

__device__ int g_max[64];

// n: the row pitch of b.out in ints.
__global__ void scale_pairs(Buffers b, int n) {
  int row = blockIdx.x;
  const int* src = b.in + row * COLS;
  int* dst = b.out + (size_t)row * n;
  for (int k = threadIdx.x; k < PAIRS; k += blockDim.x) {
    int x = src[2 * k], y = src[2 * k + 1];
    dst[2 * k] = x * b.factor + y;
    dst[2 * k + 1] = y * b.factor + x;
    b.flags[row * PAIRS + k] = x > y ? 1 : 0;
  }
  if (threadIdx.x == 0) {
    int m = 0;
    for (int c = 0; c < COLS; c += 2) {
      int x = src[c], y = src[c + 1];
      m = max(m, max(x, y) * b.factor + min(x, y));
    }
    g_max[blockIdx.x % 64] = m;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int factor = 3;
  const size_t flag_count = FLAG_OFFSET + ROWS * PAIRS;
  std::vector<int> h_in(ROWS * COLS), h_out(ROWS * COLS), h_flags(flag_count), h_max(64);
  for (int i = 0; i < ROWS * COLS; ++i) h_in[i] = int(lcg() % 1000);

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int *d_in = nullptr, *d_out = nullptr, *d_flags = nullptr;
  size_t pitch = 0;
  CHECK(cudaMalloc(&d_in, ROWS * COLS * sizeof(int)));
  CHECK(cudaMallocPitch(&d_out, &pitch, COLS * sizeof(int), ROWS));
  if (pitch % sizeof(int) != 0) {
    fprintf(stderr, "pitch %zu is not a multiple of sizeof(int)\n", pitch);
    return 2;
  }
  CHECK(cudaMallocAsync(&d_flags, flag_count * sizeof(int), stream));
  CHECK(cudaMemcpyAsync(d_in, h_in.data(), ROWS * COLS * sizeof(int), cudaMemcpyHostToDevice,
                        stream));
  CHECK(cudaMemset2DAsync(d_out, pitch, 0, COLS * sizeof(int), ROWS, stream));
  CHECK(cudaMemsetAsync(d_flags, 0xff, flag_count * sizeof(int), stream));  // -1 everywhere

  Buffers b;
  b.in = d_in;
  b.out = d_out;
  b.flags = d_flags + FLAG_OFFSET;
  b.factor = factor;
  scale_pairs<<<ROWS, BLOCK, 0, stream>>>(b, int(pitch / sizeof(int)));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2DAsync(h_out.data(), COLS * sizeof(int), d_out, pitch, COLS * sizeof(int), ROWS,
                          cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(h_flags.data(), d_flags, flag_count * sizeof(int), cudaMemcpyDeviceToHost,
                        stream));
  CHECK(cudaFreeAsync(d_flags, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpyFromSymbol(h_max.data(), g_max, 64 * sizeof(int)));

  bool ok = true;
  for (int i = 0; i < FLAG_OFFSET; ++i)
    if (h_flags[i] != -1) ok = false;
  for (int r = 0; r < ROWS; ++r) {
    int m = 0;
    for (int k = 0; k < PAIRS; ++k) {
      int x = h_in[r * COLS + 2 * k], y = h_in[r * COLS + 2 * k + 1];
      if (h_out[r * COLS + 2 * k] != x * factor + y) ok = false;
      if (h_out[r * COLS + 2 * k + 1] != y * factor + x) ok = false;
      if (h_flags[FLAG_OFFSET + r * PAIRS + k] != (x > y ? 1 : 0)) ok = false;
      m = std::max(m, std::max(x * factor + y, y * factor + x));
    }
    if (h_max[r] != m) ok = false;
  }
  printf("out[0][0] %d  out[39][%d] %d  flags[0] %d  g_max[0] %d  g_max[63] %d  pitch %s\n",
         h_out[0], COLS - 1, h_out[39 * COLS + COLS - 1], h_flags[FLAG_OFFSET], h_max[0], h_max[63],
         pitch >= COLS * sizeof(int) ? "ok" : "too small");
  uint64_t h = fnv1a(h_out.data(), h_out.size() * sizeof(int));
  h = fnv1a(h_flags.data(), h_flags.size() * sizeof(int), h);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_max.data(), h_max.size() * sizeof(int), h));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaStreamDestroy(stream));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
