#include "hal/driver_registry.h"

#include <mutex>
#include <utility>

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::hal {
namespace {

struct Entry {
  std::string name;
  DriverFactoryFn create;
  DriverConfigCheckFn check;
};
struct Registry {
  std::mutex mu;
  std::vector<Entry> drivers;  // few: a linear search
};
Registry& TheRegistry() {
  static Registry* r = new Registry();  // never destroyed: a runtime may open its driver during exit
  return *r;
}

}  // namespace

void RegisterDriver(const char* name, DriverFactoryFn create, DriverConfigCheckFn check) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (Entry& e : r.drivers) {
    if (e.name == name) {
      e.create = create;
      e.check = check;
      return;
    }
  }
  r.drivers.push_back({name, create, check});
}

StatusOr<std::unique_ptr<Driver>> CreateDriver(const std::string& name, const DriverConfig& config) {
  DriverFactoryFn create = nullptr;
  std::string known;
  {
    Registry& r = TheRegistry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (const Entry& e : r.drivers) {
      if (e.name == name) create = e.create;
      known += (known.empty() ? "" : ", ") + e.name;
    }
  }
  if (create == nullptr) {
    return Err(ACL_ERROR_RT_NO_DEVICE, "unknown driver '{}' (known: {})", name, known.empty() ? "none" : known);
  }
  return create(config);
}

Status CheckDriverConfig(const std::string& name, const DriverConfig& config) {
  DriverConfigCheckFn check = nullptr;
  {
    Registry& r = TheRegistry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (const Entry& e : r.drivers) {
      if (e.name == name) check = e.check;
    }
  }
  return check != nullptr ? check(config) : Status::Ok();
}

std::vector<std::string> DriverNames() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const Entry& e : r.drivers) names.push_back(e.name);
  return names;
}

}  // namespace npurt::hal
