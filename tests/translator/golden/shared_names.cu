// __shared__ variables that share their name with another variable of the kernel. Each clone binds
// its shared variables to references at the top of the function, where a parameter of that name would
// be redeclared and a local of that name would shadow them (level B's clone, which keeps locals as
// written, stored through the local pointer instead). Such a variable's references get a name of
// their own, NAME__ldcc_sharedN (N: its place in the kernel's list); the rest keep theirs.

__global__ void shadowed(const float *in, float *out) {
  __shared__ int count;
  float *buf = out + blockIdx.x * 64;
  {
    __shared__ float buf[64];
    buf[threadIdx.x] = in[threadIdx.x];
    if (threadIdx.x == 0) count = 1;
    __syncthreads();
    out[threadIdx.x] = buf[63 - threadIdx.x] + count;
  }
  buf[threadIdx.x] += 1.0f;
}

__global__ void parameter(float *v) {
  float kept;
  if (v[0] > 0) {
    __shared__ float v[64];
    v[threadIdx.x] = 1.0f;
    __syncthreads();
    kept = v[63 - threadIdx.x];
  } else {
    __shared__ int v[64];
    v[threadIdx.x] = 2;
    __syncthreads();
    kept = v[63 - threadIdx.x];
  }
  v[threadIdx.x] = kept;
}

void run(const float *in, float *out) {
  shadowed<<<2, 64>>>(in, out);
  parameter<<<2, 64>>>(out);
}

// The reports keep the variables' own names.
// CHECK: ldcc_desc_0_targets[] = {"count", "buf", nullptr};
// CHECK: ldcc_desc_1_targets[] = {"v", "v", nullptr};

// shadowed: `count` keeps its name; the inner `buf` is renamed in both clones. In the checked clone
// the outer `buf`, which lives across the barrier, is moved to the top as buf__ldcc1.
// CHECK-LABEL: shadowed__ldcc_checked(
// CHECK-SAME: ldcc_shared_type_0& count = {{.*}} ldcc_shared_type_1& buf__ldcc_shared1 = ::ldcc::rt::target_ref<ldcc_shared_type_1>(ldcc_t.base, ldcc_ctx.offsets[1]); float *buf__ldcc1 = out + blockIdx.x * 64;
// CHECK:      buf__ldcc_shared1[threadIdx.x] = (ldcc_loaded |= 1u, in)[threadIdx.x];
// CHECK:      = buf__ldcc_shared1[63 - threadIdx.x] + count;
// CHECK:      (*::ldcc::rt::store(ldcc_t, &(buf__ldcc1[threadIdx.x]))) += 1.0f;
// The blocks clone keeps its locals as written: without the renaming its inner `buf` was the pointer.
// CHECK-LABEL: shadowed__ldcc_blocks(
// CHECK-SAME: ldcc_shared_type_1& buf__ldcc_shared1 = ::ldcc::rt::target_ref<ldcc_shared_type_1>(ldcc_dynamic_shared, ldcc_ctx.offsets[1]);
// CHECK:      float *buf = out + blockIdx.x * 64;
// CHECK:      buf__ldcc_shared1[threadIdx.x] = in[threadIdx.x];
// CHECK:      (*::ldcc::rt::store(ldcc_t, &(buf[threadIdx.x]))) += 1.0f;

// parameter: the parameter `v` and two sibling `__shared__ v` of different types, each its own name.
// CHECK-LABEL: parameter__ldcc_checked(
// CHECK-SAME: ldcc_shared_type_0& v__ldcc_shared0 = {{.*}} ldcc_shared_type_1& v__ldcc_shared1 =
// CHECK:      v__ldcc_shared0[threadIdx.x] = 1.0f;
// CHECK:      kept__ldcc1 = v__ldcc_shared0[63 - threadIdx.x];
// CHECK:      v__ldcc_shared1[threadIdx.x] = 2;
// CHECK:      kept__ldcc1 = v__ldcc_shared1[63 - threadIdx.x];
// CHECK:      (*::ldcc::rt::store(ldcc_t, &(v[threadIdx.x]))) = kept__ldcc1;
// CHECK-LABEL: parameter__ldcc_blocks(
// CHECK:      v__ldcc_shared1[threadIdx.x] = 2;
// CHECK:      (*::ldcc::rt::store(ldcc_t, &(v[threadIdx.x]))) = kept;
