// A helper that synchronizes, called inside the value of a local (`T mean = f(x) / n;`,
// `y = 2 * f(x) + m;`): the two sites go around the whole statement, and a re-execution resumes
// after it. A statement that does more with the value (a store, `out[i] = f(x);`; the condition of an
// `if` or a `switch`; a call that takes it, `atomicAdd(&sum, f(x))`) has the call hoisted: a temporary
// of the frame gets its value between the two sites, and the statement, after the second, reads it.
// Several calls in one statement (`f(x) + f(2 * x)`) are each hoisted, in source order.
// Refused: a call made conditionally (`c ? f(x) : 0`), a call in another's arguments, a hoisted
// call after an operand C++ evaluates first that reads memory (`s[0] << f(s)`: hoisting would read
// s[0] after it), one in the argument of a macro that expands it twice (`SQ(f(x))`: one spelling, two
// calls), and one hoisted out of a braced initializer (`float p[2] = {f(x), f(y)};`).

__device__ float blockSum(float v) {
  __shared__ float partial[32];
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  return partial[0] + partial[1];
}

__global__ void centered(const float *in, float *out, int n) {
  const float x = in[blockIdx.x * n + threadIdx.x];
  const float mean = blockSum(x) / float(n);
  float y;
  y = 2.0f * blockSum(x - mean) + mean;
  out[blockIdx.x * n + threadIdx.x] = y;
}

__global__ void stored(const float *in, float *out) {
  const float x = in[threadIdx.x];
  out[threadIdx.x] = blockSum(x);
}

__global__ void branched(const float *in, float *out) {
  const float x = in[threadIdx.x];
  if (blockSum(x) > 0.0f) out[threadIdx.x] = x;
  switch (int(blockSum(x))) {
  case 0: out[threadIdx.x] = 0.0f; break;
  default: break;
  }
}

__global__ void passedOn(const float *in, float *out) {
  atomicAdd(&out[0], blockSum(in[threadIdx.x]));
}

__global__ void conditional(const float *in, float *out) {
  const float x = in[threadIdx.x];
  out[threadIdx.x] = x > 0 ? blockSum(x) : 0.0f;
}

__global__ void twoInOne(const float *in, float *out) {
  const float x = in[threadIdx.x];
  const float y = blockSum(x) + blockSum(2 * x);
  out[threadIdx.x] = y;
  if (blockSum(y) > blockSum(-y)) out[threadIdx.x] = 0.0f;
}

__global__ void nested(const float *in, float *out) {
  out[threadIdx.x] = blockSum(blockSum(in[threadIdx.x]));
}

__device__ int bump(int *s) {
  __syncthreads();
  if (threadIdx.x == 0) s[0] = 5;
  __syncthreads();
  return 1;
}

__global__ void shifted(int *out) {
  __shared__ int s[4];
  if (threadIdx.x == 0) s[0] = 1;
  out[threadIdx.x] = s[0] << bump(s);
}

#define SQ(a) ((a) * (a))
__global__ void squared(const float *in, float *out) {
  out[threadIdx.x] = SQ(blockSum(in[threadIdx.x]));
}

__global__ void bracedPair(const float *in, float *out) {
  const float x = in[threadIdx.x];
  float pair[2] = {blockSum(x), blockSum(2 * x)};
  __syncthreads();
  out[threadIdx.x] = pair[0] + pair[1];
}

// The left operand of << is evaluated first, but it is a hoisted call itself: both run before the
// statement, in source order, and nothing is left to read memory after them.
__global__ void shiftedPair(const float *in, int *out) {
  out[threadIdx.x] = int(blockSum(in[threadIdx.x])) << int(blockSum(in[0]));
}

void run(const float *in, float *out, int n) {
  centered<<<4, 64>>>(in, out, n);
  stored<<<1, 64>>>(in, out);
  branched<<<1, 64>>>(in, out);
  passedOn<<<1, 64>>>(in, out);
  conditional<<<1, 64>>>(in, out);
  twoInOne<<<1, 64>>>(in, out);
  nested<<<1, 64>>>(in, out);
  shifted<<<1, 64>>>((int *)out);
  squared<<<1, 64>>>(in, out);
  bracedPair<<<1, 64>>>(in, out);
  shiftedPair<<<1, 64>>>(in, (int *)out);
}

// CHECK-LABEL: centered__ldcc_checked(
// CHECK: { if (ldcc_site([[B1:[0-9]+]]u)) goto ldcc_dispatch; ldcc_resume_[[B1]]:; } mean__ldcc{{[0-9]+}} = blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}}) / float(n); ldcc_t.open = [[A1:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[A1]]:;
// CHECK: { if (ldcc_site([[B2:[0-9]+]]u)) goto ldcc_dispatch; ldcc_resume_[[B2]]:; } y__ldcc{{[0-9]+}} = 2.0f * blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}} - mean__ldcc{{[0-9]+}}) + mean__ldcc{{[0-9]+}}; ldcc_t.open = [[A2:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[A2]]:;

// CHECK-LABEL: stored__ldcc_checked(
// CHECK: ::ldcc::rt::type_t<float> ldcc_call_0{};
// CHECK: { if (ldcc_site([[S:[0-9]+]]u)) goto ldcc_dispatch; ldcc_resume_[[S]]:; } ldcc_call_0 = blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}}); ldcc_t.open = [[SA:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[SA]]:; (*::ldcc::rt::store(ldcc_t, &(out[threadIdx.x]))) = ldcc_call_0;
// CHECK-LABEL: branched__ldcc_checked(
// CHECK: ldcc_resume_{{[0-9]+}}:; } ldcc_call_0 = blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}}); ldcc_t.open = [[IA:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[IA]]:; if (ldcc_call_0 > 0.0f)
// CHECK: ldcc_resume_{{[0-9]+}}:; } ldcc_call_1 = blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}}); ldcc_t.open = [[WA:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[WA]]:; switch (int(ldcc_call_1))
// CHECK-LABEL: passedOn__ldcc_checked(
// CHECK: ldcc_resume_{{[0-9]+}}:; } ldcc_call_0 = blockSum__ldcc_checked(ldcc_t, (ldcc_loaded |= 1u, in)[threadIdx.x]); ldcc_t.open = [[PA:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[PA]]:; {{.*}}atomicAdd{{.*}}ldcc_call_0

// CHECK-LABEL: twoInOne__ldcc_checked(
// CHECK: ::ldcc::rt::type_t<float> ldcc_call_0{}; ::ldcc::rt::type_t<float> ldcc_call_1{}; ::ldcc::rt::type_t<float> ldcc_call_2{}; ::ldcc::rt::type_t<float> ldcc_call_3{};
// CHECK: ldcc_resume_{{[0-9]+}}:; } ldcc_call_0 = blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}}); ldcc_t.open = [[T0:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[T0]]:; { if (ldcc_site([[T1:[0-9]+]]u)) goto ldcc_dispatch; ldcc_resume_[[T1]]:; } ldcc_call_1 = blockSum__ldcc_checked(ldcc_t, 2 * x__ldcc{{[0-9]+}}); ldcc_t.open = [[T2:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[T2]]:; {{.*}} = ldcc_call_0 + ldcc_call_1;
// CHECK: ldcc_call_2 = blockSum__ldcc_checked(ldcc_t, y{{[_a-z0-9]*}}); {{.*}} ldcc_call_3 = blockSum__ldcc_checked(ldcc_t, -y{{[_a-z0-9]*}}); {{.*}} if (ldcc_call_2 > ldcc_call_3)

// WARN: helper_call_forms.cu:47: warning: ldcc: kernel 'conditional' runs unchecked: a call of blockSum (which synchronizes) made conditionally
// WARN-NEXT: helper_call_forms.cu:58: warning: ldcc: kernel 'nested' runs unchecked: a call of blockSum (which synchronizes) with an argument that calls a function that synchronizes
// WARN-NEXT: helper_call_forms.cu:71: warning: ldcc: kernel 'shifted' runs unchecked: a call of bump (which synchronizes) after an operand that C++ evaluates first and that reads memory (`s[0] << f(s)`)
// WARN-NEXT: helper_call_forms.cu:76: warning: ldcc: kernel 'squared' runs unchecked: a call of blockSum (which synchronizes) spelled once in a macro that expands to several such calls
// WARN-NEXT: helper_call_forms.cu:81: warning: ldcc: kernel 'bracedPair' runs unchecked: a call of blockSum (which synchronizes) inside a braced or constructor initializer
// WARN-NOT: warning
// CHECK-LABEL: shiftedPair__ldcc_checked(
// CHECK: ldcc_call_0 = blockSum__ldcc_checked(ldcc_t, (ldcc_loaded |= 1u, in)[threadIdx.x]); {{.*}} ldcc_call_1 = blockSum__ldcc_checked(ldcc_t, (ldcc_loaded |= 1u, in)[0]); {{.*}} = int(ldcc_call_0) << int(ldcc_call_1);
