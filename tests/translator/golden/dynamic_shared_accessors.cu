// Accessors of the dynamic shared memory: the CUDA samples' SharedMemory<T>, whose conversion to T*
// returns its extern __shared__ array, and a function template that returns its own. An accessor gets
// no clone; its array becomes a target of each kernel that reaches it (every extern __shared__ array of
// a launch is laid out at one place: they are one memory), and the clones put their reference to the
// array's copy where the program calls the accessor: `::ldcc::rt::DynamicShared{...}` for a
// conversion (it converts to whichever pointer is asked for, in the template's pattern too), a cast
// to the call's own type for a call (in a template, `decltype` of the call).

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ T *getPointer() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T> __device__ T *dynamicShared() {
  extern __shared__ unsigned char raw[];
  return reinterpret_cast<T *>(raw);
}

template <class T> __global__ void reduce(const T *in, T *out) {
  T *sdata = SharedMemory<T>();
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ float mirrored() {
  __syncthreads();
  const float *buf = dynamicShared<float>();
  return buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void mixed(float *out) {
  extern __shared__ float own[];
  own[threadIdx.x] = float(threadIdx.x);
  const float v = mirrored();
  out[threadIdx.x] = v;
}

// The samples' older form: a named object's method. The object lives across the barrier (hoisted and
// renamed), but the call is replaced whole.
__global__ void reverse(float *out) {
  SharedMemory<float> smem;
  float *s = smem.getPointer();
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

// Not an accessor: it returns an address inside its array, so it is cloned like any helper with a
// __shared__ variable (whose extern array the runtime lays out where every other one is).
__device__ float *secondHalf() {
  extern __shared__ float halves[];
  return halves + 32;
}

__global__ void upper(float *out) {
  float *h = secondHalf();
  h[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = h[31 - threadIdx.x];
}

void run(const float *in, float *out) {
  reduce<float><<<4, 128, 128 * sizeof(float)>>>(in, out);
  mixed<<<1, 64, 64 * sizeof(float)>>>(out);
  reverse<<<1, 64, 64 * sizeof(float)>>>(out);
  upper<<<1, 32, 64 * sizeof(float)>>>(out);
}

// The accessors' arrays are targets by their own names; mixed has its own array first.
// CHECK: ldcc_desc_0_targets[] = {"__smem", nullptr};
// CHECK: ldcc_desc_1_targets[] = {"own", "raw", nullptr};
// CHECK: ldcc_desc_2_targets[] = {"__smem", nullptr};

// No clone of either accessor.
// CHECK-NOT: operator T *__ldcc
// CHECK-NOT: dynamicShared__ldcc

// reduce: the conversion's object becomes the copy (sdata lives across barriers: hoisted).
// CHECK-LABEL: reduce__ldcc_checked(
// CHECK-SAME: using ldcc_shared_type_0 = int[];
// CHECK-SAME: ldcc_bs.helper_off[[[SLOT:[0-9]+]]] = ldcc_ctx.offsets[0];
// CHECK-SAME: ldcc_shared_type_0& ldcc_extern_shared_[[SLOT]] = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]);
// CHECK:      sdata__ldcc1 = ::ldcc::rt::DynamicShared{reinterpret_cast<unsigned char*>(ldcc_extern_shared_[[SLOT]])};
// CHECK-LABEL: reduce__ldcc_blocks(
// CHECK:      T *sdata = ::ldcc::rt::DynamicShared{reinterpret_cast<unsigned char*>(ldcc_extern_shared_[[SLOT]])};

// mirrored: a helper reaches the array through its slot, set by the kernel.
// CHECK-LABEL: mirrored__ldcc_checked(
// CHECK-SAME: ldcc_extern_shared_type_[[RAW:[0-9]+]]& ldcc_extern_shared_[[RAW]] = ::ldcc::rt::target_ref<ldcc_extern_shared_type_[[RAW]]>(ldcc_t.base, ldcc_t.bs->helper_off[[[RAW]]]);
// CHECK:      const float *buf = reinterpret_cast<float *>(reinterpret_cast<unsigned char*>(ldcc_extern_shared_[[RAW]]));
// CHECK-LABEL: mixed__ldcc_checked(
// CHECK-SAME: ldcc_bs.helper_off[[[RAW]]] = ldcc_ctx.offsets[1];

// reverse: the call has a type the kernel knows.
// CHECK-LABEL: reverse__ldcc_checked(
// CHECK:      s__ldcc{{[0-9]+}} = reinterpret_cast<float *>(reinterpret_cast<unsigned char*>(ldcc_extern_shared_{{[0-9]+}}));

// upper: the helper is called through its clone.
// CHECK-LABEL: upper__ldcc_checked(
// CHECK:      h__ldcc{{[0-9]+}} = secondHalf__ldcc_checked(ldcc_t);

// All launches are checked.
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, reduce<float>, reduce__ldcc_checked<float>,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_1, mixed, mixed__ldcc_checked,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_2, reverse, reverse__ldcc_checked,

// indexed: an accessor's call in a template indexed at once; the cast names the call's type by decltype
// of the call (a DynamicShared value has no []).
template <class T> __global__ void indexed(T *out) {
  T *d = dynamicShared<T>();
  d[threadIdx.x] = T(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = dynamicShared<T>()[(threadIdx.x + 1) % blockDim.x];
}
template __global__ void indexed<float>(float *);
// CHECK-LABEL: indexed__ldcc_checked(
// CHECK: = reinterpret_cast<decltype(dynamicShared<T>())>(reinterpret_cast<unsigned char*>(ldcc_extern_shared_{{[0-9]+}}))[(threadIdx.x + 1) % blockDim.x];
