// Level W's per-block footprint lists (footprint_lists.h), with Thrust: each 16-byte chunk goes to
// the one block that changed it, or, where several did, its words go to theirs (the maps); a stable
// sort by block then gathers each block's entries in address order, and a binary search finds where
// each block's start.
#include <thrust/binary_search.h>
#include <thrust/count.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>

#include <algorithm>
#include <exception>

#include "ldcc/kernels/footprint_lists.h"
#include "ldcc/kernels/race_record.h"

namespace ldcc::kernels {
namespace {

constexpr int kThreads = 256;

// chunk_keys[c]: the block that alone changed words of chunk c (its words' keys become kNoOwner), or
// kNoOwner where none or several did (its words keep their owners as keys).
__global__ void key_chunks(uint4* owners, uint32_t* chunk_keys, uint64_t chunks) {
  for (uint64_t c = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks; c += uint64_t(gridDim.x) * blockDim.x) {
    const uint4 o = owners[c];
    const uint32_t words[4] = {o.x, o.y, o.z, o.w};
    uint32_t single = kNoOwner;
    bool several = false;
    for (uint32_t w : words) {
      if (w == kNoOwner) continue;
      several = several || w == kSharedWord || (single != kNoOwner && single != w);
      single = w;
    }
    chunk_keys[c] = several ? kNoOwner : single;
    if (!several && single != kNoOwner) owners[c] = make_uint4(kNoOwner, kNoOwner, kNoOwner, kNoOwner);
  }
}

struct IsOwned {
  __device__ bool operator()(uint32_t key) const { return key != kNoOwner; }
};

// Sorts `values` (0 .. n-1, written here) by `keys` and writes each block's first position, and the
// end of the last, into offsets[0 .. blocks].
void group_by_block(uint32_t* keys, uint64_t n, uint32_t* values, uint32_t* offsets, uint32_t blocks,
                    cudaStream_t stream) {
  const auto on = thrust::cuda::par.on(stream);
  if (thrust::count_if(on, keys, keys + n, IsOwned{}) == 0) {
    cudaMemsetAsync(offsets, 0, (uint64_t(blocks) + 1) * sizeof(uint32_t), stream);
    return;
  }
  thrust::sequence(on, values, values + n);
  thrust::stable_sort_by_key(on, keys, keys + n, values);
  thrust::lower_bound(on, keys, keys + n, thrust::counting_iterator<uint32_t>(0),
                      thrust::counting_iterator<uint32_t>(blocks + 1), offsets);
}

}  // namespace

bool build_footprint_lists(uint32_t* owners, const FootprintListLayout& layout, uint32_t* lists, uint32_t* scratch,
                           cudaStream_t stream, uint64_t& shared_words) {
  const uint64_t chunks = layout.chunks;
  const uint64_t grid = std::min<uint64_t>((chunks + kThreads - 1) / kThreads, 4096);
  try {
    if (chunks > 0) key_chunks<<<unsigned(std::max<uint64_t>(grid, 1)), kThreads, 0, stream>>>(
        reinterpret_cast<uint4*>(owners), scratch, chunks);
    cudaMemcpyAsync(lists + layout.chunk_owners_at(), scratch, chunks * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream);
    cudaMemcpyAsync(lists + layout.word_owners_at(), owners, 4 * chunks * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                    stream);
    shared_words = thrust::count(thrust::cuda::par.on(stream), owners, owners + 4 * chunks, kSharedWord);
    group_by_block(scratch, chunks, lists + layout.chunks_at(), lists, layout.blocks, stream);
    group_by_block(owners, 4 * chunks, lists + layout.words_at(), lists + uint64_t(layout.blocks) + 1, layout.blocks,
                   stream);
    return cudaStreamSynchronize(stream) == cudaSuccess;
  } catch (const std::exception&) {
    cudaGetLastError();
    return false;
  }
}

}  // namespace ldcc::kernels
