// The dynamic shared memory reached through accessors, as the CUDA samples do it: `SharedMemory<T>`,
// whose conversion to T* returns its extern __shared__ array (with a specialization for double), and a
// function template returning its own extern __shared__ array. Every extern __shared__ array of a
// launch is the same memory: `mixed` stores through its own array and reads through the accessor.
//   reduce:  the samples' reduction (interleaved addressing), for float, int and double;
//   mixed:   a helper that synchronizes reads, through dynamicShared<float>(), what the kernel
//            stored through its own `extern __shared__ float own[]`;
//   reverse: the samples' older form, a named SharedMemory<float> object's getPointer();
//   racy:    the barrier between the stores and the loads left out: every load of s[(t + 32) % 64]
//            reads an element the other warp stores in the same region (the value it got shows in
//            out, where the checker sees it);
//   racyStores: warps 0 and 1 both store s[0..31] in one region.
#include <cstdio>
#include <cuda_runtime.h>

template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
  __device__ inline operator const T*() const {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
  __device__ T* getPointer() {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
};

template <>
struct SharedMemory<double> {
  __device__ inline operator double*() {
    extern __shared__ double __smem_d[];
    return (double*)__smem_d;
  }
};

template <class T>
__device__ T* dynamicShared() {
  extern __shared__ unsigned char raw[];
  return reinterpret_cast<T*>(raw);
}

template <class T>
__global__ void reduce(const T* in, T* out, unsigned n) {
  T* sdata = SharedMemory<T>();
  const unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ float mirrored() {
  __syncthreads();
  const float* buf = dynamicShared<float>();
  return buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void mixed(float* out) {
  extern __shared__ float own[];
  own[threadIdx.x] = float(blockIdx.x * 1000 + threadIdx.x);
  const float v = mirrored();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void reverse(float* out) {
  SharedMemory<float> smem;
  float* s = smem.getPointer();
  s[threadIdx.x] = out[threadIdx.x] * 3.0f;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

template <class T>
__global__ void racy(T* out) {
  T* s = SharedMemory<T>();
  s[threadIdx.x] = T(threadIdx.x + 1);
  out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
}

template <class T>
__global__ void racyStores(T* out) {
  T* s = SharedMemory<T>();
  s[threadIdx.x % 32] = T(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32];
}

template <class T>
void reduceAndPrint(const char* what, unsigned n) {
  T* host = new T[n];
  for (unsigned i = 0; i < n; ++i) host[i] = T(i % 7) + T(1);
  T *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&out, 4 * sizeof(T));
  cudaMemcpy(in, host, n * sizeof(T), cudaMemcpyHostToDevice);
  reduce<T><<<4, 128, 128 * sizeof(T)>>>(in, out, n);
  T sums[4];
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  printf("%s:", what);
  for (T s : sums) printf(" %g", double(s));
  printf("\n");
  cudaFree(in);
  cudaFree(out);
  delete[] host;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  reduceAndPrint<float>("float", 500);
  reduceAndPrint<int>("int", 512);
  reduceAndPrint<double>("double", 450);
  float* out = nullptr;
  cudaMalloc(&out, 2 * 64 * sizeof(float));
  mixed<<<2, 64, 64 * sizeof(float)>>>(out);
  float host[128];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  reverse<<<1, 128, 128 * sizeof(float)>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; ++i) printf("%g%c", host[i], i % 16 == 15 ? '\n' : ' ');
  int* ints = nullptr;
  cudaMalloc(&ints, 64 * sizeof(int));
  racy<int><<<1, 64, 64 * sizeof(int)>>>(ints);
  racyStores<int><<<1, 64, 32 * sizeof(int)>>>(ints);
  cudaDeviceSynchronize();
  cudaFree(out);
  cudaFree(ints);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
