// k-means clustering (Lloyd's algorithm) in the generalized-reduction style of the GPU data-mining
// codes. Each iteration is two launches:
//   kmeans_assign  139 blocks x 128 threads: the K centroids are staged in shared memory, every
//                  thread assigns its points to the nearest centroid and adds them into its warp's
//                  copy of the reduction object (per cluster: coordinate sums and a count; plus the
//                  number of points that changed cluster) with shared-memory integer atomics; the
//                  four warp copies are combined pairwise in shared memory and each block writes its
//                  partial object to global memory;
//   kmeans_update  1 block x 256 threads: adds the 139 partial objects in block order and computes
//                  the new centroids (the mean rounded to the nearest integer).
// 10 iterations. Coordinates are small integers held in floats and centroids stay on the integer
// grid, so every distance is exact and nothing depends on the order of an operation.
#include <cfloat>
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

static uint32_t g_seed = 13917u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }
static int rnd(int n) { return int((uint64_t)lcg() * (uint32_t)n >> 24); }  // 0..n-1 from the high bits

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define NBLOCKS 139
#define BLOCK 128
#define WARPS (BLOCK / 32)
#define D 4                                // features per point (one float4)
#define K 48                               // clusters
#define POINTS_PER_BLOCK (48 * BLOCK)      // 48 points per thread
#define N (NBLOCKS * POINTS_PER_BLOCK)     // 854016 points
#define SLOTS (K * (D + 1) + 1)            // reduction object: per cluster D sums + count; changed
#define CHANGED (SLOTS - 1)
#define ITERS 10

// Index of the centroid nearest to x (squared Euclidean distance, lowest index on ties).
__device__ int nearest_centroid(float4 x, const float (*cent)[D]) {
  int best = 0;
  float best_d2 = FLT_MAX;
  for (int c = 0; c < K; ++c) {
    float dx = x.x - cent[c][0], dy = x.y - cent[c][1], dz = x.z - cent[c][2], dw = x.w - cent[c][3];
    float d2 = dx * dx + dy * dy + dz * dz + dw * dw;
    if (d2 < best_d2) {
      best_d2 = d2;
      best = c;
    }
  }
  return best;
}

__global__ void kmeans_assign(const float4* points, const float* centroids, int* membership,
                              int* partial) {
  __shared__ float s_cent[K][D];
  __shared__ int s_red[WARPS][SLOTS];  // one copy of the reduction object per warp
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  for (int i = tid; i < K * D; i += BLOCK) s_cent[i / D][i % D] = centroids[i];
  for (int i = tid; i < WARPS * SLOTS; i += BLOCK) s_red[i / SLOTS][i % SLOTS] = 0;
  __syncthreads();

  int* red = s_red[warp];
  const int first = blockIdx.x * POINTS_PER_BLOCK;
  for (int p = first + tid; p < first + POINTS_PER_BLOCK; p += BLOCK) {
    float4 x = points[p];
    int c = nearest_centroid(x, s_cent);
    if (membership[p] != c) atomicAdd(&red[CHANGED], 1);
    membership[p] = c;
    int* obj = red + c * (D + 1);
    atomicAdd(&obj[0], (int)x.x);
    atomicAdd(&obj[1], (int)x.y);
    atomicAdd(&obj[2], (int)x.z);
    atomicAdd(&obj[3], (int)x.w);
    atomicAdd(&obj[D], 1);
  }
  __syncthreads();

  // Combine the warp copies pairwise: copy w += copy w + s, for s = WARPS/2 .. 1.
  for (int s = WARPS / 2; s > 0; s >>= 1) {
    for (int i = tid; i < s * SLOTS; i += BLOCK) s_red[i / SLOTS][i % SLOTS] += s_red[i / SLOTS + s][i % SLOTS];
    __syncthreads();
  }
  for (int i = tid; i < SLOTS; i += BLOCK) partial[blockIdx.x * SLOTS + i] = s_red[0][i];
}

__global__ void kmeans_update(const int* partial, float* centroids, int* sizes, int* changed, int iter) {
  __shared__ int s_total[SLOTS];
  const int tid = threadIdx.x;
  if (tid < SLOTS) {
    int sum = 0;
    for (int b = 0; b < NBLOCKS; ++b) sum += partial[b * SLOTS + tid];
    s_total[tid] = sum;
  }
  __syncthreads();
  if (tid < K * D) {
    int c = tid / D, d = tid % D;
    int count = s_total[c * (D + 1) + D];
    if (count > 0) centroids[tid] = (float)((s_total[c * (D + 1) + d] + count / 2) / count);
  }
  if (tid < K) sizes[tid] = s_total[tid * (D + 1) + D];
  if (tid == 0) changed[iter] = s_total[CHANGED];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  // Points around 40 centres in [24, 231]^4, coordinates clamped to [0, 255].
  const int centres = 40;
  std::vector<int> centre(centres * D);
  for (auto& v : centre) v = 24 + rnd(208);
  std::vector<float> h_points((size_t)N * D);
  for (int p = 0; p < N; ++p) {
    int c = rnd(centres);
    for (int d = 0; d < D; ++d) {
      int v = centre[c * D + d] + rnd(25) + rnd(25) - 24;
      h_points[(size_t)p * D + d] = float(v < 0 ? 0 : v > 255 ? 255 : v);
    }
  }
  // Initial centroids: K points spread over the input.
  std::vector<float> h_cent(K * D);
  for (int c = 0; c < K; ++c)
    for (int d = 0; d < D; ++d) h_cent[c * D + d] = h_points[(size_t)(c * (N / K) + 7) * D + d];

  float4* d_points = nullptr;
  float* d_cent = nullptr;
  int *d_member = nullptr, *d_partial = nullptr, *d_sizes = nullptr, *d_changed = nullptr;
  CHECK(cudaMalloc(&d_points, (size_t)N * sizeof(float4)));
  CHECK(cudaMalloc(&d_cent, K * D * sizeof(float)));
  CHECK(cudaMalloc(&d_member, N * sizeof(int)));
  CHECK(cudaMalloc(&d_partial, NBLOCKS * SLOTS * sizeof(int)));
  CHECK(cudaMalloc(&d_sizes, K * sizeof(int)));
  CHECK(cudaMalloc(&d_changed, ITERS * sizeof(int)));
  CHECK(cudaMemcpy(d_points, h_points.data(), (size_t)N * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cent, h_cent.data(), K * D * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_member, 0xff, N * sizeof(int)));  // no point has a cluster yet
  CHECK(cudaMemset(d_sizes, 0, K * sizeof(int)));
  CHECK(cudaMemset(d_changed, 0, ITERS * sizeof(int)));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int iter = 0; iter < ITERS; ++iter) {
    kmeans_assign<<<NBLOCKS, BLOCK>>>(d_points, d_cent, d_member, d_partial);
    CHECK(cudaGetLastError());
    kmeans_update<<<1, 256>>>(d_partial, d_cent, d_sizes, d_changed, iter);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  fprintf(stderr, "gpu_ms %.3f\n", ms);

  std::vector<int> h_member(N), h_sizes(K), h_changed(ITERS);
  std::vector<float> h_out(K * D);
  CHECK(cudaMemcpy(h_member.data(), d_member, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out.data(), d_cent, K * D * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_sizes.data(), d_sizes, K * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_changed.data(), d_changed, ITERS * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: the same iterations on integers, one point at a time.
  std::vector<int> ref_cent(K * D), ref_member(N, -1), ref_sizes(K, 0), ref_changed(ITERS);
  for (int i = 0; i < K * D; ++i) ref_cent[i] = int(h_cent[i]);
  for (int iter = 0; iter < ITERS; ++iter) {
    std::vector<long long> sum(K * D, 0);
    std::vector<int> count(K, 0);
    int moved = 0;
    for (int p = 0; p < N; ++p) {
      int best = 0, best_d2 = 0;
      for (int c = 0; c < K; ++c) {
        int d2 = 0;
        for (int d = 0; d < D; ++d) {
          int diff = int(h_points[(size_t)p * D + d]) - ref_cent[c * D + d];
          d2 += diff * diff;
        }
        if (c == 0 || d2 < best_d2) {
          best_d2 = d2;
          best = c;
        }
      }
      if (ref_member[p] != best) ++moved;
      ref_member[p] = best;
      for (int d = 0; d < D; ++d) sum[best * D + d] += int(h_points[(size_t)p * D + d]);
      ++count[best];
    }
    for (int c = 0; c < K; ++c) {
      ref_sizes[c] = count[c];
      if (count[c] > 0)
        for (int d = 0; d < D; ++d) ref_cent[c * D + d] = int((sum[c * D + d] + count[c] / 2) / count[c]);
    }
    ref_changed[iter] = moved;
  }

  bool ok = h_member == ref_member && h_sizes == ref_sizes && h_changed == ref_changed;
  for (int i = 0; i < K * D; ++i)
    if (h_out[i] != float(ref_cent[i])) ok = false;

  printf("points %d  clusters %d  iterations %d\n", N, K, ITERS);
  printf("changed:");
  for (int iter = 0; iter < ITERS; ++iter) printf(" %d", h_changed[iter]);
  printf("\n");
  printf("centroid[0] %.0f %.0f %.0f %.0f  centroid[%d] %.0f %.0f %.0f %.0f\n", h_out[0], h_out[1], h_out[2],
         h_out[3], K - 1, h_out[(K - 1) * D], h_out[(K - 1) * D + 1], h_out[(K - 1) * D + 2],
         h_out[(K - 1) * D + 3]);
  printf("size[0] %d  size[%d] %d  membership[0] %d  membership[%d] %d\n", h_sizes[0], K - 1, h_sizes[K - 1],
         h_member[0], N - 1, h_member[N - 1]);
  uint64_t h = fnv1a(h_member.data(), N * sizeof(int));
  h = fnv1a(h_out.data(), K * D * sizeof(float), h);
  h = fnv1a(h_sizes.data(), K * sizeof(int), h);
  h = fnv1a(h_changed.data(), ITERS * sizeof(int), h);
  printf("hash %016llx\n", (unsigned long long)h);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_points));
  CHECK(cudaFree(d_cent));
  CHECK(cudaFree(d_member));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_sizes));
  CHECK(cudaFree(d_changed));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
