// Targets updated in place (GlobalDesc::updated_in_place: p[i] += v, p[i]++): each thread reads only
// bytes it stores itself, so blocks whose stores are disjoint see none of one another's writes.
//   add_rows: 8 blocks add their row's offset (read by thread 0 into shared memory) to the 256
//     elements of their row, race-free. Level B checks it in one execution on two copies, with no
//     re-execution; deterministic mode runs it on the program's memory; its output equals native.
//   warp_tally: in one block of 4 warps, lane 0 of every warp adds its warp number + 1 to *tally in
//     the same region, the lower warps after a longer delay: a race between warps. Deterministic
//     mode runs it in place, each warp's update after the lower warps': 0 + 1 + 2 + 3 + 4 = 10 on
//     every run.
//   block_tally: thread 0 of each of 8 blocks adds its block number + 1 to *total: a race between
//     blocks. Level B's probe finds the stores overlapping and checks as usual; deterministic mode
//     undoes the in-place run and merges block copies, each block's update from the start state 0:
//     block 7, the highest, gives 8 on every run.
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kRows = 8;
constexpr int kRow = 256;

__global__ void add_rows(unsigned* data, const unsigned* offsets) {
  __shared__ unsigned offset;
  if (threadIdx.x == 0) offset = offsets[blockIdx.x];
  __syncthreads();
  const int i = blockIdx.x * kRow + threadIdx.x;
  data[i] += offset;
  data[i + blockDim.x] += offset + 1u;
}

__device__ unsigned spin(unsigned x, unsigned rounds) {
  for (unsigned i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;
  return x;
}

__global__ void warp_tally(unsigned* tally, unsigned* work) {
  const unsigned warp = threadIdx.x / 32;
  work[threadIdx.x] = spin(threadIdx.x, (blockDim.x / 32 - 1 - warp) * 20000u);
  if (threadIdx.x % 32 == 0) *tally += warp + 1;
}

__global__ void block_tally(unsigned* total) {
  if (threadIdx.x == 0) *total += blockIdx.x + 1;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;
  std::vector<unsigned> data(kRows * kRow), offsets(kRows);
  uint32_t seed = 31u;
  for (unsigned& v : data) v = (seed = seed * 1664525u + 1013904223u) >> 12;
  for (unsigned& v : offsets) v = (seed = seed * 1664525u + 1013904223u) >> 20;
  unsigned *d_data, *d_offsets, *d_tally, *d_work, *d_total;
  cudaMalloc(&d_data, data.size() * sizeof(unsigned));
  cudaMalloc(&d_offsets, offsets.size() * sizeof(unsigned));
  cudaMalloc(&d_tally, sizeof(unsigned));
  cudaMalloc(&d_work, 128 * sizeof(unsigned));
  cudaMalloc(&d_total, sizeof(unsigned));
  cudaMemcpy(d_data, data.data(), data.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(d_offsets, offsets.data(), offsets.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(d_tally, 0, sizeof(unsigned));
  cudaMemset(d_total, 0, sizeof(unsigned));

  add_rows<<<kRows, kRow / 2>>>(d_data, d_offsets);
  warp_tally<<<1, 128>>>(d_tally, d_work);
  block_tally<<<kRows, 64>>>(d_total);
  std::vector<unsigned> result(data.size());
  unsigned tally = 0, total = 0;
  cudaMemcpy(result.data(), d_data, result.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&tally, d_tally, sizeof tally, cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  bool rows_ok = true;
  for (size_t i = 0; i < data.size(); ++i)
    rows_ok = rows_ok && result[i] == data[i] + offsets[i / kRow] + (i % kRow >= kRow / 2 ? 1u : 0u);
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned v : result) h = (h ^ v) * 0x100000001b3ull;
  std::printf("add_rows: %s %016llx\n", rows_ok ? "PASS" : "FAIL", (unsigned long long)h);
  std::printf("warp_tally: %u\n", tally);
  std::printf("block_tally: %u\n", total);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
