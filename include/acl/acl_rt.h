// The ACL runtime API: process setup, devices, contexts, streams, events and notifies, memory,
// callbacks and fault reporting, kernel binaries and launches, and model running instances (graph
// capture).
//
// Layout follows topics; inside each topic come its constants and types, then its functions. Every
// enumerator value, structure layout and signature here is ABI-compatible with the ACL runtime (API
// version 1.17.0). Stream arguments accept NULL, meaning the default stream of the current context.
// Timeouts given as int32_t are in milliseconds, with -1 meaning "wait forever".
// The /* ==== [group] ... ==== */ lines sort the functions into the topics of docs/api-coverage.md
// (tools/gen_api.py); every exported declaration must follow one.
#ifndef NPURT_ACL_ACL_RT_H
#define NPURT_ACL_ACL_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

// Version of the ACL interface these declarations describe (see aclrtGetVersion).
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* ---------------------------------------------------------------------------------------------- */
/* Handles introduced by this header (all opaque)                                                 */
/* ---------------------------------------------------------------------------------------------- */

typedef void* aclrtDrvMemHandle;   // physical memory allocation (virtual memory management)
typedef void* aclrtBinary;         // kernel binary image not yet loaded
typedef void* aclrtBinHandle;      // loaded kernel binary
typedef void* aclrtFuncHandle;     // one kernel inside a loaded binary
typedef void* aclrtArgsHandle;     // argument block being assembled for a launch
typedef void* aclrtParamHandle;    // one parameter inside an argument block
typedef void* aclmdlRI;            // model running instance: a captured or explicitly built task graph
typedef void* aclmdlRICondHandle;  // condition variable driving conditional tasks of a model instance

/* ============================================================================================== */
/* ==== [init] Initialization, versions and error reporting ==== */
/* ============================================================================================== */

// Package names accepted by aclsysGetCANNVersion.
typedef enum aclCANNPackageName {
    ACL_PKG_NAME_CANN,
    ACL_PKG_NAME_RUNTIME,
    ACL_PKG_NAME_COMPILER,
    ACL_PKG_NAME_HCCL,
    ACL_PKG_NAME_TOOLKIT,
    ACL_PKG_NAME_OPP,
    ACL_PKG_NAME_OPP_KERNEL,
    ACL_PKG_NAME_DRIVER
} aclCANNPackageName;

#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

// Version of an installed package as NUL-terminated strings.
typedef struct aclCANNPackageVersion {
    char version[ACL_PKG_VERSION_MAX_SIZE];
    char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

// Scope of the "last error" queries; only the calling thread is supported.
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

// Component on whose behalf an aclInit/aclFinalize hook is registered.
typedef enum aclRegisterCallbackType {
    ACL_REG_TYPE_ACL_MODEL,
    ACL_REG_TYPE_ACL_OP_EXECUTOR,
    ACL_REG_TYPE_ACL_OP_CBLAS,
    ACL_REG_TYPE_ACL_OP_COMPILER,
    ACL_REG_TYPE_ACL_TDT_CHANNEL,
    ACL_REG_TYPE_ACL_TDT_QUEUE,
    ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_ACL_RETR,
    ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;

// Hook run by aclInit; receives the raw JSON configuration text.
typedef aclError (*aclInitCallbackFunc)(const char* configStr, size_t len, void* userData);
// Hook run by aclFinalize.
typedef aclError (*aclFinalizeCallbackFunc)(void* userData);

// Initializes the runtime for this process. configPath names an optional JSON file (NULL for none).
// A second call reports ACL_ERROR_REPEAT_INITIALIZE, which callers may ignore.
ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);

// Releases everything aclInit set up; call before the process exits.
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

// Drops one aclInit reference and tears down at zero; stores the remaining count if refCount is not NULL.
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t* refCount);

// Text of the most recent error on the calling thread (process-wide when aclInit's configuration sets
// err_msg_mode to "1"); NULL or empty when there is none.
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void);

// Fills in the version strings of one installed package.
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version);

// Version of the package called pkgName ("runtime", "cann", ...) as a string.
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char* pkgName, char* versionStr);

// Version of the package called pkgName encoded as one comparable number.
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum);

// Returns the calling thread's last error without clearing it.
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

// Returns the calling thread's last error and resets it to ACL_SUCCESS.
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

// Reports ACL_MAJOR_VERSION, ACL_MINOR_VERSION and ACL_PATCH_VERSION of the library.
ACL_DEPRECATED_MESSAGE("aclrtGetVersion is deprecated, use aclSysGetVersion instead")
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion);

// Adds a hook that aclInit runs for the given component (used by the model, operator and TDT
// libraries to initialize alongside the runtime).
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void* userData);

// Removes a hook added with aclInitCallbackRegister.
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);

// Adds a hook that aclFinalize runs for the given component.
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
                                                         aclFinalizeCallbackFunc cbFunc, void* userData);

// Removes a hook added with aclFinalizeCallbackRegister.
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc);

// Sets *canCompatible to 1 when code built for socVersion runs on the current device, else 0.
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible);

/* ============================================================================================== */
/* ==== [device] Devices ==== */
/* ============================================================================================== */

// Where the application runs: on the device's own CPU, or on a host driving the device.
typedef enum aclrtRunMode {
    ACL_DEVICE,
    ACL_HOST,
} aclrtRunMode;

// Task scheduler that subsequent work is sent to.
typedef enum aclrtTsId {
    ACL_TS_ID_AICORE = 0,
    ACL_TS_ID_AIVECTOR = 1,
    ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

// Health of a device as reported by aclrtQueryDeviceStatus.
typedef enum aclrtDeviceStatus {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL,
    ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

// Device usage in percent; -1 means the figure is not available.
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;
typedef struct aclrtUtilizationInfo {
    int32_t cubeUtilization;
    int32_t vectorUtilization;
    int32_t aicpuUtilization;
    int32_t memoryUtilization;
    aclrtUtilizationExtendInfo* utilizationExtend;  // reserved, NULL
} aclrtUtilizationInfo;

// Floating-point overflow behaviour of a device: clamp to the largest finite value or produce Inf/NaN.
typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN,
    ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

// Attributes readable with aclrtGetDeviceInfo. Some values have two names (an old spelling kept for
// source compatibility).
typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE ACL_DEPRECATED_MESSAGE("Use ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE instead") =
        204,
    ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
    ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
    ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
    ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
    ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
    ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
    ACL_DEV_ATTR_SMP_ID = 401U,
    ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
    ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U,
    ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
    ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
    ACL_DEV_ATTR_SUPER_POD_ID = 405U,
    ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
    ACL_DEV_ATTR_MAINBOARD_ID = 407U,
    ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
    ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,
    ACL_DEV_ATTR_IS_VIRTUAL = 501U,
    ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

// Values of ACL_DEV_ATTR_HD_CONNECT_TYPE: the link between host and device.
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

// Values of ACL_DEV_ATTR_DEVICE_FORM_FACTOR.
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

// Optional features queried with aclrtGetDeviceCapability; the answer is one of the two macros below.
typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
    ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

// Per-device sizes adjustable with aclrtDeviceSetLimit.
typedef enum aclrtDeviceLimit {
    ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
    ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
    ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
    ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
    ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

// Compute resources that can be capped per device, stream or thread.
typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

// Bits reported by aclrtGetDevicesTopo for the link between two devices.
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

// Opaque array of compute-group descriptions (aclrtCreateGroupInfo).
typedef struct tagRtGroupInfo aclrtGroupInfo;

// Fields of one compute group readable with aclrtGetGroupInfoDetail.
typedef enum aclrtGroupAttr {
    ACL_GROUP_AICORE_INT,
    ACL_GROUP_AIV_INT,
    ACL_GROUP_AIC_INT,
    ACL_GROUP_SDMANUM_INT,
    ACL_GROUP_ASQNUM_INT,
    ACL_GROUP_GROUPID_INT
} aclrtGroupAttr;

// Bits of the capability masks returned by the atomic-capability queries.
typedef enum aclrtAtomicOperationCapability {
    ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
    ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
    ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2,
    ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
    ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

// Atomic operations whose support can be queried between host and device or between two devices.
typedef enum aclrtAtomicOperation {
    ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
    ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
    ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
    ACL_RT_ATOMIC_OPERATION_AND = 5,
    ACL_RT_ATOMIC_OPERATION_OR = 6,
    ACL_RT_ATOMIC_OPERATION_XOR = 7,
    ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
    ACL_RT_ATOMIC_OPERATION_CAS = 9,
    ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
    ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
    ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
    ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

// 16-byte device UUID.
typedef struct aclrtUuid {
    char bytes[16];
} aclrtUuid;

// Binds the calling thread to a device, creating the device's default context and default stream
// on first use. Calls are counted per process and balanced by aclrtResetDevice.
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

// Drops one aclrtSetDevice reference; at zero, waits for outstanding work and frees the default
// context, its streams and everything created in it.
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

// Like aclrtResetDevice but releases the device regardless of how many references remain.
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

// Device of the calling thread's current context; fails if none was set.
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId);

// Number of devices visible to the process.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count);

// Whether the program runs on the host (ACL_HOST) or on the device itself (ACL_DEVICE).
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode* runMode);

// Selects the task scheduler for the calling thread.
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);

// Blocks until every stream of the current device has drained.
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

// aclrtSynchronizeDevice bounded by a timeout in milliseconds (-1: no limit).
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

// Reads one attribute of a device (core counts, memory size, grid limits, ids ...).
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value);

// Sets *value to ACL_DEV_FEATURE_SUPPORT or ACL_DEV_FEATURE_NOT_SUPPORT.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t* value);

// UUID of a device.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid);

// PCI bus id of a device as a NUL-terminated string of at most len bytes.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len);

// Device id for a PCI bus id string.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId);

// Health of a device.
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus);

// Current usage of a device's compute units and memory.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo);

// Range of stream priorities; a smaller number is a higher priority.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority);

// Changes a per-device size limit of the current device.
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);

// Reads a per-device size limit of the current device.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value);

// Process id of the calling process as the device driver sees it.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t* pid);

// Sets *canAccessPeer to 1 when deviceId can read and write peerDeviceId's memory directly.
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId);

// Lets the current device access peerDeviceId's memory; flags must be 0.
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);

// Withdraws access granted by aclrtDeviceEnablePeerAccess.
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

// Sets *status to 1 when peer access from deviceId to peerDeviceId is enabled.
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status);

// Link topology between two devices as ACL_RT_DEVS_TOPOLOGY_* bits.
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value);

// For each of count operations, a mask of ACL_RT_ATOMIC_CAPABILITY_* bits usable between host and device.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities,
                                                                  const aclrtAtomicOperation* operations,
                                                                  const uint32_t count, int32_t deviceId);

// Same as aclrtDeviceGetHostAtomicCapabilities for accesses from srcDeviceId to dstDeviceId.
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities,
                                                                 const aclrtAtomicOperation* operations,
                                                                 const uint32_t count, int32_t srcDeviceId,
                                                                 int32_t dstDeviceId);

// Reads the cap on a compute resource of a device.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value);

// Caps how many units of a compute resource work on a device may use.
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);

// Removes the caps set on a device.
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);

// Cap on a compute resource that applies to the calling thread.
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value);

// Translations between user-visible, logical and physical device ids.
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId);

// Chooses saturation or Inf/NaN behaviour for floating-point overflow on the current device.
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);

// Reads the overflow behaviour of the current device.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode);

// Enqueues a copy of the device's overflow flags into outputAddr (device memory).
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream);

// Enqueues a reset of the device's overflow flags.
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);

// Enqueues a copy of the saturation flags into outputAddr (device memory).
ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream);

// Enqueues a reset of the saturation flags.
ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream);

// Enqueues a read of the NPU float status registers into outputAddr, in the given check mode.
ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream);

// Enqueues a clear of the NPU float status registers.
ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);

// Limit in seconds on how long a stream may wait for an event before the wait fails.
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout);

// Limit in seconds on one kernel's run time (0: the device maximum).
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);

// aclrtSetOpExecuteTimeOut in milliseconds.
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);

// Sets the kernel run-time limit and reports the value actually applied (limits are rounded to the
// step reported by aclrtGetOpTimeOutInterval).
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout);

// Smallest step of kernel run-time limits, in microseconds.
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t* interval);

// Kernel run-time limit currently in force, in milliseconds.
ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs);

// Makes the calling thread use the given compute group.
ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId);

// Number of compute groups on the current device.
ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t* count);

// Allocates storage for the descriptions of all compute groups; NULL on failure.
ACL_FUNC_VISIBILITY aclrtGroupInfo* aclrtCreateGroupInfo(void);

// Frees storage from aclrtCreateGroupInfo.
ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo);

// Fills groupInfo with the descriptions of all compute groups.
ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo);

// Copies one attribute of group groupIndex into attrValue (valueLen bytes) and stores its size.
ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex,
                                                     aclrtGroupAttr attr, void* attrValue, size_t valueLen,
                                                     size_t* paramRetSize);

/* ============================================================================================== */
/* ==== [context] Contexts and runtime options ==== */
/* ============================================================================================== */

// Creates a context on deviceId and makes it current for the calling thread. Each context has its
// own default stream.
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);

// Destroys a context made by aclrtCreateContext (not a device's default context).
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

// Makes a context current for the calling thread, which also switches the thread to its device.
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);

// Current context of the calling thread; fails if there is none.
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context);

// Reads an option of the current context; ACL_ERROR_RT_SYSPARAMOPT_NOT_SET if it was never set.
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value);

// Sets an option for the current context only.
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);

// Reads a process-wide option; ACL_ERROR_RT_SYSPARAMOPT_NOT_SET if it was never set.
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value);

// Sets an option for the whole process.
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);

// Default stream of the current context.
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream);

// Flags of a device's default (primary) context and whether it currently exists.
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active);

// Device address where kernels of the current context record floating-point overflow.
ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr);

/* ============================================================================================== */
/* ==== [memory] Memory ==== */
/* ============================================================================================== */

// Direction of a copy. ACL_MEMCPY_DEFAULT infers it from the pointers; HOST_TO_BUF_TO_DEVICE stages the
// source in a runtime buffer so the caller may reuse it as soon as the call returns.
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

// Page policy of device allocations. The low values are exclusive choices; the bandwidth and read-only
// entries are bits that may be OR-ed into them.
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
    ACL_MEM_MALLOC_HUGE1G_ONLY,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

// Memory kind and page size whose usage aclrtGetMemInfo reports. The ACL_MEM_* entries pick DDR or HBM
// automatically.
typedef enum aclrtMemAttr {
    ACL_DDR_MEM,
    ACL_HBM_MEM,
    ACL_DDR_MEM_HUGE,
    ACL_DDR_MEM_NORMAL,
    ACL_HBM_MEM_HUGE,
    ACL_HBM_MEM_NORMAL,
    ACL_DDR_MEM_P2P_HUGE,
    ACL_DDR_MEM_P2P_NORMAL,
    ACL_HBM_MEM_P2P_HUGE,
    ACL_HBM_MEM_P2P_NORMAL,
    ACL_HBM_MEM_HUGE1G,
    ACL_HBM_MEM_P2P_HUGE1G,
    ACL_MEM_NORMAL,
    ACL_MEM_HUGE,
    ACL_MEM_HUGE1G,
    ACL_MEM_P2P_NORMAL,
    ACL_MEM_P2P_HUGE,
    ACL_MEM_P2P_HUGE1G,
} aclrtMemAttr;

// Page sizes and memory kinds used to describe an allocation in MemAttrMapping.
enum aclrtMemPgType {
    NORMAL_PAGE_TYPE = 0U,
    HUGE_PAGE_TYPE,
    HUGE1G_PAGE_TYPE,
};

enum aclrtMemType {
    HBM_TYPE = 0U,
    DDR_TYPE,
    P2P_HBM_TYPE,
    P2P_DDR_TYPE,
};

// Associates a page type and memory kind with the matching aclrtMemAttr.
struct MemAttrMapping {
    uint32_t pgType;
    uint32_t memType;
    bool isHostAlloc;
    aclrtMemAttr memAttr;
};

// Per-allocation attributes passed through aclrtMallocConfig.
typedef enum {
    ACL_RT_MEM_ATTR_RSV = 0,
    ACL_RT_MEM_ATTR_MODULE_ID,
    ACL_RT_MEM_ATTR_DEVICE_ID,
    ACL_RT_MEM_ATTR_VA_FLAG,
} aclrtMallocAttrType;

typedef union {
    uint16_t moduleId;
    uint32_t deviceId;
    uint32_t vaFlag;
    uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
    aclrtMallocAttrType attr;
    aclrtMallocAttrValue value;
} aclrtMallocAttribute;

// Optional list of attributes for aclrtMallocWithCfg and friends.
typedef struct {
    aclrtMallocAttribute* attrs;
    size_t numAttrs;
} aclrtMallocConfig;

// Processes of another server (super-pod id sdid) allowed to import a shared object.
typedef struct {
    uint32_t sdid;
    int32_t* pid;
    size_t num;
} aclrtServerPid;

// Where a piece of memory lives.
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED,
    ACL_MEM_LOCATION_TYPE_MANAGED,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

// A location: its kind and the device (or NUMA node) id.
typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;

// What aclrtPointerGetAttributes knows about an address.
typedef struct aclrtPtrAttributes {
    aclrtMemLocation location;
    uint32_t pageSize;
    uint32_t rsv[4];
} aclrtPtrAttributes;

// Memory used by one component of the runtime (aclrtGetMemUsageInfo).
typedef struct aclrtMemUsageInfo {
    char name[32];
    uint64_t curMemSize;
    uint64_t memPeakSize;
    size_t reserved[8];
} aclrtMemUsageInfo;

// Registration modes of aclrtHostRegister.
typedef enum {
    ACL_HOST_REGISTER_MAPPED = 0,
    ACL_HOST_REGISTER_IOMEMORY = 0x04,
    ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

// Flags of aclrtHostRegisterV2 (may be combined).
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

// Hardware engines whose ability to reach mapped host memory aclrtHostMemMapCapabilities reports.
typedef enum {
    ACL_RT_HAC_TYPE_STARS = 0,
    ACL_RT_HAC_TYPE_AICPU,
    ACL_RT_HAC_TYPE_AIC,
    ACL_RT_HAC_TYPE_AIV,
    ACL_RT_HAC_TYPE_PCIEDMA,
    ACL_RT_HAC_TYPE_RDMA,
    ACL_RT_HAC_TYPE_SDMA,
    ACL_RT_HAC_TYPE_DVPP,
    ACL_RT_HAC_TYPE_UDMA,
    ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

typedef enum {
    ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
    ACL_RT_HOST_MEM_MAP_SUPPORTED
} aclrtHostMemMapCapability;

// Managed (unified) memory: attach flag for aclrtMemAllocManaged, advice, locations and range queries.
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U

typedef enum aclrtMemManagedAdviseType {
    ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
    ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
    ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_SET_ACCESSED_BY,
    ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;

typedef enum aclrtMemManagedLocationType {
    ACL_MEM_LOCATIONTYPE_INVALID = 0,
    ACL_MEM_LOCATIONTYPE_DEVICE,
    ACL_MEM_LOCATIONTYPE_HOST,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
} aclrtMemManagedLocationType;

typedef struct aclrtMemManagedLocation {
    aclrtMemManagedLocationType type;
    int32_t id;
} aclrtMemManagedLocation;

typedef enum aclrtMemManagedRangeAttribute {
    ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
} aclrtMemManagedRangeAttribute;

// Virtual memory management: physical allocations, their properties and how they are shared.
typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

typedef enum aclrtMemSharedHandleType {
    ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
    ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

// Shareable handle of the FABRIC kind (opaque bytes).
typedef struct aclrtMemFabricHandle {
    uint8_t data[128];
} aclrtMemFabricHandle;

// Properties of a physical allocation (aclrtMallocPhysical).
typedef struct aclrtPhysicalMemProp {
    aclrtMemHandleType handleType;
    aclrtMemAllocationType allocationType;
    aclrtMemAttr memAttr;
    aclrtMemLocation location;
    uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
    ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

// Access rights another location gets to a mapped range (aclrtMemSetAccess).
typedef enum {
    ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
    ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location;
    uint8_t rsv[12];
} aclrtMemAccessDesc;

// Interconnect used to reach memory mapped from another device.
typedef enum {
    ACL_RT_MEM_ACCESS_LINK_SIO = 0,
    ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
    ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
    ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

// Link indices for aclrtMemMapSelectedLink.
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U

// Flags for exporting and importing memory between processes.
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

// Attribute of shared memory settable with aclrtIpcMemSetAttr, and its link values.
typedef enum {
    ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

// Memory kinds accepted by aclrtCheckMemType (may be OR-ed).
#define ACL_RT_MEM_TYPE_DEV (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

// Cache maintenance operations.
typedef enum aclrtCmoType {
    ACL_RT_CMO_TYPE_PREFETCH = 0,
    ACL_RT_CMO_TYPE_WRITEBACK,
    ACL_RT_CMO_TYPE_INVALID,
    ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;

// Cache maintenance operations a stream waits for with aclrtCmoWaitBarrier.
typedef struct {
    aclrtCmoType cmoType;
    uint32_t barrierId;
} aclrtBarrierCmoInfo;

#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

typedef struct {
    size_t barrierNum;
    aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

// Source and destination locations shared by a subset of a batched copy.
typedef struct {
    aclrtMemLocation dstLoc;
    aclrtMemLocation srcLoc;
    uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

// Element-wise reductions performed by aclrtReduceAsync.
typedef enum {
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* Allocation and release */

// Allocates device memory in the current context; release with aclrtFree. The runtime reserves the size
// rounded up to a multiple of 32 bytes, plus 32 bytes of padding.
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);

// Like aclrtMalloc, rounded up to 32 bytes without the extra padding.
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy);

// Like aclrtMalloc, for memory the device accesses through its cache (see aclrtMemFlush).
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy);

// aclrtMalloc with optional per-allocation attributes (cfg may be NULL).
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig* cfg);

// Allocates device memory reserved for the device's task scheduler.
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig* cfg);

// Frees memory from the aclrtMalloc family (or aclrtMemAllocManaged).
ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr);

// Waits for the device to go idle, then frees device memory.
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void* devPtr);

// Allocates page-locked host memory, which asynchronous copies can use directly; release with
// aclrtFreeHost.
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size);

// aclrtMallocHost with optional attributes.
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg);

// Frees memory from aclrtMallocHost.
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr);

// Waits for the device to go idle, then frees host memory from aclrtMallocHost.
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void* hostPtr);

// Free and total bytes of one kind of memory on the current device.
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total);

// Memory usage per runtime component: fills up to inputNum entries and stores how many were written.
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum,
                                                  size_t* outputNum);

// Location and page size of the memory at ptr.
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes);

// Start and size of the allocation that contains ptr.
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize);

// Checks whether the size addresses in addrList all point to memory of the ACL_RT_MEM_TYPE_* kinds in
// memType; the verdict goes to *checkResult. reserve must be 0.
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType,
                                               uint32_t* checkResult, uint32_t reserve);

/* Host memory registration */

// Page-locks an existing host range and maps it for the device; *devPtr receives the device address.
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr);

// Page-locks an existing host range with ACL_HOST_REG_* flags.
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag);

// Device address of registered host memory; flag must be 0.
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag);

// Undoes aclrtHostRegister / aclrtHostRegisterV2.
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void* ptr);

// Whether a kind of engine on a device can use mapped host memory.
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                         aclrtHostMemMapCapability* capabilities);

/* Managed (unified) memory */

// Allocates memory reachable from host and devices; flag is ACL_RT_MEM_ATTACH_GLOBAL. Free with aclrtFree.
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag);

// Gives the runtime a usage hint for a managed range.
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size,
                                                   aclrtMemManagedAdviseType advise,
                                                   aclrtMemManagedLocation location);

// Reads one attribute of a managed range into data (dataSize bytes).
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr,
                                                    size_t size, void* data, size_t dataSize);

// Reads several attributes of a managed range; data[i] receives dataSizes[i] bytes for attributes[i].
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes,
                                                     size_t numAttributes, const void* ptr, size_t size,
                                                     void** data, size_t* dataSizes);

// Enqueues migration of a managed range to a location.
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size,
                                                          aclrtMemManagedLocation location, uint32_t flags,
                                                          aclrtStream stream);

// Enqueues migration of count managed ranges; prefetchLocIdxs[i] is the first range sent to
// prefetchLocs[i].
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                                               aclrtMemManagedLocation* prefetchLocs,
                                                               size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                                               uint64_t flags, aclrtStream stream);

/* Copies and fills. The synchronous forms return once the data has moved; the Async forms enqueue the
 * operation on a stream. destMax/maxCount is the capacity of the destination and must cover count. */

// Copies count bytes.
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind);

// Enqueues a copy of count bytes; host memory should be page-locked (aclrtMallocHost).
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);

// Like aclrtMemcpyAsync, but copies synchronously when the memory did not come from the runtime.
ACL_DEPRECATED_MESSAGE("aclrtMemcpyAsyncWithCondition is deprecated, use aclrtMemcpyAsync instead")
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                                           aclrtMemcpyKind kind, aclrtStream stream);

// Copies a height x width byte matrix between buffers with row pitches spitch and dpitch.
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);

// Enqueued form of aclrtMemcpy2d.
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                                size_t width, size_t height, aclrtMemcpyKind kind,
                                                aclrtStream stream);

// Enqueues a copy between the buffers at *dst and *src, starting dstDataOffset and srcDataOffset bytes in.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset,
                                                        const void** src, size_t count, size_t srcDataOffset,
                                                        aclrtMemcpyKind kind, aclrtStream stream);

// Size of a copy descriptor for aclrtSetMemcpyDesc.
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize);

// Fills a copy descriptor for aclrtMemcpyAsyncWithDesc.
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr,
                                                size_t count, void* config);

// Enqueues the copy described by a descriptor.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream);

// Performs numBatches copies. attrs[i] applies to the copies from attrsIndexes[i] on; on failure
// *failIndex names the first copy that failed.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                              size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                                              size_t numAttrs, size_t* failIndex);

// aclrtMemcpyBatch without the failure index.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                                size_t numBatches, aclrtMemcpyBatchAttr* attrs,
                                                size_t* attrsIndexes, size_t numAttrs);

// Enqueued form of aclrtMemcpyBatch.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                                   size_t numBatches, aclrtMemcpyBatchAttr* attrs,
                                                   size_t* attrsIndexes, size_t numAttrs, size_t* failIndex,
                                                   aclrtStream stream);

// Enqueued form of aclrtMemcpyBatchV2.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                                     size_t numBatches, aclrtMemcpyBatchAttr* attrs,
                                                     size_t* attrsIndexes, size_t numAttrs, aclrtStream stream);

// Fills count bytes with the low byte of value.
ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);

// Enqueued form of aclrtMemset.
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

// Fills N consecutive 32-bit words with value; memSize is the capacity of the buffer in bytes.
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N);

// Enqueued form of aclrtMemsetD32.
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream);

// Enqueues an element-wise reduction of count elements of the given type from src into dst.
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void* reserve);

/* Device global variables ("symbols") of loaded kernel code */

// Device address of a global variable given its host-side symbol.
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr);

// Size in bytes of a device global variable.
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void* symbol, size_t* size);

// Copies count bytes starting offset bytes into a device global variable.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count,
                                                   size_t offset, aclrtMemcpyKind kind);

// Enqueued form of aclrtMemcpyFromSymbol.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count,
                                                        size_t offset, aclrtMemcpyKind kind, aclrtStream stream);

// Copies count bytes into a device global variable at offset.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                                                 aclrtMemcpyKind kind);

// Enqueued form of aclrtMemcpyToSymbol.
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                                      size_t offset, aclrtMemcpyKind kind, aclrtStream stream);

/* Caches */

// Writes cached data of a range back to memory.
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void* devPtr, size_t size);

// Discards cached data of a range so the next read comes from memory.
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void* devPtr, size_t size);

// Enqueues a cache maintenance operation on a range.
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream);

// Enqueues a cache maintenance operation tagged with a barrier id that aclrtCmoWaitBarrier can wait for.
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType,
                                                      uint32_t barrierId, aclrtStream stream);

// Enqueues a wait for the tagged cache operations listed in taskInfo.
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag);

// Size of a cache maintenance descriptor.
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t* size);

// Prepares a cache maintenance descriptor for a range.
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size);

// Enqueues the cache maintenance operation held in a descriptor; reserve must be NULL.
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                                                   const void* reserve);

// Flushes the current device's L2 cache; rsv must be NULL.
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void* rsv);

/* Virtual memory management */

// Reserves a range of device virtual addresses (expectPtr is a placement hint, may be NULL).
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                                    uint64_t flags);

// Reserves a range at the fixed address expectPtr (required here), keeping it clear of UC memory.
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment,
                                                              void* expectPtr, uint64_t flags);

// Returns a reserved range.
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void* virPtr);

// Allocates physical device memory with the given properties.
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                                                 const aclrtPhysicalMemProp* prop, uint64_t flags);

// Frees a physical allocation.
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);

// Maps size bytes of a physical allocation, from offset, at virPtr.
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);

// Like aclrtMapMem, but the mapping starts with no access rights (see aclrtMemSetAccess).
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                                 uint64_t flags);

// Removes the mapping at virPtr.
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void* virPtr);

// Grants locations access to a mapped range; desc holds count entries.
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count);

// Access rights of a location to a mapped address.
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag);

// Physical allocation mapped at virPtr.
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle);

// Properties a physical allocation was created with.
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                                       aclrtPhysicalMemProp* prop);

// Minimum or recommended size granularity for physical allocations with the given properties.
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                                              aclrtMemGranularityOptions option,
                                                              size_t* granularity);

// Maps device memory into dstDevId's page tables, for peer access within one process.
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags);

// Maps virPtrDst onto the physical memory behind virPtrSrc through link linkIdx.
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc, uint32_t linkIdx);

// Chooses the interconnect used when an imported physical allocation is mapped.
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);

/* Sharing memory between processes */

// Exports a physical allocation as a 64-bit shareable handle.
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t* shareableHandle);

// Exports a physical allocation as a handle of the given kind (written to shareableHandle).
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                                               aclrtMemSharedHandleType shareType,
                                                               void* shareableHandle);

// Imports an exported allocation on deviceId.
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle* handle);

// Imports an allocation exported with aclrtMemExportToShareableHandleV2.
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle,
                                                                 aclrtMemSharedHandleType shareType, uint64_t flags,
                                                                 aclrtDrvMemHandle* handle);

// Lists the processes allowed to import an exported handle.
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum);

// aclrtMemSetPidToShareableHandle for handles of aclrtMemExportToShareableHandleV2.
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle,
                                                               aclrtMemSharedHandleType shareType, int32_t* pid,
                                                               size_t pidNum);

// Exports a device range under a NUL-terminated key (key buffer of len bytes).
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len,
                                                     uint64_t flags);

// Withdraws an export, or closes an import, identified by its key.
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char* key);

// Maps memory exported by another process into this one.
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags);

// Lists the processes allowed to import a key.
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num);

// Sets an attribute of an exported range.
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr);

// Lists processes on other servers allowed to import a key.
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num);

/* ============================================================================================== */
/* ==== [stream] Streams ==== */
/* ============================================================================================== */

// Creation flags of aclrtCreateStreamWithConfig (OR-able where meaningful).
#define ACL_STREAM_FAST_LAUNCH 0x00000001U      // reserve resources up front for cheaper submission
#define ACL_STREAM_FAST_SYNC 0x00000002U        // synchronize by polling instead of sleeping
#define ACL_STREAM_PERSISTENT 0x00000004U       // keep tasks for a model instance instead of running them
#define ACL_STREAM_HUGE 0x00000008U             // larger task capacity
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U     // scheduled by the device CPU (queue-mode inference)
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U  // only submitted to from the device side

// Comparisons of aclrtValueWait.
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

// What a stream does after one of its tasks fails (aclrtSetStreamFailureMode).
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

// Result of aclrtStreamQuery.
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

// Fields of a stream configuration handle, set with aclrtSetStreamConfigOpt.
typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0,
    ACL_RT_STREAM_WORK_SIZE,
    ACL_RT_STREAM_FLAG,
    ACL_RT_STREAM_PRIORITY,
} aclrtStreamConfigAttr;

// Parameters for aclrtCreateStreamV2.
typedef struct aclrtStreamConfigHandle {
    void* workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

// Attributes of an existing stream, read and written with aclrt{Get,Set}StreamAttribute.
typedef enum {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
    ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

typedef union {
    uint64_t failureMode;
    uint32_t overflowSwitch;
    uint32_t userCustomTag;
    uint32_t cacheOpInfoSwitch;
    uint32_t streamPriority;
    uint32_t reserve[4];
} aclrtStreamAttrValue;

// Comparison and operand type of aclrtSwitchStream.
typedef enum {
    ACL_RT_EQUAL = 0,
    ACL_RT_NOT_EQUAL,
    ACL_RT_GREATER,
    ACL_RT_GREATER_OR_EQUAL,
    ACL_RT_LESS,
    ACL_RT_LESS_OR_EQUAL
} aclrtCondition;

typedef enum {
    ACL_RT_SWITCH_INT32 = 0,
    ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

// In-place updates of an already submitted task (aclrtTaskUpdateAsync).
typedef enum {
    ACL_RT_UPDATE_RANDOM_TASK = 1,
    ACL_RT_UPDATE_AIC_AIV_TASK,
} aclrtUpdateTaskAttrId;

typedef struct {
    void* srcAddr;
    size_t size;
    uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

typedef struct {
    void* binHandle;
    void* funcEntryAddr;
    void* blockDimAddr;
    uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

typedef union {
    aclrtRandomTaskUpdateAttr randomTaskAttr;
    aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

typedef struct {
    aclrtUpdateTaskAttrId id;
    aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

// Creates a stream in the current context with default priority and flags.
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream);

// Creates a stream with a priority (0 is the highest) and ACL_STREAM_* flags.
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag);

// Allocates a stream configuration initialized to defaults; NULL on failure.
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void);

// Frees a configuration from aclrtCreateStreamConfigHandle.
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle);

// Sets one field of a stream configuration from valueSize bytes at attrValue.
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                                     const void* attrValue, size_t valueSize);

// Creates a stream from a configuration.
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle);

// Destroys a stream after its queued work has finished. The default stream cannot be destroyed.
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

// Destroys a stream at once, discarding work that has not started.
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);

// Blocks until all work queued on the stream has finished; returns the first error that work raised.
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

// aclrtSynchronizeStream bounded by a timeout in milliseconds (-1: no limit).
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

// Reports without blocking whether all work queued on the stream has finished.
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status);

// Makes work queued on the stream after this call wait until the event's recorded work is done.
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

// aclrtStreamWaitEvent whose wait fails after timeout milliseconds.
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);

// aclrtStreamWaitEvent with a timeout and an ACL_EVENT_WAIT_* flag.
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag);

// Priority the stream was created with.
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority);

// Flags the stream was created with.
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags);

// Numeric id of a stream.
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId);

// Chooses ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE for the stream.
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

// Turns floating-point overflow detection on (1) or off (0) for the stream's kernels.
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);

// Reads the stream's overflow detection switch.
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag);

// Changes one attribute of a stream.
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue* value);

// Reads one attribute of a stream.
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue* value);

// Number of streams that can still be created on the current device.
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t* streamCount);

// Aborts the tasks queued on a stream.
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);

// Stops dispatching the stream's tasks.
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);

// Discards the tasks kept by a persistent stream.
ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream);

// Id of the last task the calling thread submitted.
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t* taskId);

// Reads the cap on a compute resource for one stream.
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value);

// Caps a compute resource for kernels of one stream.
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);

// Removes the caps set on a stream.
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);

// Applies the stream's resource caps to kernels launched from the calling thread.
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);

// Stops applying a stream's resource caps to the calling thread.
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);

// Enqueues a 64-bit store of value at devAddr.
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

// Enqueues a wait until the 64-bit word at devAddr satisfies the ACL_STREAM_WAIT_VALUE_* test in flag.
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

// Enqueues, on stream, a task that starts activeStream (model control flow).
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);

// Enqueues a branch: compares *leftValue with *rightValue when it runs and starts trueStream or
// falseStream accordingly.
ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue,
                                               aclrtCompareDataType dataType, aclrtStream trueStream,
                                               aclrtStream falseStream, aclrtStream stream);

// Enqueues an update of the task taskId previously submitted to taskStream.
ACL_FUNC_VISIBILITY aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo* info,
                                                  aclrtStream execStream);

// Creates a label, a jump target inside a stream.
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel* label);

// Places a label at the current end of a stream.
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);

// Destroys a label.
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);

// Groups num labels into a list for aclrtSwitchLabelByIndex.
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList);

// Destroys a label list (not the labels).
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);

// Enqueues a jump to the label whose index is read from ptr when it runs; maxValue bounds the index.
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream);

/* ============================================================================================== */
/* ==== [event] Events and notifies ==== */
/* ============================================================================================== */

// Creation flags of aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag.
#define ACL_EVENT_SYNC 0x00000001U                     // usable for waits and aclrtResetEvent
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U  // tracks the progress of the recording stream
#define ACL_EVENT_TIME_LINE 0x00000008U                // records timestamps
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U          // only used from the device side
#define ACL_EVENT_EXTERNAL 0x00000020U                 // external event for captured graphs
#define ACL_EVENT_IPC 0x00000040U                      // shareable with other processes

// Flags of aclrtRecordEventWithFlag and aclrtStreamWaitEventWithFlag.
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

// Result of the deprecated aclrtQueryEvent.
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

// Result of aclrtQueryEventStatus. Note that the numbering is the reverse of aclrtEventStatus.
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

// Result of aclrtQueryEventWaitStatus.
typedef enum aclrtEventWaitStatus {
    ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
    ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
    ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

// Opaque token that lets another process open an ACL_EVENT_IPC event.
#define ACL_IPC_EVENT_HANDLE_SIZE 64U

typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

// Creation flags of aclrtCreateNotify.
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

// Flags for sharing notifies between processes.
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL

// How aclrtCntNotifyRecord changes the counter.
typedef enum {
    ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
    ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
    ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,
    ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef struct {
    aclrtCntNotifyRecordMode mode;
    uint32_t value;
} aclrtCntNotifyRecordInfo;

// Condition aclrtCntNotifyWaitWithTimeout waits for.
typedef enum {
    ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

typedef struct {
    aclrtCntNotifyWaitMode mode;
    uint32_t value;
    uint32_t timeout;
    uint8_t isClear;  // reset the counter once the wait is satisfied
    uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

// Creates an event in the current context.
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event);

// Creates an event with ACL_EVENT_* flags.
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);

// Creates an event with ACL_EVENT_* flags that can be recorded again and again without being reset.
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag);

// Destroys an event; work that still waits on it must have finished.
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

// Enqueues a record: the event completes once all work queued on the stream before it has finished.
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

// aclrtRecordEvent with an ACL_EVENT_RECORD_* flag.
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);

// Enqueues a reset of an ACL_EVENT_SYNC event.
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

// Reports without blocking whether the event's recorded work has finished.
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status);

// Reports without blocking whether the event's recorded work has finished.
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status);

// Reports whether the waits queued on the event have been satisfied.
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status);

// Blocks the calling thread until the event's recorded work has finished.
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);

// aclrtSynchronizeEvent bounded by a timeout in milliseconds (-1: no limit, 0: just check).
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);

// Milliseconds between two completed events.
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent);

// Device timestamp at which a completed event was recorded.
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp);

// Numeric id of an event.
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId);

// Number of events that can still be created on the current device.
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t* eventCount);

// Token through which another process can open an ACL_EVENT_IPC event.
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle);

// Opens an event shared by another process.
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event);

// Creates a notify, a device-side flag one stream sets and another waits on.
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag);

// Destroys a notify.
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);

// Enqueues setting the notify.
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

// Enqueues a wait until the notify is set, clearing it afterwards; the wait fails after timeout.
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

// Numeric id of a notify.
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId);

// Clears num notifies at once.
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num);

// Exports a notify under a NUL-terminated key (key buffer of len bytes).
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags);

// Opens a notify exported by another process.
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags);

// Lists the processes allowed to import an exported notify.
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num);

// Lists processes on other servers allowed to import an exported notify.
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid* serverPids,
                                                                size_t num);

// Creates a counting notify, a 32-bit device counter that streams update and wait on.
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag);

// Destroys a counting notify.
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);

// Enqueues an update of the counter.
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                                                  aclrtCntNotifyRecordInfo* info);

// Enqueues a wait until the counter satisfies a condition, failing after the given timeout.
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                                           aclrtCntNotifyWaitInfo* info);

// Enqueues resetting the counter to zero.
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);

// Numeric id of a counting notify.
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId);

/* ============================================================================================== */
/* ==== [callback] Host callbacks, exceptions and fault handling ==== */
/* ============================================================================================== */

// Opaque description of a failed device task, valid only during the callback that receives it.
typedef struct rtExceptionInfo aclrtExceptionInfo;

// Host function queued with aclrtLaunchCallback.
typedef void (*aclrtCallback)(void* userData);
// Host function queued with aclrtLaunchHostFunc.
typedef void (*aclrtHostFunc)(void* args);
// Process-wide handler for failed device tasks.
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo* exceptionInfo);
// Handler for failed tasks of the kernels of one binary.
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo* exceptionInfo, void* userData);

// Whether a queued callback holds back the work queued after it until it has returned.
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK,
    ACL_CALLBACK_BLOCK,
} aclrtCallbackBlockType;

// Points in aclrtSetDevice / aclrtResetDevice at which device-state callbacks run.
typedef enum {
    ACL_RT_DEVICE_STATE_SET_PRE = 0,
    ACL_RT_DEVICE_STATE_SET_POST,
    ACL_RT_DEVICE_STATE_RESET_PRE,
    ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void* args);

// Points in a stream's life at which stream-state callbacks run.
typedef enum {
    ACL_RT_STREAM_STATE_CREATE_POST = 1,
    ACL_RT_STREAM_STATE_DESTROY_PRE,
} aclrtStreamState;

typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void* args);

// Phases of aclrtDeviceTaskAbort at which abort callbacks run; a non-zero return reports failure.
typedef enum {
    ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
    ACL_RT_DEVICE_TASK_ABORT_POST,
} aclrtDeviceTaskAbortStage;

typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout,
                                                void* args);

// Uncorrectable memory errors: one damaged range per entry.
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14

typedef struct aclrtMemUceInfo {
    void* addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20

typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

// Class of a device fault reported by aclrtGetErrorVerbose.
typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN,
    ACL_RT_AICORE_ERROR_SW,
    ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

// Detailed device fault; tryRepair says whether aclrtRepairError may fix it, hasDetail whether
// detail is filled in.
typedef struct aclrtErrorInfo {
    uint8_t tryRepair;
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

// Installs the single process-wide handler for failed device tasks.
ACL_DEPRECATED_MESSAGE("aclrtSetExceptionInfoCallback is deprecated, use aclrtExceptionInfoCallbackRegister and aclrtExceptionInfoCallbackUnregister instead")
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);

// Adds a handler for failed device tasks; adding the same function twice has no further effect.
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);

// Removes a handler (a no-op for one never added). Invocations already running are not waited for.
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);

// Fields of a failed task's description; each returns 0xFFFFFFFF when info is NULL.
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info);

// Device copy of the failed kernel's argument block and its length.
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                                           uint32_t* devArgsLen);

// Kernel whose task failed.
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info,
                                                                 aclrtFuncHandle* func);

// Installs a handler for failures of kernels that belong to one loaded binary.
ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                                             aclrtOpExceptionCallback callback, void* userData);

// Makes host thread threadId run the callbacks queued on stream (see aclrtProcessReport).
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);

// Enqueues a host callback; it runs on the subscribed thread once the work before it has finished.
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);

// Called by a subscribed thread: waits up to timeout milliseconds for due callbacks and runs them.
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

// Ends a subscription made with aclrtSubscribeReport.
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

// Enqueues a host function that runs, on a runtime thread, once the work before it has finished; the
// work after it waits for it to return.
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args);

// Makes host thread hostFuncThreadId run the host functions queued on exeStream.
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

// Called by a thread subscribed with aclrtSubscribeHostFunc: runs due host functions.
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);

// Ends a subscription made with aclrtSubscribeHostFunc.
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

// Adds, under the name regName, a callback run around device set and reset.
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback,
                                                         void* args);

// Adds, under the name regName, a callback run after stream creation and before stream destruction.
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback,
                                                         void* args);

// Adds, under the name regName, a callback run before and after aclrtDeviceTaskAbort.
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(const char* regName,
                                                             aclrtDeviceTaskAbortCallback callback, void* args);

// Stops all work on a device, bounded by timeout.
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);

// Details of the most recent fault of a device.
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo);

// Tries to repair a fault described by aclrtGetErrorVerbose.
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo* errorInfo);

// Ranges hit by uncorrectable memory errors: fills up to arraySize entries and stores how many.
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize,
                                                size_t* retSize);

// Repairs ranges reported by aclrtGetMemUceInfo.
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize);

/* ============================================================================================== */
/* ==== [kernel] Kernel binaries, functions and launches ==== */
/* ============================================================================================== */

// Magic numbers identifying the core type a kernel image targets (ACL_RT_BINARY_LOAD_OPT_MAGIC).
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

// Options for loading a binary. LAZY_MAGIC is an older name of MAGIC.
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption* options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

// Engine a mixed kernel runs on.
typedef enum {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

// Three-dimensional grid and block sizes of SIMT launches; unspecified dimensions default to 1 in C++.
// Device compilers that provide their own dim3 define __BISHENG_CCEC__.
#ifndef __BISHENG_CCEC__
typedef struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
#ifdef __cplusplus
#if __cplusplus >= 201103L
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#else
    dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
#endif
} dim3;
#endif

// Per-launch settings. DYN_UBUF_SIZE replaces the older LOCAL_MEMORY_SIZE (same value).
typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE ACL_DEPRECATED_MESSAGE(
        "Use ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE instead") = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

// 64-bit microsecond timeout split into two words.
typedef struct {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
} aclrtTimeoutUs;

typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode;
    ACL_DEPRECATED_MESSAGE("Use dynUbufSize instead")
    uint32_t localMemorySize;
    uint32_t dynUBufSize;
    aclrtEngineType engineType;
    uint32_t blockDimOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;
    aclrtTimeoutUs timeoutUs;
    uint8_t enableProfiling;
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

// Optional list of launch settings (NULL for defaults).
typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr* attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

// A host buffer inside a host argument block: the runtime copies it to the device at launch and stores
// its device address at addrOffset in the block; the data starts at dataOffset.
typedef struct {
    uint32_t addrOffset;
    uint32_t dataOffset;
} aclrtPlaceHolderInfo;

// Attributes of a kernel (aclrtGetFunctionAttribute).
typedef enum {
    ACL_FUNC_ATTR_KERNEL_TYPE = 1,
    ACL_FUNC_ATTR_KERNEL_RATIO = 2,
    ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

typedef enum {
    ACL_KERNEL_TYPE_AICORE = 0,
    ACL_KERNEL_TYPE_CUBE = 1,
    ACL_KERNEL_TYPE_VECTOR = 2,
    ACL_KERNEL_TYPE_MIX = 3,
    ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

/* Binaries */

// Wraps dataLen bytes of a kernel image for aclrtBinaryLoad; NULL on failure.
ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen);

// Destroys a wrapper from aclrtCreateBinary.
ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary);

// Loads a wrapped image onto the current device.
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle);

// Loads a kernel image from a file (options may be NULL).
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                                     aclrtBinHandle* binHandle);

// Loads a kernel image held in memory (options may be NULL).
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                                     const aclrtBinaryLoadOptions* options,
                                                     aclrtBinHandle* binHandle);

// Unloads a binary; its kernels may no longer be launched.
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

// Device address and size of a loaded image.
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr,
                                                      size_t* binSize);

// Device address and size of the global variable called name in a loaded binary.
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr,
                                                  size_t* size);

/* Functions */

// Looks up a kernel of a loaded binary by name.
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                                    aclrtFuncHandle* funcHandle);

// Looks up a kernel of a loaded binary by its entry value.
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                           aclrtFuncHandle* funcHandle);

// Kernel registered for a host-side stub symbol.
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle);

// Registers funcName of a device-CPU binary as a kernel called kernelName.
ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName,
                                                  const char* kernelName, aclrtFuncHandle* funcHandle);

// Binary a kernel belongs to.
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle);

// Name of a kernel as a NUL-terminated string of at most maxLen bytes.
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name);

// Device entry addresses of a kernel's cube and vector parts.
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr);

// Code sizes of a kernel's cube and vector parts.
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize);

// Reads one attribute of a kernel.
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                                       int64_t* attrValue);

// Number of parameters of a kernel.
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount);

// Offset and size of parameter paramIndex in the kernel's packed argument block.
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                                       size_t* paramSize);

// Dynamic unified-buffer bytes each block of the kernel can still use; flags is reserved.
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags,
                                                                  size_t* dynamicUbufSize);

/* Argument blocks, built parameter by parameter in declaration order */

// Host memory aclrtKernelArgsInitByUserMem needs for the handle itself.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize);

// Host memory needed for an argument block holding userArgsSize bytes of arguments.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                                       size_t* actualArgsSize);

// Starts an argument block for a kernel in memory owned by the runtime.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle);

// Starts an argument block in caller-provided host memory of actualArgsSize bytes.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                          void* userHostMem, size_t actualArgsSize);

// Appends the next parameter by value (paramSize bytes copied from param).
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                                                   aclrtParamHandle* paramHandle);

// Appends a pointer parameter whose host data the runtime copies to the device at launch.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                                              aclrtParamHandle* paramHandle);

// Host buffer of dataSize bytes behind a placeholder parameter, for the caller to fill.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void** bufferAddr);

// Replaces the value of an already appended parameter.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void* param, size_t paramSize);

// Marks an argument block complete; it can then be launched.
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/* Launches: each enqueues numBlocks instances of a kernel on a stream */

// argsData holds the argsSize bytes of the packed parameters.
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                                               size_t argsSize, aclrtStream stream);

// aclrtLaunchKernel with launch settings.
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream);

// Arguments come from a finalized argument block; reserve must be NULL.
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                                         aclrtArgsHandle argsHandle, void* reserve);

// Arguments are a packed block in host memory, copied at launch; placeholders name embedded host
// buffers that also need copying.
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                                           void* hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo* placeHolderArray,
                                                           size_t placeHolderNum);

// func is a kernel's host stub; args holds one pointer per parameter, pointing at its value.
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                                            aclrtLaunchKernelCfg* cfg, void** args);

// SIMT form of aclrtLaunchKernelWithArgsArray with grid and block dimensions and dynamic buffer size.
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(void* func, dim3 gridDim, dim3 blockDim,
                                                                size_t dynUbufSize, aclrtStream stream,
                                                                aclrtLaunchKernelCfg* cfg, void** args);

// SIMT form of aclrtLaunchKernelWithHostArgs.
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(void* func, dim3 gridDim, dim3 blockDim,
                                                               size_t dynUbufSize, aclrtStream stream,
                                                               aclrtLaunchKernelCfg* cfg, void* hostArgs,
                                                               size_t argsSize,
                                                               aclrtPlaceHolderInfo* placeHolderArray,
                                                               size_t placeHolderNum);

// Device address that kernels use for cross-core hardware synchronization.
ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void** addr);

// Attaches operator information (infoSize bytes) to the last task submitted, for profiling.
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize);

// Attaches free-form debugging information to the last task submitted (at most 4096 bytes kept).
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize);

/* ============================================================================================== */
/* ==== [model] Model running instances: stream capture and explicit building ==== */
/* ============================================================================================== */

// Which other threads' unsafe calls a capture forbids: any thread (GLOBAL), the capturing thread only
// (THREAD_LOCAL), or none (RELAXED).
typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

// Capture state of a stream; INVALIDATED means an error broke the capture and it must be ended.
typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

// aclmdlRIBindStream flags: the stream a launch starts with, or one that runs when activated.
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU

// Detail levels of aclmdlRIDebugJsonPrint.
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

// Kinds of tasks inside a model instance, and their parameters.
typedef enum aclmdlRITaskType {
    ACL_MODEL_RI_TASK_DEFAULT,
    ACL_MODEL_RI_TASK_KERNEL,
    ACL_MODEL_RI_TASK_EVENT_RECORD,
    ACL_MODEL_RI_TASK_EVENT_WAIT,
    ACL_MODEL_RI_TASK_EVENT_RESET,
    ACL_MODEL_RI_TASK_VALUE_WRITE,
    ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIKernelTaskParams {
    aclrtFuncHandle funcHandle;
    aclrtLaunchKernelCfg* cfg;
    void* args;
    uint32_t isHostArgs;
    size_t argsSize;
    uint32_t numBlocks;
    uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

typedef struct aclmdlRIEventRecordTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
    void* devAddr;
    uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
    void* devAddr;
    uint64_t value;
    uint32_t flag;
} aclmdlRIValueWaitTaskParams;

// Parameters of one task; the member of the unnamed union that applies is selected by type. The union
// is unnamed for source compatibility, which ISO C99 lacks, hence __extension__.
typedef struct aclmdlRITaskParams {
    aclmdlRITaskType type;
    uint32_t rsv0[3];
    aclrtTaskGrp taskGrp;
    void* opInfoPtr;
    size_t opInfoSize;
    uint8_t rsv1[32];
#if defined(__GNUC__)
    __extension__
#endif
    union {
        uint8_t rsv2[128];
        struct aclmdlRIKernelTaskParams kernelTaskParams;
        struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
        struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
        struct aclmdlRIEventResetTaskParams eventResetTaskParams;
        struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
        struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
    };
} aclmdlRITaskParams;

// Conditional tasks: a condition handle holds a device value that selects which child model runs.
typedef enum {
    ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

typedef enum {
    ACL_MODEL_RI_COND_TYPE_IF = 0,
    ACL_MODEL_RI_COND_TYPE_WHILE = 1,
    ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

typedef struct tagAclmdlRICondTaskParams {
    aclmdlRICondHandle handle;
    aclmdlRICondTaskType type;
    uint32_t size;             // number of entries in modelRIArray
    aclmdlRI* modelRIArray;    // child models, one per branch
} aclmdlRICondTaskParams;

/* Capture */

// Starts recording: work queued on stream (and on streams that wait on its events) is kept in a new
// model instance instead of running.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);

// Starts recording stream into an existing model instance (as a nested capture).
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode);

// Capture state of a stream and, while capturing, the model instance being recorded.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                                    aclmdlRI* modelRI);

// Stops recording and returns the captured model instance.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI);

// Sets the calling thread's capture mode to *mode and stores the previous mode in *mode.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode);

// Starts a group of captured tasks that can later be re-captured in place.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);

// Ends a task group and returns its handle.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle);

// Starts recording replacement tasks for a task group.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);

// Ends recording replacement tasks.
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/* Explicit building */

// Starts building a model instance from persistent streams; flag must be 0.
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag);

// Adds a persistent stream to a model instance being built.
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);

// Appends the end-of-model marker to a bound stream.
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);

// Finishes building; reserve must be NULL.
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve);

// Removes a stream from a model instance.
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);

/* Running and managing */

// Enqueues one run of the model instance on stream.
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);

// Runs the model instance and waits for it, up to timeout milliseconds (-1: no limit).
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);

// Stops a running model instance.
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);

// Destroys a model instance.
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

// Applies task parameter changes made with aclmdlRITaskSetParams / aclmdlRITaskDisable.
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);

// Attaches a name to a model instance.
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char* name);

// Name of a model instance as a NUL-terminated string of at most maxLen bytes.
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name);

// Numeric id of a model instance.
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId);

// Adds a function called when the model instance is destroyed.
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData);

// Removes a function added with aclmdlRIDestroyRegisterCallback.
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);

// Prints the structure of a model instance to the log.
ACL_DEPRECATED_MESSAGE("aclmdlRIDebugPrint is deprecated, use aclmdlRIDebugJsonPrint instead")
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);

// Writes the structure of a model instance as JSON to path, at an ACL_MDLRI_DEBUG_JSON_PRINT_* level.
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags);

/* Tasks */

// Streams of a model instance. On input *numStreams is the capacity of streams; on output, the count.
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams);

// Tasks of one model stream, with the same capacity/count convention.
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks);

// Kind of a task.
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type);

// Position of a task within its stream.
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id);

// Current parameters of a task.
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params);

// Replaces the parameters of a task (effective after aclmdlRIUpdate).
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params);

// Turns a task into a no-op (effective after aclmdlRIUpdate).
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);

// Reads one launch setting of a kernel task.
ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                            aclrtLaunchKernelAttrValue* attrValue);

/* Conditional tasks */

// Creates a condition handle for a model instance; with ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT the
// value starts as defaultLaunchValue.
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle);

// Device address of a condition value, for kernels to write.
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr);

// Adds an if, while or switch task to a capturing stream.
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);

/* ============================================================================================== */
/* ==== [misc] Dump, profiling marks, random numbers, message buffers, process snapshots ==== */
/* ============================================================================================== */

// Random-number tasks (aclrtRandomNumAsync). A parameter is either an immediate value of size bytes or
// the device address of one (isAddr).
typedef struct {
    uint8_t isAddr;
    uint8_t valueOrAddr[8];
    uint8_t size;
    uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
    aclrtRandomParaInfo dropoutRation;
} aclrtDropoutBitmaskInfo;

typedef struct {
    aclrtRandomParaInfo min;
    aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
    aclrtRandomParaInfo mean;
    aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef enum {
    ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

typedef struct {
    aclrtRandomNumFuncType funcType;
    union {
        aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
        aclrtUniformDisInfo uniformDisInfo;
        aclrtNormalDisInfo normalDisInfo;
    } paramInfo;
} aclrtRandomNumFuncParaInfo;

typedef struct {
    aclDataType dataType;
    aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
    void* randomParaAddr;
    void* randomResultAddr;
    void* randomCounterAddr;
    aclrtRandomParaInfo randomSeed;
    aclrtRandomParaInfo randomNum;
    uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

// Process snapshots (checkpoint/restore of a process using the device).
typedef enum {
    ACL_RT_SNAPSHOT_LOCK_PRE = 0,
    ACL_RT_SNAPSHOT_BACKUP_PRE,
    ACL_RT_SNAPSHOT_BACKUP_POST,
    ACL_RT_SNAPSHOT_RESTORE_PRE,
    ACL_RT_SNAPSHOT_RESTORE_POST,
    ACL_RT_SNAPSHOT_UNLOCK_POST,
} aclrtSnapShotStage;

// Runs at a snapshot stage; a non-zero return fails the snapshot operation.
typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void* args);

typedef struct aclrtSnapShotBackupArgs {
    uint32_t backupFlags;
    char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
    uint32_t restoreFlags;
    char reserved[60];
} aclrtSnapShotRestoreArgs;

typedef enum aclrtProcessState {
    ACL_RT_PROCESS_STATE_RUNNING = 0,
    ACL_RT_PROCESS_STATE_LOCKED,
} aclrtProcessState;

// Enables data dumping; configure it with aclmdlSetDump.
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);

// Loads a dump configuration (JSON file).
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char* dumpCfgPath);

// Disables data dumping.
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

// Enqueues a user mark carrying length bytes of userdata into the profiling timeline.
ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream);

// Enqueues generation of random numbers; reserve must be NULL.
ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream,
                                                 void* reserve);

// Message buffers (mbufs): shared buffers with a user-data area that can be chained.
ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size);
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len);
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset);
// Makes *newBuf a second reference to the same data.
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf);
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num);
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf);

// Blocks further runtime calls of process pid ahead of a snapshot; reserve must be NULL.
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void* reserve);

// Lets a locked process continue.
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void* reserve);

// Saves the device state of a locked process.
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args);

// Restores a process to its last backup.
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args);

// Adds a function run at a snapshot stage.
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                                           void* args);

// Removes a function added with aclrtSnapShotCallbackRegister.
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage,
                                                             aclrtSnapShotCallBack callback);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_RT_H
