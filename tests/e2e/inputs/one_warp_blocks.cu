// Blocks of one warp (DESIGN.md section 7): with a single unit per block, deterministic mode runs the
// block on one copy of its shared variables, plain accesses and shared atomics alike, and its sites
// have nothing to merge. digit_counts counts the 4-bit digits of its tile with shared atomicAdds and,
// in the same barrier region after a __syncwarp, reads the counts back with plain loads (they must see
// the atomics, as natively), then scans them across barriers (Hillis-Steele, a barrier per step) and
// writes its block's counts and offsets to global memory. Launched as one block (deterministic mode
// on the targets themselves) and as 64 blocks (on block copies merged in block order). Race-free:
// check and deterministic runs print exactly the native output.
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kDigits = 16;
constexpr int kTile = 1024;

__global__ void digit_counts(const unsigned* keys, unsigned* counts, unsigned* offsets) {
  __shared__ unsigned s_count[kDigits];
  __shared__ unsigned s_scan[kDigits];
  const int tid = threadIdx.x;
  if (tid < kDigits) s_count[tid] = 0;
  __syncthreads();
  const unsigned* tile = keys + blockIdx.x * kTile;
  for (int i = tid; i < kTile; i += 32) atomicAdd(&s_count[tile[i] & (kDigits - 1)], 1u);
  __syncwarp();
  if (tid < kDigits) s_scan[tid] = s_count[tid];  // plain loads after the warp's own atomics
  for (int off = 1; off < kDigits; off <<= 1) {
    __syncthreads();
    const unsigned add = tid < kDigits && tid >= off ? s_scan[tid - off] : 0u;
    __syncthreads();
    if (tid < kDigits) s_scan[tid] += add;
  }
  __syncthreads();
  if (tid < kDigits) {
    counts[blockIdx.x * kDigits + tid] = s_count[tid];
    offsets[blockIdx.x * kDigits + tid] = s_scan[tid] - s_count[tid];
  }
}

static uint64_t fnv1a(const void* data, size_t bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 0x100000001b3ull;
  return h;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;
  const int max_blocks = 64;
  std::vector<unsigned> keys(max_blocks * kTile);
  uint32_t seed = 4242u;
  for (unsigned& k : keys) k = (seed = seed * 1664525u + 1013904223u) >> 9;
  unsigned *d_keys, *d_counts, *d_offsets;
  cudaMalloc(&d_keys, keys.size() * sizeof(unsigned));
  cudaMalloc(&d_counts, max_blocks * kDigits * sizeof(unsigned));
  cudaMalloc(&d_offsets, max_blocks * kDigits * sizeof(unsigned));
  cudaMemcpy(d_keys, keys.data(), keys.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  bool ok = true;
  for (int blocks : {1, max_blocks}) {
    cudaMemset(d_counts, 0xff, max_blocks * kDigits * sizeof(unsigned));
    cudaMemset(d_offsets, 0xff, max_blocks * kDigits * sizeof(unsigned));
    digit_counts<<<blocks, 32>>>(d_keys, d_counts, d_offsets);
    std::vector<unsigned> counts(blocks * kDigits), offsets(blocks * kDigits);
    cudaMemcpy(counts.data(), d_counts, counts.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(offsets.data(), d_offsets, offsets.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b) {
      unsigned ref[kDigits] = {};
      for (int i = 0; i < kTile; ++i) ++ref[keys[b * kTile + i] & (kDigits - 1)];
      unsigned start = 0;
      for (int d = 0; d < kDigits; ++d) {
        ok = ok && counts[b * kDigits + d] == ref[d] && offsets[b * kDigits + d] == start;
        start += ref[d];
      }
    }
    printf("%d blocks: counts[0..3] %u %u %u %u offsets[15] %u hash %016llx %016llx\n", blocks, counts[0], counts[1],
           counts[2], counts[3], offsets[kDigits - 1], (unsigned long long)fnv1a(counts.data(), counts.size() * 4),
           (unsigned long long)fnv1a(offsets.data(), offsets.size() * 4));
  }
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
