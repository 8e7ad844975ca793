#include "profile.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "flags.h"

namespace ldcc::rt {
namespace {

std::mutex totals_mutex;
thread_local PhaseProfile* current = nullptr;

// A CSV field: a template's name has commas.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

struct Totals {
  using Sums = std::map<std::string, std::pair<double, uint64_t>>;  // (us, count) by name
  Sums phases;
  std::map<std::string, Sums> by_kernel;
  Totals() {
    std::atexit([] { instance().write(); });
  }
  static Totals& instance() {
    static Totals* t = new Totals();  // never destroyed: written from atexit
    return *t;
  }
  void write() {
    std::lock_guard<std::mutex> lock(totals_mutex);
    if (phases.empty()) return;
    const std::string path = flags().profile_path;
    if (FILE* f = std::fopen(path.c_str(), "w")) {
      std::fprintf(f, "phase,us,count\n");
      for (const auto& [name, v] : phases) std::fprintf(f, "%s,%.1f,%llu\n", name.c_str(), v.first, (unsigned long long)v.second);
      std::fclose(f);
    }
    if (FILE* f = std::fopen((path + ".kernels").c_str(), "w")) {
      std::fprintf(f, "kernel,phase,us,count\n");
      for (const auto& [kernel, sums] : by_kernel)
        for (const auto& [name, v] : sums)
          std::fprintf(f, "%s,%s,%.1f,%llu\n", csv_field(kernel).c_str(), name.c_str(), v.first, (unsigned long long)v.second);
      std::fclose(f);
    }
  }
};

}  // namespace

PhaseProfile::PhaseProfile(cudaStream_t stream, const char* kernel) : stream_(stream), kernel_(kernel), outer_(current) {
  if (flags().profile_path.empty()) return;
  cudaStreamSynchronize(stream_);
  last_ = std::chrono::steady_clock::now();
  current = this;
}

PhaseProfile::~PhaseProfile() {
  if (current != this) return;
  end("free buffers");  // the launch's buffers go before this object (declared after it)
  current = outer_;
  // The totals so far, after every launch: a run cut short (a timeout) still leaves its profile.
  if (outer_ == nullptr) Totals::instance().write();
}

void PhaseProfile::end(const char* phase) { end_split(phase, nullptr, 1.0); }

void PhaseProfile::end_split(const char* first, const char* second, double fraction) {
  PhaseProfile* p = current;
  if (p == nullptr) return;
  cudaStreamSynchronize(p->stream_);
  const auto now = std::chrono::steady_clock::now();
  const double us = std::chrono::duration<double, std::micro>(now - p->last_).count();
  p->last_ = now;
  Totals& t = Totals::instance();
  std::lock_guard<std::mutex> lock(totals_mutex);
  for (auto [phase, share] : {std::make_pair(first, fraction), std::make_pair(second, 1.0 - fraction)}) {
    if (phase == nullptr) continue;
    for (auto* sums : {&t.phases[phase], &t.by_kernel[p->kernel_][phase]}) {
      sums->first += us * share;
      ++sums->second;
    }
  }
}

}  // namespace ldcc::rt
