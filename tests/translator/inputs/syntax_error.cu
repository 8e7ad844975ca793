// A syntax error on line 4 (missing semicolon): ldcc-scan must print clang's diagnostic and exit 1.

__global__ void broken(int *p) {
  int x = p[threadIdx.x]
  p[threadIdx.x] = x + 1;
}
