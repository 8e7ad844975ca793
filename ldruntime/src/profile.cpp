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

struct Totals {
  std::map<std::string, std::pair<double, uint64_t>> phases;  // insertion order is not kept: by name
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
    if (FILE* f = std::fopen(flags().profile_path.c_str(), "w")) {
      std::fprintf(f, "phase,us,count\n");
      for (const auto& [name, v] : phases) std::fprintf(f, "%s,%.1f,%llu\n", name.c_str(), v.first, (unsigned long long)v.second);
      std::fclose(f);
    }
  }
};

}  // namespace

PhaseProfile::PhaseProfile(cudaStream_t stream) : stream_(stream), outer_(current) {
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
    auto& v = t.phases[phase];
    v.first += us * share;
    ++v.second;
  }
}

}  // namespace ldcc::rt
