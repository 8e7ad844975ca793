// What the first checked launch of a clone pays before its kernel runs (about 10 ms on an H100 in
// LDCC_PROFILE's "layout query"), step by step, each step timed alone with the device drained:
//   stack <bytes>: the first launch of a kernel whose threads need that much stack (the driver
//                  grows every resident thread's local memory), then a second launch;
//   steps:         the runtime's one-time steps in the order the first checked launch takes them
//                  (memory pool, first pool allocation, attributes, dynamic shared memory opt-in);
//   alloc <way>:   the first device allocations made one other way (own-pool: a pool of our own with
//                  no release threshold; default-pool: the device's default pool; malloc: cudaMalloc),
//                  to tell the stream-ordered allocator's first-use cost from the pool's settings.
// One process per measurement: each first time happens once per process.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using Clock = std::chrono::steady_clock;

class Lap {
 public:
  Lap() : start_(Clock::now()) {}
  void operator()(const char* step) {
    cudaDeviceSynchronize();
    const auto now = Clock::now();
    std::printf("| %-44s | %9.3f |\n", step, std::chrono::duration<double, std::milli>(now - start_).count());
    start_ = Clock::now();
  }

 private:
  Clock::time_point start_;
};

template <int kStack>
__global__ void with_stack(int* out, int seed) {
  volatile char frame[kStack];  // volatile: stays in local memory
  for (int j = 0; j < kStack; j += 64) frame[j] = char(j + seed);
  out[threadIdx.x] = frame[(seed * 64) % kStack];
}

__global__ void tiny(int* out) { out[threadIdx.x] = 1; }

template <int kStack>
void stack_steps(int* out, Lap& lap) {
  char first[64], second[64];
  std::snprintf(first, sizeof first, "first launch, %d bytes of stack", kStack);
  std::snprintf(second, sizeof second, "second launch, %d bytes of stack", kStack);
  with_stack<kStack><<<1, 1>>>(out, 3);
  lap(first);
  with_stack<kStack><<<1, 1>>>(out, 4);
  lap(second);
}

// A pool of device 0's memory, as ldcc made its own (before block_cache.h).
cudaMemPool_t own_pool() {
  cudaMemPool_t pool;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPoolCreate(&pool, &props);
  return pool;
}

void pool_steps(int* out, Lap& lap) {
  int supported = 0;
  cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0);
  lap("cudaDeviceGetAttribute");
  cudaMemPool_t pool = own_pool();
  lap("cudaMemPoolCreate");
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  lap("cudaMemGetInfo");
  unsigned long long keep = 256ull << 20;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  lap("release threshold");
  void* a = nullptr;
  cudaMallocFromPoolAsync(&a, 1024, pool, 0);
  lap("first pool allocation, 1 KiB");
  cudaFreeAsync(a, 0);
  cudaMallocFromPoolAsync(&a, 1024, pool, 0);
  lap("second pool allocation, 1 KiB");
  void* b = nullptr;
  cudaMallocFromPoolAsync(&b, 64 << 20, pool, 0);
  lap("pool allocation, 64 MiB");
  cudaFreeAsync(b, 0);
  cudaFreeAsync(a, 0);
  lap("two cudaFreeAsync");
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, tiny);
  lap("cudaFuncGetAttributes");
  cudaFuncSetAttribute(tiny, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
  lap("cudaFuncSetAttribute, 100000 bytes");
  tiny<<<1, 32, 100000>>>(out);
  lap("launch with 100000 bytes dynamic shared");
  unsigned long long host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  lap("cudaMemcpy 512 B to pageable memory");
}

void alloc_steps(const char* way, Lap& lap) {
  void* a = nullptr;
  void* b = nullptr;
  if (std::strcmp(way, "malloc") == 0) {
    cudaMalloc(&a, 1024);
    lap("cudaMalloc, 1 KiB");
    cudaMalloc(&b, 64 << 20);
    lap("cudaMalloc, 64 MiB");
    cudaFree(b);
    lap("cudaFree, 64 MiB");
    cudaMalloc(&b, 256 << 20);
    lap("cudaMalloc, 256 MiB");
    cudaFree(b);
    cudaFree(a);
    lap("two cudaFree");
    return;
  }
  cudaMemPool_t pool;
  if (std::strcmp(way, "default-pool") == 0) {
    cudaDeviceGetDefaultMemPool(&pool, 0);
    lap("cudaDeviceGetDefaultMemPool");
  } else {
    pool = own_pool();
    lap("cudaMemPoolCreate");
  }
  cudaMallocFromPoolAsync(&a, std::strcmp(way, "own-pool-64M") == 0 ? 64 << 20 : 1024, pool, 0);
  lap("first pool allocation");
  cudaMallocFromPoolAsync(&b, 1024, pool, 0);
  lap("second pool allocation, 1 KiB");
  cudaFreeAsync(b, 0);
  cudaFreeAsync(a, 0);
  lap("two cudaFreeAsync");
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaMallocFromPoolAsync(&a, 1024, pool, stream);
  lap("pool allocation on a new stream");
  cudaFreeAsync(a, stream);
  lap("cudaFreeAsync");
}

}  // namespace

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "steps";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  std::printf("| step (%s) | ms |\n|---|---:|\n", what);
  Lap lap;
  int* out = nullptr;
  cudaMalloc(&out, 4096);
  lap("context and cudaMalloc");
  tiny<<<1, 32>>>(out);
  lap("first launch of a kernel without stack");
  if (std::strcmp(what, "steps") == 0) {
    pool_steps(out, lap);
    return 0;
  }
  if (std::strcmp(what, "alloc") == 0) {
    alloc_steps(argc > 2 ? argv[2] : "own-pool", lap);
    return 0;
  }
  switch (argc > 2 ? std::atoi(argv[2]) : 0) {
    case 1600: stack_steps<1600>(out, lap); break;
    case 3200: stack_steps<3200>(out, lap); break;
    case 6400: stack_steps<6400>(out, lap); break;
    default: std::fprintf(stderr, "usage: first_launch steps | stack 1600|3200|6400 | alloc own-pool|own-pool-64M|default-pool|malloc\n"); return 2;
  }
  return 0;
}
