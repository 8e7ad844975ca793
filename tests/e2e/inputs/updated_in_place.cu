// Targets updated in place (GlobalDesc::updated_in_place: p[i] += v, p[i]++): each thread reads only
// bytes it stores itself, so blocks whose stores are disjoint see none of one another's writes.
//   add_rows: 8 blocks add their row's offset (read by thread 0 into shared memory) to the 256
//     elements of their row, race-free. Level B checks it in one execution on two copies, with no
//     re-execution; deterministic mode runs it on the program's memory; its output equals native.
//   warp_tally: in one block of 4 warps, lane 0 of every warp adds its warp number + 1 to *tally in
//     the same region, the lower warps after a longer delay: a race between warps. Deterministic
//     mode finds two warps' stores in one word in place, undoes that run and runs the warps in turns
//     on a block copy, each warp's update after the lower warps': 0 + 1 + 2 + 3 + 4 = 10 on every run.
//   block_tally, launched 6 times: thread 0 of each of 8 blocks adds its block number + 1 to *total: a
//     race between blocks. Level B's probe finds the stores overlapping and checks as usual;
//     deterministic mode undoes the in-place run and merges block copies, each block's update from the
//     launch's start state: block 7, the highest, adds 8, 48 in all on every run. After the undo the
//     next 4 launches go to the block copies at once; the 6th tries in place again.
//   warp_digits: lane 0 of each of 4 warps appends its digit warp + 1 to *digits (*digits *= 10, then
//     += warp + 1), the lower warps after a longer delay: a race between warps whose result depends
//     on their order. Deterministic mode undoes its in-place run (in one block: two warps stored to
//     *digits; in two: both blocks did) and runs block copies with the warps in turns: 1234 on every
//     run (a copy per warp would leave the highest warp's digit: 4).
//   relabel: kmeans' assignment step. The threads of 8 blocks compare their element's label with a new
//     one, count the changes in a shared counter (atomicAdd) and store the new label; thread 0 stores
//     its block's count. A load the thread follows with a store of the same element is an update in
//     place, and the atomics act on shared memory: level B checks it in one execution on two copies;
//     its output equals native in both modes.
//   bump_loaded: each thread of 8 blocks of 2 warps loads its element and stores it plus an offset:
//     a load followed by a store of the same element, no atomics. Launched after warp_digits' runs,
//     whose two warps marked one word: deterministic mode runs it on the program's memory (the scan
//     cleared those marks), level B checks it in one execution on two copies; its output equals
//     native in both modes.
//   carry_total: thread 0 of each of 8 blocks loads *carry and stores it plus its block number + 1:
//     a race between blocks through a load and its store. Level B reports the writes; deterministic
//     mode undoes the in-place run and merges block copies: block 7's, 8 on every run.
//   add_next: data[i] += next[i] with next = data + 1, so each thread reads the element the next
//     thread updates. A read pointer into the updated allocation: neither checked in one execution
//     nor run in place. Level B reports block 0's last element, which depends on block 1's update;
//     deterministic mode gives every element its sum with its start-state neighbour.
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

__global__ void warp_digits(unsigned* digits, unsigned* work) {
  const unsigned warp = threadIdx.x / 32;
  work[blockIdx.x * blockDim.x + threadIdx.x] = spin(threadIdx.x, (blockDim.x / 32 - 1 - warp) * 20000u);
  if (threadIdx.x % 32 == 0) {
    *digits *= 10u;
    *digits += warp + 1;
  }
}

__global__ void relabel(int* labels, const int* fresh, unsigned* changed) {
  __shared__ unsigned s_changed;
  if (threadIdx.x == 0) s_changed = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = fresh[i];
  if (labels[i] != c) atomicAdd(&s_changed, 1u);
  labels[i] = c;
  __syncthreads();
  if (threadIdx.x == 0) changed[blockIdx.x] = s_changed;
}

__global__ void bump_loaded(int* labels, const int* fresh) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = labels[i];
  labels[i] = v + fresh[i];
}

__global__ void carry_total(unsigned* carry) {
  if (threadIdx.x == 0) {
    const unsigned v = *carry;
    *carry = v + blockIdx.x + 1;
  }
}

__global__ void add_next(unsigned* data, const unsigned* next) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] += next[i];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;
  std::vector<unsigned> data(kRows * kRow), offsets(kRows);
  uint32_t seed = 31u;
  for (unsigned& v : data) v = (seed = seed * 1664525u + 1013904223u) >> 12;
  for (unsigned& v : offsets) v = (seed = seed * 1664525u + 1013904223u) >> 20;
  constexpr int kNext = 128;  // add_next's elements, read with one more
  std::vector<unsigned> seq(kNext + 1);
  for (unsigned& v : seq) v = ((seed = seed * 1664525u + 1013904223u) >> 20) + 1u;  // none 0
  constexpr int kLabels = kRows * 64;  // relabel's elements
  std::vector<int> labels(kLabels), fresh(kLabels);
  for (int i = 0; i < kLabels; ++i) {
    labels[i] = int((seed = seed * 1664525u + 1013904223u) >> 28);
    fresh[i] = i % 3 == 0 ? labels[i] : labels[i] + 1;  // a third keep their label
  }
  unsigned *d_data, *d_offsets, *d_tally, *d_work, *d_total, *d_digits, *d_seq, *d_changed, *d_carry;
  int *d_labels, *d_fresh, *d_bumped;
  cudaMalloc(&d_data, data.size() * sizeof(unsigned));
  cudaMalloc(&d_offsets, offsets.size() * sizeof(unsigned));
  cudaMalloc(&d_tally, sizeof(unsigned));
  cudaMalloc(&d_work, 256 * sizeof(unsigned));
  cudaMalloc(&d_digits, 2 * sizeof(unsigned));
  cudaMalloc(&d_seq, seq.size() * sizeof(unsigned));
  cudaMalloc(&d_total, sizeof(unsigned));
  cudaMalloc(&d_labels, kLabels * sizeof(int));
  cudaMalloc(&d_fresh, kLabels * sizeof(int));
  cudaMalloc(&d_changed, kRows * sizeof(unsigned));
  cudaMemcpy(d_labels, labels.data(), kLabels * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_fresh, fresh.data(), kLabels * sizeof(int), cudaMemcpyHostToDevice);
  cudaMalloc(&d_bumped, kLabels * sizeof(int));
  cudaMemcpy(d_bumped, fresh.data(), kLabels * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_data, data.data(), data.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(d_offsets, offsets.data(), offsets.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(d_tally, 0, sizeof(unsigned));
  cudaMemset(d_total, 0, sizeof(unsigned));
  cudaMalloc(&d_carry, sizeof(unsigned));
  cudaMemset(d_carry, 0, sizeof(unsigned));
  cudaMemset(d_digits, 0, 2 * sizeof(unsigned));
  cudaMemcpy(d_seq, seq.data(), seq.size() * sizeof(unsigned), cudaMemcpyHostToDevice);

  add_rows<<<kRows, kRow / 2>>>(d_data, d_offsets);
  warp_tally<<<1, 128>>>(d_tally, d_work);
  for (int launch = 0; launch < 6; ++launch) block_tally<<<kRows, 64>>>(d_total);
  warp_digits<<<1, 128>>>(d_digits, d_work);
  warp_digits<<<2, 128>>>(d_digits + 1, d_work);
  relabel<<<kRows, 64>>>(d_labels, d_fresh, d_changed);
  bump_loaded<<<kRows, 64>>>(d_bumped, d_fresh);
  carry_total<<<kRows, 64>>>(d_carry);
  add_next<<<2, kNext / 2>>>(d_seq, d_seq + 1);
  std::vector<unsigned> result(data.size()), sums(seq.size());
  unsigned tally = 0, total = 0, digits[2] = {};
  cudaMemcpy(result.data(), d_data, result.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(&tally, d_tally, sizeof tally, cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  cudaMemcpy(digits, d_digits, sizeof digits, cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), d_seq, sums.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  bool start_state_sums = sums[kNext] == seq[kNext];
  for (int i = 0; i < kNext; ++i) start_state_sums = start_state_sums && sums[i] == seq[i] + seq[i + 1];
  bool rows_ok = true;
  for (size_t i = 0; i < data.size(); ++i)
    rows_ok = rows_ok && result[i] == data[i] + offsets[i / kRow] + (i % kRow >= kRow / 2 ? 1u : 0u);
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned v : result) h = (h ^ v) * 0x100000001b3ull;
  std::printf("add_rows: %s %016llx\n", rows_ok ? "PASS" : "FAIL", (unsigned long long)h);
  std::printf("warp_tally: %u\n", tally);
  std::printf("block_tally: %u\n", total);
  std::printf("warp_digits: %u %u\n", digits[0], digits[1]);
  std::vector<int> relabelled(kLabels);
  std::vector<unsigned> changed(kRows);
  cudaMemcpy(relabelled.data(), d_labels, kLabels * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(changed.data(), d_changed, kRows * sizeof(unsigned), cudaMemcpyDeviceToHost);
  bool relabel_ok = relabelled == fresh;
  for (int b = 0; b < kRows; ++b) {
    unsigned expected = 0;
    for (int i = b * 64; i < (b + 1) * 64; ++i) expected += labels[i] != fresh[i];
    relabel_ok = relabel_ok && changed[b] == expected;
  }
  std::printf("relabel: %s", relabel_ok ? "PASS" : "FAIL");
  for (unsigned n : changed) std::printf(" %u", n);
  std::printf("\n");
  std::vector<int> bumped(kLabels);
  unsigned carry = 0;
  cudaMemcpy(bumped.data(), d_bumped, kLabels * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&carry, d_carry, sizeof carry, cudaMemcpyDeviceToHost);
  bool bumped_ok = true;
  for (int i = 0; i < kLabels; ++i) bumped_ok = bumped_ok && bumped[i] == 2 * fresh[i];
  std::printf("bump_loaded: %s\n", bumped_ok ? "PASS" : "FAIL");
  std::printf("carry_total: %u\n", carry);
  std::printf("add_next: %s\n", start_state_sums ? "start-state sums" : "other sums");
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
