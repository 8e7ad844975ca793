#include "gpu/gpu_test_support.h"

namespace ldcc::testing {

bool gpu_available() {
  static const bool available = [] {
    int count = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    cudaGetLastError();
    return ok;
  }();
  return available;
}

}  // namespace ldcc::testing
