// Advancing the random-number states of 131072 simulated particles by one LCG step in place
// (state = state * 1664525 + 1013904223), with a grid-stride loop over 512 blocks of 256 threads.
// RACE (write-write, global state, between blocks): the loop strides by blockDim.x instead of
// blockDim.x * gridDim.x, so block b walks every state from b * 256 to the end: the state in
// segment s is advanced by blocks 0..s, concurrently, with plain read-modify-writes. Steps of
// different blocks that overlap in time are lost, so each state ends up advanced some
// timing-dependent number of times between 1 and s + 1 and the states change from run to run
// (only segment 0, which block 0 alone walks, is right). In ldcc's terms blocks b and b' < b both
// change every state from b * 256 on in their private copies: a write-write race (the states are
// also read by every block: one race per element, reported as ww). There is no shared memory.
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

static uint32_t g_seed = 3208u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define PARTICLES 131072
#define BLOCK 256

__global__ void advance_rng(unsigned* state, int n) {
  // race: the stride should be blockDim.x * gridDim.x
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    state[i] = state[i] * 1664525u + 1013904223u;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = PARTICLES;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<unsigned> h_state(n), ref(n);
  for (int i = 0; i < n; ++i) {
    h_state[i] = lcg() ^ (lcg() << 24);
    ref[i] = h_state[i] * 1664525u + 1013904223u;
  }

  unsigned* d_state = nullptr;
  CHECK(cudaMalloc(&d_state, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_state, h_state.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  advance_rng<<<blocks, BLOCK>>>(d_state, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_state.data(), d_state, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  int right = 0;
  for (int i = 0; i < n; ++i) right += h_state[i] == ref[i];
  printf("state[0] %u (true %u)  state[%d] %u (true %u)  state[last] %u  advanced once %d of %d\n",
         h_state[0], ref[0], BLOCK, h_state[BLOCK], ref[BLOCK], h_state[n - 1], right, n);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_state.data(), n * sizeof(unsigned)));
  CHECK(cudaFree(d_state));
  return 0;
}
