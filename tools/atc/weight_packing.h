// The weight region: constants packed at 64-byte aligned offsets, each distinct byte string stored once
// (two initializers with equal bytes share one offset, whatever their dims).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace npurt::atc {

class WeightPacker {
 public:
  // The offset of `bytes` in the region (stored now, or the offset of an equal earlier constant).
  uint64_t Add(const std::vector<uint8_t>& bytes);
  const std::vector<uint8_t>& region() const { return region_; }
  void Reserve(uint64_t bytes) { region_.reserve(bytes); }
  std::vector<uint8_t> TakeRegion() { return std::move(region_); }
  uint64_t deduplicated_bytes() const { return saved_; }

 private:
  std::vector<uint8_t> region_;
  std::unordered_multimap<uint64_t, uint64_t> by_hash_;  // content hash -> offset
  std::unordered_map<uint64_t, uint64_t> size_at_;       // offset -> size
  uint64_t saved_ = 0;
};

}  // namespace npurt::atc
