// Level B's read-write check between blocks, and blocks whose results differ between executions by
// themselves:
//   counted_in_shared: the threads of a block add to shared tallies without atomics (a race within
//                      the block, level W's to report), then the block stores their sum in its own
//                      element of counts. No block reads another's memory, so level B must
//                      not report a read of another block's write, though a block's count differs
//                      between executions (counts is write-only: level B runs it once). Launched
//                      20 times.
//   reads_neighbour:   block b writes flags[b] and stores flags[b + 1] (the next block's, written in
//                      the same launch) times 2 in seen[b]: a real read-write race between blocks,
//                      reported on seen[0] .. seen[14] (block 15 reads past the flags it is given:
//                      flags has 17 elements, the last one never written).
//   mixed_blocks:      even blocks race within themselves as counted_in_shared does (and store
//                      their racy sum in counts); every block b writes marks[b] and stores
//                      marks[b + 1] times 2 in reads[b]; blocks 2 and 3 both write cell[0]. Reported:
//                      the read-write races of the odd blocks only, reads[1], [3], .. [13] (block 15
//                      reads the never written marks[16]), and the write-write race on cell[0]
//                      between blocks 2 and 3, though block 2 races within itself.
// Prints nothing the test compares: counted_in_shared's results are racy by design.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kBlocks = 16, kThreads = 1024, kSlots = 64;

__global__ void counted_in_shared(unsigned* counts) {
  __shared__ unsigned tally[kSlots];
  if (threadIdx.x < kSlots) tally[threadIdx.x] = 0;
  __syncthreads();
  // 32 warps add to 64 slots in turn without atomics: how many additions are lost depends on how
  // the warps interleave, so a block's sum differs between executions.
  for (int i = 0; i < kSlots; ++i) tally[(threadIdx.x + i) % kSlots] += 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (int i = 0; i < kSlots; ++i) sum += tally[i];
    counts[blockIdx.x] = sum;
  }
}

__global__ void mixed_blocks(unsigned* counts, unsigned* marks, unsigned* reads, unsigned* cell) {
  __shared__ unsigned tally[kSlots];
  const bool racing = blockIdx.x % 2 == 0;
  if (racing && threadIdx.x < kSlots) tally[threadIdx.x] = 0;
  __syncthreads();
  if (racing)
    for (int i = 0; i < kSlots; ++i) tally[(threadIdx.x + i) % kSlots] += 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    if (racing) {
      unsigned sum = 0;
      for (int i = 0; i < kSlots; ++i) sum += tally[i];
      counts[blockIdx.x] = sum;
    }
    marks[blockIdx.x] = blockIdx.x + 1;
    reads[blockIdx.x] = 2 * marks[blockIdx.x + 1];
    if (blockIdx.x == 2 || blockIdx.x == 3) cell[0] = blockIdx.x;
  }
}

__global__ void reads_neighbour(unsigned* flags, unsigned* seen) {
  if (threadIdx.x == 0) {
    flags[blockIdx.x] = blockIdx.x + 1;
    seen[blockIdx.x] = 2 * flags[blockIdx.x + 1];
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  unsigned *counts = nullptr, *flags = nullptr, *seen = nullptr;
  cudaMalloc(&counts, kBlocks * sizeof(unsigned));
  cudaMalloc(&flags, (kBlocks + 1) * sizeof(unsigned));
  cudaMalloc(&seen, kBlocks * sizeof(unsigned));
  for (int i = 0; i < 20; ++i) counted_in_shared<<<kBlocks, kThreads>>>(counts);
  cudaMemset(flags, 0, (kBlocks + 1) * sizeof(unsigned));
  reads_neighbour<<<kBlocks, kThreads>>>(flags, seen);
  unsigned *mixed_counts = nullptr, *marks = nullptr, *reads = nullptr, *cell = nullptr;
  cudaMalloc(&mixed_counts, kBlocks * sizeof(unsigned));
  cudaMalloc(&marks, (kBlocks + 1) * sizeof(unsigned));
  cudaMalloc(&reads, kBlocks * sizeof(unsigned));
  cudaMalloc(&cell, sizeof(unsigned));
  cudaMemset(marks, 0, (kBlocks + 1) * sizeof(unsigned));
  mixed_blocks<<<kBlocks, kThreads>>>(mixed_counts, marks, reads, cell);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "launch failed\n");
    return 1;
  }
  printf("done\n");
  return 0;
}
