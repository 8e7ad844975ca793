// Level W on global memory whose per-block footprints are not 16-byte aligned: block b owns bytes
// [100 b, 100 b + 100) of its buffer, so the checks at barriers meet chunks inside a footprint and
// bytes at its ends that belong next to another block's bytes.
//   clean_segments: warp 0 writes bytes 0..49 of its block's segment, warp 1 bytes 50..99; after a
//                   barrier every thread reads the other warp's bytes into out. Race-free.
//   racy_segments:  the same, and lane 0 of warp 1 also writes byte 0 (warp 0's, at the start of the
//                   footprint) and lane 5 byte 40 (inside it): write-write races on elements 100 b and
//                   100 b + 40 of every block b.
// Prints the clean kernel's results only (the racy one's depend on the warps' order).
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBlocks = 12, kThreads = 64, kSegment = 100;

__device__ void fill_halves(unsigned char* seg, int t) {
  const int half = t < 32 ? 0 : 50, lane = t % 32;
  seg[half + lane] = (unsigned char)(1 + (t * 7 + blockIdx.x) % 250);
  if (lane < 18) seg[half + 32 + lane] = (unsigned char)(1 + (t * 13 + blockIdx.x) % 250);
}

__device__ void read_other_half(const unsigned char* seg, unsigned char* out, int t) {
  const int other = t < 32 ? 50 : 0;
  out[blockIdx.x * kThreads + t] = (unsigned char)(seg[other + t % 50] + 3 * seg[other + 49 - t % 50]);
}

__global__ void clean_segments(unsigned char* buf, unsigned char* out) {
  unsigned char* seg = buf + blockIdx.x * kSegment;
  fill_halves(seg, threadIdx.x);
  __syncthreads();
  read_other_half(seg, out, threadIdx.x);
}

__global__ void racy_segments(unsigned char* buf, unsigned char* out) {
  unsigned char* seg = buf + blockIdx.x * kSegment;
  fill_halves(seg, threadIdx.x);
  if (threadIdx.x == 32) seg[0] = 200;
  if (threadIdx.x == 37) seg[40] = 201;
  __syncthreads();
  read_other_half(seg, out, threadIdx.x);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t bytes = kBlocks * kSegment, out_bytes = kBlocks * kThreads;
  unsigned char *buf = nullptr, *out = nullptr, *racy_buf = nullptr, *racy_out = nullptr;
  cudaMalloc(&buf, bytes);
  cudaMalloc(&out, out_bytes);
  cudaMalloc(&racy_buf, bytes);
  cudaMalloc(&racy_out, out_bytes);
  cudaMemset(buf, 0, bytes);
  cudaMemset(racy_buf, 0, bytes);
  clean_segments<<<kBlocks, kThreads>>>(buf, out);
  racy_segments<<<kBlocks, kThreads>>>(racy_buf, racy_out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "launch failed\n");
    return 1;
  }
  std::vector<unsigned char> h_buf(bytes), h_out(out_bytes);
  cudaMemcpy(h_buf.data(), buf, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out.data(), out, out_bytes, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < bytes; ++i) printf("%u%c", h_buf[i], i % kSegment == kSegment - 1 ? '\n' : ' ');
  for (size_t i = 0; i < out_bytes; ++i) printf("%u%c", h_out[i], i % kThreads == kThreads - 1 ? '\n' : ' ');
  return 0;
}
