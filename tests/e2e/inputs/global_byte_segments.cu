// Level W on global memory where a block's footprint ends inside a 16-byte chunk: block b owns bytes
// [112 b, 112 b + 112) of its buffer, the last block only 104 (the buffer's end), so the checks at
// barriers meet whole chunks and, at the buffer's end, single bytes. (Level W widens level B's
// footprints to whole chunks, so blocks' segments are multiples of 16 bytes or they would share one.)
//   clean_segments: warp 0 writes the first half of its block's segment, warp 1 the second; after a
//                   barrier every thread reads the other warp's half into out. Race-free.
//   racy_segments:  the same, and one lane of warp 1 also writes bytes 0 and 40 (warp 0's), one lane
//                   of warp 0 the segment's last byte (warp 1's), each with the value its owner
//                   writes (so no result depends on the warps' order): write-write races on elements
//                   112 b, 112 b + 40 and the segment's last, 112 b + 111 (1335 in the last block).
// Prints the clean kernel's results.
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBlocks = 12, kThreads = 64, kSegment = 112, kLastSegment = 104;
constexpr size_t kBytes = (kBlocks - 1) * kSegment + kLastSegment;

__device__ int segment_bytes() { return blockIdx.x == kBlocks - 1 ? kLastSegment : kSegment; }
__device__ unsigned char value_of(int byte) { return (unsigned char)(1 + (byte * 7 + blockIdx.x) % 250); }

__device__ void fill_half(unsigned char* seg, int t) {
  const int half = segment_bytes() / 2, first = t < 32 ? 0 : half;
  for (int i = first + t % 32; i < first + half; i += 32) seg[i] = value_of(i);
}

__device__ void read_other_half(const unsigned char* seg, unsigned char* out, int t) {
  const int half = segment_bytes() / 2, other = t < 32 ? half : 0;
  out[blockIdx.x * kThreads + t] = (unsigned char)(seg[other + t % half] + 3 * seg[other + half - 1 - t % half]);
}

__global__ void clean_segments(unsigned char* buf, unsigned char* out) {
  unsigned char* seg = buf + blockIdx.x * kSegment;
  fill_half(seg, threadIdx.x);
  __syncthreads();
  read_other_half(seg, out, threadIdx.x);
}

__global__ void racy_segments(unsigned char* buf, unsigned char* out) {
  unsigned char* seg = buf + blockIdx.x * kSegment;
  fill_half(seg, threadIdx.x);
  if (threadIdx.x == 33) seg[0] = value_of(0);
  if (threadIdx.x == 37) seg[40] = value_of(40);
  if (threadIdx.x == 3) seg[segment_bytes() - 1] = value_of(segment_bytes() - 1);
  __syncthreads();
  read_other_half(seg, out, threadIdx.x);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const size_t out_bytes = kBlocks * kThreads;
  unsigned char *buf = nullptr, *out = nullptr, *racy_buf = nullptr, *racy_out = nullptr;
  cudaMalloc(&buf, kBytes);
  cudaMalloc(&out, out_bytes);
  cudaMalloc(&racy_buf, kBytes);
  cudaMalloc(&racy_out, out_bytes);
  cudaMemset(buf, 0, kBytes);
  cudaMemset(racy_buf, 0, kBytes);
  clean_segments<<<kBlocks, kThreads>>>(buf, out);
  racy_segments<<<kBlocks, kThreads>>>(racy_buf, racy_out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "launch failed\n");
    return 1;
  }
  std::vector<unsigned char> h_buf(kBytes), h_out(out_bytes);
  cudaMemcpy(h_buf.data(), buf, kBytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out.data(), out, out_bytes, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < kBytes; ++i) printf("%u%c", h_buf[i], i % kSegment == kSegment - 1 || i + 1 == kBytes ? '\n' : ' ');
  for (size_t i = 0; i < out_bytes; ++i) printf("%u%c", h_out[i], i % kThreads == kThreads - 1 ? '\n' : ' ');
  return 0;
}
