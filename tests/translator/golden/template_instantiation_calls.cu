// A kernel template is analysed as written, where `acc += v` or `acc.add(v)` on a T names no
// function: only its instantiations show that T's operator or member is a user function. One that
// writes memory or synchronizes cannot be redirected to a checked copy (the template's text does not
// name it), so the template runs unchecked; one that only computes changes nothing.
struct Acc {
  float *out;
  __device__ void operator+=(float v) { out[threadIdx.x] += v; }
  __device__ void add(float v) { out[threadIdx.x] += v; }
};

struct Pair {
  float a, b;
  __device__ Pair operator+(const Pair &o) const { return Pair{a + o.a, b + o.b}; }
};

template <typename T>
__global__ void accumulate(T acc, float v) {
  acc += v;
}

template <typename T>
__global__ void accumulateByName(T acc, float v) {
  acc.add(v);
}

template <typename T>
__device__ void addTwice(T &acc, float v) {
  acc += v;
  acc += v;
}

template <typename T>
__global__ void throughHelper(T acc, float v) {
  addTwice(acc, v);
}

template <typename T>
__global__ void sums(T *out, const T *in) {
  out[threadIdx.x] = in[threadIdx.x] + in[threadIdx.x + 1];
}

// A call of a free function by name reaches the overload the template arguments pick through the
// clone's text (each overload gets a checked copy): checked.
__device__ void put(float *p, float v) { *p = v; }
__device__ void put(int *p, int v) { *p = v; }
template <typename T>
__global__ void fill(T *out) {
  put(out + threadIdx.x, T(1));
}

// A call whose name the template's text shares with a system function (fmaxf, from CUDA's headers,
// the only fmaxf declared there) resolves to the user's overload, found by argument-dependent lookup,
// only where it is instantiated: the clone's text cannot reach a checked copy of it (its call is not
// a user call, so it is not renamed), and the template refuses.
template <typename T>
__global__ void clampTo(T acc, float v) {
  fmaxf(acc, v);
}
__device__ float fmaxf(Acc a, float v) {
  a.out[threadIdx.x] = v;
  return v;
}

void run(float *f, Pair *p, const Pair *q, const float *g, int *n) {
  accumulate<<<1, 64>>>(Acc{f}, 1.0f);
  accumulateByName<<<1, 64>>>(Acc{f}, 1.0f);
  throughHelper<<<1, 64>>>(Acc{f}, 1.0f);
  sums<<<1, 64>>>(p, q);
  sums<<<1, 64>>>(f, g);
  fill<<<1, 64>>>(f);
  fill<<<1, 64>>>(n);
  clampTo<<<1, 64>>>(Acc{f}, 1.0f);
}

// The four templates whose instantiation calls a storing function refuse, naming it and where the
// call is; `sums` (built-in and non-storing operators) and `fill` (overloads reached by name) are
// checked.
// CHECK: ldcc_desc_0 = {"accumulate", "check", {{.*}}, "a call that its template arguments resolve to Acc::operator+=, which synchronizes or writes memory", "{{.*}}/template_instantiation_calls.cu:18", ldcc_desc_0_globals, 0u, nullptr, false};
// CHECK: ldcc_desc_1 = {"accumulateByName", "check", {{.*}}, "a call that its template arguments resolve to Acc::add, which synchronizes or writes memory", "{{.*}}/template_instantiation_calls.cu:23", ldcc_desc_1_globals, 0u, nullptr, false};
// CHECK: ldcc_desc_2 = {"throughHelper", "check", {{.*}}, "it calls addTwice, which cannot be checked: a call that its template arguments resolve to Acc::operator+=, which synchronizes or writes memory", "{{.*}}/template_instantiation_calls.cu:34", ldcc_desc_2_globals, 0u, nullptr, false};
// CHECK: ldcc_desc_3 = {"sums", "check", {{.*}}, nullptr, nullptr, ldcc_desc_3_globals, 1u, nullptr, false};
// CHECK: ldcc_desc_4 = {"fill", "check", {{.*}}, nullptr, nullptr, ldcc_desc_4_globals, 1u, nullptr, false};
// CHECK: ldcc_desc_5 = {"clampTo", "check", {{.*}}, "a call that its template arguments resolve to fmaxf, which synchronizes or writes memory", "{{.*}}/template_instantiation_calls.cu:57", ldcc_desc_5_globals, 0u, nullptr, false};

// No clone for the refused templates; sums and fill get their two.
// CHECK-NOT: accumulate__ldcc_checked
// CHECK-NOT: throughHelper__ldcc_checked
// CHECK-NOT: clampTo__ldcc_checked
// CHECK: __global__ void __launch_bounds__(64) sums__ldcc_checked(
// CHECK: __global__ void __launch_bounds__(64) sums__ldcc_blocks(
// CHECK: __global__ void __launch_bounds__(64) fill__ldcc_checked(
// CHECK: __global__ void __launch_bounds__(64) fill__ldcc_blocks(

// CHECK: ::ldcc::rt::launch_unchecked(::ldcc_desc_0, accumulate<Acc>, 1, 64, 0, 0, Acc{f}, 1.0f);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_1, accumulateByName<Acc>, 1, 64, 0, 0, Acc{f}, 1.0f);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_2, throughHelper<Acc>, 1, 64, 0, 0, Acc{f}, 1.0f);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_3, sums<Pair>, sums__ldcc_checked<Pair>, nullptr, sums__ldcc_blocks<Pair>, 1, 64, 0, 0, p, q);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_3, sums<float>, sums__ldcc_checked<float>, nullptr, sums__ldcc_blocks<float>, 1, 64, 0, 0, f, g);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_4, fill<float>, fill__ldcc_checked<float>, nullptr, fill__ldcc_blocks<float>, 1, 64, 0, 0, f);
// CHECK-NEXT: ::ldcc::rt::launch(::ldcc_desc_4, fill<int>, fill__ldcc_checked<int>, nullptr, fill__ldcc_blocks<int>, 1, 64, 0, 0, n);
// CHECK-NEXT: ::ldcc::rt::launch_unchecked(::ldcc_desc_5, clampTo<Acc>, 1, 64, 0, 0, Acc{f}, 1.0f);

// WARN: template_instantiation_calls.cu:18: warning: ldcc: kernel 'accumulate' runs unchecked: a call that its template arguments resolve to Acc::operator+=, which synchronizes or writes memory
// WARN-NEXT: template_instantiation_calls.cu:23: warning: ldcc: kernel 'accumulateByName' runs unchecked: a call that its template arguments resolve to Acc::add, which synchronizes or writes memory
// WARN-NEXT: template_instantiation_calls.cu:34: warning: ldcc: kernel 'throughHelper' runs unchecked: it calls addTwice, which cannot be checked: a call that its template arguments resolve to Acc::operator+=, which synchronizes or writes memory
// WARN-NEXT: template_instantiation_calls.cu:57: warning: ldcc: kernel 'clampTo' runs unchecked: a call that its template arguments resolve to fmaxf, which synchronizes or writes memory
// WARN-NOT: warning
