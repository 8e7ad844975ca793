// Back-propagation training of a 16384-16-1 neural network, Rodinia style: the input -> hidden
// layer runs on the GPU in 16x16 tiles (16 input units x 16 hidden units per tile, a 16x16 thread
// block), the small hidden -> output layer and the error terms on the host. 8 blocks of 256
// threads; block b owns input rows [b * 2048 + 1, (b + 1) * 2048] and walks over its 128 tiles.
// bpnn_layerforward: per tile, the 16 inputs and the 16x16 weights go to shared memory, every
// thread multiplies its weight by its input, a tree over the rows (a barrier per level) sums each
// column, and thread (0, j) adds column j's sum to its running sum; the block's 16 sums go to
// hidden_partial_sum[block][j]. The host adds the blocks' sums and the bias weights (row 0),
// squashes, runs the output unit, computes the output and hidden deltas and adjusts the
// hidden -> output weights. bpnn_adjust_weights: every thread updates its weight of each tile
// with learning rate and momentum (w += dw, oldw = dw); after a barrier the bias row 0 is updated.
// 8 training steps, one input pattern each.
// RACE (write-write, global w and oldw, between blocks, kernel bpnn_adjust_weights): the bias
// update lacks Rodinia's blockIdx == 0 condition, so the first thread row of all 8 blocks
// read-modify-writes the 16 bias weights w[1..16] and oldw[1..16] (row 0). Each block stores
// w + dw != w; when one block's store lands before another's read, the second one adds a
// different dw on top, so the bias row, the next steps' hidden units and the hash can change
// from run to run. Shared memory and all other weights are race-free.
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

static uint32_t g_seed = 7001u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define HEIGHT 16  // input units per tile (threadIdx.y)
#define WIDTH 16   // hidden units per tile (threadIdx.x)
#define LOG2_HEIGHT 4
#define GRID 8
#define IN_UNITS (GRID * 128 * HEIGHT)  // 16384
#define HID_UNITS WIDTH
#define STEPS 8
#define ETA 0.3f
#define MOMENTUM 0.3f

// input: in + 1 units (unit 0 is the bias, 1.0); input_hidden: (in + 1) x (hid + 1) weights,
// row i = input unit i, column j = hidden unit j (column 0 unused).
__global__ void bpnn_layerforward(const float* input, const float* input_hidden,
                                  float* hidden_partial_sum, int in, int hid) {
  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tiles = in / HEIGHT / gridDim.x;
  float sum = 0.0f;  // thread (0, ty): hidden unit ty + 1
  for (int t = 0; t < tiles; ++t) {
    int row = (blockIdx.x * tiles + t) * HEIGHT + ty + 1;
    if (tx == 0) input_node[ty] = input[row];
    __syncthreads();
    weight_matrix[ty][tx] = input_hidden[row * (hid + 1) + tx + 1];
    __syncthreads();
    weight_matrix[ty][tx] = __fmul_rn(weight_matrix[ty][tx], input_node[ty]);
    __syncthreads();
    for (int i = 1; i <= LOG2_HEIGHT; ++i) {
      int power_two = 1 << i;
      if (ty % power_two == 0) weight_matrix[ty][tx] += weight_matrix[ty + power_two / 2][tx];
      __syncthreads();
    }
    if (tx == 0) sum += weight_matrix[0][ty];
    __syncthreads();
  }
  if (tx == 0) hidden_partial_sum[blockIdx.x * hid + ty] = sum;
}

// delta: hid + 1 hidden deltas (0 unused); ly: the input layer (in + 1 units).
__global__ void bpnn_adjust_weights(const float* delta, int hid, const float* ly, int in, float* w,
                                    float* oldw) {
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tiles = in / HEIGHT / gridDim.x;
  for (int t = 0; t < tiles; ++t) {
    int row = (blockIdx.x * tiles + t) * HEIGHT + ty + 1;
    int index = row * (hid + 1) + tx + 1;
    float dw = fmaf(MOMENTUM, oldw[index], ETA * delta[tx + 1] * ly[row]);
    w[index] += dw;
    oldw[index] = dw;
  }
  __syncthreads();
  if (ty == 0) {  // race: bias weights, input unit 0 (= 1.0), updated by every block
    int index_x = tx + 1;
    float dw = fmaf(MOMENTUM, oldw[index_x], ETA * delta[index_x]);
    w[index_x] += dw;
    oldw[index_x] = dw;
  }
}

static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int in = IN_UNITS, hid = HID_UNITS;
  const size_t nw = (size_t)(in + 1) * (hid + 1);
  std::vector<float> h_inputs((size_t)STEPS * (in + 1)), h_targets(STEPS);
  for (int s = 0; s < STEPS; ++s) {
    h_inputs[(size_t)s * (in + 1)] = 1.0f;  // bias unit
    for (int i = 1; i <= in; ++i) h_inputs[(size_t)s * (in + 1) + i] = (float)(lcg() % 256) / 256.0f;
    h_targets[s] = (lcg() % 2) ? 0.9f : 0.1f;
  }
  std::vector<float> h_w1(nw, 0.0f), h_w2(hid + 1), h_oldw2(hid + 1, 0.0f);
  for (int i = 0; i <= in; ++i)
    for (int j = 1; j <= hid; ++j)
      h_w1[(size_t)i * (hid + 1) + j] = (float)((int)(lcg() % 2048) - 1024) / 65536.0f;
  for (int j = 0; j <= hid; ++j) h_w2[j] = (float)((int)(lcg() % 2048) - 1024) / 2048.0f;

  float *d_inputs = nullptr, *d_w1 = nullptr, *d_oldw1 = nullptr, *d_partial = nullptr,
        *d_delta = nullptr;
  CHECK(cudaMalloc(&d_inputs, h_inputs.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_w1, nw * sizeof(float)));
  CHECK(cudaMalloc(&d_oldw1, nw * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, GRID * hid * sizeof(float)));
  CHECK(cudaMalloc(&d_delta, (hid + 1) * sizeof(float)));
  CHECK(cudaMemcpy(d_inputs, h_inputs.data(), h_inputs.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w1, h_w1.data(), nw * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_oldw1, 0, nw * sizeof(float)));
  CHECK(cudaMemset(d_delta, 0, (hid + 1) * sizeof(float)));

  std::vector<float> partial(GRID * hid), bias(hid + 1), hidden(hid + 1), delta_h(hid + 1, 0.0f);
  float outs[STEPS];
  const dim3 threads(WIDTH, HEIGHT);
  cudaEvent_t ev_start, ev_stop;
  CHECK(cudaEventCreate(&ev_start));
  CHECK(cudaEventCreate(&ev_stop));
  CHECK(cudaEventRecord(ev_start));
  for (int s = 0; s < STEPS; ++s) {
    const float* d_x = d_inputs + (size_t)s * (in + 1);
    bpnn_layerforward<<<GRID, threads>>>(d_x, d_w1, d_partial, in, hid);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(partial.data(), d_partial, GRID * hid * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bias.data(), d_w1, (hid + 1) * sizeof(float), cudaMemcpyDeviceToHost));
    hidden[0] = 1.0f;
    for (int j = 1; j <= hid; ++j) {
      float sum = 0.0f;
      for (int b = 0; b < GRID; ++b) sum += partial[b * hid + j - 1];
      sum += bias[j];
      hidden[j] = squash(sum);
    }
    float o = 0.0f;
    for (int j = 0; j <= hid; ++j) o += h_w2[j] * hidden[j];
    o = squash(o);
    outs[s] = o;
    float delta_o = o * (1.0f - o) * (h_targets[s] - o);
    for (int j = 1; j <= hid; ++j) delta_h[j] = hidden[j] * (1.0f - hidden[j]) * h_w2[j] * delta_o;
    for (int j = 0; j <= hid; ++j) {
      float dw = ETA * delta_o * hidden[j] + MOMENTUM * h_oldw2[j];
      h_w2[j] += dw;
      h_oldw2[j] = dw;
    }
    CHECK(cudaMemcpy(d_delta, delta_h.data(), (hid + 1) * sizeof(float), cudaMemcpyHostToDevice));
    bpnn_adjust_weights<<<GRID, threads>>>(d_delta, hid, d_x, in, d_w1, d_oldw1);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(ev_stop));
  CHECK(cudaEventSynchronize(ev_stop));
  float gpu_ms = 0.0f;
  CHECK(cudaEventElapsedTime(&gpu_ms, ev_start, ev_stop));
  fprintf(stderr, "gpu_ms %.3f\n", gpu_ms);

  std::vector<float> res_w1(nw), res_oldw1(nw);
  CHECK(cudaMemcpy(res_w1.data(), d_w1, nw * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res_oldw1.data(), d_oldw1, nw * sizeof(float), cudaMemcpyDeviceToHost));

  printf("out[0] %.6f  out[%d] %.6f  w2[1] %.6f\n", outs[0], STEPS - 1, outs[STEPS - 1], h_w2[1]);
  printf("w[0][1] %.8f  w[1][1] %.8f  w[%d][%d] %.8f\n", res_w1[1], res_w1[hid + 2], in, hid,
         res_w1[nw - 1]);
  uint64_t h = fnv1a(res_w1.data(), nw * sizeof(float));
  h = fnv1a(res_oldw1.data(), nw * sizeof(float), h);
  h = fnv1a(h_w2.data(), (hid + 1) * sizeof(float), h);
  printf("hash %016llx\n", (unsigned long long)fnv1a(outs, sizeof(outs), h));
  CHECK(cudaEventDestroy(ev_start));
  CHECK(cudaEventDestroy(ev_stop));
  CHECK(cudaFree(d_inputs));
  CHECK(cudaFree(d_w1));
  CHECK(cudaFree(d_oldw1));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_delta));
  return 0;
}
