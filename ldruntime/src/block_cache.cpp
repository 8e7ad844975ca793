#include "block_cache.h"

#include <algorithm>

namespace ldcc {

bool BlockCache::take(int device, uint64_t bytes, CachedBlock& out) {
  const uint64_t waste = std::max<uint64_t>(bytes, 64 << 10);
  auto best = blocks_.end();
  for (auto it = blocks_.begin(); it != blocks_.end(); ++it)
    if (it->device == device && it->bytes >= bytes && it->bytes - bytes <= waste &&
        (best == blocks_.end() || it->bytes < best->bytes))
      best = it;
  if (best == blocks_.end()) return false;
  out = *best;
  kept_bytes_ -= best->bytes;
  blocks_.erase(best);
  return true;
}

uint64_t BlockCache::kept_bytes(int device) const {
  uint64_t sum = 0;
  for (const CachedBlock& b : blocks_)
    if (b.device == device) sum += b.bytes;
  return sum;
}

std::vector<CachedBlock> BlockCache::keep(const CachedBlock& b) {
  std::vector<CachedBlock> out;
  if (!fits(b.bytes)) {
    out.push_back(b);
    return out;
  }
  while (kept_bytes_ + b.bytes > keep_bytes_) {
    out.push_back(blocks_.front());
    kept_bytes_ -= blocks_.front().bytes;
    blocks_.pop_front();
  }
  blocks_.push_back(b);
  kept_bytes_ += b.bytes;
  return out;
}

std::vector<CachedBlock> BlockCache::take_all(int device) {
  std::vector<CachedBlock> out;
  std::deque<CachedBlock> rest;
  for (const CachedBlock& b : blocks_) {
    if (b.device == device) {
      out.push_back(b);
      kept_bytes_ -= b.bytes;
    } else {
      rest.push_back(b);
    }
  }
  blocks_.swap(rest);
  return out;
}

}  // namespace ldcc
