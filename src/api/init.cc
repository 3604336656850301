// Entry points: initialization, versions, error reporting, process-wide settings.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/thread_state.h"
#include "dfx/log.h"
#include "ops/compile_cache.h"

using npurt::Err;
using npurt::core::Runtime;

namespace {

// The CANN release whose ACL interface npurt implements; reported for every CANN package name.
constexpr const char* kCannVersion = "8.5.0";
// CANN's numbering (aclsysGetVersionNum): 9.1.0 is 90100000.
constexpr int32_t kMajorWeight = 10000000;
constexpr int32_t kMinorWeight = 100000;
constexpr int32_t kPatchWeight = 1000;

bool KnownPackage(const char* name) {
  static const char* const kNames[] = {"cann", "runtime", "compiler", "hccl", "toolkit", "opp", "opp_kernel",
                                       "driver", "npurt"};
  for (const char* n : kNames) {
    if (std::strcmp(n, name) == 0) return true;
  }
  return false;
}

// The operator compile cache's statistics of the process so far, at INFO (CANN users look for the hit rate
// when shapes vary): logged at each finalize that follows operator work.
void LogOpCacheStats() {
  const npurt::ops::CacheStats s = npurt::ops::CompileCache::Get().Stats();
  const uint64_t lookups = s.hits + s.misses;
  if (lookups == 0) return;
  NPURT_LOG_INFO("OP", "operator compile cache: {} hits, {} misses ({} re-tiled), {} evictions (hit rate {:.1f}%), "
                 "{:.1f} ms compiling, {} of {} entries", s.hits, s.misses, s.retiles, s.evictions,
                 100.0 * static_cast<double>(s.hits) / static_cast<double>(lookups),
                 static_cast<double>(s.compile_ns) / 1e6, s.size, s.capacity);
}

}  // namespace

aclError aclInit(const char* configPath) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(Runtime::Get().Init(configPath));
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  NPURT_HANDLE_SCOPE();
  LogOpCacheStats();
  NPURT_API_CHECK(Runtime::Get().Finalize());
  return ACL_SUCCESS;
}

aclError aclFinalizeReference(uint64_t* refCount) {
  NPURT_HANDLE_SCOPE();
  uint64_t remaining = 0;
  NPURT_API_CHECK(Runtime::Get().FinalizeReference(&remaining));
  if (refCount != nullptr) *refCount = remaining;
  return ACL_SUCCESS;
}

const char* aclGetRecentErrMsg(void) {
  NPURT_HANDLE_SCOPE();
  return npurt::api::TakeRecentError();
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  NPURT_HANDLE_SCOPE();
  if (level != ACL_RT_THREAD_LEVEL) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "only ACL_RT_THREAD_LEVEL is supported"));
  }
  return npurt::core::Tls().last_error;
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  NPURT_HANDLE_SCOPE();
  if (level != ACL_RT_THREAD_LEVEL) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "only ACL_RT_THREAD_LEVEL is supported"));
  }
  return std::exchange(npurt::core::Tls().last_error, ACL_SUCCESS);
}

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pkgName);
  NPURT_API_NOT_NULL(versionStr);
  if (!KnownPackage(pkgName)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown package name '{}'", pkgName));
  }
  std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", kCannVersion);
  return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pkgName);
  NPURT_API_NOT_NULL(versionNum);
  if (!KnownPackage(pkgName)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown package name '{}'", pkgName));
  }
  int major = 0, minor = 0, patch = 0;
  std::sscanf(kCannVersion, "%d.%d.%d", &major, &minor, &patch);
  *versionNum = major * kMajorWeight + minor * kMinorWeight + patch * kPatchWeight;
  return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(version);
  if (name < ACL_PKG_NAME_CANN || name > ACL_PKG_NAME_DRIVER) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "package name {} is out of range", int(name)));
  }
  std::memset(version, 0, sizeof(*version));
  int major = 0, minor = 0, patch = 0;
  std::sscanf(kCannVersion, "%d.%d.%d", &major, &minor, &patch);
  std::snprintf(version->version, sizeof version->version, "%s", kCannVersion);
  std::snprintf(version->majorVersion, sizeof version->majorVersion, "%d", major);
  std::snprintf(version->minorVersion, sizeof version->minorVersion, "%d", minor);
  std::snprintf(version->releaseVersion, sizeof version->releaseVersion, "%d", patch);
  std::snprintf(version->patchVersion, sizeof version->patchVersion, "0");
  return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(majorVersion);
  NPURT_API_NOT_NULL(minorVersion);
  NPURT_API_NOT_NULL(patchVersion);
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(socVersion);
  NPURT_API_NOT_NULL(canCompatible);
  // Code built for the simulated SoC, or for the same SoC family (e.g. Ascend910B*), runs on it.
  const std::string soc = Runtime::Get().soc_name();
  const std::string want = socVersion;
  const size_t family = std::min(soc.size(), size_t(10));
  *canCompatible = (want == soc || want.compare(0, family, soc, 0, family) == 0) ? 1 : 0;
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) {
  NPURT_HANDLE_SCOPE();
  static thread_local std::string name;
  name = Runtime::Get().soc_name();
  return name.c_str();
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(cannAttrList);
  NPURT_API_NOT_NULL(num);
  // JIT_COMPILE: operators are compiled when a program first runs them (aclopCompile, aclopExecuteV2,
  // aclnn*: oneDNN primitives built for the shapes at hand, kept in the compile cache), as CANN's online
  // compilation does.
  static const aclCannAttr kAttrs[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};
  *cannAttrList = kAttrs;
  *num = sizeof kAttrs / sizeof kAttrs[0];
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  switch (cannAttr) {
    case ACL_CANN_ATTR_INF_NAN:
    case ACL_CANN_ATTR_BF16:
    case ACL_CANN_ATTR_JIT_COMPILE:
      *value = 1;
      return ACL_SUCCESS;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown CANN attribute {}", int(cannAttr)));
  }
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(static_cast<int32_t>(deviceId)));
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      *value = dev->info().aicore_count;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      *value = 192ll << 20;
      return ACL_SUCCESS;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown device info {}", int(deviceInfo)));
  }
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...) {
  NPURT_HANDLE_SCOPE();
  if (fmt == nullptr) return;
  const auto level = static_cast<npurt::dfx::LogLevel>(logLevel);
  if (logLevel < ACL_DEBUG || logLevel > ACL_ERROR || !npurt::dfx::LogEnabled(level)) return;
  char buf[1024];  // CANN truncates application log lines at 1024 bytes
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  npurt::dfx::LogWrite(level, "APP", file != nullptr ? file : "?", static_cast<int>(line),
                       fmt::format("{}: {}", func != nullptr ? func : "?", buf));
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  NPURT_HANDLE_SCOPE();
  if (opt < ACL_OPT_DETERMINISTIC || opt > ACL_OPT_ENABLE_KERNEL_EARLY_START) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown system parameter option {}", int(opt)));
  }
  Runtime::Get().SetSysParam(opt, value);
  return ACL_SUCCESS;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_CHECK(Runtime::Get().GetSysParam(opt, value));
  return ACL_SUCCESS;
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  NPURT_HANDLE_SCOPE();
  if (opt < ACL_OPT_DETERMINISTIC || opt > ACL_OPT_ENABLE_KERNEL_EARLY_START) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown system parameter option {}", int(opt)));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  ctx->SetSysParam(opt, value);
  return ACL_SUCCESS;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_CHECK(ctx->GetSysParam(opt, value));
  return ACL_SUCCESS;
}
