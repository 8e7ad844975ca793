// Launch-time proofs (translator/rewrite/AffineProof.cpp): the host function emitted per kernel at
// the end of the translation. Barriers inside launch-uniform loops and ifs are copied to the host as
// loops and ifs with Proof::barrier() (epochs); a guard `v % m == 0` bounds v to multiples of m;
// a[i / D][i % D] over rows of D elements is element i; a barrier the host cannot follow (in a while
// loop, under a thread's condition) leaves the proof without epochs. A uniform local changed by whole
// statements around barriers (scan's `offset`) is a host variable that changes alike; indices of
// shared memory that are not affine (i + (i >> 5)) are enumerated thread by thread, under the
// conditions around them ((tid & 31) == 0), with locals followed statement by statement.
#include <cmath>

__global__ void blockSum(const int *in, int *out) {
  __shared__ int partial[256];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void rowsSum(const float *in, float *out, int tiles) {
  __shared__ float tile[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    tile[ty][tx] = in[((blockIdx.x * tiles + t) * 16 + ty) * 16 + tx];
    __syncthreads();
    for (int i = 1; i <= 4; ++i) {
      const int step = 1 << i;
      if (ty % step == 0) tile[ty][tx] += tile[ty + step / 2][tx];
      __syncthreads();
    }
    if (ty == 0) sum += tile[0][tx];
    __syncthreads();
  }
  if (ty == 0) out[blockIdx.x * 16 + tx] = sum;
}

__global__ void fillRows(float *out, int n) {
  __shared__ float rows[4][32];
  for (int i = threadIdx.x; i < 4 * 32; i += blockDim.x) rows[i / 32][i % 32] = -INFINITY;
  __syncthreads();
  if (n > 0) {
    for (int i = threadIdx.x; i < 4 * 32; i += blockDim.x) rows[i / 32][i % 32] += 1.0f;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = rows[0][threadIdx.x % 32];
}

__global__ void whileBarrier(int *out, int rounds) {
  __shared__ int cell[128];
  int r = 0;
  while (r < rounds) {
    cell[threadIdx.x] = r;
    __syncthreads();
    ++r;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = cell[threadIdx.x];
}

__global__ void paddedScan(unsigned *data, int n) {
  extern __shared__ unsigned s[];
  const int thid = threadIdx.x;
  s[thid + (thid >> 5)] = data[blockIdx.x * n + thid];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int i1 = offset * (2 * thid + 1) - 1;
      int i2 = offset * (2 * thid + 2) - 1;
      i1 += i1 >> 5;
      i2 += i2 >> 5;
      s[i2] += s[i1];
    }
    offset <<= 1;
  }
  __syncthreads();
  data[blockIdx.x * n + thid] = s[thid + (thid >> 5)];
}

__global__ void warpLeaders(const float *in, float *out) {
  __shared__ float best[8];
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if ((threadIdx.x & 31) == 0) best[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = best[0] + best[7];
}

// The labels' patterns do not match their own text, which the translation keeps as a comment.
// CHECK-LABEL: static bool ldcc_desc_0_{{proof}}(
// CHECK: const int ldcc_r0 = ldcc_p.shared_root();  // partial
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kWrite, true, ::ldcc::rt::proof::Form{(0LL), {{[{][{]}}0, (1LL)}}}, {});
// CHECK: ldcc_p.access(ldcc_r1, ::ldcc::rt::proof::kRead,
// CHECK-NEXT: ldcc_p.barrier();
// CHECK-NEXT: for (unsigned int ldcc_m0_stride = (unsigned int)(::ldcc::rt::proof::quotient(ldcc_in.block.x, ((unsigned int)(2ULL)), ldcc_ok)); ((ldcc_m0_stride > ((unsigned int)(0ULL)))) && ldcc_ok && ldcc_p.trip(); ldcc_m0_stride = (unsigned int)(::ldcc::rt::proof::shift_right(ldcc_m0_stride, ((int)(1LL)), ldcc_ok))) {
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kRead, true, ::ldcc::rt::proof::Form{(0LL), {{[{][{]}}0, (1LL)}}}, {{[{][{]}}0, (-9223372036854775807LL - 1), (((long long)(ldcc_m0_stride)) - 1)}});
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kWrite, true, ::ldcc::rt::proof::Form{(0LL), {{[{][{]}}0, (1LL)}}}, {{[{][{]}}0, (-9223372036854775807LL - 1), (((long long)(ldcc_m0_stride)) - 1)}});
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kRead, true, ::ldcc::rt::proof::Form{((long long)(ldcc_m0_stride)), {{[{][{]}}0, (1LL)}}}, {{[{][{]}}0, (-9223372036854775807LL - 1), (((long long)(ldcc_m0_stride)) - 1)}});
// CHECK-NEXT: ldcc_p.barrier();
// CHECK-NEXT: }
// CHECK: ldcc_p.access(ldcc_r2, ::ldcc::rt::proof::kWrite, true, ::ldcc::rt::proof::Form{(0LL), {{[{][{]}}3, (1LL)}}}, {{[{][{]}}0, ((long long)(((unsigned int)(0ULL)))), ((long long)(((unsigned int)(0ULL))))}});
// CHECK: ProofRegistration ldcc_desc_0_proven(ldcc_desc_0, ldcc_desc_0_proof, true);

// rowsSum: the tile loop and the step loop on the host, the step a host constant of each trip.
// CHECK-LABEL: static bool ldcc_desc_1_{{proof}}(
// CHECK: for (int ldcc_m0_t = (int)(((int)(0LL))); ((ldcc_m0_t < ldcc_u1_tiles)) && ldcc_ok && ldcc_p.trip(); ++ldcc_m0_t) {
// CHECK: ldcc_p.barrier();
// CHECK-NEXT: for (int ldcc_m2_i = (int)(((int)(1LL))); ((ldcc_m2_i <= ((int)(4LL)))) && ldcc_ok && ldcc_p.trip(); ++ldcc_m2_i) {
// CHECK-NEXT: const int ldcc_u3_step = ::ldcc::rt::proof::shift_left(((int)(1LL)), ldcc_m2_i, ldcc_ok);
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kRead, true, ::ldcc::rt::proof::Form{(0LL), {{[{][{]}}0, (1LL)}, {1, (16LL)}}}, {{[{][{]}}1, (-9223372036854775807LL - 1), 9223372036854775807LL, ((long long)(ldcc_u3_step))}});
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kWrite, true,
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kRead, true, ::ldcc::rt::proof::Form{(((long long)(::ldcc::rt::proof::quotient(ldcc_u3_step, ((int)(2LL)), ldcc_ok))) * (16LL)), {{[{][{]}}0, (1LL)}, {1, (16LL)}}}, {{[{][{]}}1, (-9223372036854775807LL - 1), 9223372036854775807LL, ((long long)(ldcc_u3_step))}});
// CHECK-NEXT: ldcc_p.barrier();
// CHECK-NEXT: }
// CHECK: ProofRegistration ldcc_desc_1_proven(ldcc_desc_1, ldcc_desc_1_proof, true);

// fillRows: rows[i / 32][i % 32] is element i of rows (-INFINITY a builtin call); the host takes the
// branch the launch's n takes.
// CHECK-LABEL: static bool ldcc_desc_2_{{proof}}(
// CHECK: ldcc_p.access(ldcc_r0, ::ldcc::rt::proof::kWrite, true, ::ldcc::rt::proof::Form{(0LL), {{[{][{]}}0, (1LL)}, {6, ((long long)(ldcc_in.block.x))}}}, {});
// CHECK-NEXT: ldcc_p.barrier();
// CHECK-NEXT: const int ldcc_u0_n = ::ldcc::rt::proof::arg<int>(ldcc_in, 1);
// CHECK-NEXT: if ((ldcc_u0_n > ((int)(0LL)))) {
// CHECK: ldcc_p.barrier();
// CHECK-NEXT: }
// CHECK: ProofRegistration ldcc_desc_2_proven(ldcc_desc_2, ldcc_desc_2_proof, true);

// whileBarrier: a barrier in a while loop, which the host does not copy: one epoch.
// CHECK-LABEL: static bool ldcc_desc_3_{{proof}}(
// CHECK-NOT: barrier()
// CHECK: ProofRegistration ldcc_desc_3_proven(ldcc_desc_3, ldcc_desc_3_proof, true);

// CHECK-LABEL: static bool ldcc_desc_4_{{proof}}(
// CHECK: ldcc_p.enumerated(ldcc_r0, ::ldcc::rt::proof::kWrite, [=](const ::ldcc::rt::proof::Thread& ldcc_t, long long& ldcc_index, bool& ldcc_ok) { (void)ldcc_t; (void)ldcc_ok; ldcc_index = (long long)((((0LL)) + (long long)((((int)(ldcc_t.x)) + ::ldcc::rt::proof::shift_right(((int)(ldcc_t.x)), ((int)(5LL)), ldcc_ok))) * 1LL)); return true; }, {});
// CHECK: int ldcc_v[[OFFSET:[0-9]+]]_offset = (int)(((int)(1LL)));
// CHECK-NEXT: for (int ldcc_m{{[0-9]+}}_d = {{.*}}; ldcc_m{{[0-9]+}}_d = (int)(::ldcc::rt::proof::shift_right(ldcc_m{{[0-9]+}}_d, ((int)(1LL)), ldcc_ok))) {
// CHECK-NEXT: ldcc_p.barrier();
// CHECK-NEXT: const int ldcc_s[[I1:[0-9]+]]_offset = ldcc_v[[OFFSET]]_offset;
// CHECK-NEXT: const int ldcc_s[[I2:[0-9]+]]_offset = ldcc_v[[OFFSET]]_offset;
// The read of s[i1]: the thread's condition, then i1 + (i1 >> 5) with i1 from the offset of its time.
// CHECK-NEXT: ldcc_p.enumerated(ldcc_r0, ::ldcc::rt::proof::kRead, [=]({{.*}}) { (void)ldcc_t; (void)ldcc_ok; if (!((((int)(ldcc_t.x)) < ldcc_m{{[0-9]+}}_d))) return false; ldcc_index = {{.*}}ldcc_s[[I2]]_offset * {{.*}}
// CHECK-NEXT: ldcc_p.enumerated(ldcc_r0, ::ldcc::rt::proof::kWrite, {{.*}}ldcc_s[[I2]]_offset
// CHECK-NEXT: ldcc_p.enumerated(ldcc_r0, ::ldcc::rt::proof::kRead, {{.*}}ldcc_s[[I1]]_offset * ((((int)(2LL)) * ((int)(ldcc_t.x))) + ((int)(1LL)))) - ((int)(1LL))))) + ::ldcc::rt::proof::shift_right(
// CHECK-NEXT: ldcc_v[[OFFSET]]_offset = (int)(::ldcc::rt::proof::shift_left(ldcc_v[[OFFSET]]_offset, ((int)(1LL)), ldcc_ok));
// CHECK-NEXT: }
// CHECK: ProofRegistration ldcc_desc_4_proven(ldcc_desc_4, ldcc_desc_4_proof, true);

// CHECK-LABEL: static bool ldcc_desc_5_{{proof}}(
// CHECK: ldcc_p.enumerated(ldcc_r1, ::ldcc::rt::proof::kWrite, [=]({{.*}}) { (void)ldcc_t; (void)ldcc_ok; if (!(((ldcc_t.x & ((unsigned int)(31ULL))) == ((unsigned int)(0ULL))))) return false; ldcc_index = (long long)((((0LL)) + (long long)(::ldcc::rt::proof::shift_right(ldcc_t.x, ((int)(5LL)), ldcc_ok)) * 1LL)); return true; }, {{[{][{]}}0, (-9223372036854775807LL - 1), 9223372036854775807LL, 32LL}});
// CHECK-NEXT: ldcc_p.barrier();
// CHECK: ProofRegistration ldcc_desc_5_proven(ldcc_desc_5, ldcc_desc_5_proof, true);
