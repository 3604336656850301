// The groups of this process by key (a job, or a job's part): the ranks of one job that live in this process
// share one group object. Entries whose groups are gone are forgotten on the next lookup. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/status.h"

namespace npurt::hccl {

template <typename Group>
class GroupRegistry {
 public:
  // The live group under `key` if `reuse(group)` accepts it; else the one `make()` returns
  // (StatusOr<std::shared_ptr<Group>>), remembered under `key`. Both run under the registry's lock.
  template <typename Reuse, typename Make>
  StatusOr<std::shared_ptr<Group>> FindOrMake(const std::string& key, Reuse&& reuse, Make&& make) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = by_key_.begin(); it != by_key_.end();) {
      it = it->second.expired() ? by_key_.erase(it) : std::next(it);
    }
    std::weak_ptr<Group>& slot = by_key_[key];
    if (std::shared_ptr<Group> known = slot.lock(); known != nullptr && reuse(*known)) return known;
    StatusOr<std::shared_ptr<Group>> made = make();
    if (made.ok()) slot = made.value();
    return made;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::weak_ptr<Group>> by_key_;
};

}  // namespace npurt::hccl
