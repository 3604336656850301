#include "weight_packing.h"

#include <cstring>

#include "models/om/om_model.h"

namespace npurt::atc {
namespace {

uint64_t Fnv1a(const std::vector<uint8_t>& b) {
  uint64_t h = 1469598103934665603ull ^ b.size();
  for (uint8_t c : b) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

uint64_t WeightPacker::Add(const std::vector<uint8_t>& bytes) {
  const uint64_t h = Fnv1a(bytes);
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
