// Which freed device blocks ldcc keeps for reuse, and which it gives back: the policy of
// DeviceBuffer's cache, as plain host code so it is tested without a GPU (device_buffer.cpp does the
// cudaMalloc, cudaFree and event calls).
//
// Why a cache of cudaMalloc blocks and not a stream-ordered pool: the first allocation from any
// cudaMemPool costs about 12 ms on an H100 (bench/probes/first_launch.cu, the "alloc" runs), more
// than many whole programs' GPU time, while cudaMalloc of up to 256 MiB takes about 0.1 ms.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace ldcc {

struct CachedBlock {
  int device = 0;
  void* ptr = nullptr;
  uint64_t bytes = 0;
  void* ready = nullptr;  // the cudaEvent_t recorded on the freeing stream after the buffer's last use
};

class BlockCache {
 public:
  explicit BlockCache(uint64_t keep_bytes) : keep_bytes_(keep_bytes) {}

  // A kept block of `device` for a request of `bytes`: the smallest that holds it without wasting
  // more than the request itself (or 64 KiB for small requests). Removed from the cache.
  bool take(int device, uint64_t bytes, CachedBlock& out);
  // Keeps a freed block, oldest blocks leaving first while more than keep_bytes would be kept.
  // Returns what does not stay (possibly `b` itself): the caller gives those back to the device.
  std::vector<CachedBlock> keep(const CachedBlock& b);
  // Everything kept for `device` (to give back when the device is short of memory).
  std::vector<CachedBlock> take_all(int device);

  // Whether a block of `bytes` can be kept at all (not larger than everything the cache keeps).
  bool fits(uint64_t bytes) const { return bytes <= keep_bytes_; }
  uint64_t kept_bytes() const { return kept_bytes_; }
  uint64_t kept_bytes(int device) const;

 private:
  uint64_t keep_bytes_;
  uint64_t kept_bytes_ = 0;
  std::deque<CachedBlock> blocks_;  // oldest first
};

}  // namespace ldcc
