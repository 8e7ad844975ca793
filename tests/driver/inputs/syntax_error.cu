// A syntax error on line 4 (missing semicolon): ldcc must print clang's diagnostic and fail.

__global__ void broken(int *p) {
  int x = p[threadIdx.x]
  p[threadIdx.x] = x + 1;
}
