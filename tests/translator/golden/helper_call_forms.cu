// A helper that synchronizes, called inside the value of a local (`T mean = f(x) / n;`,
// `y = 2 * f(x) + m;`): the two sites go around the whole statement. A re-execution resumes after
// the statement, so nothing else may happen in it: a store (`out[i] = f(x);`), a call made
// conditionally (`c ? f(x) : 0`) or two calls in one statement (the other one is something else done)
// are refused.

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

__global__ void conditional(const float *in, float *out) {
  const float x = in[threadIdx.x];
  out[threadIdx.x] = x > 0 ? blockSum(x) : 0.0f;
}

__global__ void twoInOne(const float *in, float *out) {
  const float x = in[threadIdx.x];
  const float y = blockSum(x) + blockSum(2 * x);
  out[threadIdx.x] = y;
}

void run(const float *in, float *out, int n) {
  centered<<<4, 64>>>(in, out, n);
  stored<<<1, 64>>>(in, out);
  conditional<<<1, 64>>>(in, out);
  twoInOne<<<1, 64>>>(in, out);
}

// CHECK-LABEL: centered__ldcc_checked(
// CHECK: { if (ldcc_site([[B1:[0-9]+]]u)) goto ldcc_dispatch; ldcc_resume_[[B1]]:; } mean__ldcc{{[0-9]+}} = blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}}) / float(n); ldcc_t.open = [[A1:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[A1]]:;
// CHECK: { if (ldcc_site([[B2:[0-9]+]]u)) goto ldcc_dispatch; ldcc_resume_[[B2]]:; } y__ldcc{{[0-9]+}} = 2.0f * blockSum__ldcc_checked(ldcc_t, x__ldcc{{[0-9]+}} - mean__ldcc{{[0-9]+}}) + mean__ldcc{{[0-9]+}}; ldcc_t.open = [[A2:[0-9]+]]u; ldcc_save(ldcc_ck); ldcc_resume_[[A2]]:;

// WARN: helper_call_forms.cu:24: warning: ldcc: kernel 'stored' runs unchecked: a call of blockSum (which synchronizes) that is neither a statement of its own nor the value of a local, with plain arguments and nothing else done
// WARN-NEXT: helper_call_forms.cu:29: warning: ldcc: kernel 'conditional' runs unchecked: a call of blockSum (which synchronizes) that is neither a statement of its own nor the value of a local, with plain arguments and nothing else done
// WARN-NEXT: helper_call_forms.cu:34: warning: ldcc: kernel 'twoInOne' runs unchecked: a call of blockSum (which synchronizes) that is neither a statement of its own nor the value of a local, with plain arguments and nothing else done
// WARN-NOT: warning
