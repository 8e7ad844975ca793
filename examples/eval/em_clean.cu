// Expectation-maximization for a Gaussian mixture (8 components, diagonal covariances) over 2^20
// points of 8 features. Each iteration is two launches:
//   em_accumulate  8 blocks x 320 threads (10 warps): the model is staged in shared memory; each
//                  warp takes tiles of 32 points, a lane computes its point's responsibilities and
//                  log-likelihood and parks the responsibilities in the warp's slice of shared
//                  memory, then every lane adds the tile into the statistics it owns (feature
//                  lane % 8 of components lane / 8 and lane / 8 + 4: the sums of r (x - mu) and
//                  r (x - mu)^2; lanes 0..7 also the sum of r). At the end each warp stores its
//                  partial statistics in its own row of the shared table s_acc and the rows are
//                  added in warp order into the block's partial in global memory;
//   em_update      1 block: adds the 8 partials in block order and computes the new weights,
//                  means and variances.
// 10 iterations. All sums are in a fixed order and products are fused explicitly (fmaf), so the
// result is the same on every run. The self-check compares with a double-precision CPU EM.
#include <cmath>
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

static uint32_t g_seed = 39830u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }
static int rnd(int n) { return int((uint64_t)lcg() * (uint32_t)n >> 24); }  // 0..n-1 from the high bits

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define N (1 << 20)                        // points
#define D 8                                // features
#define K 8                                // mixture components
#define NBLOCKS 8
#define BLOCK 320
#define WARPS (BLOCK / 32)
#define POINTS_PER_BLOCK (N / NBLOCKS)
#define TILES_PER_BLOCK (POINTS_PER_BLOCK / 32)
#define NSTAT (K + 2 * K * D + 1)          // sum r per component; sum r (x - mu); sum r (x - mu)^2; log-likelihood
#define STAT_S(k, d) (K + (k) * D + (d))
#define STAT_Q(k, d) (K + K * D + (k) * D + (d))
#define STAT_LL (NSTAT - 1)
#define MIN_NK 1e-3f                       // a component with less weight keeps its parameters
#define VAR_FLOOR 1e-2f
#define ITERS 10

static_assert(D * K == 2 * 32, "a lane owns one feature of two components");

__global__ void em_accumulate(const float* points, const float* mu, const float* var, const float* weight,
                              float* partial) {
  __shared__ float s_mu[K][D];
  __shared__ float s_ivar[K][D];
  __shared__ float s_lconst[K];              // log weight - sum of log(var) / 2
  __shared__ float s_resp[WARPS][32][K];     // the responsibilities of each warp's current tile
  __shared__ float s_acc[WARPS][NSTAT];      // each warp's partial statistics
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  if (tid < K * D) {
    s_mu[tid / D][tid % D] = mu[tid];
    s_ivar[tid / D][tid % D] = 1.0f / var[tid];
  }
  if (tid < K) {
    float l = logf(weight[tid]);
    for (int d = 0; d < D; ++d) l = fmaf(-0.5f, logf(var[tid * D + d]), l);
    s_lconst[tid] = l;
  }
  for (int i = tid; i < WARPS * NSTAT; i += BLOCK) s_acc[i / NSTAT][i % NSTAT] = 0.0f;
  __syncthreads();

  const int fd = lane % D, k0 = lane / D, k1 = k0 + K / 2;  // the statistics this lane owns
  const float m0 = s_mu[k0][fd], m1 = s_mu[k1][fd];
  float nk = 0.0f, s0 = 0.0f, q0 = 0.0f, s1 = 0.0f, q1 = 0.0f, ll = 0.0f;
  for (int tile = warp; tile < TILES_PER_BLOCK; tile += WARPS) {
    const int first = blockIdx.x * POINTS_PER_BLOCK + tile * 32;
    // E-step for this lane's point.
    const float4* px = reinterpret_cast<const float4*>(points + (size_t)(first + lane) * D);
    float4 a = px[0], b = px[1];
    float x[D] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    float e[K];
    float emax = -INFINITY;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      float t = s_lconst[k];
#pragma unroll
      for (int d = 0; d < D; ++d) {
        float diff = x[d] - s_mu[k][d];
        t = fmaf(-0.5f * diff * diff, s_ivar[k][d], t);
      }
      e[k] = t;
      emax = fmaxf(emax, t);
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      e[k] = expf(e[k] - emax);
      sum += e[k];
    }
    const float inv = 1.0f / sum;
#pragma unroll
    for (int k = 0; k < K; ++k) s_resp[warp][lane][k] = e[k] * inv;
    ll += emax + logf(sum);
    __syncwarp();
    // M-step statistics: this lane's feature of its components over the tile's 32 points, in order.
    for (int j = 0; j < 32; ++j) {
      const float xd = points[(size_t)(first + j) * D + fd];
      const float r0 = s_resp[warp][j][k0], r1 = s_resp[warp][j][k1];
      const float c0 = xd - m0, c1 = xd - m1;
      s0 = fmaf(r0, c0, s0);
      q0 = fmaf(r0 * c0, c0, q0);
      s1 = fmaf(r1, c1, s1);
      q1 = fmaf(r1 * c1, c1, q1);
      if (lane < K) nk += s_resp[warp][j][lane];
    }
    __syncwarp();  // the next tile overwrites s_resp
  }
  for (int offset = 16; offset > 0; offset >>= 1) ll += __shfl_down_sync(0xffffffffu, ll, offset);

  float* row = s_acc[tid / 32];  // this warp's row of the table
  if (lane < K) row[lane] = nk;
  row[STAT_S(k0, fd)] = s0;
  row[STAT_Q(k0, fd)] = q0;
  row[STAT_S(k1, fd)] = s1;
  row[STAT_Q(k1, fd)] = q1;
  if (lane == 0) row[STAT_LL] = ll;
  __syncthreads();
  for (int i = tid; i < NSTAT; i += BLOCK) {
    float total = 0.0f;
    for (int w = 0; w < WARPS; ++w) total += s_acc[w][i];
    partial[blockIdx.x * NSTAT + i] = total;
  }
}

__global__ void em_update(const float* partial, float* mu, float* var, float* weight, float* loglik, int iter) {
  __shared__ float s_total[NSTAT];
  const int tid = threadIdx.x;
  if (tid < NSTAT) {
    float total = 0.0f;
    for (int b = 0; b < NBLOCKS; ++b) total += partial[b * NSTAT + tid];
    s_total[tid] = total;
  }
  __syncthreads();
  if (tid < K * D) {
    const int k = tid / D, d = tid % D;
    const float nk = s_total[k];
    if (nk > MIN_NK) {
      const float shift = s_total[STAT_S(k, d)] / nk;  // new mean - old mean
      const float v = fmaf(-shift, shift, s_total[STAT_Q(k, d)] / nk);
      mu[tid] += shift;
      var[tid] = fmaxf(v, VAR_FLOOR);
    }
  }
  if (tid < K && s_total[tid] > MIN_NK) weight[tid] = s_total[tid] / (float)N;
  if (tid == 0) loglik[iter] = s_total[STAT_LL];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  // Points from 8 Gaussians with integer centres in [-40, 40] and standard deviations 2..9 per
  // feature (normal deviates approximated by a sum of four uniforms).
  std::vector<double> centre(K * D), sd(K * D);
  for (int i = 0; i < K * D; ++i) {
    centre[i] = rnd(81) - 40;
    sd[i] = 2 + rnd(8);
  }
  std::vector<float> h_points((size_t)N * D);
  for (int p = 0; p < N; ++p) {
    int c = rnd(K);
    for (int d = 0; d < D; ++d) {
      double z = (rnd(1024) + rnd(1024) + rnd(1024) + rnd(1024) - 2046.0) / 591.0;
      h_points[(size_t)p * D + d] = float(centre[c * D + d] + sd[c * D + d] * z);
    }
  }
  // Initial model: means at K input points, variance 100, equal weights.
  std::vector<float> h_mu(K * D), h_var(K * D, 100.0f), h_weight(K, 1.0f / K);
  for (int k = 0; k < K; ++k)
    for (int d = 0; d < D; ++d) h_mu[k * D + d] = h_points[(size_t)(k * 131071 + 4099) * D + d];

  float *d_points, *d_mu, *d_var, *d_weight, *d_partial, *d_loglik;
  CHECK(cudaMalloc(&d_points, (size_t)N * D * sizeof(float)));
  CHECK(cudaMalloc(&d_mu, K * D * sizeof(float)));
  CHECK(cudaMalloc(&d_var, K * D * sizeof(float)));
  CHECK(cudaMalloc(&d_weight, K * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, NBLOCKS * NSTAT * sizeof(float)));
  CHECK(cudaMalloc(&d_loglik, ITERS * sizeof(float)));
  CHECK(cudaMemcpy(d_points, h_points.data(), (size_t)N * D * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_mu, h_mu.data(), K * D * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_var, h_var.data(), K * D * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_weight, h_weight.data(), K * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_loglik, 0, ITERS * sizeof(float)));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int iter = 0; iter < ITERS; ++iter) {
    em_accumulate<<<NBLOCKS, BLOCK>>>(d_points, d_mu, d_var, d_weight, d_partial);
    CHECK(cudaGetLastError());
    em_update<<<1, 160>>>(d_partial, d_mu, d_var, d_weight, d_loglik, iter);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  fprintf(stderr, "gpu_ms %.3f\n", ms);

  std::vector<float> g_mu(K * D), g_var(K * D), g_weight(K), g_loglik(ITERS);
  CHECK(cudaMemcpy(g_mu.data(), d_mu, K * D * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_var.data(), d_var, K * D * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_weight.data(), d_weight, K * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_loglik.data(), d_loglik, ITERS * sizeof(float), cudaMemcpyDeviceToHost));

  // CPU reference: the same EM in double precision, one point at a time.
  std::vector<double> mu(h_mu.begin(), h_mu.end()), var(h_var.begin(), h_var.end()),
      weight(h_weight.begin(), h_weight.end()), ref_loglik(ITERS);
  for (int iter = 0; iter < ITERS; ++iter) {
    std::vector<double> nk(K, 0.0), s(K * D, 0.0), q(K * D, 0.0), lconst(K);
    double ll = 0.0;
    for (int k = 0; k < K; ++k) {
      lconst[k] = std::log(weight[k]);
      for (int d = 0; d < D; ++d) lconst[k] -= 0.5 * std::log(var[k * D + d]);
    }
    for (int p = 0; p < N; ++p) {
      const float* x = &h_points[(size_t)p * D];
      double e[K], emax = -INFINITY, sum = 0.0;
      for (int k = 0; k < K; ++k) {
        e[k] = lconst[k];
        for (int d = 0; d < D; ++d) {
          double diff = x[d] - mu[k * D + d];
          e[k] -= 0.5 * diff * diff / var[k * D + d];
        }
        emax = std::max(emax, e[k]);
      }
      for (int k = 0; k < K; ++k) sum += (e[k] = std::exp(e[k] - emax));
      ll += emax + std::log(sum);
      for (int k = 0; k < K; ++k) {
        double r = e[k] / sum;
        nk[k] += r;
        for (int d = 0; d < D; ++d) {
          double c = x[d] - mu[k * D + d];
          s[k * D + d] += r * c;
          q[k * D + d] += r * c * c;
        }
      }
    }
    ref_loglik[iter] = ll;
    for (int k = 0; k < K; ++k) {
      if (nk[k] <= MIN_NK) continue;
      for (int d = 0; d < D; ++d) {
        double shift = s[k * D + d] / nk[k];
        mu[k * D + d] += shift;
        var[k * D + d] = std::max(q[k * D + d] / nk[k] - shift * shift, (double)VAR_FLOOR);
      }
      weight[k] = nk[k] / N;
    }
  }
  bool ok = true;
  double worst = 0.0;
  auto near = [&](float got, double want, double tol) {
    double err = std::fabs(got - want) / (1.0 + std::fabs(want));
    worst = std::max(worst, err / tol);
    if (!(err <= tol)) ok = false;
  };
  for (int i = 0; i < K * D; ++i) {
    near(g_mu[i], mu[i], 1e-3);
    near(g_var[i], var[i], 1e-3);
  }
  for (int k = 0; k < K; ++k) near(g_weight[k], weight[k], 1e-3);
  for (int iter = 0; iter < ITERS; ++iter) near(g_loglik[iter], ref_loglik[iter], 1e-4);
  if (!ok) fprintf(stderr, "largest deviation from the CPU reference: %.2f x the tolerance\n", worst);

  printf("points %d  features %d  components %d  iterations %d\n", N, D, K, ITERS);
  printf("loglik first %.1f  last %.1f\n", g_loglik[0], g_loglik[ITERS - 1]);
  printf("weight:");
  for (int k = 0; k < K; ++k) printf(" %.5f", g_weight[k]);
  printf("\nmu[0] %.4f %.4f  var[0] %.4f %.4f  mu[%d] %.4f  var[%d] %.4f\n", g_mu[0], g_mu[1], g_var[0], g_var[1],
         K * D - 1, g_mu[K * D - 1], K * D - 1, g_var[K * D - 1]);
  uint64_t h = fnv1a(g_mu.data(), K * D * sizeof(float));
  h = fnv1a(g_var.data(), K * D * sizeof(float), h);
  h = fnv1a(g_weight.data(), K * sizeof(float), h);
  h = fnv1a(g_loglik.data(), ITERS * sizeof(float), h);
  printf("hash %016llx\n", (unsigned long long)h);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_points));
  CHECK(cudaFree(d_mu));
  CHECK(cudaFree(d_var));
  CHECK(cudaFree(d_weight));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_loglik));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
