// Entry points: devices.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/prof_status.h"
#include "core/context.h"
#include "core/device.h"
#include "core/hooks.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::api::CurrentDevice;
using npurt::core::Runtime;

aclError aclrtSetDevice(int32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  npurt::core::RunDeviceStateHooks(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
  NPURT_API_ASSIGN(ctx, dev->RetainDefaultContext());
  npurt::core::SetCurrentContext(ctx);
  npurt::core::RunDeviceStateHooks(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
  return ACL_SUCCESS;
}

namespace {

aclError ResetDevice(const char* fn, int32_t deviceId, bool force) {
  auto dev = Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return npurt::api::Report(fn, dev.status());
  npurt::core::RunDeviceStateHooks(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE);
  npurt::Status st = dev.value()->ReleaseDefaultContext(force);
  if (!st.ok()) return npurt::api::Report(fn, st);
  npurt::core::RunDeviceStateHooks(deviceId, ACL_RT_DEVICE_STATE_RESET_POST);
  return ACL_SUCCESS;
}

}  // namespace

aclError aclrtResetDevice(int32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  return ResetDevice(__func__, deviceId, false);
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  return ResetDevice(__func__, deviceId, true);
}

aclError aclrtGetDevice(int32_t* deviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(deviceId);
  NPURT_API_ASSIGN(dev, CurrentDevice());
  *deviceId = dev->id();
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(count);
  NPURT_API_ASSIGN(n, Runtime::Get().DeviceCount());
  *count = n;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(runMode);
  *runMode = ACL_HOST;  // the application runs on a host that drives the (simulated) device
  return ACL_SUCCESS;
}

aclError aclrtSetTsDevice(aclrtTsId tsId) {
  NPURT_HANDLE_SCOPE();
  if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tsId {} is not AICORE or AIVECTOR", int(tsId)));
  }
  return ACL_SUCCESS;  // the sim schedules AI-core and vector tasks on the same cores
}

aclError aclrtSynchronizeDevice(void) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, CurrentDevice());
  NPURT_API_CHECK(dev->Synchronize(-1));
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(dev, CurrentDevice());
  NPURT_API_CHECK(dev->Synchronize(timeout));
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(static_cast<int32_t>(deviceId)));
  const npurt::core::DeviceInfo& info = dev->info();
  const npurt::core::DeviceCapabilities& caps = info.caps;
  switch (static_cast<int>(attr)) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = 0; break;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
    case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = info.aicore_count; break;
    case ACL_DEV_ATTR_WARP_SIZE: *value = caps.warp_size; break;
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE: *value = caps.max_threads_per_core; break;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE: *value = static_cast<int64_t>(caps.unified_buffer_bytes); break;
    case ACL_DEV_ATTR_MAX_GRID_DIM_X: *value = caps.max_blocks_per_launch; break;
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z: *value = 1; break;
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID: *value = caps.max_blocks_per_launch; break;
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK: *value = caps.max_threads_per_block; break;
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X: *value = caps.max_block_dim_x; break;
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z: *value = 1; break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = static_cast<int64_t>(info.memory_bytes); break;
    case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = static_cast<int64_t>(caps.l2_cache_bytes); break;
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_MAINBOARD_ID: *value = 0; break;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID: *value = dev->physical_id(); break;
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE: *value = 1; break;
    case ACL_DEV_ATTR_HD_CONNECT_TYPE: *value = ACL_HOST_DEVICE_CONNECT_TYPE_PCIE; break;
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR: *value = ACL_DEVICE_FORM_FACTOR_PCIE_CARD; break;
    case ACL_DEV_ATTR_IS_VIRTUAL: *value = 0; break;
    case ACL_DEV_ATTR_NPU_ARCH: *value = caps.npu_arch; break;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown device attribute {}", int(attr)));
  }
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  (void)dev;
  switch (devFeatureType) {
    case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
      // The kernel tasks of a captured model instance can be updated in place (aclmdlRICaptureTaskUpdate*,
      // aclmdlRISetTaskParams; core/model_ri/model_ri_update.cc).
      *value = ACL_DEV_FEATURE_SUPPORT;
      return ACL_SUCCESS;
    case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
      *value = ACL_DEV_FEATURE_NOT_SUPPORT;
      return ACL_SUCCESS;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown device feature {}", int(devFeatureType)));
  }
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(leastPriority);
  NPURT_API_NOT_NULL(greatestPriority);
  *leastPriority = 7;     // lower number = higher priority
  *greatestPriority = 0;
  return ACL_SUCCESS;
}

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(canAccessPeer);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  NPURT_API_ASSIGN(peer, Runtime::Get().GetDevice(peerDeviceId));
  if (dev == peer) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "device {} cannot be its own peer", deviceId));
  }
  // The driver says (on the sim every pair of devices shares one host: always).
  *canAccessPeer = dev->info().caps.peer_access && peer->info().caps.peer_access ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  NPURT_HANDLE_SCOPE();
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, got {}", flags));
  NPURT_API_ASSIGN(dev, CurrentDevice());
  NPURT_API_ASSIGN(peer, Runtime::Get().GetDevice(peerDeviceId));
  if (dev == peer) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "device {} cannot be its own peer", peerDeviceId));
  }
  if (!dev->info().caps.peer_access || !peer->info().caps.peer_access) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                            "device {} cannot reach device {}'s memory: the driver declares no peer "
                                            "access (aclrtDeviceCanAccessPeer reports 0)",
                                            dev->id(), peerDeviceId));
  }
  dev->set_peer_enabled(peerDeviceId, true);
  return ACL_SUCCESS;
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, CurrentDevice());
  NPURT_API_ASSIGN(peer, Runtime::Get().GetDevice(peerDeviceId));
  if (!dev->peer_enabled(peer->id())) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "peer access from device {} to {} is not enabled",
                                            dev->id(), peerDeviceId));
  }
  dev->set_peer_enabled(peerDeviceId, false);
  return ACL_SUCCESS;
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(status);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  NPURT_API_ASSIGN(peer, Runtime::Get().GetDevice(peerDeviceId));
  *status = dev->peer_enabled(peer->id()) ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(utilizationInfo);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  const npurt::core::AllocatorStats s = dev->allocator().Stats();
  // Sampled by the device status publisher (src/api/prof_device_status.cc): share of the last second
  // in which the device had work queued or running; the same figure npu-smi shows.
  const int32_t util = npurt::api::DeviceBusyPercent(deviceId);
  utilizationInfo->cubeUtilization = util;
  utilizationInfo->vectorUtilization = util;
  utilizationInfo->aicpuUtilization = -1;  // no AI CPU on the sim
  utilizationInfo->memoryUtilization = static_cast<int32_t>(100 * s.reserved / (s.total ? s.total : 1));
  utilizationInfo->utilizationExtend = nullptr;
  return ACL_SUCCESS;
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(deviceStatus);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  (void)dev;
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(uuid);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  std::memset(uuid->bytes, 0, sizeof uuid->bytes);
  std::snprintf(uuid->bytes, sizeof uuid->bytes, "npurt-sim-%05u", dev->physical_id());
  return ACL_SUCCESS;
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  NPURT_HANDLE_SCOPE();
  if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "overflow mode {} is invalid", int(mode)));
  }
  Runtime::Get().sat_mode.store(mode);
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(mode);
  *mode = static_cast<aclrtFloatOverflowMode>(Runtime::Get().sat_mode.load());
  return ACL_SUCCESS;
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(flags);
  NPURT_API_NOT_NULL(active);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  *flags = 0;
  *active = dev->default_context() != nullptr ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(logicDevId);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(userDevid));
  *logicDevId = dev->id();
  return ACL_SUCCESS;
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(userDevid);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(logicDevId));
  *userDevid = dev->id();
  return ACL_SUCCESS;
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(phyDevId);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(logicDevId));
  *phyDevId = static_cast<int32_t>(dev->physical_id());
  return ACL_SUCCESS;
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(logicDevId);
  NPURT_API_ASSIGN(count, Runtime::Get().DeviceCount());
  for (uint32_t i = 0; i < count; ++i) {
    NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(static_cast<int32_t>(i)));
    if (static_cast<int32_t>(dev->physical_id()) == phyDevId) {
      *logicDevId = dev->id();
      return ACL_SUCCESS;
    }
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_INVALID_DEVICEID, "physical device {} is not visible", phyDevId));
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetLogicDevIdByPhyDevId(phyDevId, userDevId);
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) {
  NPURT_HANDLE_SCOPE();
  return aclrtGetPhyDevIdByLogicDevId(userDevId, phyDevId);
}
