// Entry points: device-wide task abort, uncorrectable-memory-error (UCE) reports and repairs, atomic
// capability queries, and process snapshots.
//
// The simulated device's memory is host memory: it has no uncorrectable errors, so UCE queries report
// none and repairs of reported ranges have nothing to do. Atomics from the host or a peer device are the
// host CPU's atomics on that memory. Process snapshots (checkpoint/restore of a process's device state)
// have no meaning in-process: they are refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and a message.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/device.h"
#include "core/device_abort.h"
#include "core/runtime.h"

using npurt::Err;
using npurt::core::Runtime;

namespace {

// What the host CPU offers for one operation on simulated device memory.
uint32_t AtomicCapability(aclrtAtomicOperation op) {
  constexpr uint32_t kScalars = ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
  switch (op) {
    case ACL_RT_ATOMIC_OPERATION_INTEGER_ADD:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_MIN:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_MAX:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT:
    case ACL_RT_ATOMIC_OPERATION_AND:
    case ACL_RT_ATOMIC_OPERATION_OR:
    case ACL_RT_ATOMIC_OPERATION_XOR:
    case ACL_RT_ATOMIC_OPERATION_EXCHANGE:
    case ACL_RT_ATOMIC_OPERATION_CAS:
      return ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED | kScalars;
    case ACL_RT_ATOMIC_OPERATION_FLOAT_ADD:
    case ACL_RT_ATOMIC_OPERATION_FLOAT_MIN:
    case ACL_RT_ATOMIC_OPERATION_FLOAT_MAX:
      return kScalars;
    default:
      return 0;  // DMA and SIMD atomics are engines the simulated device does not have
  }
}

aclError AtomicCapabilities(const char* fn, uint32_t* capabilities, const aclrtAtomicOperation* operations,
                            uint32_t count) {
  if (capabilities == nullptr || operations == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "capabilities or operations is a null pointer"));
  }
  if (count == 0) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "count is 0"));
  for (uint32_t i = 0; i < count; ++i) capabilities[i] = AtomicCapability(operations[i]);
  return ACL_SUCCESS;
}

aclError SnapshotNotSupported(const char* fn) {
  return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                    "process snapshots (checkpoint/restore of device state) are not supported: the "
                                    "simulated device lives inside the process"));
}

}  // namespace

aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback, void* args) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(regName);
  npurt::core::SetDeviceAbortHook(regName, callback, args);
  return ACL_SUCCESS;
}

aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  NPURT_API_CHECK(npurt::core::AbortDeviceTasks(dev, deviceId, timeout));
  return ACL_SUCCESS;
}

aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize, size_t* retSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(memUceInfoArray);
  NPURT_API_NOT_NULL(retSize);
  if (arraySize == 0 || arraySize > MAX_MEM_UCE_INFO_ARRAY_SIZE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "arraySize {} is outside 1..{}", arraySize,
                                            MAX_MEM_UCE_INFO_ARRAY_SIZE));
  }
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  (void)dev;
  *retSize = 0;  // host memory: no uncorrectable errors
  return ACL_SUCCESS;
}

aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(memUceInfoArray);
  if (arraySize == 0 || arraySize > MAX_MEM_UCE_INFO_ARRAY_SIZE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "arraySize {} is outside 1..{}", arraySize,
                                            MAX_MEM_UCE_INFO_ARRAY_SIZE));
  }
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  (void)dev;
  return ACL_SUCCESS;  // nothing was ever reported, so nothing needs repair
}

aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo* errorInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(errorInfo);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  (void)dev;
  if (errorInfo->errorType == ACL_RT_NO_ERROR) return ACL_SUCCESS;
  // The faults the simulator reports are task failures (aclrtGetErrorVerbose: AI-core software errors):
  // they are the program's, and only resetting the device clears them.
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                          "fault type {} cannot be repaired in place; reset the device",
                                          static_cast<int>(errorInfo->errorType)));
}

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                              const uint32_t count, int32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  (void)dev;
  return AtomicCapabilities(__func__, capabilities, operations, count);
}

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                             const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(src, Runtime::Get().GetDevice(srcDeviceId));
  NPURT_API_ASSIGN(dst, Runtime::Get().GetDevice(dstDeviceId));
  (void)src;
  (void)dst;
  if (srcDeviceId == dstDeviceId) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "srcDeviceId and dstDeviceId are both {}",
                                            srcDeviceId));
  }
  return AtomicCapabilities(__func__, capabilities, operations, count);
}

aclError aclrtSnapShotProcessLock(int pid, void* reserve) {
  NPURT_HANDLE_SCOPE();
  (void)pid;
  (void)reserve;
  return SnapshotNotSupported(__func__);
}

aclError aclrtSnapShotProcessUnlock(int pid, void* reserve) {
  NPURT_HANDLE_SCOPE();
  (void)pid;
  (void)reserve;
  return SnapshotNotSupported(__func__);
}

aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args) {
  NPURT_HANDLE_SCOPE();
  (void)pid;
  (void)args;
  return SnapshotNotSupported(__func__);
}

aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args) {
  NPURT_HANDLE_SCOPE();
  (void)pid;
  (void)args;
  return SnapshotNotSupported(__func__);
}

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void* args) {
  NPURT_HANDLE_SCOPE();
  (void)stage;
  (void)callback;
  (void)args;
  return SnapshotNotSupported(__func__);
}

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback) {
  NPURT_HANDLE_SCOPE();
  (void)stage;
  (void)callback;
  return SnapshotNotSupported(__func__);
}
