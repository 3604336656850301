// Entry points: resource limits, device limits, topology and identification, operator timeouts,
// device/stream state callbacks, aclInit/aclFinalize hooks, detailed error queries.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/handle_tags.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/thread_state.h"

using npurt::Err;
using npurt::core::Runtime;

namespace {

bool ValidResType(aclrtDevResLimitType type) {
  return type == ACL_RT_DEV_RES_CUBE_CORE || type == ACL_RT_DEV_RES_VECTOR_CORE;
}

aclError BadResType(const char* fn, aclrtDevResLimitType type) {
  return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "resource type {} is not CUBE_CORE or VECTOR_CORE",
                                    int(type)));
}

// The most cores a limit may name: an Ascend 910B has 24 cube and 48 vector cores, and programs written
// for it set limits up to those. The sim runs blocks on aicore_count worker threads, so a limit above
// that lets a launch use all of them; a limit below it is enforced.
uint32_t MaxCoreLimit(npurt::core::Device* dev, aclrtDevResLimitType type) {
  const uint32_t soc = type == ACL_RT_DEV_RES_CUBE_CORE ? 24 : 48;
  const uint32_t workers = dev->info().aicore_count;
  return workers > soc ? workers : soc;
}

// Effective limit of a device (the AI-core count when no limit is set).
uint32_t DeviceLimit(npurt::core::Device* dev, aclrtDevResLimitType type) {
  const uint32_t set = dev->res_limit[type].load();
  return set != 0 ? set : dev->info().aicore_count;
}

}  // namespace

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  if (!ValidResType(type)) return BadResType(__func__, type);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  *value = DeviceLimit(dev, type);
  return ACL_SUCCESS;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  NPURT_HANDLE_SCOPE();
  if (!ValidResType(type)) return BadResType(__func__, type);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  const uint32_t cores = MaxCoreLimit(dev, type);
  if (value == 0 || value > cores) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "limit {} is outside 1..{} ({} cores of device {})",
                                            value, cores, type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector",
                                            deviceId));
  }
  dev->res_limit[type].store(value);
  return ACL_SUCCESS;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  dev->res_limit[0].store(0);
  dev->res_limit[1].store(0);
  return ACL_SUCCESS;
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  if (!ValidResType(type)) return BadResType(__func__, type);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  const uint32_t set = s->res_limit[type].load();
  *value = set != 0 ? set : DeviceLimit(s->device(), type);
  return ACL_SUCCESS;
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  NPURT_HANDLE_SCOPE();
  if (!ValidResType(type)) return BadResType(__func__, type);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  const uint32_t dev_limit = DeviceLimit(s->device(), type);
  if (value == 0 || value > dev_limit) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "limit {} is outside 1..{} (the device's limit)",
                                            value, dev_limit));
  }
  s->res_limit[type].store(value);
  return ACL_SUCCESS;
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  s->res_limit[0].store(0);
  s->res_limit[1].store(0);
  return ACL_SUCCESS;
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::core::Tls().res_stream = s;
  return ACL_SUCCESS;
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (npurt::core::Tls().res_stream != s) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the calling thread does not use the resources "
                                            "of stream {}", s->id()));
  }
  npurt::core::Tls().res_stream = nullptr;
  return ACL_SUCCESS;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  if (!ValidResType(type)) return BadResType(__func__, type);
  void* used = npurt::core::Tls().res_stream;
  if (used != nullptr) {
    if (auto* s = npurt::LookupHandle<npurt::core::Stream>(used, npurt::handle_tags::kStream)) {
      const uint32_t set = s->res_limit[type].load();
      *value = set != 0 ? set : DeviceLimit(s->device(), type);
      return ACL_SUCCESS;
    }
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  *value = DeviceLimit(ctx->device(), type);
  return ACL_SUCCESS;
}

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) {
  NPURT_HANDLE_SCOPE();
  if (limit < ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE || limit > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown device limit {}", int(limit)));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  ctx->device()->device_limit[limit].store(value);
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  if (limit < ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE || limit > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown device limit {}", int(limit)));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  static const size_t kDefaults[] = {16384, 1024, 32768, 1 << 20, 1 << 20};
  const uint64_t set = ctx->device()->device_limit[limit].load();
  *value = set != 0 ? set : kDefaults[limit];
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pid);
  *pid = static_cast<int32_t>(getpid());  // the sim device lives in this process
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pciBusId);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  char buf[32];
  std::snprintf(buf, sizeof buf, "0000:%02x:00.0", 0xc0 + dev->physical_id());
  if (len <= 0 || static_cast<size_t>(len) <= std::strlen(buf)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "len {} is too small for \"{}\"", len, buf));
  }
  std::snprintf(pciBusId, static_cast<size_t>(len), "%s", buf);
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pciBusId);
  NPURT_API_NOT_NULL(deviceId);
  NPURT_API_ASSIGN(count, Runtime::Get().DeviceCount());
  for (uint32_t i = 0; i < count; ++i) {
    char buf[32];
    if (aclrtDeviceGetPCIBusId(static_cast<int32_t>(i), buf, sizeof buf) == ACL_SUCCESS && strcasecmp(buf, pciBusId) == 0) {
      *deviceId = static_cast<int32_t>(i);
      return ACL_SUCCESS;
    }
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_INVALID_DEVICEID, "no device has PCI bus id \"{}\"", pciBusId));
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(a, Runtime::Get().GetDevice(static_cast<int32_t>(deviceId)));
  NPURT_API_ASSIGN(b, Runtime::Get().GetDevice(static_cast<int32_t>(otherDeviceId)));
  (void)a;
  (void)b;
  *value = ACL_RT_DEVS_TOPOLOGY_PIX;  // simulated devices share one host: a PCIe-switch-like link
  return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  NPURT_HANDLE_SCOPE();
  Runtime::Get().op_execute_timeout_us.store(static_cast<uint64_t>(timeout) * 1000000ull);
  return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
  NPURT_HANDLE_SCOPE();
  Runtime::Get().op_execute_timeout_us.store(static_cast<uint64_t>(timeout) * 1000ull);
  return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(actualTimeout);
  // Microseconds, rounded up to the sim's 1 ms timer step.
  const uint64_t us = (timeout + 999) / 1000 * 1000;
  Runtime::Get().op_execute_timeout_us.store(us);
  *actualTimeout = us;
  return ACL_SUCCESS;
}

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(interval);
  *interval = 1000;  // microseconds: timeouts are enforced with millisecond resolution
  return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(timeoutMs);
  const uint64_t us = Runtime::Get().op_execute_timeout_us.load();
  *timeoutMs = static_cast<uint32_t>(us / 1000);
  return ACL_SUCCESS;
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(errorInfo);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  std::memset(errorInfo, 0, sizeof(*errorInfo));
  errorInfo->errorType = ACL_RT_NO_ERROR;
  for (const auto& s : dev->Streams()) {
    if (s->queue()->error() != 0) {
      // Task failures on the sim are AI-core software faults (bad access, trap, timeout).
      errorInfo->errorType = ACL_RT_ERROR_AICORE;
      errorInfo->hasDetail = 1;
      errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_SW;
      break;
    }
  }
  return ACL_SUCCESS;
}
