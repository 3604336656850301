#include "weight_packing.h"

#include <cstring>

#include "models/om/om_model.h"

namespace npurt::atc {
namespace {

// A content hash over 8-byte words (weights are hundreds of MiB: a byte loop costs seconds); equal
// hashes are confirmed by comparing the bytes.
uint64_t ContentHash(const std::vector<uint8_t>& b) {
  uint64_t h = 1469598103934665603ull ^ b.size();
  size_t i = 0;
  for (; i + 8 <= b.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, b.data() + i, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
  }
  for (; i < b.size(); ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

}  // namespace

uint64_t WeightPacker::Add(const ConstBytes& bytes) {
  auto pin = pinned_.find(bytes.identity());
  if (pin == pinned_.end() || bytes.identity() == nullptr) return AddBytes(bytes.vector());
  if (pin->second == kNotPacked) {
    pin->second = AddBytes(bytes.vector());
  } else {
    saved_ += bytes.size();
  }
  return pin->second;
}

uint64_t WeightPacker::AddBytes(const std::vector<uint8_t>& bytes) {
  const uint64_t h = ContentHash(bytes);
  auto range = by_hash_.equal_range(h);
  for (auto it = range.first; it != range.second; ++it) {
    const uint64_t off = it->second;
    if (size_at_[off] == bytes.size() && (bytes.empty() || std::memcmp(region_.data() + off, bytes.data(), bytes.size()) == 0)) {
      saved_ += bytes.size();
      return off;
    }
  }
  const uint64_t off = (region_.size() + om::kTensorAlign - 1) / om::kTensorAlign * om::kTensorAlign;
  region_.resize(off + bytes.size(), 0);
  if (!bytes.empty()) std::memcpy(region_.data() + off, bytes.data(), bytes.size());
  by_hash_.emplace(h, off);
  size_at_[off] = bytes.size();
  return off;
}

}  // namespace npurt::atc
