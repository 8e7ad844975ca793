// A kernel the translator refuses (a barrier in a for-loop header): it runs unchecked, and
// ldcc says so at compile time.
__global__ void stepped(int *p) {
  for (int i = 0; i < 2; __syncthreads(), ++i) p[threadIdx.x] += i;
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  stepped<<<1, 32>>>(d);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
