#include "core/hooks.h"

#include <map>
#include <mutex>
#include <vector>

#include "acl/acl_base_rt.h"

namespace npurt::core {
namespace {

template <typename Fn>
struct Named {
  Fn fn;
  void* args;
};

struct Hooks {
  std::mutex mu;
  std::map<std::string, Named<DeviceStateHook>> device;
  std::map<std::string, Named<StreamStateHook>> stream;
  std::vector<std::pair<int32_t, Named<InitHook>>> init;
  std::vector<std::pair<int32_t, Named<FinalizeHook>>> fini;
};

Hooks& Get() {
  static Hooks* h = new Hooks();
  return *h;
}

template <typename Map, typename Fn>
void SetNamed(Map& map, const std::string& name, Fn fn, void* args) {
  if (fn == nullptr) {
    map.erase(name);
  } else {
    map[name] = {fn, args};
  }
}

}  // namespace

void SetDeviceStateHook(const std::string& name, DeviceStateHook hook, void* args) {
  std::lock_guard<std::mutex> lock(Get().mu);
  SetNamed(Get().device, name, hook, args);
}

void SetStreamStateHook(const std::string& name, StreamStateHook hook, void* args) {
  std::lock_guard<std::mutex> lock(Get().mu);
  SetNamed(Get().stream, name, hook, args);
}

void RunDeviceStateHooks(int32_t device_id, int32_t state) {
  std::vector<Named<DeviceStateHook>> hooks;
  {
    std::lock_guard<std::mutex> lock(Get().mu);
    for (auto& [n, h] : Get().device) hooks.push_back(h);
  }
  for (auto& h : hooks) h.fn(device_id, state, h.args);
}

void RunStreamStateHooks(void* stream, int32_t state) {
  Hooks& g = Get();
  std::vector<Named<StreamStateHook>> hooks;
  {
    std::lock_guard<std::mutex> lock(g.mu);
    if (g.stream.empty()) return;
    for (auto& [n, h] : g.stream) hooks.push_back(h);
  }
  for (auto& h : hooks) h.fn(stream, state, h.args);
}

template <typename Vec, typename Fn>
Status AddHook(Vec& v, int32_t type, Fn fn, void* user_data) {
  if (fn == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "callback is a null pointer");
  for (auto& [t, h] : v) {
    if (t == type && h.fn == fn) return Err(ACL_ERROR_INVALID_PARAM, "this callback is already registered");
  }
  v.push_back({type, {fn, user_data}});
  return Status::Ok();
}

template <typename Vec, typename Fn>
Status RemoveHook(Vec& v, int32_t type, Fn fn) {
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it->first == type && it->second.fn == fn) {
      v.erase(it);
      return Status::Ok();
    }
  }
  return Err(ACL_ERROR_INVALID_PARAM, "this callback is not registered for type {}", type);
}

Status AddInitHook(int32_t type, InitHook hook, void* user_data) {
  std::lock_guard<std::mutex> lock(Get().mu);
  return AddHook(Get().init, type, hook, user_data);
}

Status RemoveInitHook(int32_t type, InitHook hook) {
  std::lock_guard<std::mutex> lock(Get().mu);
  return RemoveHook(Get().init, type, hook);
}

Status AddFinalizeHook(int32_t type, FinalizeHook hook, void* user_data) {
  std::lock_guard<std::mutex> lock(Get().mu);
  return AddHook(Get().fini, type, hook, user_data);
}

Status RemoveFinalizeHook(int32_t type, FinalizeHook hook) {
  std::lock_guard<std::mutex> lock(Get().mu);
  return RemoveHook(Get().fini, type, hook);
}

Status RunInitHooks(const std::string& config) {
  std::vector<std::pair<int32_t, Named<InitHook>>> hooks;
  {
    std::lock_guard<std::mutex> lock(Get().mu);
    hooks = Get().init;
  }
  for (auto& [type, h] : hooks) {
    const int32_t rc = h.fn(config.c_str(), config.size(), h.args);
    if (rc != 0) return Err(rc, "aclInit hook of component {} failed with {}", type, rc);
  }
  return Status::Ok();
}

Status RunFinalizeHooks() {
  std::vector<std::pair<int32_t, Named<FinalizeHook>>> hooks;
  {
    std::lock_guard<std::mutex> lock(Get().mu);
    hooks = Get().fini;
  }
  Status first;
  for (auto& [type, h] : hooks) {
    const int32_t rc = h.fn(h.args);
    if (rc != 0 && first.ok()) first = Err(rc, "aclFinalize hook of component {} failed with {}", type, rc);
  }
  return first;
}

}  // namespace npurt::core
