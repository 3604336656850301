// Entry points: load configurations (aclmdlConfigHandle, aclmdlLoadWithConfig) and execution
// configurations (aclmdlExecConfigHandle). Every value's size must equal its attribute's type size.
#include <cstring>

#include "api/api_common.h"
#include "api/mdl_common.h"

using npurt::Err;
using npurt::api::mdl::Config;
using npurt::api::mdl::ExecConfig;

namespace {

enum class Kind { kInt32, kSize, kPtr };

// The attributes aclmdlSetConfigOpt accepts, with their types; the rest of the enum is refused by name.
bool KindOf(int attr, Kind* kind) {
  switch (attr) {
    case ACL_MDL_PRIORITY_INT32:
    case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
    case ACL_MDL_WITHOUT_GRAPH_INT32:
      *kind = Kind::kInt32;
      return true;
    case ACL_MDL_LOAD_TYPE_SIZET:
    case ACL_MDL_MEM_SIZET:
    case ACL_MDL_WEIGHT_SIZET:
    case ACL_MDL_WORKSPACE_SIZET:
      *kind = Kind::kSize;
      return true;
    case ACL_MDL_PATH_PTR:
    case ACL_MDL_MEM_ADDR_PTR:
    case ACL_MDL_WEIGHT_ADDR_PTR:
    case ACL_MDL_WORKSPACE_ADDR_PTR:
    case ACL_MDL_WEIGHT_PATH_PTR:
      *kind = Kind::kPtr;
      return true;
    default:
      return false;
  }
}

// The live object behind a configuration handle, or ACL_ERROR_INVALID_PARAM.
template <typename T>
npurt::StatusOr<T*> Live(const void* handle, const char* what) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is a null pointer");
  T* c = T::From(handle);
  if (c == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is not a live {}", what);
  return c;
}

size_t SizeOf(Kind k) { return k == Kind::kInt32 ? sizeof(int32_t) : k == Kind::kSize ? sizeof(size_t) : sizeof(void*); }

npurt::StatusOr<uint64_t> Need(const Config& c, int attr, const char* name) {
  auto it = c.values.find(attr);
  if (it == c.values.end()) {
    return Err(ACL_ERROR_INVALID_PARAM, "the configuration does not set {}, which its load type needs", name);
  }
  return it->second;
}

}  // namespace

aclmdlConfigHandle* aclmdlCreateConfigHandle(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<aclmdlConfigHandle*>(npurt::NewHandle<Config>());
}

aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, Live<Config>(handle, "configuration"));
  if (c->Invalidate()) c->Release();
  return ACL_SUCCESS;
}

aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle, aclmdlConfigAttr attr, const void* attrValue,
                            size_t valueSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, Live<Config>(handle, "configuration"));
  NPURT_API_NOT_NULL(attrValue);
  const int a = npurt::RawEnum(attr);
  Kind kind;
  if (!KindOf(a, &kind)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "configuration attribute {} is not supported by npurt's loader (queues, "
                                            "pre-compiled task images and FIFOs are CANN device features)",
                                            a));
  }
  if (valueSize != SizeOf(kind)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attribute {} takes {} bytes, valueSize is {}", a,
                                            SizeOf(kind), valueSize));
  }
  uint64_t v = 0;
  switch (kind) {
    case Kind::kInt32: {
      int32_t i;
      std::memcpy(&i, attrValue, sizeof i);
      v = static_cast<uint64_t>(static_cast<int64_t>(i));
      if (a == ACL_MDL_PRIORITY_INT32 && (i < 0 || i > 7)) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0..7", i));
      }
      if ((a == ACL_MDL_WITHOUT_GRAPH_INT32 || a == ACL_MDL_WORKSPACE_MEM_OPTIMIZE) && i != 0 && i != 1) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attribute {} takes 0 or 1, not {}", a, i));
      }
      break;
    }
    case Kind::kSize: {
      size_t s;
      std::memcpy(&s, attrValue, sizeof s);
      v = s;
      if (a == ACL_MDL_LOAD_TYPE_SIZET && (s < ACL_MDL_LOAD_FROM_FILE || s > ACL_MDL_LOAD_FROM_MEM_WITH_Q)) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "load type {} is not 1..6", s));
      }
      break;
    }
    case Kind::kPtr: {
      const void* p;
      std::memcpy(&p, attrValue, sizeof p);  // the attribute's value is the pointer whose address was passed
      v = reinterpret_cast<uintptr_t>(p);
      if (a == ACL_MDL_PATH_PTR || a == ACL_MDL_WEIGHT_PATH_PTR) {
        if (p == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the path is a null pointer"));
        (a == ACL_MDL_PATH_PTR ? c->path : c->weight_path) = static_cast<const char*>(p);
      }
      break;
    }
  }
  c->values[a] = v;
  return ACL_SUCCESS;
}

aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle, uint32_t* modelId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, Live<Config>(handle, "configuration"));
  NPURT_API_NOT_NULL(modelId);
  NPURT_API_ASSIGN(type, Need(*c, ACL_MDL_LOAD_TYPE_SIZET, "ACL_MDL_LOAD_TYPE_SIZET"));
  npurt::models::LoadMemory mem;
  if (type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM || type == ACL_MDL_LOAD_FROM_MEM_WITH_MEM) {
    NPURT_API_ASSIGN(work, Need(*c, ACL_MDL_WORKSPACE_ADDR_PTR, "ACL_MDL_WORKSPACE_ADDR_PTR"));
    NPURT_API_ASSIGN(work_size, Need(*c, ACL_MDL_WORKSPACE_SIZET, "ACL_MDL_WORKSPACE_SIZET"));
    mem.work = reinterpret_cast<void*>(work);
    mem.work_size = work_size;
    auto w = c->values.find(ACL_MDL_WEIGHT_ADDR_PTR);
    auto ws = c->values.find(ACL_MDL_WEIGHT_SIZET);
    if (w != c->values.end()) {
      mem.weight = reinterpret_cast<void*>(w->second);
      mem.weight_size = ws == c->values.end() ? 0 : ws->second;
    }
  }
  npurt::StatusOr<uint32_t> id = Err(ACL_ERROR_INVALID_PARAM, "");
  switch (type) {
    case ACL_MDL_LOAD_FROM_FILE:
    case ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
      if (c->path.empty()) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the configuration sets no ACL_MDL_PATH_PTR"));
      }
      id = npurt::models::LoadFromFile(c->path, mem);
      break;
    case ACL_MDL_LOAD_FROM_MEM:
    case ACL_MDL_LOAD_FROM_MEM_WITH_MEM: {
      NPURT_API_ASSIGN(addr, Need(*c, ACL_MDL_MEM_ADDR_PTR, "ACL_MDL_MEM_ADDR_PTR"));
      NPURT_API_ASSIGN(size, Need(*c, ACL_MDL_MEM_SIZET, "ACL_MDL_MEM_SIZET"));
      if (addr == 0 || size == 0) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the model memory is null or empty"));
      }
      id = npurt::models::LoadFromMemory(reinterpret_cast<const void*>(addr), size, mem);
      break;
    }
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                              "load type {} (bound to TDT queues) is not supported by npurt", type));
  }
  if (!id.ok()) return npurt::api::Report(__func__, id.status());
  *modelId = id.value();
  return ACL_SUCCESS;
}

aclmdlExecConfigHandle* aclmdlCreateExecConfigHandle(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<aclmdlExecConfigHandle*>(npurt::NewHandle<ExecConfig>());
}

aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, Live<ExecConfig>(handle, "execution configuration"));
  if (c->Invalidate()) c->Release();
  return ACL_SUCCESS;
}

aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle* handle, aclmdlExecConfigAttr attr, const void* attrValue,
                                size_t valueSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, Live<ExecConfig>(handle, "execution configuration"));
  NPURT_API_NOT_NULL(attrValue);
  const int a = npurt::RawEnum(attr);
  switch (a) {
    case ACL_MDL_STREAM_SYNC_TIMEOUT:
    case ACL_MDL_EVENT_SYNC_TIMEOUT:
    case ACL_MDL_EXEC_PRIORITY_INT32: {
      if (valueSize != sizeof(int32_t)) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attribute {} takes 4 bytes, valueSize is {}",
                                                a, valueSize));
      }
      int32_t v;
      std::memcpy(&v, attrValue, sizeof v);
      if (a != ACL_MDL_EXEC_PRIORITY_INT32 && v < -1) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "timeout {} ms is invalid (-1: forever)", v));
      }
      (a == ACL_MDL_STREAM_SYNC_TIMEOUT ? c->stream_timeout_ms
                                         : a == ACL_MDL_EVENT_SYNC_TIMEOUT ? c->event_timeout_ms : c->priority) = v;
      return ACL_SUCCESS;
    }
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                              "execution attribute {} is not supported by npurt (work memory per "
                                              "execution, QoS and performance modes are CANN device features)",
                                              a));
  }
}
