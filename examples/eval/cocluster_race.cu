// Bregman co-clustering, racy version of cocluster_clean.cu with the read-write race on shared
// memory that the LD paper found in cocluster: in tile_cluster_sums, the per-quarter statistics
// table s_quarter is read by some warps while others still update it, without a barrier. The
// barrier between the quarter sums and their pairwise combination is missing, so threads 0..143
// (warps 0-4) add quarters 2 and 3 into quarters 0 and 1 while threads 144..255 and 0..31 (warps
// 0 and 4-7) are still writing quarters 2 and 3. The helper is called by both cocluster_rows and
// cocluster_cols, so both kernels race; sums taken too early change the statistics, the means and
// the labels, so the output can vary between runs.
// Everything else is as in cocluster_clean.cu: a 2048 x 4096 count matrix, 8 row and 8 column
// clusters, 8 blocks x 256 threads, one statistics pass and 5 iterations of rows, stats, columns,
// stats. Prints the hash of the result and exits 0 (no reference check).
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

static uint32_t g_seed = 110878u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }
static int rnd(int n) { return int((uint64_t)lcg() * (uint32_t)n >> 24); }  // 0..n-1 from the high bits

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define ROWS 2048
#define COLS 4096
#define NCL 8                              // clusters per dimension (row clusters, column clusters)
#define NBLOCKS 8
#define BLOCK 256
#define COLS_PER_BLOCK (COLS / NBLOCKS)    // 512: two tiles of BLOCK columns
#define PW (NCL + 1)                       // profile: a sum per cluster of the other dimension, a count
#define SLOTS (NCL * PW)                   // statistics: a profile per cluster
#define QUARTER (BLOCK / 4)
#define ITERS 5
#define SCALE 256                          // co-cluster means are kept as round(SCALE * mean)

// Adds up, for every (cluster, profile entry) slot, the profiles prof[r] of the BLOCK rows (or
// columns) of the tile whose label lab[r] is that cluster: the four quarters of the tile in
// parallel, then the quarters pairwise. Called by every thread; threads < SLOTS get their slot's sum.
__device__ int tile_cluster_sums(const int (*prof)[PW], const int* lab, int (*quarter)[SLOTS]) {
  const int tid = threadIdx.x;
  for (int i = tid; i < 4 * SLOTS; i += BLOCK) {
    int q = i / SLOTS, slot = i % SLOTS, c = slot / PW, j = slot % PW;
    int sum = 0;
    for (int r = q * QUARTER; r < (q + 1) * QUARTER; ++r)
      if (lab[r] == c) sum += prof[r][j];
    quarter[q][slot] = sum;
  }
  // RACE: no barrier here; quarters 2 and 3 are read while other warps still write them.
  for (int i = tid; i < 2 * SLOTS; i += BLOCK) quarter[i / SLOTS][i % SLOTS] += quarter[i / SLOTS + 2][i % SLOTS];
  __syncthreads();
  int total = tid < SLOTS ? quarter[0][tid] + quarter[1][tid] : 0;
  __syncthreads();  // the caller refills prof, lab and quarter for its next tile
  return total;
}

__global__ void cocluster_rows(const int* A, const int* col_label, const int* mean, const int* col_size,
                               int* row_label, int* partial, int relabel) {
  __shared__ unsigned char s_col_label[COLS];
  __shared__ int s_mean[NCL][NCL];
  __shared__ int s_col_size[NCL];
  __shared__ int s_prof[BLOCK][PW];
  __shared__ int s_lab[BLOCK];
  __shared__ int s_quarter[4][SLOTS];
  const int tid = threadIdx.x;
  for (int y = tid; y < COLS; y += BLOCK) s_col_label[y] = (unsigned char)col_label[y];
  if (tid < NCL * NCL) s_mean[tid / NCL][tid % NCL] = mean[tid];
  if (tid < NCL) s_col_size[tid] = col_size[tid];
  __syncthreads();

  const int x = blockIdx.x * BLOCK + tid;
  int* prof = s_prof[tid];
  for (int h = 0; h < NCL; ++h) prof[h] = 0;
  prof[NCL] = 1;
  const int4* row = reinterpret_cast<const int4*>(A + (size_t)x * COLS);
  for (int y4 = 0; y4 < COLS / 4; ++y4) {
    int4 v = row[y4];
    prof[s_col_label[4 * y4 + 0]] += v.x;
    prof[s_col_label[4 * y4 + 1]] += v.y;
    prof[s_col_label[4 * y4 + 2]] += v.z;
    prof[s_col_label[4 * y4 + 3]] += v.w;
  }
  int label = row_label[x];
  if (relabel) {
    // Squared error of the row against row cluster g's co-cluster means, less the row's own sum of
    // squares: sum over column clusters h of size_h * mean^2 - 2 * mean * profile_h (times SCALE^2).
    long long best_cost = 0;
    for (int g = 0; g < NCL; ++g) {
      long long cost = 0;
      for (int h = 0; h < NCL; ++h) {
        long long m = s_mean[g][h];
        cost += m * ((long long)s_col_size[h] * m - 2LL * SCALE * prof[h]);
      }
      if (g == 0 || cost < best_cost) {
        best_cost = cost;
        label = g;
      }
    }
    row_label[x] = label;
  }
  s_lab[tid] = label;
  __syncthreads();
  int total = tile_cluster_sums(s_prof, s_lab, s_quarter);
  if (tid < SLOTS) partial[blockIdx.x * SLOTS + tid] = total;
}

__global__ void cocluster_cols(const int* A, const int* row_label, const int* mean, const int* row_size,
                               int* col_label, int* partial, int relabel) {
  __shared__ unsigned char s_row_label[ROWS];
  __shared__ int s_mean[NCL][NCL];
  __shared__ int s_row_size[NCL];
  __shared__ int s_prof[BLOCK][PW];
  __shared__ int s_lab[BLOCK];
  __shared__ int s_quarter[4][SLOTS];
  const int tid = threadIdx.x;
  for (int x = tid; x < ROWS; x += BLOCK) s_row_label[x] = (unsigned char)row_label[x];
  if (tid < NCL * NCL) s_mean[tid / NCL][tid % NCL] = mean[tid];
  if (tid < NCL) s_row_size[tid] = row_size[tid];
  __syncthreads();

  int acc = 0;
  for (int tile = 0; tile < COLS_PER_BLOCK / BLOCK; ++tile) {
    const int y = blockIdx.x * COLS_PER_BLOCK + tile * BLOCK + tid;
    int* prof = s_prof[tid];
    for (int g = 0; g < NCL; ++g) prof[g] = 0;
    prof[NCL] = 1;
    for (int x = 0; x < ROWS; ++x) prof[s_row_label[x]] += A[(size_t)x * COLS + y];
    int label = col_label[y];
    if (relabel) {
      long long best_cost = 0;
      for (int h = 0; h < NCL; ++h) {
        long long cost = 0;
        for (int g = 0; g < NCL; ++g) {
          long long m = s_mean[g][h];
          cost += m * ((long long)s_row_size[g] * m - 2LL * SCALE * prof[g]);
        }
        if (h == 0 || cost < best_cost) {
          best_cost = cost;
          label = h;
        }
      }
      col_label[y] = label;
    }
    s_lab[tid] = label;
    __syncthreads();
    int tile_total = tile_cluster_sums(s_prof, s_lab, s_quarter);
    acc += tile_total;
  }
  if (tid < SLOTS) partial[blockIdx.x * SLOTS + tid] = acc;
}

// rows_pass: the partial statistics are per row cluster (slot g * PW + h, count at h = NCL) and
// the column sizes are current; otherwise per column cluster (slot h * PW + g) with current row sizes.
__global__ void cocluster_stats(const int* partial, int rows_pass, int* cosum, int* row_size, int* col_size,
                                int* mean) {
  __shared__ int s_total[SLOTS];
  const int tid = threadIdx.x;
  if (tid < SLOTS) {
    int sum = 0;
    for (int b = 0; b < NBLOCKS; ++b) sum += partial[b * SLOTS + tid];
    s_total[tid] = sum;
  }
  __syncthreads();
  if (tid < NCL * NCL) {
    int g = tid / NCL, h = tid % NCL;
    int sum, rs, cs;
    if (rows_pass) {
      sum = s_total[g * PW + h];
      rs = s_total[g * PW + NCL];
      cs = col_size[h];
    } else {
      sum = s_total[h * PW + g];
      rs = row_size[g];
      cs = s_total[h * PW + NCL];
    }
    int cells = rs * cs;
    cosum[tid] = sum;
    mean[tid] = cells > 0 ? (int)(((long long)SCALE * sum + cells / 2) / cells) : 0;
  }
  if (tid < NCL) {
    if (rows_pass)
      row_size[tid] = s_total[tid * PW + NCL];
    else
      col_size[tid] = s_total[tid * PW + NCL];
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  // Counts 0..31 with a planted 8 x 8 co-cluster structure (base level 0..23 plus noise 0..7);
  // the initial labels are random.
  std::vector<int> true_row(ROWS), true_col(COLS), base(NCL * NCL);
  for (auto& v : true_row) v = rnd(NCL);
  for (auto& v : true_col) v = rnd(NCL);
  for (auto& v : base) v = rnd(24);
  std::vector<int> h_A((size_t)ROWS * COLS);
  for (int x = 0; x < ROWS; ++x)
    for (int y = 0; y < COLS; ++y) h_A[(size_t)x * COLS + y] = base[true_row[x] * NCL + true_col[y]] + rnd(8);
  std::vector<int> h_row_label(ROWS), h_col_label(COLS), h_col_size(NCL, 0);
  for (auto& v : h_row_label) v = rnd(NCL);
  for (auto& v : h_col_label) v = rnd(NCL);
  for (int y = 0; y < COLS; ++y) ++h_col_size[h_col_label[y]];

  int *d_A, *d_row_label, *d_col_label, *d_partial, *d_cosum, *d_row_size, *d_col_size, *d_mean;
  CHECK(cudaMalloc(&d_A, (size_t)ROWS * COLS * sizeof(int)));
  CHECK(cudaMalloc(&d_row_label, ROWS * sizeof(int)));
  CHECK(cudaMalloc(&d_col_label, COLS * sizeof(int)));
  CHECK(cudaMalloc(&d_partial, NBLOCKS * SLOTS * sizeof(int)));
  CHECK(cudaMalloc(&d_cosum, NCL * NCL * sizeof(int)));
  CHECK(cudaMalloc(&d_row_size, NCL * sizeof(int)));
  CHECK(cudaMalloc(&d_col_size, NCL * sizeof(int)));
  CHECK(cudaMalloc(&d_mean, NCL * NCL * sizeof(int)));
  CHECK(cudaMemcpy(d_A, h_A.data(), (size_t)ROWS * COLS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_row_label, h_row_label.data(), ROWS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col_label, h_col_label.data(), COLS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col_size, h_col_size.data(), NCL * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_row_size, 0, NCL * sizeof(int)));
  CHECK(cudaMemset(d_mean, 0, NCL * NCL * sizeof(int)));
  CHECK(cudaMemset(d_cosum, 0, NCL * NCL * sizeof(int)));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  // Statistics of the initial labels.
  cocluster_rows<<<NBLOCKS, BLOCK>>>(d_A, d_col_label, d_mean, d_col_size, d_row_label, d_partial, 0);
  CHECK(cudaGetLastError());
  cocluster_stats<<<1, 128>>>(d_partial, 1, d_cosum, d_row_size, d_col_size, d_mean);
  CHECK(cudaGetLastError());
  for (int iter = 0; iter < ITERS; ++iter) {
    cocluster_rows<<<NBLOCKS, BLOCK>>>(d_A, d_col_label, d_mean, d_col_size, d_row_label, d_partial, 1);
    CHECK(cudaGetLastError());
    cocluster_stats<<<1, 128>>>(d_partial, 1, d_cosum, d_row_size, d_col_size, d_mean);
    CHECK(cudaGetLastError());
    cocluster_cols<<<NBLOCKS, BLOCK>>>(d_A, d_row_label, d_mean, d_row_size, d_col_label, d_partial, 1);
    CHECK(cudaGetLastError());
    cocluster_stats<<<1, 128>>>(d_partial, 0, d_cosum, d_row_size, d_col_size, d_mean);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  fprintf(stderr, "gpu_ms %.3f\n", ms);

  std::vector<int> g_row_label(ROWS), g_col_label(COLS), g_cosum(NCL * NCL), g_mean(NCL * NCL), g_row_size(NCL),
      g_col_size(NCL);
  CHECK(cudaMemcpy(g_row_label.data(), d_row_label, ROWS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_col_label.data(), d_col_label, COLS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_cosum.data(), d_cosum, NCL * NCL * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_mean.data(), d_mean, NCL * NCL * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_row_size.data(), d_row_size, NCL * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_col_size.data(), d_col_size, NCL * sizeof(int), cudaMemcpyDeviceToHost));

  printf("matrix %d x %d  clusters %d x %d  iterations %d\n", ROWS, COLS, NCL, NCL, ITERS);
  printf("row sizes:");
  for (int g = 0; g < NCL; ++g) printf(" %d", g_row_size[g]);
  printf("\ncolumn sizes:");
  for (int h = 0; h < NCL; ++h) printf(" %d", g_col_size[h]);
  printf("\nmean[0][0] %d  mean[0][1] %d  mean[7][7] %d  cosum[0][0] %d  cosum[7][7] %d\n", g_mean[0], g_mean[1],
         g_mean[NCL * NCL - 1], g_cosum[0], g_cosum[NCL * NCL - 1]);
  uint64_t h = fnv1a(g_row_label.data(), ROWS * sizeof(int));
  h = fnv1a(g_col_label.data(), COLS * sizeof(int), h);
  h = fnv1a(g_cosum.data(), NCL * NCL * sizeof(int), h);
  h = fnv1a(g_mean.data(), NCL * NCL * sizeof(int), h);
  h = fnv1a(g_row_size.data(), NCL * sizeof(int), h);
  h = fnv1a(g_col_size.data(), NCL * sizeof(int), h);
  printf("hash %016llx\n", (unsigned long long)h);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_row_label));
  CHECK(cudaFree(d_col_label));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_cosum));
  CHECK(cudaFree(d_row_size));
  CHECK(cudaFree(d_col_size));
  CHECK(cudaFree(d_mean));
  return 0;
}
