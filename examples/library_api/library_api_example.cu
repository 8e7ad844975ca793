// Checks two hand-written kernels with the ldcc runtime, without the translator:
//   blur_race_free: each block writes only its own tile of `out`;
//   blur_in_place:  blurs `data` in place, so each block reads its neighbours' tiles while they write them.
// Usage: library_api_example [elements]   (LDCC_MODE=off runs both unchecked)
// Prints a checksum of each result on stdout; races go to stderr. Exits 77 without a GPU.
// With the default 2048 elements (8 blocks), blur_in_place has 14 read-write races: each block reads
// the element just past each end of its tile, which the neighbouring block overwrites.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ldcc/ldcc.h"

namespace {

constexpr int kThreads = 256;

__global__ void blur_race_free(ldcc::DeviceView view, const float* in, int n) {
  float* out = view.target<float>(0, blockIdx.x);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float left = i > 0 ? in[i - 1] : in[i], right = i + 1 < n ? in[i + 1] : in[i];
  out[i] = (left + in[i] + right) / 3.0f;
}

__global__ void blur_in_place(ldcc::DeviceView view, int n) {
  float* data = view.target<float>(0, blockIdx.x);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float value = 0;
  if (i < n) {
    const float left = i > 0 ? data[i - 1] : data[i], right = i + 1 < n ? data[i + 1] : data[i];
    value = (left + data[i] + right) / 3.0f;
  }
  __syncthreads();  // orders the block's own reads before its writes; other blocks are not ordered
  if (i < n) data[i] = value;
}

bool cuda_check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "library_api_example: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

double checksum(const float* device, int n) {
  std::vector<float> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += host[i] * double(i % 97 + 1);
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [elements > 0]\n", argv[0]);
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "library_api_example: no CUDA device\n");
    return 77;
  }
  const int blocks = (n + kThreads - 1) / kThreads;
  // Not linear: a blur of a linear ramp reproduces it, and value-based checking cannot see a write
  // that leaves a value unchanged.
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = float((i * i) % 101);

  float *in = nullptr, *out = nullptr, *data = nullptr;
  if (!cuda_check(cudaMalloc(&in, n * sizeof(float)), "cudaMalloc") || !cuda_check(cudaMalloc(&out, n * sizeof(float)), "cudaMalloc") ||
      !cuda_check(cudaMalloc(&data, n * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(data, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  ldcc::Checker race_free("blur_race_free");
  race_free.add_target("out", out, n * sizeof(float), sizeof(float));
  race_free.run(blocks, [&](const ldcc::DeviceView& view) { blur_race_free<<<blocks, kThreads>>>(view, in, n); });

  ldcc::Checker in_place("blur_in_place");
  in_place.add_target("data", data, n * sizeof(float), sizeof(float));
  in_place.run(blocks, [&](const ldcc::DeviceView& view) { blur_in_place<<<blocks, kThreads>>>(view, n); });

  if (!cuda_check(cudaDeviceSynchronize(), "kernel")) return 1;
  std::printf("blur_race_free checksum %.3f\n", checksum(out, n));
  std::printf("blur_in_place checksum %.3f\n", checksum(data, n));
  cudaFree(in);
  cudaFree(out);
  cudaFree(data);
  return 0;
}
