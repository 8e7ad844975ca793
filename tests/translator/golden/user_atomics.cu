// A function of the program's own whose name starts like CUDA's atomics (the usual CAS-loop float
// maximum) is a helper like any other: it is cloned, the atomicCAS inside it is hooked, and its
// callers are checked, a kernel template's unresolved call included. (It was refused as "the atomic
// operation atomicMaxFloat".)

__device__ float atomicMaxFloat(float *addr, float v) {
  int *bits = (int *)addr;
  int old = *bits, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(bits, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

__global__ void maxOf(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxFloat(out, in[i]);
}

template <typename T> __global__ void maxOfT(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxFloat(out, in[i]);
}

void run(const float *in, float *out, int n) {
  maxOf<<<(n + 127) / 128, 128>>>(in, out, n);
  maxOfT<float><<<(n + 127) / 128, 128>>>(in, out, n);
}

// Both kernels checked; `out` is a written target of each.
// CHECK: ldcc_desc_0 = {"maxOf", "check", {{.*}}, nullptr, nullptr,
// CHECK: ldcc_desc_1 = {"maxOfT", "check", {{.*}}, nullptr, nullptr,

// The helper's clone hooks its atomic.
// CHECK: __device__ float atomicMaxFloat__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, float *addr, float v) {
// CHECK: old = ::ldcc::rt::AtomicCall{ldcc_t}.atomicCAS(bits, assumed, __float_as_int(v));
// CHECK: __device__ float atomicMaxFloat__ldcc_blocks(::ldcc::rt::BlockRunState& ldcc_t, float *addr, float v) {
// CHECK: old = ::ldcc::rt::AtomicCall{ldcc_t}.atomicCAS(bits, assumed, __float_as_int(v));

// The kernels call the clones.
// CHECK: maxOf__ldcc_checked(
// CHECK: if (i < n) atomicMaxFloat__ldcc_checked(ldcc_t, out, (ldcc_loaded |= {{[0-9]+}}u, in)[i]);
// CHECK: maxOfT__ldcc_checked(
// CHECK: if (i < n) atomicMaxFloat__ldcc_checked(ldcc_t, out, in[i]);

// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, maxOf, maxOf__ldcc_checked,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_1, maxOfT<float>, maxOfT__ldcc_checked<float>,
