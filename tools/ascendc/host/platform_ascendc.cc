// libplatform.so: PlatformAscendC answering with the simulated device's description.
#include "tiling/platform/platform_ascendc.h"

#include <acl/acl.h>
#include <npurt/sim_core.h>

#include <cstring>
#include <string>

namespace fe {

// The simulated device as the runtime reports it, read once.
class PlatFormInfos {
 public:
  std::string soc_name;  // aclrtGetSocName: "Ascend910B1" by default
  uint32_t cube_cores = 0;
  uint32_t vector_cores = 0;
  uint64_t ub_bytes = NPURT_SIM_UB_BYTES;
  uint64_t l2_bytes = 0;
  uint64_t hbm_bytes = 0;
};

}  // namespace fe

namespace platform_ascendc {
namespace {

// The short SoC name CANN keys its tables by ("Ascend910B1" -> "Ascend910B").
SocVersion SocOfName(const std::string& name) {
  auto starts = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  if (starts("Ascend910B") || starts("Ascend910_93")) return SocVersion::ASCEND910B;
  if (starts("Ascend910_55")) return SocVersion::ASCEND910_55;
  if (starts("Ascend910")) return SocVersion::ASCEND910;
  if (starts("Ascend310P")) return SocVersion::ASCEND310P;
  if (starts("Ascend310B")) return SocVersion::ASCEND310B;
  if (starts("Ascend950")) return SocVersion::ASCEND950;
  if (starts("Ascend310")) return SocVersion::ASCEND310;
  return SocVersion::RESERVED_VERSION;
}

int64_t DeviceAttr(uint32_t device, aclrtDevAttr attr, int64_t fallback) {
  int64_t v = 0;
  return aclrtGetDeviceInfo(device, attr, &v) == ACL_SUCCESS && v > 0 ? v : fallback;
}

fe::PlatFormInfos* Describe(const char* customSocVersion) {
  int32_t current = 0;
  const uint32_t device = aclrtGetDevice(&current) == ACL_SUCCESS ? static_cast<uint32_t>(current) : 0u;
  int64_t cube = 0;
  if (aclrtGetDeviceInfo(device, ACL_DEV_ATTR_CUBE_CORE_NUM, &cube) != ACL_SUCCESS || cube <= 0) {
    aclAppLog(ACL_ERROR, __func__, __FILE__, __LINE__,
              "PlatformAscendCManager: device %u cannot be described (%s)", device, aclGetRecentErrMsg());
    return nullptr;
  }
  auto* info = new fe::PlatFormInfos;
  const char* soc = aclrtGetSocName();
  info->soc_name = soc != nullptr ? soc : "Ascend910B1";
  info->cube_cores = static_cast<uint32_t>(cube);
  info->vector_cores = static_cast<uint32_t>(DeviceAttr(device, ACL_DEV_ATTR_VECTOR_CORE_NUM, cube));
  info->ub_bytes = static_cast<uint64_t>(DeviceAttr(device, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, NPURT_SIM_UB_BYTES));
  info->l2_bytes = static_cast<uint64_t>(DeviceAttr(device, ACL_DEV_ATTR_L2_CACHE_SIZE, 0));
  info->hbm_bytes = static_cast<uint64_t>(DeviceAttr(device, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 0));
  if (customSocVersion != nullptr && *customSocVersion != '\0' &&
      SocOfName(customSocVersion) != SocOfName(info->soc_name)) {
    aclAppLog(ACL_WARNING, __func__, __FILE__, __LINE__,
              "PlatformAscendCManager: SoC %s was asked for; describing the simulated %s, which runs the kernels",
              customSocVersion, info->soc_name.c_str());
  }
  return info;
}

}  // namespace

PlatformAscendC* PlatformAscendCManager::platformInfo = nullptr;
std::mutex PlatformAscendCManager::platformInitMtx;

SocVersion PlatformAscendCManager::SocVersionMap(const char* socVersionStr) {
  return socVersionStr != nullptr ? SocOfName(socVersionStr) : SocVersion::RESERVED_VERSION;
}

fe::PlatFormInfos* PlatformAscendCManager::PlatformAscendCInit(const char* customSocVersion) {
  return Describe(customSocVersion);
}

// Called under platformInitMtx. The platform lives as long as the process (CANN's too): tiling code
// keeps the pointer.
PlatformAscendC* PlatformAscendCManager::PlatformAscendCManagerInit(const char* customSocVersion) {
  fe::PlatFormInfos* info = PlatformAscendCInit(customSocVersion);
  if (info != nullptr) platformInfo = new PlatformAscendC(info);
  return platformInfo;
}

fe::PlatFormInfos* PlatformAscendC::GetPlatFormInfo(void) const {
  if (platformInfo_ != nullptr) return platformInfo_;
  // A PlatformAscendC built from a null description (or CANN's op-registration path, which npurt does
  // not have) describes the simulated device too.
  static fe::PlatFormInfos* const fallback = [] {
    fe::PlatFormInfos* d = Describe(nullptr);
    return d != nullptr ? d : new fe::PlatFormInfos{"Ascend910B1", 1, 1, NPURT_SIM_UB_BYTES, 0, 0};
  }();
  return fallback;
}

uint32_t PlatformAscendC::GetCoreNum(void) const { return GetPlatFormInfo()->vector_cores; }
uint32_t PlatformAscendC::GetCoreNumAic(void) const { return GetPlatFormInfo()->cube_cores; }
uint32_t PlatformAscendC::GetCoreNumAiv(void) const { return GetPlatFormInfo()->vector_cores; }

uint32_t PlatformAscendC::GetCoreNumVector(void) const {
  return GetSocVersion() == SocVersion::ASCEND310P ? GetPlatFormInfo()->vector_cores : 0u;
}

uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
  const uint32_t ratio = aivCoreNum / aicCoreNum;
  return (sliceNum + ratio - 1) / ratio;
}

uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize(void) const {
  switch (GetSocVersion()) {
    case SocVersion::ASCEND910B:
    case SocVersion::ASCEND950: return NPURT_SIM_LIB_API_WORKSPACE_BYTES;
    default: return 2u * 1024u * 1024u;
  }
}

uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize(void) const { return 1u * 1024u * 1024u; }
uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize(void) const { return 1u * 1024u * 1024u; }

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  const fe::PlatFormInfos* info = GetPlatFormInfo();
  switch (memType) {
    case CoreMemType::L0_A: size = NPURT_SIM_L0A_BYTES; break;
    case CoreMemType::L0_B: size = NPURT_SIM_L0B_BYTES; break;
    case CoreMemType::L0_C: size = NPURT_SIM_L0C_BYTES; break;
    case CoreMemType::L1: size = NPURT_SIM_L1_BYTES; break;
    case CoreMemType::L2: size = info->l2_bytes; break;
    case CoreMemType::UB: size = info->ub_bytes > reservedMemSize_ ? info->ub_bytes - reservedMemSize_ : 0; break;
    case CoreMemType::HBM: size = info->hbm_bytes; break;
    case CoreMemType::FB: size = NPURT_SIM_FB_BYTES; break;
    case CoreMemType::BT: size = NPURT_SIM_BT_BYTES; break;
    default: size = 0; break;
  }
}

void PlatformAscendC::GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
  switch (memType) {
    case CoreMemType::L2: bwSize = 110; break;
    case CoreMemType::HBM: bwSize = 32; break;
    default: bwSize = 0; break;  // core-local memories: no figure, as CANN's ini has none
  }
}

void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
  switch (size) {
    case ReservedSize::RESERVED_SIZE_8K: reservedMemSize_ = 8u * 1024u; break;
    case ReservedSize::RESERVED_SIZE_16K: reservedMemSize_ = 16u * 1024u; break;
    case ReservedSize::RESERVED_SIZE_32K: reservedMemSize_ = 32u * 1024u; break;
    default:
      aclAppLog(ACL_ERROR, __func__, __FILE__, __LINE__, "ReserveLocalMemory: unknown size %d", static_cast<int>(size));
      break;
  }
}

SocVersion PlatformAscendC::GetSocVersion(void) const { return SocOfName(GetPlatFormInfo()->soc_name); }

NpuArch PlatformAscendC::GetCurNpuArch(void) const {
  switch (GetSocVersion()) {
    case SocVersion::ASCEND910B: return NpuArch::DAV_2201;
    case SocVersion::ASCEND910: return NpuArch::DAV_1001;
    case SocVersion::ASCEND310P: return NpuArch::DAV_2002;
    case SocVersion::ASCEND310B: return NpuArch::DAV_3002;
    case SocVersion::ASCEND950: return NpuArch::DAV_3510;
    default: return NpuArch::DAV_RESV;
  }
}

uint32_t PlatformAscendC::GetVecRegLen(void) const { return 0u; }

}  // namespace platform_ascendc
