// Run labelling with cooperative groups: in each block's 256-element segment of a 0/1 mask,
// every foreground element gets the label (index + 1) of the last element of its run. Labels
// propagate by neighbour max until no thread changes (__syncthreads_or); __syncthreads_count
// then counts the runs (runs are cut at block boundaries).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
              cudaGetErrorString(err_));                                   \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static uint32_t g_seed = 1414u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void label_runs(const int* mask, int* labels, int* run_count, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int lab[BLOCK + 2];  // lab[0] and lab[BLOCK + 1] are background padding
  int t = block.thread_rank();
  int gid = blockIdx.x * BLOCK + t;
  int i = t + 1;
  bool fg = gid < n && mask[gid] != 0;
  lab[i] = fg ? gid + 1 : 0;
  if (t == 0) lab[0] = lab[BLOCK + 1] = 0;
  block.sync();
  for (int iter = 0; iter < BLOCK; ++iter) {
    int v = fg ? max(lab[i], max(lab[i - 1], lab[i + 1])) : 0;
    block.sync();
    bool changed = v != lab[i];
    lab[i] = v;
    if (!__syncthreads_or(changed)) break;
  }
  int runs = __syncthreads_count(fg && lab[i + 1] == 0);  // foreground followed by background
  if (gid < n) labels[gid] = lab[i];
  if (t == 0) run_count[blockIdx.x] = runs;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = 50 * BLOCK - 30;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<int> h_mask(n), h_labels(n), h_runs(blocks);
  for (int i = 0; i < n; ++i) h_mask[i] = (lcg() % 10 < 8) ? 1 : 0;  // runs of ~5, some long

  int *d_mask = nullptr, *d_labels = nullptr, *d_runs = nullptr;
  CHECK(cudaMalloc(&d_mask, n * sizeof(int)));
  CHECK(cudaMalloc(&d_labels, n * sizeof(int)));
  CHECK(cudaMalloc(&d_runs, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_mask, h_mask.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  label_runs<<<blocks, BLOCK>>>(d_mask, d_labels, d_runs, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_labels.data(), d_labels, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_runs.data(), d_runs, blocks * sizeof(int), cudaMemcpyDeviceToHost));

  bool ok = true;
  int total_runs = 0;
  for (int b = 0; b < blocks; ++b) {
    int end = (b + 1) * BLOCK < n ? (b + 1) * BLOCK : n, runs = 0, label = 0;
    for (int i = end - 1; i >= b * BLOCK; --i) {  // right to left: remember the run's last index
      bool fg = h_mask[i] != 0, next_fg = i + 1 < end && h_mask[i + 1] != 0;
      if (fg && !next_fg) { label = i + 1; ++runs; }
      if (h_labels[i] != (fg ? label : 0)) ok = false;
    }
    if (h_runs[b] != runs) ok = false;
    total_runs += h_runs[b];
  }
  printf("labels[0] %d  labels[255] %d  labels[n-1] %d  runs[0] %d  total runs %d\n", h_labels[0],
         h_labels[255], h_labels[n - 1], h_runs[0], total_runs);
  uint64_t h = fnv1a(h_labels.data(), n * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_runs.data(), blocks * sizeof(int), h));
  CHECK(cudaFree(d_mask));
  CHECK(cudaFree(d_labels));
  CHECK(cudaFree(d_runs));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
