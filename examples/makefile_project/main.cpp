#include "reduce.h"

#include <cstdio>
#include <vector>

int main() {
  const int n = 100000;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = i % 7;
  long long expected = 0;
  for (int v : values) expected += v;

  long long total = 0;
  if (block_sum(values.data(), n, &total) != 0) {
    std::fprintf(stderr, "block_sum: CUDA failed (is there a GPU?)\n");
    return 1;
  }
  if (total != expected) {
    std::fprintf(stderr, "block_sum: got %lld, expected %lld\n", total, expected);
    return 1;
  }
  std::printf("block_sum: %lld ok\n", total);
  return 0;
}
