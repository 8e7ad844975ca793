// Host entry points of the data-parallel checking kernels (DESIGN.md section 3). Each call covers one
// target: every byte of it, in every copy, with one thread owning each chunk. All are asynchronous on
// `stream`; race records go to `log`.
#pragma once
#include <cuda_runtime_api.h>

#include "ldcc/kernels/race_record.h"

namespace ldcc::kernels {

// Step 1, init: every copy := S.
void replicate(const TargetBuffers& t, cudaStream_t stream);
// Step 3, fused: ww-check + union U + pass-2 init of every copy, reading each input once.
void ww_check_fused(const TargetBuffers& t, const RaceLogView& log, cudaStream_t stream);
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

// How many copies the fused ww-check keeps in registers before it switches to two streaming passes.
constexpr uint32_t kMaxRegisterCopies = 64;

}  // namespace ldcc::kernels
