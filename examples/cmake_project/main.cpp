#include "saxpy.h"

#include <cstdio>
#include <vector>

int main() {
  const int n = 1 << 16;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  if (run_saxpy(n, 3.0f, x.data(), y.data()) != 0) {
    std::fprintf(stderr, "saxpy: CUDA failed (is there a GPU?)\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    if (y[i] != 5.0f) {
      std::fprintf(stderr, "saxpy: y[%d] = %g, expected 5\n", i, y[i]);
      return 1;
    }
  }
  std::printf("saxpy: %d elements ok\n", n);
  return 0;
}
