// The small value objects of acl_tdt_queue.h, handed out as arena handles so that a stale or foreign
// pointer is rejected: queue attributes, one route, a route list and a route query. Not locked (like
// CANN's, each is built by one thread before use).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_tdt_queue.h"
#include "base/handle.h"
#include "core/handle_tags.h"
#include "core/tdt/tdt_queue.h"

namespace npurt::core {

// Creates a default-constructed T in the arena (nullptr when the arena is full) and destroys one.
template <typename T>
class TdtValueHandle : public HandleObject {
 public:
  static T* New() { return NewHandle<T>(); }
  static T* Lookup(const void* handle) { return LookupHandle<T>(handle, T::kTag); }
  void Destroy() {
    if (Invalidate()) Release();
  }

 protected:
  TdtValueHandle() : HandleObject(T::kTag) {}
  ~TdtValueHandle() override = default;
};

class TdtQueueAttr final : public TdtValueHandle<TdtQueueAttr> {
 public:
  static constexpr HandleTag kTag = handle_tags::kTdtQueueAttr;
  std::string name;  // ACL_TDT_QUEUE_NAME_PTR reads back name.c_str(): valid while the attribute lives
  uint32_t depth = tdt_queue::kDefaultDepth;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  TdtQueueAttr() = default;
};

class TdtQueueRoute final : public TdtValueHandle<TdtQueueRoute> {
 public:
  static constexpr HandleTag kTag = handle_tags::kTdtQueueRoute;
  TdtRoute route;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  TdtQueueRoute() = default;
};

class TdtRouteList final : public TdtValueHandle<TdtRouteList> {
 public:
  static constexpr HandleTag kTag = handle_tags::kTdtRouteList;
  std::vector<TdtRoute> routes;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  TdtRouteList() = default;
};

class TdtRouteQuery final : public TdtValueHandle<TdtRouteQuery> {
 public:
  static constexpr HandleTag kTag = handle_tags::kTdtRouteQuery;
  int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  uint32_t src = 0;
  uint32_t dst = 0;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  TdtRouteQuery() = default;
};

}  // namespace npurt::core
