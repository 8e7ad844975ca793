// Verdicts of launch-time proofs, kept per launch (proof_cache.h).
#include "proof_cache.h"

#include <cstring>

namespace ldcc::rt::proof {
namespace {

template <typename T>
void append(std::string& key, const T& value) {
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

}  // namespace

std::string launch_key(dim3 grid, dim3 block, void** args, const unsigned long long* param_sizes,
                       const unsigned long long* pointee_sizes, unsigned num_params, const AllocationLookup& lookup) {
  std::string key;
  for (unsigned v : {grid.x, grid.y, grid.z, block.x, block.y, block.z}) append(key, v);
  for (unsigned i = 0; i < num_params; ++i) {
    append(key, param_sizes[i]);
    key.append(static_cast<const char*>(args[1 + i]), param_sizes[i]);
    if (pointee_sizes[i] == 0) continue;
    const void* pointer = nullptr;
    std::memcpy(&pointer, args[1 + i], sizeof pointer);
    const void* base = nullptr;
    size_t bytes = 0;
    if (!pointer || !lookup(pointer, base, bytes)) base = nullptr, bytes = 0;
    append(key, base);
    append(key, bytes);
  }
  return key;
}

std::optional<bool> VerdictCache::find(const void* kernel, const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto k = verdicts_.find(kernel);
  if (k == verdicts_.end()) return std::nullopt;
  const auto v = k->second.find(key);
  if (v == k->second.end()) return std::nullopt;
  return v->second;
}

void VerdictCache::store(const void* kernel, const std::string& key, bool holds) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& mine = verdicts_[kernel];
  if (mine.size() >= kMaxVerdictsPerKernel) mine.clear();
  mine[key] = holds;
}

}  // namespace ldcc::rt::proof
