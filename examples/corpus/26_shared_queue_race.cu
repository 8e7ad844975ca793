// Event extraction (stream compaction per block): each 1024-thread block scans its 4096 samples,
// pushes the indices of the samples above a threshold onto a work queue in shared memory, then
// copies the queue to its slot of out and stores the queue length in count[blockIdx.x].
// RACE (write-write, shared s_tail, between warps): a thread that keeps a sample claims a slot
// with a plain read of the tail, a store into that slot and a plain store of tail + 1, instead of
// atomicAdd(&s_tail, 1). Warps whose pushes overlap read the same tail, write the same slot and
// lose each other's events; which ones overlap depends on when each warp's sample loads return,
// so count and out change from run to run. In ldcc's terms every warp that pushes changes s_tail
// (and slots of s_queue) in its private copy: a write-write race on s_tail (and on s_queue; the
// tail is also read and written by every warp, reported as ww). The queue holds every possible
// push (the tail never exceeds the number of pushes), so no access leaves the array; out and
// count are written by their own block only.
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

static uint32_t g_seed = 2602u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 1024
#define ITEMS 4
#define CAP (BLOCK * ITEMS)  // samples per block = queue capacity
#define BLOCKS 1024

__global__ void extract_events(const int* samples, int threshold, int* out, int* count, int n) {
  __shared__ int s_queue[CAP];
  __shared__ int s_tail;
  for (int i = threadIdx.x; i < CAP; i += blockDim.x) s_queue[i] = -1;
  if (threadIdx.x == 0) s_tail = 0;
  __syncthreads();
  int base = blockIdx.x * CAP;
  for (int k = 0; k < ITEMS; ++k) {
    int idx = base + k * BLOCK + threadIdx.x;
    if (idx < n && samples[idx] > threshold) {
      int pos = s_tail;  // race: the slot is claimed without an atomic
      s_queue[pos] = idx;
      s_tail = pos + 1;
    }
  }
  __syncthreads();
  int len = s_tail;
  for (int i = threadIdx.x; i < len; i += blockDim.x) out[base + i] = s_queue[i];
  if (threadIdx.x == 0) count[blockIdx.x] = len;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = BLOCKS * CAP - 500;
  const int threshold = 980;  // about 2% of the samples are events
  std::vector<int> h_samples(n), h_out(BLOCKS * CAP), h_count(BLOCKS);
  int true_events = 0;
  for (int i = 0; i < n; ++i) {
    h_samples[i] = int(lcg() % 1000);
    if (h_samples[i] > threshold) ++true_events;
  }

  int *d_samples = nullptr, *d_out = nullptr, *d_count = nullptr;
  CHECK(cudaMalloc(&d_samples, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, BLOCKS * CAP * sizeof(int)));
  CHECK(cudaMalloc(&d_count, BLOCKS * sizeof(int)));
  CHECK(cudaMemcpy(d_samples, h_samples.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, BLOCKS * CAP * sizeof(int)));
  CHECK(cudaMemset(d_count, 0, BLOCKS * sizeof(int)));
  extract_events<<<BLOCKS, BLOCK>>>(d_samples, threshold, d_out, d_count, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, BLOCKS * CAP * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_count.data(), d_count, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost));

  long long events = 0;
  for (int b = 0; b < BLOCKS; ++b) events += h_count[b];
  printf("count[0] %d  count[1] %d  count[last] %d  out[0] %d  events %lld (true %d)\n", h_count[0],
         h_count[1], h_count[BLOCKS - 1], h_out[0], events, true_events);
  uint64_t h = fnv1a(h_count.data(), BLOCKS * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), BLOCKS * CAP * sizeof(int), h));
  CHECK(cudaFree(d_samples));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_count));
  return 0;
}
