// A helper function template with its own static __shared__ array (the usual blockReduceSum<T>).
// The helper's clone is a template too, reaching the array through its slot with a type alias of its
// own; each kernel describes the array with the type of the instantiation it reaches: a plain kernel
// directly, a kernel template through a trait specialized for each of its instantiations, written
// before its clone. A `const T` local across the barrier is hoisted as T.

template <typename T> __device__ T blockReduceSum(T val) {
  static __shared__ T partial[32];
  const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  if (lane == 0) partial[wid] = val;
  __syncthreads();
  return threadIdx.x < blockDim.x / 32 ? partial[lane] : T(0);
}

__global__ void rowSum(const float *in, float *out) {
  const float total = blockReduceSum<float>(in[threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

template <typename T, int SCALE> __global__ void rowSumT(const T *in, T *out) {
  const T total = blockReduceSum(in[threadIdx.x] * T(SCALE));
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

void run(const float *a, float *b, const double *c, double *d) {
  rowSum<<<4, 256>>>(a, b);
  rowSumT<float, 2><<<4, 256>>>(a, b);
  rowSumT<double, 3><<<4, 256>>>(c, d);
}

// CHECK: ldcc_desc_0_targets[] = {"partial", nullptr};
// CHECK: ldcc_desc_1_targets[] = {"partial", nullptr};

// CHECK: template <typename T> __device__ T blockReduceSum__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, T val) {using ldcc_helper_shared_0_local = T[32]; ldcc_helper_shared_0_local& partial = ::ldcc::rt::target_ref<ldcc_helper_shared_0_local>(ldcc_t.base, ldcc_t.bs->helper_off[0]);

// CHECK-LABEL: rowSum__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::describe<float[32]>(ldcc_ctx.query_out, 0u);
// CHECK-SAME: ldcc_bs.helper_off[0] = ldcc_ctx.offsets[0];

// CHECK: template <typename T, int SCALE> struct ldcc_helper_types_rowSumT_{{[0-9]+}}; template <> struct ldcc_helper_types_rowSumT_{{[0-9]+}}<float, 2> { using t0 = float[32]; }; template <> struct ldcc_helper_types_rowSumT_{{[0-9]+}}<double, 3> { using t0 = double[32]; }; template <typename T, int SCALE> __global__ void __launch_bounds__(256) rowSumT__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::describe<typename ldcc_helper_types_rowSumT_{{[0-9]+}}<T, SCALE>::t0>(ldcc_ctx.query_out, 0u);
// CHECK-SAME: ::ldcc::rt::type_t<T> total__ldcc{{[0-9]+}}{};

// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, rowSum, rowSum__ldcc_checked,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_1, rowSumT<float, 2>, rowSumT__ldcc_checked<float, 2>,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_1, rowSumT<double, 3>, rowSumT__ldcc_checked<double, 3>,
