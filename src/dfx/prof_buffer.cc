#include "dfx/prof_buffer.h"

namespace npurt::dfx {

RecordRing& RingRegistry::Mine() {
  thread_local RecordRing* mine = nullptr;
  if (mine == nullptr) {
    std::unique_ptr<RecordRing> ring;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!spares_.empty()) {
        ring = std::move(spares_.back());
        spares_.pop_back();
      }
    }
    if (ring == nullptr) ring = std::make_unique<RecordRing>();
    mine = ring.get();
    std::lock_guard<std::mutex> lock(mu_);
    rings_.push_back(std::move(ring));
  }
  return *mine;
}

void RingRegistry::Prepare(size_t spares) {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (spares_.size() >= spares) return;
    }
    auto ring = std::make_unique<RecordRing>();
    std::lock_guard<std::mutex> lock(mu_);
    spares_.push_back(std::move(ring));
  }
}

std::vector<RecordRing*> RingRegistry::All() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RecordRing*> out;
  out.reserve(rings_.size());
  for (auto& r : rings_) out.push_back(r.get());
  return out;
}

}  // namespace npurt::dfx
