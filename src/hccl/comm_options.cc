#include "hccl/comm_options.h"

#include <cstddef>
#include <cstring>

#include "base/env.h"
#include "base/parse_uint.h"
#include "dfx/log.h"

namespace npurt::hccl {
namespace {

constexpr uint64_t kSecond = 1'000'000'000ull;
constexpr uint64_t kDefaultExecTimeoutS = 1836;
constexpr uint64_t kDefaultConnectTimeoutS = 120;
constexpr uint64_t kConnectGraceS = 20;  // HCCL waits the connect timeout plus this
constexpr uint32_t kNotSet = 0xffffffffu;
constexpr uint32_t kMagic = 0xf0f0f0f0u;

bool ReadSeconds(env::Var var, uint64_t* out) {
  const char* raw = env::Raw(var);
  if (raw == nullptr || *raw == '\0') return false;
  uint64_t v = 0;
  if (!ParseDecimalUint(raw, &v) || v > 10'000'000) {
    NPURT_LOG_WARNING("HCCL", "{}={} is not a number of seconds; using the default", env::Info(var).name, raw);
    return false;
  }
  *out = v;
  return true;
}

// True when the caller's struct of `size` bytes holds the field that ends at `end`.
bool Covers(size_t size, size_t end) { return size >= end; }

}  // namespace

CommOptions OptionsFromEnvironment() {
  CommOptions o;
  uint64_t s = kDefaultExecTimeoutS;
  ReadSeconds(env::Var::kHcclExecTimeout, &s);
  o.exec_timeout_ns = s * kSecond;
  s = kDefaultConnectTimeoutS;
  ReadSeconds(env::Var::kHcclConnectTimeout, &s);
  o.connect_timeout_ns = (s + kConnectGraceS) * kSecond;
  uint64_t mb = 0;
  if (ReadSeconds(env::Var::kHcclBuffSize, &mb) && mb >= 1 && mb <= 1'000'000) o.buffer_mb = static_cast<uint32_t>(mb);
  return o;
}

StatusOr<CommOptions> ResolveOptions(const HcclCommConfig* config) {
  CommOptions o = OptionsFromEnvironment();
  if (config == nullptr) return o;
  size_t size = 0;
  uint32_t magic = 0;
  std::memcpy(&size, config->reserved, sizeof(size));
  std::memcpy(&magic, config->reserved + sizeof(size_t), sizeof(magic));
  if (magic != kMagic || size < HCCL_COMM_CONFIG_INFO_BYTES) {
    return Err(HCCL_E_PARA, "the HcclCommConfig was not initialised with HcclCommConfigInit (its header has size {} and "
               "magic word {:#x}, expected 0xf0f0f0f0)", size, magic);
  }
  if (Covers(size, offsetof(HcclCommConfig, hcclBufferSize) + sizeof(uint32_t)) && config->hcclBufferSize != kNotSet) {
    if (config->hcclBufferSize == 0) return Err(HCCL_E_PARA, "hcclBufferSize is 0 MB; it must be at least 1");
    o.buffer_mb = config->hcclBufferSize;
  }
  if (Covers(size, offsetof(HcclCommConfig, hcclDeterministic) + sizeof(uint32_t)) &&
      config->hcclDeterministic != kNotSet && config->hcclDeterministic > 2) {
    return Err(HCCL_E_PARA, "hcclDeterministic is {}; it takes 0, 1 or 2", config->hcclDeterministic);
  }
  if (Covers(size, offsetof(HcclCommConfig, hcclCommName) + sizeof(config->hcclCommName))) {
    const size_t len = strnlen(config->hcclCommName, sizeof(config->hcclCommName));
    if (len == sizeof(config->hcclCommName)) {
      return Err(HCCL_E_PARA, "hcclCommName is not NUL-terminated within its {} bytes", sizeof(config->hcclCommName));
    }
    o.name.assign(config->hcclCommName, len);
  }
  if (Covers(size, offsetof(HcclCommConfig, hcclExecTimeOut) + sizeof(int32_t)) &&
      static_cast<uint32_t>(config->hcclExecTimeOut) != kNotSet) {
    if (config->hcclExecTimeOut < 0) return Err(HCCL_E_PARA, "hcclExecTimeOut is {} s; it must be >= 0", config->hcclExecTimeOut);
    o.exec_timeout_ns = static_cast<uint64_t>(config->hcclExecTimeOut) * kSecond;
  }
  return o;
}

}  // namespace npurt::hccl
