// All-pairs gravitational n-body (after the CUDA SDK's nbody): 15360 bodies, 60 blocks of 256
// threads, one body per thread. Each block walks over all bodies in tiles of 256 positions staged
// in shared memory (float4 x, y, z, mass: 4 KB), starting at its own tile as the SDK does, and
// sums the softened accelerations in registers; then it integrates its bodies (kick, damping,
// drift) and writes the new positions into the second position array (double buffering: old_pos
// is only read, new_pos only written, each element by its own thread). The step size adapts:
// each block reduces max |a|^2 of its bodies (warp shuffles, one shared slot per warp) and folds
// it into *max_acc2 with an integer atomicMax on the float's bits (positive floats order like
// their bit patterns), and the host picks the next step's dt from it.
// Every float sum is done in a fixed order with explicit fmaf, so the output is the same bytes
// run to run; the CPU reference (double precision) is compared with a tolerance.
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

static uint32_t g_seed = 6101u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256
#define GRID 60
#define NBODY (GRID * BLOCK)
#define STEPS 4
#define SOFTENING2 0.01f  // eps^2
#define DAMPING 0.999f
#define DT_MAX 0.01f
#define ETA 0.05f

// Acceleration of body i by body j (mass in bj.w), added to ai.
__device__ float3 body_body_interaction(float4 bi, float4 bj, float3 ai) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float dist2 = fmaf(r.x, r.x, fmaf(r.y, r.y, fmaf(r.z, r.z, SOFTENING2)));
  float inv_dist = rsqrtf(dist2);
  float inv_dist3 = inv_dist * inv_dist * inv_dist;
  float s = bj.w * inv_dist3;
  ai.x = fmaf(r.x, s, ai.x);
  ai.y = fmaf(r.y, s, ai.y);
  ai.z = fmaf(r.z, s, ai.z);
  return ai;
}

__global__ void integrate_bodies(float4* new_pos, const float4* old_pos, float4* vel,
                                 float* max_acc2, float dt, int n) {
  __shared__ float4 s_pos[BLOCK];
  __shared__ float s_warp_max[BLOCK / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 my = old_pos[i];
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);
  int num_tiles = n / BLOCK;
  for (int t = 0; t < num_tiles; ++t) {
    int tile = (blockIdx.x + t) % num_tiles;  // every block starts at its own tile
    s_pos[threadIdx.x] = old_pos[tile * BLOCK + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < BLOCK; ++j) acc = body_body_interaction(my, s_pos[j], acc);
    __syncthreads();
  }

  float4 v = vel[i];
  v.x = fmaf(acc.x, dt, v.x) * DAMPING;
  v.y = fmaf(acc.y, dt, v.y) * DAMPING;
  v.z = fmaf(acc.z, dt, v.z) * DAMPING;
  my.x = fmaf(v.x, dt, my.x);
  my.y = fmaf(v.y, dt, my.y);
  my.z = fmaf(v.z, dt, my.z);
  new_pos[i] = my;
  vel[i] = v;

  // max |a|^2 of the block: shuffle within the warp, one shared slot per warp, thread 0 folds
  float a2 = fmaf(acc.x, acc.x, fmaf(acc.y, acc.y, acc.z * acc.z));
  for (int offset = 16; offset > 0; offset >>= 1)
    a2 = fmaxf(a2, __shfl_xor_sync(0xffffffffu, a2, offset));
  if ((threadIdx.x & 31) == 0) s_warp_max[threadIdx.x >> 5] = a2;
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = s_warp_max[0];
    for (int w = 1; w < BLOCK / 32; ++w) m = fmaxf(m, s_warp_max[w]);
    atomicMax(reinterpret_cast<int*>(max_acc2), __float_as_int(m));  // m >= 0
  }
}

// Step size for the next step from the largest acceleration of this one: dt = eta sqrt(eps / |a|).
static float next_dt(float max_acc2) {
  float amax = sqrtf(max_acc2);
  float dt = ETA * sqrtf(sqrtf(SOFTENING2) / amax);
  return dt < DT_MAX ? dt : DT_MAX;
}

// CPU reference in double precision, bodies summed in index order.
static void reference(std::vector<double>& pos, std::vector<double>& vel, std::vector<double>& dts,
                      const std::vector<float>& mass) {
  std::vector<double> npos(pos.size());
  double dt = DT_MAX;
  for (int s = 0; s < STEPS; ++s) {
    double max_a2 = 0.0;
    for (int i = 0; i < NBODY; ++i) {
      double ax = 0.0, ay = 0.0, az = 0.0;
      const double xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      for (int j = 0; j < NBODY; ++j) {
        double rx = pos[3 * j] - xi, ry = pos[3 * j + 1] - yi, rz = pos[3 * j + 2] - zi;
        double d2 = rx * rx + ry * ry + rz * rz + (double)SOFTENING2;
        double inv = 1.0 / std::sqrt(d2);
        double sc = (double)mass[j] * inv * inv * inv;
        ax += rx * sc;
        ay += ry * sc;
        az += rz * sc;
      }
      double a2 = ax * ax + ay * ay + az * az;
      if (a2 > max_a2) max_a2 = a2;
      double* v = &vel[3 * i];
      v[0] = (v[0] + ax * dt) * (double)DAMPING;
      v[1] = (v[1] + ay * dt) * (double)DAMPING;
      v[2] = (v[2] + az * dt) * (double)DAMPING;
      npos[3 * i] = xi + v[0] * dt;
      npos[3 * i + 1] = yi + v[1] * dt;
      npos[3 * i + 2] = zi + v[2] * dt;
    }
    pos.swap(npos);
    dts[s] = dt;
    double ndt = (double)ETA * std::sqrt(std::sqrt((double)SOFTENING2) / std::sqrt(max_a2));
    dt = ndt < (double)DT_MAX ? ndt : (double)DT_MAX;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = NBODY;
  std::vector<float4> h_pos(n), h_vel(n);
  for (int i = 0; i < n; ++i) {
    h_pos[i].x = (float)((int)(lcg() % 2048) - 1024) / 1024.0f;
    h_pos[i].y = (float)((int)(lcg() % 2048) - 1024) / 1024.0f;
    h_pos[i].z = (float)((int)(lcg() % 2048) - 1024) / 1024.0f;
    h_pos[i].w = (float)(1 + lcg() % 64) / 65536.0f;  // mass
    h_vel[i].x = (float)((int)(lcg() % 2048) - 1024) / 8192.0f;
    h_vel[i].y = (float)((int)(lcg() % 2048) - 1024) / 8192.0f;
    h_vel[i].z = (float)((int)(lcg() % 2048) - 1024) / 8192.0f;
    h_vel[i].w = 0.0f;
  }

  float4 *d_pos[2] = {nullptr, nullptr}, *d_vel = nullptr;
  float* d_max_acc2 = nullptr;
  CHECK(cudaMalloc(&d_pos[0], n * sizeof(float4)));
  CHECK(cudaMalloc(&d_pos[1], n * sizeof(float4)));
  CHECK(cudaMalloc(&d_vel, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_max_acc2, sizeof(float)));
  CHECK(cudaMemcpy(d_pos[0], h_pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vel, h_vel.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_pos[1], 0, n * sizeof(float4)));

  cudaEvent_t ev_start, ev_stop;
  CHECK(cudaEventCreate(&ev_start));
  CHECK(cudaEventCreate(&ev_stop));
  float dts[STEPS];
  float dt = DT_MAX;
  int cur = 0;
  CHECK(cudaEventRecord(ev_start));
  for (int s = 0; s < STEPS; ++s) {
    CHECK(cudaMemset(d_max_acc2, 0, sizeof(float)));
    integrate_bodies<<<GRID, BLOCK>>>(d_pos[1 - cur], d_pos[cur], d_vel, d_max_acc2, dt, n);
    CHECK(cudaGetLastError());
    float max_acc2 = 0.0f;
    CHECK(cudaMemcpy(&max_acc2, d_max_acc2, sizeof(float), cudaMemcpyDeviceToHost));
    dts[s] = dt;
    dt = next_dt(max_acc2);
    cur = 1 - cur;
  }
  CHECK(cudaEventRecord(ev_stop));
  CHECK(cudaEventSynchronize(ev_stop));
  float gpu_ms = 0.0f;
  CHECK(cudaEventElapsedTime(&gpu_ms, ev_start, ev_stop));
  fprintf(stderr, "gpu_ms %.3f\n", gpu_ms);

  std::vector<float4> g_pos(n), g_vel(n);
  CHECK(cudaMemcpy(g_pos.data(), d_pos[cur], n * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g_vel.data(), d_vel, n * sizeof(float4), cudaMemcpyDeviceToHost));

  std::vector<double> r_pos(3 * n), r_vel(3 * n), r_dts(STEPS);
  std::vector<float> mass(n);
  for (int i = 0; i < n; ++i) {
    r_pos[3 * i] = h_pos[i].x;
    r_pos[3 * i + 1] = h_pos[i].y;
    r_pos[3 * i + 2] = h_pos[i].z;
    r_vel[3 * i] = h_vel[i].x;
    r_vel[3 * i + 1] = h_vel[i].y;
    r_vel[3 * i + 2] = h_vel[i].z;
    mass[i] = h_pos[i].w;
  }
  reference(r_pos, r_vel, r_dts, mass);
  bool ok = true;
  for (int s = 0; s < STEPS; ++s)
    if (std::fabs(dts[s] - r_dts[s]) > 1e-5 * r_dts[s]) ok = false;
  double max_err = 0.0;
  for (int i = 0; i < n; ++i) {
    const float gp[3] = {g_pos[i].x, g_pos[i].y, g_pos[i].z};
    const float gv[3] = {g_vel[i].x, g_vel[i].y, g_vel[i].z};
    for (int c = 0; c < 3; ++c) {
      double ep = std::fabs(gp[c] - r_pos[3 * i + c]);
      double ev = std::fabs(gv[c] - r_vel[3 * i + c]);
      if (ep > max_err) max_err = ep;
      if (ev > max_err) max_err = ev;
      if (ep > 1e-5 + 1e-5 * std::fabs(r_pos[3 * i + c])) ok = false;
      if (ev > 1e-4 + 1e-4 * std::fabs(r_vel[3 * i + c])) ok = false;
    }
    if (g_pos[i].w != h_pos[i].w) ok = false;
  }
  if (max_err > 1e-3) ok = false;

  printf("steps %d  dt %.7f %.7f %.7f\n", STEPS, dts[1], dts[2], dts[STEPS - 1]);
  printf("pos[0] %.6f %.6f %.6f  pos[n-1] %.6f %.6f %.6f\n", g_pos[0].x, g_pos[0].y, g_pos[0].z,
         g_pos[n - 1].x, g_pos[n - 1].y, g_pos[n - 1].z);
  printf("vel[0] %.6f %.6f %.6f\n", g_vel[0].x, g_vel[0].y, g_vel[0].z);
  uint64_t h = fnv1a(g_pos.data(), n * sizeof(float4));
  h = fnv1a(g_vel.data(), n * sizeof(float4), h);
  printf("hash %016llx\n", (unsigned long long)fnv1a(dts, sizeof(dts), h));
  CHECK(cudaEventDestroy(ev_start));
  CHECK(cudaEventDestroy(ev_stop));
  CHECK(cudaFree(d_pos[0]));
  CHECK(cudaFree(d_pos[1]));
  CHECK(cudaFree(d_vel));
  CHECK(cudaFree(d_max_acc2));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
