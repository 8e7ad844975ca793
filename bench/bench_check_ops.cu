// Cost of every checking operation against data size (1 KB .. 1 GB per copy) and copy count
// (2 .. 64), next to the device's measured device-to-device copy bandwidth (paper Figure 9).
// Bandwidth counts the bytes an operation must read and write:
//   replicate       S -> M copies                 (1 + M) n
//   ww_fused        S, M copies -> U, M copies    (2M + 2) n
//   ww_union        S, M copies -> U              (M + 2) n    } unfused ww-check,
//   init_pass2      S, U, M copies -> M copies    (2M + 2) n   } for comparison
//   rw_commit       U, M copies -> S              (M + 2) n
//   rw_check        U, M copies                   (M + 1) n    } unfused rw-check + commit,
//   commit          U -> S                        2n           } for comparison
//   merge_ordered   S, M copies -> S              (M + 2) n
// Usage: bench_check_ops [--quick] [--csv FILE] [--max-bytes N]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ldcc/kernels/check_kernels.h"

namespace {

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t e = (call);                                                                      \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "bench_check_ops: %s: %s\n", #call, cudaGetErrorString(e));           \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// Median of `reps` timed runs (after one warm-up), in milliseconds; `setup` runs untimed before each.
double time_ms(const std::function<void()>& op, int reps, const std::function<void()>& setup = [] {}) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  setup();
  op();
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    setup();
    cudaEventRecord(start);
    op();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t = 0;
    cudaEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  CHECK_CUDA(cudaGetLastError());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int reps_for(uint64_t bytes_moved) { return bytes_moved < (64ull << 20) ? 50 : bytes_moved < (4ull << 30) ? 15 : 5; }

std::string human(uint64_t bytes) {
  char b[32];
  if (bytes >= (1ull << 30)) std::snprintf(b, sizeof b, "%lluG", (unsigned long long)(bytes >> 30));
  else if (bytes >= (1ull << 20)) std::snprintf(b, sizeof b, "%lluM", (unsigned long long)(bytes >> 20));
  else std::snprintf(b, sizeof b, "%lluK", (unsigned long long)(bytes >> 10));
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string csv_path = "check_ops.csv";
  uint64_t max_bytes = 1ull << 30;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
    else if (!std::strcmp(argv[i], "--max-bytes") && i + 1 < argc) max_bytes = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--csv FILE] [--max-bytes N]\n", argv[0]);
      return 2;
    }
  }
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "bench_check_ops: no CUDA device; run it on the GPU machine (scripts/gpu_run.sh)\n");
    return 1;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  size_t free_bytes = 0, total_bytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));

  // Device-to-device copy bandwidth, read + write, on 1 GiB (the reference for every ratio).
  const uint64_t copy_n = std::min<uint64_t>(1ull << 30, max_bytes);
  uint8_t *a = nullptr, *b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, copy_n));
  CHECK_CUDA(cudaMalloc(&b, copy_n));
  CHECK_CUDA(cudaMemset(a, 1, copy_n));
  const double copy_ms = time_ms([&] { cudaMemcpyAsync(b, a, copy_n, cudaMemcpyDeviceToDevice); }, 20);
  const double copy_gbs = 2.0 * copy_n / (copy_ms * 1e6);
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  std::printf("device: %s, %d SMs, %.1f GiB; cudaMemcpy device-to-device: %.0f GB/s (read + write, %s)\n", prop.name,
              prop.multiProcessorCount, total_bytes / double(1ull << 30), copy_gbs, human(copy_n).c_str());

  std::vector<uint64_t> sizes;
  for (uint64_t n = 1ull << 10; n <= max_bytes; n *= quick ? 16 : 4) sizes.push_back(n);
  if ((32ull << 20) <= max_bytes) sizes.push_back(32ull << 20);  // the size the bandwidth target starts at
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::vector<uint32_t> copy_counts = quick ? std::vector<uint32_t>{2, 16, 64} : std::vector<uint32_t>{2, 4, 8, 16, 32, 64};

  FILE* csv = std::fopen(csv_path.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "bench_check_ops: cannot write %s\n", csv_path.c_str());
    return 1;
  }
  std::fprintf(csv, "device,op,bytes,copies,ms,gbps,ratio_to_copy\n");
  std::printf("\n%-8s %6s %-14s %10s %10s %8s\n", "size", "copies", "op", "ms", "GB/s", "vs copy");

  for (uint32_t m : copy_counts) {
    for (uint64_t n : sizes) {
      const uint64_t stride = ldcc::padded_copy_bytes(n);
      const uint64_t need = stride * (m + 2) + (64ull << 20);
      if (need > free_bytes * 0.9) {
        std::printf("%-8s %6u skipped: needs %s of device memory\n", human(n).c_str(), m, human(need).c_str());
        continue;
      }
      uint8_t *s = nullptr, *arena = nullptr;
      ldcc::RaceRecord* records = nullptr;
      unsigned long long* count = nullptr;
      CHECK_CUDA(cudaMalloc(&s, n));
      CHECK_CUDA(cudaMalloc(&arena, stride * (m + 1)));
      CHECK_CUDA(cudaMalloc(&records, 1024 * sizeof(ldcc::RaceRecord)));
      CHECK_CUDA(cudaMalloc(&count, sizeof(unsigned long long)));
      CHECK_CUDA(cudaMemset(s, 7, n));
      CHECK_CUDA(cudaMemset(arena, 0, stride * (m + 1)));
      CHECK_CUDA(cudaMemset(count, 0, sizeof(unsigned long long)));
      const ldcc::TargetBuffers t{s, n, arena, stride, arena + stride * m, m, 0};
      const ldcc::RaceLogView log{records, count, 1024};
      // The states each operation sees in a race-free region: after pass 1 every copy has written
      // its own share of the bytes; after pass 2 every copy equals U.
      auto pass1_state = [&] {
        cudaMemsetAsync(s, 7, n);
        ldcc::kernels::replicate(t, nullptr);
        for (uint32_t k = 0; k < m; ++k) cudaMemsetAsync(arena + k * stride + (n / m) * k, 9 + k, n / m);
      };
      auto after_ww_union = [&] {
        pass1_state();
        ldcc::kernels::ww_check_union(t, log, nullptr);
      };
      auto pass2_state = [&] {
        after_ww_union();
        ldcc::kernels::replicate(ldcc::TargetBuffers{t.uni, n, t.copies, t.stride, t.uni, m, 0}, nullptr);
      };
      auto nothing = [] {};

      struct Op {
        const char* name;
        double bytes_factor;  // bytes moved per byte of target
        std::function<void()> setup, run;
      };
      const std::vector<Op> ops = {
          {"replicate", 1.0 + m, nothing, [&] { ldcc::kernels::replicate(t, nullptr); }},
          {"ww_fused", 2.0 * m + 2, pass1_state, [&] { ldcc::kernels::ww_check_fused(t, log, nullptr); }},
          {"ww_union", m + 2.0, pass1_state, [&] { ldcc::kernels::ww_check_union(t, log, nullptr); }},
          {"init_pass2", 2.0 * m + 2, after_ww_union, [&] { ldcc::kernels::init_pass2(t, nullptr); }},
          {"rw_commit", m + 2.0, pass2_state, [&] { ldcc::kernels::rw_check(t, log, true, nullptr); }},
          {"rw_check", m + 1.0, pass2_state, [&] { ldcc::kernels::rw_check(t, log, false, nullptr); }},
          {"commit", 2.0, after_ww_union, [&] { ldcc::kernels::commit(t, nullptr); }},
          {"merge_ordered", m + 2.0, pass1_state, [&] { ldcc::kernels::merge_ordered(t, false, nullptr); }},
      };
      // Past 16 copies, every ww-check layout that holds m copies, to choose ww_fused's default from data.
      std::vector<Op> all_ops = ops;
      const std::pair<const char*, ldcc::kernels::WwLayout> layouts[] = {
          {"ww_fused[reg16]", ldcc::kernels::WwLayout::Registers16}, {"ww_fused[reg8]", ldcc::kernels::WwLayout::Registers8},
          {"ww_fused[reg4]", ldcc::kernels::WwLayout::Registers4}, {"ww_fused[stream]", ldcc::kernels::WwLayout::Streaming}};
      if (m > 16)
        for (auto [name, layout] : layouts)
          if (ldcc::kernels::ww_layout_supports(layout, m))
            all_ops.push_back({name, 2.0 * m + 2, pass1_state,
                               [&, layout = layout] { ldcc::kernels::ww_check_fused_with(t, log, layout, nullptr); }});
      for (const Op& op : all_ops) {
        const double moved = op.bytes_factor * double(n);
        const double ms = time_ms(op.run, reps_for(uint64_t(moved)), op.setup);
        const double gbs = moved / (ms * 1e6);
        std::printf("%-8s %6u %-14s %10.4f %10.1f %7.0f%%\n", human(n).c_str(), m, op.name, ms, gbs, 100 * gbs / copy_gbs);
        std::fprintf(csv, "\"%s\",%s,%llu,%u,%.6f,%.2f,%.4f\n", prop.name, op.name, (unsigned long long)n, m, ms, gbs,
                     gbs / copy_gbs);
      }
      unsigned long long races = 0;
      CHECK_CUDA(cudaMemcpy(&races, count, sizeof races, cudaMemcpyDeviceToHost));
      if (races) std::printf("unexpected race records in a race-free state: %llu\n", races);
      CHECK_CUDA(cudaFree(s));
      CHECK_CUDA(cudaFree(arena));
      CHECK_CUDA(cudaFree(records));
      CHECK_CUDA(cudaFree(count));
    }
  }
  std::fprintf(csv, "\"%s\",device_copy,%llu,1,%.6f,%.2f,1.0\n", prop.name, (unsigned long long)copy_n, copy_ms, copy_gbs);
  std::fclose(csv);
  std::printf("\nwrote %s\n", csv_path.c_str());
  return 0;
}
