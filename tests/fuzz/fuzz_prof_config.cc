// Fuzz target: the profiling configuration and the profiling data a user hands back.
//
//   aclprofInit(path) / aclprofSetConfig(type, text) / aclprofCreateConfig(devices, metrics, data types)
//   / aclprofStart / aclprofStop / aclprofDestroyConfig / aclprofFinalize, in the order the input picks,
//   with a small operator between start and stop so the collection has something to record;
//   aclprofGetOp* on a fuzzed opInfo buffer (the subscription records users read from their pipe).
//
// (The "profiler" section of the aclInit config is fuzzed by fuzz_init_config; msprof's environment
// handshake is read once at library load and is covered by tests/conformance/prof_api_test.cc.)
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "fuzz_util.h"

namespace {

using npurt_fuzz::Check;

aclrtStream g_stream = nullptr;
void* g_dev = nullptr;
constexpr size_t kDevBytes = 4096;

// Data-type bits, mostly known ones (the interesting configs), sometimes anything.
uint64_t PickDataTypes(FuzzedDataProvider& in) {
  static const uint64_t kBits[] = {ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_AICORE_METRICS, ACL_PROF_AICPU,
                                   ACL_PROF_L2CACHE, ACL_PROF_HCCL_TRACE, ACL_PROF_TRAINING_TRACE,
                                   ACL_PROF_MSPROFTX, ACL_PROF_RUNTIME_API, ACL_PROF_TASK_MEMORY,
                                   ACL_PROF_TASK_TIME_L0, ACL_PROF_OP_ATTR, ACL_PROF_API_STATS};
  if (in.ConsumeBool()) return in.ConsumeIntegral<uint64_t>();
  uint64_t mask = 0;
  const uint32_t picks = in.ConsumeIntegralInRange<uint32_t>(0, 6);
  for (uint32_t i = 0; i < picks; ++i) mask |= in.PickValueInArray(kBits);
  return mask;
}

void DeviceWork() {
  std::vector<uint8_t> host(kDevBytes);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i * 37u + 11u);
  Check(aclrtMemcpyAsync(g_dev, kDevBytes, host.data(), kDevBytes, ACL_MEMCPY_HOST_TO_DEVICE, g_stream),
        "aclrtMemcpyAsync");
  Check(aclrtSynchronizeStream(g_stream), "aclrtSynchronizeStream");
}

void OpInfoReaders(FuzzedDataProvider& in) {
  size_t record = 0;
  if (aclprofGetOpDescSize(&record) != ACL_SUCCESS || record == 0) std::abort();
  // Lengths around whole records, with the data at an arbitrary (possibly unaligned) offset.
  const size_t offset = in.ConsumeIntegralInRange<size_t>(0, 7);
  const size_t len = in.ConsumeBool() ? record * in.ConsumeIntegralInRange<size_t>(0, 4)
                                      : in.ConsumeIntegralInRange<size_t>(0, 4 * record + 1);
  std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(len);
  std::vector<uint8_t> buf(offset + bytes.size() + 1);
  if (!bytes.empty()) std::memcpy(buf.data() + offset, bytes.data(), bytes.size());
  const void* info = bytes.empty() && in.ConsumeBool() ? nullptr : buf.data() + offset;
  const size_t info_len = bytes.size();
  uint32_t n = 0;
  Check(aclprofGetOpNum(info, info_len, &n), "aclprofGetOpNum");
  const uint32_t last = n + 1;  // one past the end too
  for (uint32_t i = 0; i <= last && i < 8; ++i) {
    size_t type_len = 0, name_len = 0;
    if (Check(aclprofGetOpTypeLen(info, info_len, i, &type_len), "aclprofGetOpTypeLen") == ACL_SUCCESS) {
      std::vector<char> type(type_len);
      if (Check(aclprofGetOpType(info, info_len, i, type.data(), type.size()), "aclprofGetOpType") == ACL_SUCCESS &&
          std::strlen(type.data()) + 1 != type_len) {
        std::abort();  // the length reported and the text copied disagree
      }
    }
    if (Check(aclprofGetOpNameLen(info, info_len, i, &name_len), "aclprofGetOpNameLen") == ACL_SUCCESS) {
      std::vector<char> name(name_len);
      if (Check(aclprofGetOpName(info, info_len, i, name.data(), name.size()), "aclprofGetOpName") == ACL_SUCCESS &&
          std::strlen(name.data()) + 1 != name_len) {
        std::abort();
      }
    }
    (void)aclprofGetOpStart(info, info_len, i);
    (void)aclprofGetOpEnd(info, info_len, i);
    (void)aclprofGetOpDuration(info, info_len, i);
    (void)aclprofGetModelId(info, info_len, i);
    (void)aclprofGetOpFlag(info, info_len, i);
    const char* thread = aclprofGetOpAttriValue(info, info_len, i, ACL_SUBSCRIBE_ATTRI_THREADID);
    if (thread != nullptr && std::strlen(thread) > 64) std::abort();
    (void)aclGetRecentErrMsg();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)npurt_fuzz::ScratchDir();
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  if (aclrtCreateStream(&g_stream) != ACL_SUCCESS) std::abort();
  if (aclrtMalloc(&g_dev, kDevBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  OpInfoReaders(in);

  std::vector<aclprofConfig*> configs;
  for (int step = 0; step < 12 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange<int>(0, 6)) {
      case 0: {
        const std::string path = npurt_fuzz::ConfinePath(in.ConsumeRandomLengthString(64));
        const size_t len = in.ConsumeBool() ? path.size() : in.ConsumeIntegralInRange<size_t>(0, 5000);
        Check(aclprofInit(path.c_str(), std::min(len, path.size() + 1)), "aclprofInit");
        break;
      }
      case 1: {
        // A plain int, as a C caller passes it (see fuzz_op_compile.cc).
        const int type = in.ConsumeIntegralInRange<int>(-1, 18);
        std::string value = in.ConsumeRandomLengthString(64);
        if (type == ACL_PROF_PATH) value = npurt_fuzz::ConfinePath(value);
        const size_t len = in.ConsumeBool() ? value.size() : in.ConsumeIntegralInRange<size_t>(0, value.size() + 1);
        Check(aclprofSetConfig(static_cast<aclprofConfigType>(type), value.c_str(), len), "aclprofSetConfig");
        break;
      }
      case 2: {
        std::vector<uint32_t> devices;
        const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(0, 4);
        for (uint32_t i = 0; i < n; ++i) devices.push_back(in.ConsumeIntegralInRange<uint32_t>(0, in.ConsumeBool() ? 1 : 70000));
        const int metrics = in.ConsumeIntegralInRange<int>(-1, 0x100);
        const bool null_list = devices.empty() && in.ConsumeBool();
        const uint64_t types = PickDataTypes(in);
        aclprofConfig* c = aclprofCreateConfig(null_list ? nullptr : devices.data(), static_cast<uint32_t>(devices.size()),
                                               static_cast<aclprofAicoreMetrics>(metrics), nullptr, types);
        if (c == nullptr) {
          Check(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig (returned null)");
        } else {
          configs.push_back(c);
        }
        break;
      }
      case 3:
        if (!configs.empty()) {
          Check(aclprofStart(configs[in.ConsumeIntegralInRange<size_t>(0, configs.size() - 1)]), "aclprofStart");
          DeviceWork();
        }
        break;
      case 4:
        if (!configs.empty()) Check(aclprofStop(configs[in.ConsumeIntegralInRange<size_t>(0, configs.size() - 1)]), "aclprofStop");
        break;
      case 5:
        if (!configs.empty()) {
          const size_t i = in.ConsumeIntegralInRange<size_t>(0, configs.size() - 1);
          Check(aclprofDestroyConfig(configs[i]), "aclprofDestroyConfig");
          configs.erase(configs.begin() + static_cast<std::ptrdiff_t>(i));
        }
        break;
      case 6:
        Check(aclprofFinalize(), "aclprofFinalize");
        break;
    }
  }
  // Back to the idle state whatever the input did: stop, finalize, free every config.
  for (aclprofConfig* c : configs) {
    (void)aclprofStop(c);
    (void)aclGetRecentErrMsg();
  }
  (void)aclprofFinalize();
  (void)aclGetRecentErrMsg();
  for (aclprofConfig* c : configs) Check(aclprofDestroyConfig(c), "aclprofDestroyConfig");
  return 0;
}
