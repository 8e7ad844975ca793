// Kernels declared before their definitions and launched in between. The
// clone's prototype is declared right after each declaration (unnamed
// parameters, an empty parameter list and a template included), so the
// rewritten launch, which names NAME__ldcc_checked, compiles before the clone
// is defined.

__device__ int g_counter;

__global__ void addOne(int *, int);
__global__ void resetCounter();
template <int STEP> __global__ void addStep(int *data, int n);

void run(int *data, int n) {
  resetCounter<<<1, 1>>>();
  addOne<<<(n + 127) / 128, 128>>>(data, n);
  addStep<2><<<(n + 127) / 128, 128>>>(data, n);
}

__global__ void addOne(int *data, int n) {
  __shared__ int staged[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? data[i] : 0;
  __syncthreads();
  if (i < n) data[i] = staged[127 - threadIdx.x] + 1;
}

__global__ void resetCounter() { g_counter = 0; }

template <int STEP> __global__ void addStep(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += STEP;
}

// Descriptors in definition order; the launches name them whatever their order.
// CHECK: ldcc_desc_0 = {"addOne", "check", {{.*}}, nullptr, nullptr, ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_1 = {"resetCounter", "check", {{.*}}, nullptr, nullptr, ldcc_desc_1_globals, {{[0-9]+}}u, nullptr, false};
// CHECK: ldcc_desc_2 = {"addStep", "check", {{.*}}, nullptr, nullptr, ldcc_desc_2_globals, {{[0-9]+}}u, nullptr, false};

// Each declaration is followed, on its own line (so no line moves), by the clone's.
// CHECK: __device__ int g_counter;
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void addOne(int *, int); __global__ void __launch_bounds__(128) addOne__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *, int);
// CHECK-NEXT: __global__ void resetCounter(); __global__ void __launch_bounds__(1) resetCounter__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx);
// CHECK-NEXT: template <int STEP> __global__ void addStep(int *data, int n); template <int STEP> __global__ void __launch_bounds__(128) addStep__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *data, int n);

// The launches, before any definition.
// CHECK:      void run(int *data, int n) {
// CHECK-NEXT:   ::ldcc::rt::launch(::ldcc_desc_1, resetCounter, resetCounter__ldcc_checked, nullptr, resetCounter__ldcc_blocks, 1, 1, 0, 0);
// CHECK-NEXT:   ::ldcc::rt::launch(::ldcc_desc_0, addOne, addOne__ldcc_checked, addOne__ldcc_checked_in_shared, addOne__ldcc_blocks, (n + 127) / 128, 128, 0, 0, data, n);
// CHECK-NEXT:   ::ldcc::rt::launch(::ldcc_desc_2, addStep<2>, addStep__ldcc_checked<2>, nullptr, addStep__ldcc_blocks<2>, (n + 127) / 128, 128, 0, 0, data, n);
// CHECK-NEXT: }

// The definitions, each followed by its clone (with the parameter names of the definition).
// CHECK: #line 19 "{{.*}}/forward_declared.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(128) addOne__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *data, int n) {
// CHECK-SAME: ldcc_shared_type_0& staged = ::ldcc::rt::target_ref<ldcc_shared_type_0>(ldcc_t.base, ldcc_ctx.offsets[0]);
// CHECK:   { if (ldcc_site({{[0-9]+}}u)) goto ldcc_dispatch; ldcc_resume_{{[0-9]+}}:; }
// CHECK: #line 27 "{{.*}}/forward_declared.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(1) resetCounter__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx) {
// CHECK-SAME: { (*::ldcc::rt::store(ldcc_t, &(g_counter))) = 0; } ldcc_exit:
// CHECK: #line 29 "{{.*}}/forward_declared.cu"
// CHECK-NEXT: template <int STEP> __global__ void __launch_bounds__(128) addStep__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *data, int n) {
// CHECK: if (i < n) (*::ldcc::rt::store(ldcc_t, &(data[i]))) += STEP;

// A helper that synchronizes, declared before the kernel that calls it and defined after: its clones
// are declared after its declaration too.
__device__ float exchange(float *s, float v);
__global__ void callsEarly(float *out) {
  __shared__ float s[64];
  float a = exchange(s, 1.f * threadIdx.x);
  out[threadIdx.x] = a;
}
__device__ float exchange(float *s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
  return s[63 - threadIdx.x];
}
void runEarly(float *out) { callsEarly<<<1, 64>>>(out); }
// CHECK: __device__ float exchange(float *s, float v); __device__ float exchange__ldcc_checked(::ldcc::rt::ThreadState& ldcc_t, float *s, float v); __device__ float exchange__ldcc_blocks(::ldcc::rt::BlockRunState& ldcc_t, float *s, float v);
// CHECK: callsEarly__ldcc_checked(
// CHECK: exchange__ldcc_checked(ldcc_t, s, 1.f * threadIdx.x)

// A kernel with a const parameter pack, declared before its launch: every declaration, the kernel's
// and its clones', loses the pack's const (GCC rejects passing it to the launch wrapper otherwise; the
// nvcc compile of this translation checks that).
template <typename... Ps>
__global__ void readsPack(float *out, const Ps... ins);
void runPack(float *a) { readsPack<<<1, 64>>>(a, a, static_cast<const float *>(a)); }
template <typename... Ps>
__global__ void readsPack(float *out, const Ps... ins) {
  out[threadIdx.x] = 1.0f;
  const float v = (0.0f + ... + ins[threadIdx.x]);
  __syncthreads();
  out[64 + threadIdx.x] = v;
}
// CHECK: __global__ void readsPack(float *out, Ps... ins); template <typename... Ps> __global__ void __launch_bounds__(64) readsPack__ldcc_checked({{.*}}float *out, Ps... ins);
// CHECK: __global__ void readsPack(float *out, Ps... ins) {
// CHECK: readsPack__ldcc_checked({{.*}}float *out, Ps... ins) {
// CHECK-SAME: (::ldcc::rt::rebase_param(ldcc_t, ins), ...);
