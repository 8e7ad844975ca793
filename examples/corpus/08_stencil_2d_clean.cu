// 2-D 5-point stencil on 16x16 tiles: each block stages its tile plus a one-cell halo in a 2-D
// shared array and runs SWEEPS Jacobi relaxations in place with the halo held fixed
// (block-Jacobi smoothing). Inputs are integers, so every value stays exact in float.
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

static uint32_t g_seed = 2718u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BX 16
#define BY 16
#define SWEEPS 4

// width and height are multiples of BX and BY; cells outside the grid count as 0.
__global__ void jacobi_2d(const float* in, float* out, int width, int height) {
  __shared__ float tile[BY + 2][BX + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
  int lx = tx + 1, ly = ty + 1;
  tile[ly][lx] = in[gy * width + gx];
  if (tx == 0) tile[ly][0] = (gx > 0) ? in[gy * width + gx - 1] : 0.0f;
  if (tx == BX - 1) tile[ly][BX + 1] = (gx + 1 < width) ? in[gy * width + gx + 1] : 0.0f;
  if (ty == 0) tile[0][lx] = (gy > 0) ? in[(gy - 1) * width + gx] : 0.0f;
  if (ty == BY - 1) tile[BY + 1][lx] = (gy + 1 < height) ? in[(gy + 1) * width + gx] : 0.0f;
  __syncthreads();
  for (int s = 0; s < SWEEPS; ++s) {
    float v = 0.25f * (tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1]);
    __syncthreads();
    tile[ly][lx] = v;
    __syncthreads();
  }
  out[gy * width + gx] = tile[ly][lx];
}

static void reference(const std::vector<float>& in, std::vector<float>& out, int w, int h) {
  float t[BY + 2][BX + 2], nt[BY + 2][BX + 2];
  auto at = [&](int x, int y) {
    return (x >= 0 && x < w && y >= 0 && y < h) ? in[y * w + x] : 0.0f;
  };
  for (int by = 0; by < h / BY; ++by)
    for (int bx = 0; bx < w / BX; ++bx) {
      for (int y = 0; y < BY + 2; ++y)
        for (int x = 0; x < BX + 2; ++x) t[y][x] = at(bx * BX + x - 1, by * BY + y - 1);
      for (int s = 0; s < SWEEPS; ++s) {
        for (int y = 1; y <= BY; ++y)
          for (int x = 1; x <= BX; ++x)
            nt[y][x] = 0.25f * (t[y - 1][x] + t[y + 1][x] + t[y][x - 1] + t[y][x + 1]);
        for (int y = 1; y <= BY; ++y)
          for (int x = 1; x <= BX; ++x) t[y][x] = nt[y][x];
      }
      for (int y = 0; y < BY; ++y)
        for (int x = 0; x < BX; ++x) out[(by * BY + y) * w + bx * BX + x] = t[y + 1][x + 1];
    }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int width = 128, height = 96, n = width * height;
  std::vector<float> h_in(n), h_out(n), ref(n);
  for (int i = 0; i < n; ++i) h_in[i] = float(lcg() % 256);

  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(BX, BY), grid(width / BX, height / BY);
  jacobi_2d<<<grid, block>>>(d_in, d_out, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

  reference(h_in, ref, width, height);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    if (h_out[i] != ref[i]) ok = false;
  printf("out[0] %.6f  out[17] %.6f  out[n/2] %.6f  out[n-1] %.6f\n", h_out[0], h_out[17],
         h_out[n / 2], h_out[n - 1]);
  printf("hash %016llx\n", (unsigned long long)fnv1a(h_out.data(), n * sizeof(float)));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
