// Level W's footprints where the blocks' write footprints interleave (DESIGN.md section 4: "each
// block diffs only its own footprint"): each block's own 16-byte chunks and 4-byte words of one
// target, compacted on the device from the word owners that the fused ww-check gathered with one
// copy per block (FootprintBounds::owners). A grid-stride loop or a 2-D tile gives a block many
// short runs in a target, interleaved with other blocks' runs: one [lo, hi) per block cannot hold
// them, these lists can.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "ldcc/kernels/race_record.h"

namespace ldcc::kernels {

// The lists of one target, as uint32_t:
//   chunk_offsets[blocks + 1], word_offsets[blocks + 1] (padded to a multiple of 4 words),
//   chunks[chunks], words[4 * chunks], chunk_owner[chunks], word_owner[4 * chunks].
// Block b's chunks, chunks[chunk_offsets[b] .. chunk_offsets[b + 1]), are the chunks in which only it
// changed a word; its words, words[word_offsets[b] .. word_offsets[b + 1]), are the words it changed
// in chunks where another block changed a word too. Both ascending (reference::footprint_lists). The
// same as maps, for a site that checks a few chunks: chunk_owner[c], the block that alone changed
// chunk c, else kNoOwner; word_owner[w], the block that changed word w of a chunk several blocks
// changed, else kNoOwner.
struct FootprintListLayout {
  uint32_t blocks = 0;
  uint64_t chunks = 0;  // 16-byte chunks of the target's padded copy
  LDCC_HOST_DEVICE uint64_t chunks_at() const { return (2 * (uint64_t(blocks) + 1) + 3) / 4 * 4; }
  LDCC_HOST_DEVICE uint64_t words_at() const { return chunks_at() + chunks; }
  LDCC_HOST_DEVICE uint64_t chunk_owners_at() const { return words_at() + 4 * chunks; }
  LDCC_HOST_DEVICE uint64_t word_owners_at() const { return chunk_owners_at() + chunks; }
  LDCC_HOST_DEVICE uint64_t entries() const { return word_owners_at() + 4 * chunks; }
};

// Builds the lists into `lists` (layout.entries() words) from `owners` (4 * layout.chunks words,
// overwritten), with `scratch` (layout.chunks words). Waits for `stream`. Returns false when the sort
// found no device memory; `shared_words`: the words two blocks changed, in no list (kSharedWord).
bool build_footprint_lists(uint32_t* owners, const FootprintListLayout& layout, uint32_t* lists, uint32_t* scratch,
                           cudaStream_t stream, uint64_t& shared_words);

}  // namespace ldcc::kernels
