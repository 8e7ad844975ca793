// What code translated by `ldcc` includes: the device side of level W (region_check.cuh) and of
// level B (block_run.cuh), and the launch entry point every rewritten `kernel<<<...>>>(args)` calls.
//
// The translator emits, per translation unit, a table of sites (SiteDesc) and of compared locals,
// and per kernel a KernelDesc; `launch` picks the original kernel or its checked clone by mode.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ldcc/kernels/block_run.cuh"  // and region_check.cuh
#include "ldcc/proof.h"

namespace ldcc::rt {

// A synchronization point as the user wrote it.
struct SiteDesc {
  const char* file;
  unsigned line, column;
  const char* what;  // "__syncthreads()", "kernel entry", "kernel exit", "call of blockSum", ...
};

// Global memory a kernel writes. param >= 0: the pointer stored `offset` bytes into that kernel
// parameter (0 for a pointer parameter; a field of a by-value struct otherwise). param == -1: the
// __device__ variable the clone's query lists at index `offset`. element_size 0: from the type.
// write_only: a pointer parameter the kernel only ever stores through; updated_in_place: one it
// stores through or updates in place (`p[i] += v`, `p[i]++`, a load of p[i] the thread follows with a
// store to p[i]), at least once the latter (the translator's storedParams). Either way no thread reads a byte there that it does not store itself.
struct GlobalDesc {
  const char* name;  // "out", "b.out", "g_max"
  int param;
  unsigned long long offset;
  unsigned long long element_size;
  bool write_only;
  bool updated_in_place;
};

struct KernelDesc {
  const char* name;
  const char* default_mode;        // the driver's --mode; LDCC_MODE overrides it
  const SiteDesc* sites;           // the translation unit's table
  unsigned num_sites;
  const char* const* targets;      // shared variables in layout order (the clone's query order)
  unsigned num_targets;
  const char* const* locals;       // the translation unit's compared locals, "function: name"
  unsigned num_locals;
  const char* unchecked_reason;    // non-null: the translator could not check this kernel
  const char* unchecked_where;     // "file:line" of the construct
  const GlobalDesc* globals;       // written global memory, see GlobalDesc
  unsigned num_globals;
  // Non-null: why deterministic mode runs the warps of its blocks in turn on global memory instead of
  // each on its own copy: a call that may store where no hook sees it (memcpy, __stwt, ...), or
  // atomics whose order shows in the results ("file:line" at the end).
  const char* warp_turns;
  bool atomics;  // it makes atomic operations (global ones act on one copy in deterministic mode)
};

// The translator's launch-time proof of race freedom of a kernel (ldcc/proof.h): a launch for which it
// holds runs the original kernel. `deterministic`: such a launch is deterministic too (no atomics whose
// order shows, no printf or clock reads), so deterministic mode takes it as well. The translated file
// registers each one at its end, with a static ProofRegistration.
using ProofFunction = bool (*)(const proof::ProofInput&, const proof::AllocationLookup&);
struct ProofRegistration {
  ProofRegistration(const KernelDesc& desc, ProofFunction proof, bool deterministic);
};

// Host side (ldruntime/src/translated_launch.cu). `checked`: the clone level W and deterministic
// mode run; `checked_in_shared`: the same clone for copies in dynamic shared memory (null for a kernel
// without shared variables); `blocks_clone`: the one level B runs (block_run.cuh). `args` are the clones' arguments: args[0]
// is the LaunchCtx, then the kernel's `num_params` parameters; `param_sizes[i]` is sizeof(param i),
// `pointee_sizes[i]` sizeof(*param i) for pointer parameters, else 0.
void launch_kernel(const KernelDesc& desc, const void* original, const void* checked, const void* checked_in_shared,
                   const void* blocks_clone, dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream, void** args,
                   const unsigned long long* param_sizes, const unsigned long long* pointee_sizes, unsigned num_params);

template <typename T>
constexpr unsigned long long pointee_size() {
  if constexpr (std::is_pointer_v<T>) {
    using E = std::remove_cv_t<std::remove_pointer_t<T>>;
    if constexpr (std::is_void_v<E> || std::is_function_v<E>) return 1;
    else return sizeof(E);
  } else {
    return 0;
  }
}

template <typename... P, typename... A, size_t... I>
void launch_with(const KernelDesc& desc, void (*original)(P...), void (*checked)(LaunchCtx, P...),
                 void (*checked_in_shared)(LaunchCtx, P...), void (*blocks)(LaunchCtx, P...), dim3 grid, dim3 block,
                 size_t shared_bytes, cudaStream_t stream, std::index_sequence<I...>, A&&... a) {
  // The arguments are evaluated and converted to the parameter types once, as by <<<>>>.
  std::tuple<std::decay_t<P>...> params(std::forward<A>(a)...);
  LaunchCtx ctx{};
  void* args[] = {&ctx, static_cast<void*>(&std::get<I>(params))...};
  const unsigned long long param_sizes[] = {sizeof(std::decay_t<P>)..., 0};
  const unsigned long long pointee_sizes[] = {pointee_size<std::decay_t<P>>()..., 0};
  launch_kernel(desc, reinterpret_cast<const void*>(original), reinterpret_cast<const void*>(checked),
                reinterpret_cast<const void*>(checked_in_shared), reinterpret_cast<const void*>(blocks), grid, block,
                shared_bytes, stream, args, param_sizes, pointee_sizes, unsigned(sizeof...(P)));
}

// A parameter type the call's arguments do not deduce from (a null clone leaves P to the others).
template <typename T>
struct NotDeduced {
  using type = T;
};

// `kernel<<<grid, block, shared, stream>>>(a...)` becomes `ldcc::rt::launch(desc, kernel,
// kernel__ldcc_checked, kernel__ldcc_checked_in_shared (or nullptr), kernel__ldcc_blocks, grid, block, shared, stream, a...)`.
template <typename G, typename B, typename... P, typename... A>
void launch(const KernelDesc& desc, void (*original)(P...), void (*checked)(LaunchCtx, P...),
            typename NotDeduced<void (*)(LaunchCtx, P...)>::type checked_in_shared, void (*blocks)(LaunchCtx, P...),
            const G& grid, const B& block, size_t shared_bytes, cudaStream_t stream, A&&... a) {
  static_assert(sizeof...(P) == sizeof...(A), "ldcc: a kernel launch with default arguments is not supported");
  launch_with(desc, original, checked, checked_in_shared, blocks, dim3(grid), dim3(block), shared_bytes, stream,
              std::index_sequence_for<P...>{}, std::forward<A>(a)...);
}

// A kernel the translator could not check: counted and warned about at run time, then run natively.
template <typename G, typename B, typename... P, typename... A>
void launch_unchecked(const KernelDesc& desc, void (*original)(P...), const G& grid, const B& block,
                      size_t shared_bytes, cudaStream_t stream, A&&... a) {
  static_assert(sizeof...(P) == sizeof...(A), "ldcc: a kernel launch with default arguments is not supported");
  using Clone = void (*)(LaunchCtx, P...);
  launch_with(desc, original, Clone(nullptr), Clone(nullptr), Clone(nullptr), dim3(grid), dim3(block), shared_bytes,
              stream, std::index_sequence_for<P...>{}, std::forward<A>(a)...);
}

}  // namespace ldcc::rt
