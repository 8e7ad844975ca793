// Lambdas in a kernel. A lambda names __shared__ and __device__ variables without capturing them
// (static storage); in the clones those names are references to this unit's copies, so a lambda
// without a by-reference default captures each it names by reference (`[]` -> `[&s]`, `[=]` ->
// `[=, &s]`, `[k]` -> `[k, &s]`), and an outer lambda too when only a lambda inside it names one. A use
// of the dynamic shared memory through an accessor inside a lambda is rewritten as elsewhere. The
// lambda's body is not otherwise rewritten: one that calls a function that synchronizes or writes
// memory refuses the kernel (the call would act on the program's memory, out of step with the
// sites; a generic lambda's calls as its instantiations resolve them), as does one that becomes a
// function pointer anywhere (it could not capture), and a captured __device__ variable a lambda alone
// names is the unit's copy too.

__device__ int total;

__device__ float blockSum(float v) {
  __shared__ float partial[32];
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  return partial[0] + partial[1];
}

__device__ void bump(int v) { total += v; }

template <class T> __device__ T *dynamicShared() {
  extern __shared__ __align__(16) unsigned char smem[];
  return reinterpret_cast<T *>(smem);
}

__global__ void neighbours(const float *in, float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  auto at = [](int i) { return s[i % 128]; };
  const int k = 3;
  auto shifted = [k](int i) { return s[(i + k) % 128]; };
  auto counted = [=](int i) { return total + s[i % 128]; };
  auto nested = [](int i) { return [&] { return s[i % 128]; }(); };
  auto byReference = [&](int i) { return s[i % 128]; };
  out[threadIdx.x] = at(threadIdx.x + 1) + shifted(threadIdx.x) + counted(threadIdx.x) + nested(threadIdx.x) +
                     byReference(threadIdx.x);
  if (threadIdx.x == 0) total = 1;
}

__global__ void accessed(float *out) {
  float *d = dynamicShared<float>();
  d[threadIdx.x] = threadIdx.x;
  __syncthreads();
  auto at = [](int i) { return dynamicShared<float>()[i]; };
  out[threadIdx.x] = at((threadIdx.x + 1) % blockDim.x);
}

__global__ void syncingLambda(const float *in, float *out) {
  auto sum = [&](float v) { return blockSum(v); };
  out[threadIdx.x] = sum(in[threadIdx.x]);
}

__global__ void storingLambda(float *out) {
  auto add = [](int v) { bump(v); };
  add(int(threadIdx.x));
  out[threadIdx.x] = 1.0f;
}

__global__ void syncingLocalClass(const float *in, float *out) {
  struct Sum {
    __device__ static float of(float v) { return blockSum(v); }
  };
  out[threadIdx.x] = Sum::of(in[threadIdx.x]);
}

__global__ void functionPointer(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  float (*at)(int) = [](int i) { return s[i]; };
  out[threadIdx.x] = at(63 - threadIdx.x);
}

__global__ void laterConversion(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  auto at = [](int i) { return s[i]; };
  float (*f)(int) = at;
  out[threadIdx.x] = f(63 - threadIdx.x);
}

__device__ int flag;
__device__ void setFlag() { flag = 1; }

__global__ void deviceVariableInLambda(int *out) {
  setFlag();
  __syncthreads();
  auto read = [] { return flag; };
  out[threadIdx.x] = read();
}

struct Reducer {
  float scale;
  __device__ float reduce(float v) { return scale * blockSum(v); }
};

__global__ void genericLambdaMember(float *out) {
  Reducer r{2.0f};
  auto f = [](auto &red, float v) { return red.reduce(v); };
  out[threadIdx.x] = f(r, out[threadIdx.x]);
}

// WARN: lambda_captures.cu:52: warning: ldcc: kernel 'syncingLambda' runs unchecked: a lambda or a member function of a local class that calls blockSum, which synchronizes or writes memory
// WARN: lambda_captures.cu:57: warning: ldcc: kernel 'storingLambda' runs unchecked: a lambda or a member function of a local class that calls bump, which synchronizes or writes memory
// WARN: lambda_captures.cu:64: warning: ldcc: kernel 'syncingLocalClass' runs unchecked: a lambda or a member function of a local class that calls blockSum, which synchronizes or writes memory
// WARN: lambda_captures.cu:73: warning: ldcc: kernel 'functionPointer' runs unchecked: a lambda converted to a function pointer that names a __shared__ or written __device__ variable
// WARN: lambda_captures.cu:81: warning: ldcc: kernel 'laterConversion' runs unchecked: a lambda converted to a function pointer that names a __shared__ or written __device__ variable
// WARN: lambda_captures.cu:103: warning: ldcc: kernel 'genericLambdaMember' runs unchecked: a lambda or a member function of a local class that calls reduce, which synchronizes or writes memory
// WARN-NOT: warning

// CHECK: __global__ void {{.*}}neighbours__ldcc_checked(
// CHECK: auto at = [&s](int i) { return s[i % 128]; };
// CHECK: auto shifted = [k, &s](int i) { return s[(i + k) % 128]; };
// CHECK: auto counted = [=, &total, &s](int i) { return total + s[i % 128]; };
// CHECK: auto nested = [&s](int i) { return [&] { return s[i % 128]; }(); };
// CHECK: auto byReference = [&](int i) { return s[i % 128]; };
// CHECK: __global__ void {{.*}}neighbours__ldcc_blocks(
// CHECK: auto at = [&s](int i) { return s[i % 128]; };
// CHECK: __global__ void {{.*}}accessed__ldcc_checked(
// CHECK: auto at = [&[[SLOT:ldcc_extern_shared_[0-9]+]]](int i) { return reinterpret_cast<float *>(reinterpret_cast<unsigned char*>([[SLOT]]))[i]; };
// CHECK-NOT: syncingLambda__ldcc_checked
// CHECK-NOT: storingLambda__ldcc_checked
// CHECK-NOT: syncingLocalClass__ldcc_checked
// CHECK-NOT: functionPointer__ldcc_checked
// CHECK-NOT: laterConversion__ldcc_checked
// CHECK: deviceVariableInLambda__ldcc_checked(
// CHECK-SAME: auto& flag = *::ldcc::rt::global_ptr(ldcc_t, &::flag);
// CHECK: setFlag__ldcc_checked(ldcc_t);
// CHECK: auto read = [&flag] { return flag; };
// CHECK-NOT: genericLambdaMember__ldcc_checked
