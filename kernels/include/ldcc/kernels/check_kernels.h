// Host entry points of the data-parallel checking kernels (DESIGN.md section 3). Each call covers one
// target: every byte of it, in every copy, with one thread owning each chunk. All are asynchronous on
// `stream`; race records go to `log`.
#pragma once
#include <cuda_runtime_api.h>

#include "ldcc/kernels/race_record.h"

namespace ldcc::kernels {

// Step 1, init: every copy := S.
void replicate(const TargetBuffers& t, cudaStream_t stream);
// Step 3, fused: ww-check + union U + pass-2 init of every copy, reading each input once; with
// `footprint`, also the write footprint of each copy below footprint.copies (lo must start at ~0ull
// and hi at 0; they stay so for a copy equal to S).
void ww_check_fused(const TargetBuffers& t, const RaceLogView& log, cudaStream_t stream,
                    const FootprintBounds& footprint = {});
// The same step unfused, for measuring fusion: ww-check + union only, then the pass-2 init alone.
void ww_check_union(const TargetBuffers& t, const RaceLogView& log, cudaStream_t stream);
void init_pass2(const TargetBuffers& t, cudaStream_t stream);
// Step 5, and with `commit` step 6 fused into it (S := U).
void rw_check(const TargetBuffers& t, const RaceLogView& log, bool commit, cudaStream_t stream);
// Step 6 alone: S := U.
void commit(const TargetBuffers& t, cudaStream_t stream);
// Deterministic mode: S := S + changes of copies 0..M-1 in order (the highest writer wins); with
// `replicate_after` every copy is reset to the merged state in the same pass.
void merge_ordered(const TargetBuffers& t, bool replicate_after, cudaStream_t stream);
// The same merge applied to `into` (t.bytes bytes; the bytes no copy changed keep their value) while
// S stays as it was: batches of units that all start from S gather their changes there.
void merge_ordered_into(const TargetBuffers& t, uint8_t* into, cudaStream_t stream);

// Deterministic mode on the program's memory: sets flags[0] to `launch` (asynchronously) when one of
// `words` (at least one) store marks (GlobalTarget::marks, every target's back to back) has the bits
// of two warps, flags[1] to `launch` when it ran, and clears every mark for the next launch.
void find_shared_words(uint32_t* marks, uint64_t words, uint32_t* flags, uint32_t launch, cudaStream_t stream);

// Adds the keys of `count` records of a device log to `table` (SeenTable), for the next launches' logs.
void remember_records(const RaceRecord* records, uint32_t count, const SeenTable& table, cudaStream_t stream);

// How the fused ww-check holds one chunk of every copy. Registers<N>: N-byte chunks, all copies in
// registers, each input read once (Registers16 up to 32 copies, Registers8/4 up to 64). Streaming:
// any number of copies; builds U in one pass and re-reads the copies (mostly from L2) for pass 2.
// ww_check_fused picks by copy count (Auto); benchmarks compare the layouts.
enum class WwLayout { Auto, Registers16, Registers8, Registers4, Streaming };
void ww_check_fused_with(const TargetBuffers& t, const RaceLogView& log, WwLayout layout, cudaStream_t stream);
// The layout Auto resolves to for a copy count, and whether a layout can hold that many copies.
WwLayout auto_ww_layout(uint32_t copies);
bool ww_layout_supports(WwLayout layout, uint32_t copies);

}  // namespace ldcc::kernels
