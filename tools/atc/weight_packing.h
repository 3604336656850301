// The weight region: constants packed at 64-byte aligned offsets, each distinct byte string stored once
// (two initializers with equal bytes share one offset, whatever their dims).
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "graph.h"

namespace npurt::atc {

class WeightPacker {
 public:
  // The offset of `bytes` in the region (stored now, or the offset of an equal earlier constant).
  uint64_t Add(const ConstBytes& bytes);
  // Storage that outlives the packer's use and never changes (the runtime's shape compiler's initializers,
  // shared by all its compiles): once packed, Add finds it by identity, without hashing or comparing it
  // again. The caller keeps `bytes` alive for as long as it adds to this packer.
  void Pin(const ConstBytes& bytes) { pinned_.emplace(bytes.identity(), kNotPacked); }
  // Whether Add(bytes) is known to store nothing new (pinned storage packed before).
  bool Known(const ConstBytes& bytes) const {
    auto pin = pinned_.find(bytes.identity());
    return pin != pinned_.end() && pin->second != kNotPacked;
  }
  const std::vector<uint8_t>& region() const { return region_; }
  // Room for `bytes` in all: exactly on the first call (atc's one graph), by half again at least later (the
  // runtime's compiles each add a little to a region that holds a model's weights).
  void Reserve(uint64_t bytes) {
    if (bytes <= region_.capacity()) return;
    region_.reserve(region_.empty() ? bytes : std::max<uint64_t>(bytes, region_.capacity() + region_.capacity() / 2));
  }
  std::vector<uint8_t> TakeRegion() { return std::move(region_); }
  uint64_t deduplicated_bytes() const { return saved_; }

 private:
  static constexpr uint64_t kNotPacked = UINT64_MAX;
  uint64_t AddBytes(const std::vector<uint8_t>& bytes);

  std::vector<uint8_t> region_;
  std::unordered_multimap<uint64_t, uint64_t> by_hash_;  // content hash -> offset
  std::unordered_map<uint64_t, uint64_t> size_at_;       // offset -> size
  std::unordered_map<const void*, uint64_t> pinned_;     // pinned storage -> its offset, or kNotPacked
  uint64_t saved_ = 0;
};

}  // namespace npurt::atc
