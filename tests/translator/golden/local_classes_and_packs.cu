// Classes defined inside a kernel and parameter packs. A local class's member functions are not the
// kernel's code: their returns stay returns (the kernel's own become jumps to its exit site), and one
// that stores to memory refuses the kernel, as a storing lambda does. A pack of parameters that the
// kernel reads across a barrier is saved in the frame as a PackFrame. A store through a pack or
// through a parameter whose type is a template parameter refuses the kernel: instantiated with a
// pointer, the clone could not privatize what it writes. Both kinds are rebased at entry
// (rebase_param: a no-op unless the instantiation makes one a pointer; a const pack is not const in
// the kernel or its clones), so one that is only read and points into a written target reads the
// unit's copy (e2e generic_params).

__global__ void clamped(float *out, const float *in, int n) {
  struct Clamp {
    float lo, hi;
    __device__ float operator()(float v) const {
      if (v < lo) return lo;
      if (v > hi) return hi;
      return v;
    }
  };
  __shared__ float buf[128];
  int i = threadIdx.x;
  {
    Clamp c{0.f, 1.f};
    buf[i] = c(in[i]);
  }
  __syncthreads();
  if (i >= n) return;
  out[i] = buf[127 - i];
}

__global__ void storingMember(float *out, const float *in) {
  struct Sink {
    float *to;
    __device__ void put(int i, float v) { to[i] = v; }
  };
  __shared__ float buf[64];
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  Sink s{out};
  s.put(threadIdx.x, buf[63 - threadIdx.x]);
}

template <typename... Ts>
__global__ void weighted(float *out, Ts... weights) {
  __shared__ float buf[64];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = (buf[63 - threadIdx.x] * ... * float(weights));
}

template <typename P>
__global__ void throughTemplateParam(P out) {
  __shared__ float buf[64];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[63 - threadIdx.x];
}

template <typename... Ps>
__global__ void throughPack(Ps... outs) {
  __shared__ float buf[64];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  ((outs[threadIdx.x] = buf[63 - threadIdx.x]), ...);
}

template <typename P>
__global__ void readThroughTemplateParam(float *out, P in) {
  out[threadIdx.x] = 1.0f;
  const float v = in[threadIdx.x];
  __syncthreads();
  out[64 + threadIdx.x] = v;
}

template <typename P>
__global__ void readThroughConstParam(float *out, const P in) {
  out[threadIdx.x] = 2.0f;
  const float v = in[threadIdx.x];
  __syncthreads();
  out[64 + threadIdx.x] = v;
}

template <typename... Ps>
__global__ void readThroughConstPack(float *out, const Ps... ins) {
  out[threadIdx.x] = 3.0f;
  const float v = (0.0f + ... + ins[threadIdx.x]);
  __syncthreads();
  out[64 + threadIdx.x] = v;
}

void run(float *a, const float *b) {
  clamped<<<1, 128>>>(a, b, 100);
  storingMember<<<1, 64>>>(a, b);
  weighted<<<1, 64>>>(a, 2, 0.5f, 3u);
  throughTemplateParam<<<1, 64>>>(a);
  throughPack<<<1, 64>>>(a, a + 64);
  readThroughTemplateParam<<<1, 64>>>(a, static_cast<const float *>(a));
  readThroughConstParam<<<1, 64>>>(a, a);
  readThroughConstPack<<<1, 64>>>(a, a, static_cast<const float *>(a));
}

// The member function keeps its returns; the kernel's own return jumps to its exit site.
// CHECK: __global__ void __launch_bounds__(128) clamped__ldcc_checked(
// CHECK: if (v < lo) return lo;
// CHECK-NEXT: if (v > hi) return hi;
// CHECK-NEXT: return v;
// CHECK: if (i{{(__ldcc[0-9]+)?}} >= n) goto ldcc_exit;

// The pack across the barrier: saved, restored and compared element by element.
// CHECK: __global__ void __launch_bounds__(64) weighted__ldcc_checked(
// CHECK-SAME: (::ldcc::rt::rebase_param(ldcc_t, weights), ...);
// CHECK-SAME: ::ldcc::rt::PackFrame<decltype(weights)...> weights;
// CHECK-SAME: f.weights.save(weights...);
// CHECK-SAME: f.weights.load(weights...);
// CHECK-SAME: f.weights.compare(ldcc_t, {{[0-9]+}}u, weights...);

// A template-typed parameter only read: rebased in both clones.
// CHECK: __global__ void __launch_bounds__(64) readThroughTemplateParam__ldcc_checked(
// CHECK-SAME: ::ldcc::rt::rebase_param(ldcc_t, in);
// CHECK: __global__ void __launch_bounds__(64) readThroughTemplateParam__ldcc_blocks(
// CHECK-SAME: ::ldcc::rt::rebase_param(ldcc_t, in);

// A const one: a mutable copy under its name, rebased.
// CHECK: __global__ void __launch_bounds__(64) readThroughConstParam__ldcc_checked({{.*}}const P in__ldcc_const)
// CHECK-SAME: std::remove_const_t<decltype(in__ldcc_const)> in = in__ldcc_const;
// CHECK-SAME: ::ldcc::rt::rebase_param(ldcc_t, in);

// A const pack: not const in the kernel and its clones (constTemplatePack), rebased.
// CHECK: __global__ void readThroughConstPack(float *out, Ps... ins)
// CHECK: __global__ void __launch_bounds__(64) readThroughConstPack__ldcc_checked({{.*}}float *out, Ps... ins)
// CHECK-SAME: (::ldcc::rt::rebase_param(ldcc_t, ins), ...);

// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, clamped, clamped__ldcc_checked,
// CHECK: ::ldcc::rt::launch_unchecked(::ldcc_desc_1, storingMember, 1, 64, 0, 0, a, b);
// CHECK: ::ldcc::rt::launch(::ldcc_desc_2, weighted<int, float, unsigned int>, weighted__ldcc_checked<int, float, unsigned int>,
// CHECK: ::ldcc::rt::launch_unchecked(::ldcc_desc_3, throughTemplateParam<float *>, 1, 64, 0, 0, a);
// CHECK: ::ldcc::rt::launch_unchecked(::ldcc_desc_4, throughPack<float *, float *>, 1, 64, 0, 0, a, a + 64);
// CHECK: ::ldcc::rt::launch(::ldcc_desc_5, readThroughTemplateParam<const float *>, readThroughTemplateParam__ldcc_checked<const float *>,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_6, readThroughConstParam<float *>, readThroughConstParam__ldcc_checked<float *>,
// CHECK: ::ldcc::rt::launch(::ldcc_desc_7, readThroughConstPack<float *, const float *>, readThroughConstPack__ldcc_checked<float *, const float *>,

// WARN: local_classes_and_packs.cu:34: warning: ldcc: kernel 'storingMember' runs unchecked: a member function of a class defined in the function that synchronizes, stores to memory, does atomics or uses a __shared__ variable
// WARN-NEXT: local_classes_and_packs.cu:56: warning: ldcc: kernel 'throughTemplateParam' runs unchecked: a store through a parameter pack or a parameter whose type is a template parameter (the clone cannot privatize the memory it points to)
// WARN-NEXT: local_classes_and_packs.cu:64: warning: ldcc: kernel 'throughPack' runs unchecked: a store through a parameter pack or a parameter whose type is a template parameter (the clone cannot privatize the memory it points to)
// WARN-NOT: warning
