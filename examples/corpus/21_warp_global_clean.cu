// Warps of one block exchanging values through GLOBAL memory. Each block owns a 256-element
// segment of buf; thread t turns its input element into a tag (1..1000), reads the tag of lane t
// of the next warp (element (t + 32) % 256), adds it into its own element, and finally copies the
// next warp's updated element into out. Barriers separate every store from the other warps'
// reads, so nothing races; the blocks never touch each other's segments.
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

static uint32_t g_seed = 2101u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256

__global__ void exchange(int* buf, int* out) {
  int base = blockIdx.x * BLOCK;
  int mine = base + threadIdx.x;
  int other = base + (threadIdx.x + 32) % BLOCK;  // the same lane of the next warp
  buf[mine] = 1 + buf[mine] % 1000;
  __syncthreads();
  {
    int v = buf[other];  // another warp's store, read through global memory across the barrier
    __syncthreads();
    buf[mine] += v;
  }
  __syncthreads();
  out[mine] = buf[other];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int blocks = 96;
  const int n = blocks * BLOCK;
  std::vector<int> h_in(n), h_buf(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = int(lcg());

  int *d_buf = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_buf, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_buf, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, n * sizeof(int)));
  exchange<<<blocks, BLOCK>>>(d_buf, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_buf.data(), d_buf, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    auto tag = [&](int t) { return 1 + h_in[b * BLOCK + t] % 1000; };
    for (int t = 0; t < BLOCK; ++t) {
      int o = (t + 32) % BLOCK, o2 = (t + 64) % BLOCK;
      if (h_buf[b * BLOCK + t] != tag(t) + tag(o)) ok = false;
      if (h_out[b * BLOCK + t] != tag(o) + tag(o2)) ok = false;
    }
  }
  printf("buf[0] %d  buf[255] %d  out[0] %d  out[n-1] %d\n", h_buf[0], h_buf[255], h_out[0],
         h_out[n - 1]);
  uint64_t h = fnv1a(h_buf.data(), n * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(int), h));
  CHECK(cudaFree(d_buf));
  CHECK(cudaFree(d_out));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
