// Per-frame statistics of a sampled signal: 8192 frames of 1024 samples; 1024 blocks of 256
// threads walk the frames with a grid-stride loop (8 frames each, the same amount of work for
// every block), reduce each frame's sum, minimum and maximum in shared memory and store them in
// stats[3 * frame ...]. A 4-int summary {frame, sum, min, max} of the newest frame (frames - 1)
// is meant for a live display.
// RACE (write-write, global summary, between blocks): the author reasoned that the last iteration
// of the grid-stride loop handles the newest frame, so thread 0 writes its block's last frame into
// summary after the loop. That holds for one block only; every block writes summary[0..3] with
// its own last frame (blockIdx.x + 7 * 1024). The blocks do equal work and finish at about the same
// time, so which block stores last, and whether the four stores of different blocks interleave,
// changes from run to run. In ldcc's terms every block changes summary in its private copy (frame
// numbers differ): a write-write race. stats and the shared-memory reductions are race-free.
#include <climits>
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

static uint32_t g_seed = 2905u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define FRAME 1024
#define FRAMES 8192
#define GRID 1024
#define BLOCK 256

__global__ void frame_stats(const int* samples, int* stats, int* summary, int frames) {
  __shared__ int s_sum[BLOCK], s_min[BLOCK], s_max[BLOCK];
  int tid = threadIdx.x;
  int last_frame = -1, last_sum = 0, last_min = 0, last_max = 0;
  for (int f = blockIdx.x; f < frames; f += gridDim.x) {
    const int* x = samples + (size_t)f * FRAME;
    int sum = 0, lo = INT_MAX, hi = INT_MIN;
    for (int i = tid; i < FRAME; i += blockDim.x) {
      int v = x[i];
      sum += v;
      lo = min(lo, v);
      hi = max(hi, v);
    }
    s_sum[tid] = sum;
    s_min[tid] = lo;
    s_max[tid] = hi;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        s_sum[tid] += s_sum[tid + s];
        s_min[tid] = min(s_min[tid], s_min[tid + s]);
        s_max[tid] = max(s_max[tid], s_max[tid + s]);
      }
      __syncthreads();
    }
    if (tid == 0) {
      stats[3 * f] = s_sum[0];
      stats[3 * f + 1] = s_min[0];
      stats[3 * f + 2] = s_max[0];
      last_frame = f;
      last_sum = s_sum[0];
      last_min = s_min[0];
      last_max = s_max[0];
    }
    __syncthreads();
  }
  // Summary of the newest frame, assumed to be the one the loop's last iteration handled.
  if (tid == 0) {  // race: every block gets here with its own last frame
    summary[0] = last_frame;
    summary[1] = last_sum;
    summary[2] = last_min;
    summary[3] = last_max;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t n = (size_t)FRAMES * FRAME;
  // A slow ramp with noise: every frame has its own sum, minimum and maximum.
  std::vector<int> h_samples(n), h_stats(3 * FRAMES), h_summary(4);
  for (size_t i = 0; i < n; ++i) h_samples[i] = int(i / 4096) + int(lcg() % 2000) - 1000;

  int *d_samples = nullptr, *d_stats = nullptr, *d_summary = nullptr;
  CHECK(cudaMalloc(&d_samples, n * sizeof(int)));
  CHECK(cudaMalloc(&d_stats, 3 * FRAMES * sizeof(int)));
  CHECK(cudaMalloc(&d_summary, 4 * sizeof(int)));
  CHECK(cudaMemcpy(d_samples, h_samples.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_stats, 0, 3 * FRAMES * sizeof(int)));
  CHECK(cudaMemset(d_summary, 0, 4 * sizeof(int)));
  frame_stats<<<GRID, BLOCK>>>(d_samples, d_stats, d_summary, FRAMES);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_stats.data(), d_stats, 3 * FRAMES * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_summary.data(), d_summary, 4 * sizeof(int), cudaMemcpyDeviceToHost));

  const int last = FRAMES - 1;
  printf("frame %d: sum %d min %d max %d  summary: frame %d sum %d min %d max %d\n", last,
         h_stats[3 * last], h_stats[3 * last + 1], h_stats[3 * last + 2], h_summary[0],
         h_summary[1], h_summary[2], h_summary[3]);
  uint64_t h = fnv1a(h_stats.data(), 3 * FRAMES * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_summary.data(), 4 * sizeof(int), h));
  CHECK(cudaFree(d_samples));
  CHECK(cudaFree(d_stats));
  CHECK(cudaFree(d_summary));
  return 0;
}
