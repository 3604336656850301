// Entry points: TDT queues, routes, queue attributes (acl_tdt_queue.h). The acltdt*Buf* functions are the
// aclrt*Buf* functions of src/api/mbuf.cc under their TDT names.
#include "acl/acl_tdt_queue.h"

#include <unistd.h>

#include <cstring>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/tdt/mbuf.h"
#include "core/tdt/tdt_queue.h"
#include "core/tdt/tdt_queue_objects.h"

using npurt::Err;
using npurt::Status;
using npurt::core::Mbuf;
using npurt::core::TdtQueueAttr;
using npurt::core::TdtQueueRoute;
using npurt::core::TdtRoute;
using npurt::core::TdtRouteList;
using npurt::core::TdtRouteQuery;
namespace tq = npurt::core::tdt_queue;

namespace {

template <typename T>
npurt::StatusOr<T*> Resolve(const void* handle, const char* what) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  T* obj = T::Lookup(handle);
  if (obj == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not a live object of its type", what, handle);
  return obj;
}

// Creates a value handle for the acltdtCreate* functions that return NULL on failure.
template <typename Out, typename T>
Out* CreateValue(const char* function) {
  T* obj = T::New();
  if (obj == nullptr) {
    (void)npurt::api::Report(function, Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots"));
  }
  return reinterpret_cast<Out*>(obj);
}

// A parameter written by a setter: exactly sizeof the value.
template <typename V>
Status ReadParam(const void* param, size_t len, V* out) {
  if (param == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "param is a null pointer");
  if (len != sizeof(V)) return Err(ACL_ERROR_INVALID_PARAM, "len {} must be {} for this parameter", len, sizeof(V));
  std::memcpy(out, param, sizeof(V));
  return Status::Ok();
}

// A parameter read by a getter: the caller's buffer holds at least sizeof the value.
template <typename V>
Status WriteParam(const V& value, size_t len, size_t* ret_size, void* param) {
  if (param == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "param is a null pointer");
  if (ret_size == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "paramRetSize is a null pointer");
  if (len < sizeof(V)) return Err(ACL_ERROR_INVALID_PARAM, "len {} is less than the {} bytes of the value", len, sizeof(V));
  std::memcpy(param, &value, sizeof(V));
  *ret_size = sizeof(V);
  return Status::Ok();
}

// Applies bind or unbind to every route of the list (each route's status is updated); the first error
// is reported after all were tried, so one bad route does not leave the others undone.
template <typename F>
Status ForEachRoute(TdtRouteList* list, F op) {
  if (list->routes.empty()) return Err(ACL_ERROR_INVALID_PARAM, "the route list is empty");
  Status first;
  for (TdtRoute& route : list->routes) {
    Status s = op(route);
    if (!s.ok() && first.ok()) first = std::move(s);
  }
  return first;
}

}  // namespace

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(qid);
  NPURT_API_ASSIGN(a, Resolve<TdtQueueAttr>(attr, "attr"));
  NPURT_API_ASSIGN(id, tq::Create(a->name, a->depth));
  *qid = id;
  return ACL_SUCCESS;
}

aclError acltdtDestroyQueue(uint32_t qid) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(tq::Destroy(qid));
  return ACL_SUCCESS;
}

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_CHECK(tq::Enqueue(qid, b, timeout));
  return ACL_SUCCESS;
}

aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(buf);
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(b, tq::Dequeue(qid, timeout));
  *buf = b;
  return ACL_SUCCESS;
}

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData, size_t userDataSize,
                           int32_t timeout, uint32_t rsv) {
  NPURT_HANDLE_SCOPE();
  (void)rsv;  // reserved
  if (data == nullptr && dataSize != 0) NPURT_API_NOT_NULL(data);
  if (userData == nullptr && userDataSize != 0) NPURT_API_NOT_NULL(userData);
  if (userDataSize > Mbuf::kUserDataSize) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "userDataSize {} exceeds {}", userDataSize,
                                            Mbuf::kUserDataSize));
  }
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_CHECK(tq::CheckExists(qid));
  // A buffer has at least one byte; an empty message is a buffer of data length 0.
  NPURT_API_ASSIGN(b, Mbuf::Create(dataSize == 0 ? 1 : dataSize));
  if (dataSize != 0) std::memcpy(b->data(), data, dataSize);
  Status s = b->SetDataLen(dataSize);
  if (s.ok() && userDataSize != 0) s = b->SetUserData(userData, userDataSize, 0);
  if (s.ok()) s = tq::Enqueue(qid, b, timeout);
  if (!s.ok()) {
    b->Discard();
    return npurt::api::Report(__func__, s);
  }
  return ACL_SUCCESS;
}

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize, void* userData,
                           size_t userDataSize, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(retDataSize);
  if (data == nullptr && dataSize != 0) NPURT_API_NOT_NULL(data);
  if (userData == nullptr && userDataSize != 0) NPURT_API_NOT_NULL(userData);
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_CHECK(tq::DequeueData(qid, data, dataSize, retDataSize, userData, userDataSize, timeout));
  return ACL_SUCCESS;
}

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_CHECK(tq::CheckExists(qid));
  constexpr uint32_t kAll =
      ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE | ACL_TDT_QUEUE_PERMISSION_ENQUEUE;
  if (permission == 0 || (permission & ~kAll) != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "permission {:#x} is not a set of "
                                            "ACL_TDT_QUEUE_PERMISSION_* bits", permission));
  }
  if (pid != static_cast<int32_t>(getpid())) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                            "queues of the simulated device are not shared with other processes "
                                            "(pid {}); threads of this process have every permission", pid));
  }
  return ACL_SUCCESS;
}

aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(permission);
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_CHECK(tq::CheckExists(qid));
  // The creating process holds every permission, and only it can reach the queue.
  *permission = ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE | ACL_TDT_QUEUE_PERMISSION_ENQUEUE;
  return ACL_SUCCESS;
}

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(list, Resolve<TdtRouteList>(qRouteList, "qRouteList"));
  NPURT_API_CHECK(ForEachRoute(list, [](TdtRoute& r) { return tq::Bind(r); }));
  return ACL_SUCCESS;
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(list, Resolve<TdtRouteList>(qRouteList, "qRouteList"));
  NPURT_API_CHECK(ForEachRoute(list, [](TdtRoute& r) { return tq::Unbind(r); }));
  return ACL_SUCCESS;
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo, acltdtQueueRouteList* qRouteList) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(query, Resolve<TdtRouteQuery>(queryInfo, "queryInfo"));
  NPURT_API_ASSIGN(list, Resolve<TdtRouteList>(qRouteList, "qRouteList"));
  list->routes = tq::Query(query->mode, query->src, query->dst);
  return ACL_SUCCESS;
}

// --- buffers: the acl_rt.h functions under their TDT names ---------------------------------------------

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) {
  NPURT_HANDLE_SCOPE();
  if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "type {} is not an acltdtAllocBufType", type));
  }
  return aclrtAllocBuf(buf, size);  // one memory kind on the simulated device
}
aclError acltdtFreeBuf(acltdtBuf buf) {
  NPURT_HANDLE_SCOPE();
  return aclrtFreeBuf(buf);
}
aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetBufData(buf, dataPtr, size);
}
aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) {
  NPURT_HANDLE_SCOPE();
  return aclrtSetBufDataLen(buf, len);
}
aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetBufDataLen(buf, len);
}
aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) {
  NPURT_HANDLE_SCOPE();
  return aclrtAppendBufChain(headBuf, buf);
}
aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetBufChainNum(headBuf, num);
}
aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetBufFromChain(headBuf, index, buf);
}
aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetBufUserData(buf, dataPtr, size, offset);
}
aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset) {
  NPURT_HANDLE_SCOPE();
  return aclrtSetBufUserData(buf, dataPtr, size, offset);
}
aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) {
  NPURT_HANDLE_SCOPE();
  return aclrtCopyBufRef(buf, newBuf);
}

// --- queue attributes ------------------------------------------------------------------------------------

acltdtQueueAttr* acltdtCreateQueueAttr(void) {
  NPURT_HANDLE_SCOPE();
  return CreateValue<acltdtQueueAttr, TdtQueueAttr>(__func__);
}

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(a, Resolve<TdtQueueAttr>(attr, "attr"));
  a->Destroy();
  return ACL_SUCCESS;
}

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, const void* param) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(a, Resolve<TdtQueueAttr>(attr, "attr"));
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    const char* name = nullptr;
    NPURT_API_CHECK(ReadParam(param, len, &name));
    NPURT_API_NOT_NULL(name);
    size_t n = strnlen(name, tq::kMaxNameLength + 1);
    if (n > tq::kMaxNameLength) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the queue name exceeds {} characters",
                                              tq::kMaxNameLength));
    }
    a->name.assign(name, n);
    return ACL_SUCCESS;
  }
  if (type == ACL_TDT_QUEUE_DEPTH_UINT32) {
    uint32_t depth = 0;
    NPURT_API_CHECK(ReadParam(param, len, &depth));
    if (depth == 0 || depth > tq::kMaxDepth) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "depth {} is outside [1, {}]", depth,
                                              tq::kMaxDepth));
    }
    a->depth = depth;
    return ACL_SUCCESS;
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "type {} is not an acltdtQueueAttrType",
                                          static_cast<int>(type)));
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, size_t* paramRetSize,
                            void* param) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(a, Resolve<TdtQueueAttr>(attr, "attr"));
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    NPURT_API_CHECK(WriteParam(a->name.c_str(), len, paramRetSize, param));
  } else if (type == ACL_TDT_QUEUE_DEPTH_UINT32) {
    NPURT_API_CHECK(WriteParam(a->depth, len, paramRetSize, param));
  } else {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "type {} is not an acltdtQueueAttrType",
                                            static_cast<int>(type)));
  }
  return ACL_SUCCESS;
}

// --- routes, route lists and queries -----------------------------------------------------------------------

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
  NPURT_HANDLE_SCOPE();
  auto* route = CreateValue<acltdtQueueRoute, TdtQueueRoute>(__func__);
  if (route != nullptr) {
    TdtQueueRoute* r = TdtQueueRoute::Lookup(route);
    r->route.src = srcId;
    r->route.dst = dstId;
  }
  return route;
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(r, Resolve<TdtQueueRoute>(route, "route"));
  r->Destroy();
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
                                  size_t* paramRetSize, void* param) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(r, Resolve<TdtQueueRoute>(route, "route"));
  switch (type) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
      NPURT_API_CHECK(WriteParam(r->route.src, len, paramRetSize, param));
      return ACL_SUCCESS;
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
      NPURT_API_CHECK(WriteParam(r->route.dst, len, paramRetSize, param));
      return ACL_SUCCESS;
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
      NPURT_API_CHECK(WriteParam(r->route.status, len, paramRetSize, param));
      return ACL_SUCCESS;
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "type {} is not an acltdtQueueRouteParamType",
                                          static_cast<int>(type)));
}

acltdtQueueRouteList* acltdtCreateQueueRouteList(void) {
  NPURT_HANDLE_SCOPE();
  return CreateValue<acltdtQueueRouteList, TdtRouteList>(__func__);
}

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(list, Resolve<TdtRouteList>(routeList, "routeList"));
  list->Destroy();
  return ACL_SUCCESS;
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(list, Resolve<TdtRouteList>(routeList, "routeList"));
  NPURT_API_ASSIGN(r, Resolve<TdtQueueRoute>(route, "route"));
  list->routes.push_back(r->route);
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index, acltdtQueueRoute* route) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(list, Resolve<TdtRouteList>(routeList, "routeList"));
  NPURT_API_ASSIGN(r, Resolve<TdtQueueRoute>(route, "route"));
  if (index >= list->routes.size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index {} is out of the list's {} routes", index,
                                            list->routes.size()));
  }
  r->route = list->routes[index];
  return ACL_SUCCESS;
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
  NPURT_HANDLE_SCOPE();
  auto list = Resolve<TdtRouteList>(routeList, "routeList");
  if (!list.ok()) {
    (void)npurt::api::Report(__func__, list.status());
    return 0;
  }
  return list.value()->routes.size();
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo(void) {
  NPURT_HANDLE_SCOPE();
  return CreateValue<acltdtQueueRouteQueryInfo, TdtRouteQuery>(__func__);
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(q, Resolve<TdtRouteQuery>(info, "info"));
  q->Destroy();
  return ACL_SUCCESS;
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param, acltdtQueueRouteQueryInfoParamType type,
                                      size_t len, const void* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(q, Resolve<TdtRouteQuery>(param, "param"));
  switch (type) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM: {
      int32_t mode = 0;
      NPURT_API_CHECK(ReadParam(value, len, &mode));
      if (mode != ACL_TDT_QUEUE_ROUTE_QUERY_SRC && mode != ACL_TDT_QUEUE_ROUTE_QUERY_DST &&
          mode != ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST && mode != ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "mode {} is not an acltdtQueueRouteQueryMode",
                                                mode));
      }
      q->mode = mode;
      return ACL_SUCCESS;
    }
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
      NPURT_API_CHECK(ReadParam(value, len, &q->src));
      return ACL_SUCCESS;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
      NPURT_API_CHECK(ReadParam(value, len, &q->dst));
      return ACL_SUCCESS;
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                          "type {} is not an acltdtQueueRouteQueryInfoParamType", static_cast<int>(type)));
}
