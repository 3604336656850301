// Entry points: profiling control (aclprofInit/Start/Stop/Finalize, configs). The collection itself is
// dfx::Profiler; see acl/acl_prof.h and docs/profiling.md.
#include <cstring>
#include <mutex>
#include <string>

#include "acl/acl_prof.h"
#include "api/api_common.h"
#include "api/handle_tags.h"
#include "api/prof_objects.h"
#include "core/runtime.h"
#include "dfx/log.h"
#include "dfx/profiler.h"

using npurt::Err;
using npurt::api::ProfConfig;
using npurt::dfx::Profiler;

namespace {

// Serialises the control calls (CANN's g_profMutex): start/stop/finalize never interleave.
std::mutex g_control_mu;

// Every data type this header defines; unknown bits make a config invalid.
constexpr uint64_t kKnownDataTypes = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS |
                                     ACL_PROF_AICPU | ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE |
                                     ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API |
                                     ACL_PROF_GE_API_L0 | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY |
                                     ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR |
                                     ACL_PROF_TASK_TIME_L3 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE;
constexpr size_t kMaxPathLength = 4096;

// Enums from the C ABI may hold any int: read with RawEnum (an out-of-range load is undefined in C++).
// Called with RawEnum(aicoreMetrics): even passing the enum by value loads it.
bool ValidMetrics(int m) {
  return (m >= ACL_AICORE_ARITHMETIC_UTILIZATION && m <= ACL_AICORE_MEMORY_ACCESS) || m == ACL_AICORE_NONE;
}

npurt::Status CheckPath(const char* path, size_t length) {
  if (path == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "profilerResultPath is a null pointer");
  if (length == 0 || length > kMaxPathLength) {
    return Err(ACL_ERROR_INVALID_PARAM, "path length {} is invalid (1..{})", length, kMaxPathLength);
  }
  if (strnlen(path, length + 1) != length) {
    return Err(ACL_ERROR_INVALID_PARAM, "length {} does not match the path's length {}", length,
               strnlen(path, kMaxPathLength + 1));
  }
  return npurt::Status::Ok();
}

}  // namespace

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckPath(profilerResultPath, length));
  std::lock_guard<std::mutex> lock(g_control_mu);
  NPURT_API_CHECK(Profiler::Get().Init(std::string(profilerResultPath, length)));
  NPURT_LOG_INFO("PROFILING", "aclprofInit: results go under {}", std::string(profilerResultPath, length));
  return ACL_SUCCESS;
}

aclError aclprofFinalize(void) {
  NPURT_HANDLE_SCOPE();
  std::lock_guard<std::mutex> lock(g_control_mu);
  NPURT_API_CHECK(Profiler::Get().Finalize());
  return ACL_SUCCESS;
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
  NPURT_HANDLE_SCOPE();
  (void)aicoreEvents;  // reserved in CANN too
  auto fail = [](const npurt::Status& st) -> aclprofConfig* {
    npurt::api::Report("aclprofCreateConfig", st);
    return nullptr;
  };
  if (deviceNums > 0 && deviceIdList == nullptr) {
    return fail(Err(ACL_ERROR_INVALID_PARAM, "deviceIdList is a null pointer but deviceNums is {}", deviceNums));
  }
  if ((dataTypeConfig & ~kKnownDataTypes) != 0) {
    return fail(Err(ACL_ERROR_INVALID_PARAM, "dataTypeConfig {:#x} has unknown bits {:#x}", dataTypeConfig,
                    dataTypeConfig & ~kKnownDataTypes));
  }
  if (!ValidMetrics(npurt::RawEnum(aicoreMetrics))) {
    return fail(Err(ACL_ERROR_INVALID_PARAM, "aicoreMetrics {} is invalid", npurt::RawEnum(aicoreMetrics)));
  }
  auto count = npurt::core::Runtime::Get().DeviceCount();
  if (!count.ok()) return fail(count.status());
  std::vector<uint32_t> devices;
  for (uint32_t i = 0; i < deviceNums; ++i) {
    if (deviceIdList[i] >= count.value()) {
      return fail(Err(ACL_ERROR_INVALID_PARAM, "device id {} is invalid ({} device(s) visible)", deviceIdList[i],
                      count.value()));
    }
    for (uint32_t d : devices) {
      if (d == deviceIdList[i]) return fail(Err(ACL_ERROR_INVALID_PARAM, "device id {} is repeated", d));
    }
    devices.push_back(deviceIdList[i]);
  }
  ProfConfig* c = npurt::NewHandle<ProfConfig>();
  if (c == nullptr) return fail(Err(ACL_ERROR_BAD_ALLOC, "out of handle slots for profiling configs"));
  c->devices = std::move(devices);
  c->metrics = aicoreMetrics;
  c->data_types = dataTypeConfig;
  return reinterpret_cast<aclprofConfig*>(c);
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(profilerConfig);
  ProfConfig* c = npurt::LookupHandle<ProfConfig>(profilerConfig, npurt::handle_tags::kProfConfig);
  if (c == nullptr || !c->Invalidate()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live profiling config",
                                            static_cast<const void*>(profilerConfig)));
  }
  c->Release();
  return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(profilerConfig);
  ProfConfig* c = npurt::LookupHandle<ProfConfig>(profilerConfig, npurt::handle_tags::kProfConfig);
  if (c == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live profiling config",
                                            static_cast<const void*>(profilerConfig)));
  }
  std::lock_guard<std::mutex> lock(g_control_mu);
  Profiler& p = Profiler::Get();
  // CANN starts an implicit session in the current directory when aclprofInit was not called.
  if (p.mode() == npurt::dfx::ProfMode::kOff) NPURT_API_CHECK(p.Init(p.result_dir().empty() ? "." : p.result_dir()));
  NPURT_API_CHECK(p.Start(c->data_types, c->devices));
  return ACL_SUCCESS;
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(profilerConfig);
  if (npurt::LookupHandle<ProfConfig>(profilerConfig, npurt::handle_tags::kProfConfig) == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live profiling config",
                                            static_cast<const void*>(profilerConfig)));
  }
  std::lock_guard<std::mutex> lock(g_control_mu);
  NPURT_API_CHECK(Profiler::Get().Stop());
  return ACL_SUCCESS;
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(config);
  const int type = npurt::RawEnum(configType);
  if (type <= ACL_PROF_ARGS_MIN || type >= ACL_PROF_ARGS_MAX || type == 2) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "configType {} is invalid", type));
  }
  if (configLength == 0 || strnlen(config, configLength + 1) != configLength) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "configLength {} does not match the config string", configLength));
  }
  std::lock_guard<std::mutex> lock(g_control_mu);
  Profiler& p = Profiler::Get();
  if (p.mode() == npurt::dfx::ProfMode::kOff) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_PROF_NOT_RUN, "aclprofSetConfig needs aclprofInit first"));
  }
  if (p.mode() == npurt::dfx::ProfMode::kCommand) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_PROF_ALREADY_RUN,
                                            "profiling is controlled by msprof or the aclInit config"));
  }
  const std::string value(config, configLength);
  if (configType == ACL_PROF_PATH) {
    if (p.started()) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_PROF_ALREADY_RUN, "cannot change the path while started"));
    }
    p.set_result_dir(value);
  }
  // The other settings (sampling frequencies, storage limit, host-system metrics) tune collectors that
  // the simulated NPU does not have; they are accepted and logged.
  NPURT_LOG_INFO("PROFILING", "aclprofSetConfig({}, \"{}\")", int(configType), value);
  return ACL_SUCCESS;
}
