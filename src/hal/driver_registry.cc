#include "hal/driver_registry.h"

#include <mutex>
#include <utility>

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::hal {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<std::pair<std::string, DriverFactoryFn>> drivers;  // few: a linear search
};
Registry& TheRegistry() {
  static Registry* r = new Registry();  // never destroyed: a runtime may open its driver during exit
  return *r;
}

}  // namespace

void RegisterDriver(const char* name, DriverFactoryFn create) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& [n, f] : r.drivers) {
    if (n == name) {
      f = create;
      return;
    }
  }
  r.drivers.emplace_back(name, create);
}

StatusOr<std::unique_ptr<Driver>> CreateDriver(const std::string& name, const DriverOptions& options) {
  DriverFactoryFn create = nullptr;
  std::string known;
  {
    Registry& r = TheRegistry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (const auto& [n, f] : r.drivers) {
      if (n == name) create = f;
      known += (known.empty() ? "" : ", ") + n;
    }
  }
  if (create == nullptr) {
    return Err(ACL_ERROR_RT_NO_DEVICE, "unknown driver '{}' (known: {})", name, known.empty() ? "none" : known);
  }
  return create(options);
}

std::vector<std::string> DriverNames() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const auto& d : r.drivers) names.push_back(d.first);
  return names;
}

}  // namespace npurt::hal
