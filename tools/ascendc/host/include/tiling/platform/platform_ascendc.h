// platform_ascendc.h for npurt: what host tiling code asks about the AI processor it tiles for
// (CANN's PlatformAscendC / PlatformAscendCManager, namespace platform_ascendc; libplatform.so).
//
// Every answer is the simulated device's, taken from the runtime when the platform is first asked for
// (aclrtGetDeviceInfo on the current device, or device 0): the core counts are the AI cores the sim runs
// blocks on (NPURT_SIM_AICORE_COUNT, default the host's hardware threads), the unified buffer the one
// each simulated core gives a kernel, the SoC version the simulated SoC's (aclrtGetSocName). A tiling
// computed from these answers is one the sim executes as written. The cube buffers (L1, L0A/B/C) are
// the sizes of include/npurt/sim_core.h. See docs/kernels.md, "Host tiling".
//
// Thread safety: PlatformAscendCManager::GetInstance is safe from any thread; a PlatformAscendC is read
// only, except ReserveLocalMemory, which the caller serialises.
#ifndef NPURT_TILING_PLATFORM_ASCENDC_H_
#define NPURT_TILING_PLATFORM_ASCENDC_H_

#include <cstdint>
#include <mutex>

namespace fe {
// The platform description behind a PlatformAscendC. CANN fills it from the SoC's ini file; npurt's
// holds the simulated device's answers (defined in libplatform.so).
class PlatFormInfos;
}  // namespace fe

// The NPU architecture (CANN's soc_spec.h): 2201 is the Ascend910B family's, the sim's.
#ifndef __SOC_SPEC_H__
#define __SOC_SPEC_H__
enum class NpuArch : uint32_t {
  DAV_1001 = 1001,
  DAV_2002 = 2002,
  DAV_2201 = 2201,
  DAV_3002 = 3002,
  DAV_3510 = 3510,
  DAV_RESV = 0xFFFFFFFFu,
};
#endif

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
  ASCEND910 = 0,  // Ascend910A, Ascend910ProA/B, Ascend910PremiumA
  ASCEND910B,     // Ascend910B1..4, Ascend910B2C, Ascend910_93xx
  ASCEND310P,     // Ascend310P1, Ascend310P3
  ASCEND310B,     // Ascend310B1..4
  ASCEND950,
  ASCEND910_55,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62CM12A,
  SD3403,
  KIRINX90,
  KIRIN9030,
  RESERVED_VERSION = 99999
};

// Unified-buffer space a kernel keeps for itself; GetCoreMemSize(UB) then reports the rest.
enum class ReservedSize {
  RESERVED_SIZE_8K,
  RESERVED_SIZE_16K,
  RESERVED_SIZE_32K,
};

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  // `platformInfo` is borrowed. A null one (CANN's op-registration path hands its own; npurt's tiling
  // functions have none) is replaced by the simulated device's description.
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}

  // Cores a vector kernel's blocks run on (on the sim: the AI cores; cube and vector are the same cores).
  uint32_t GetCoreNum(void) const;
  uint32_t GetCoreNumAic(void) const;  // cube cores (ACL_DEV_ATTR_CUBE_CORE_NUM)
  uint32_t GetCoreNumAiv(void) const;  // vector cores (ACL_DEV_ATTR_VECTOR_CORE_NUM)
  // Separate vector cores of an Ascend310P; 0 on every other SoC, the sim's included.
  uint32_t GetCoreNumVector(void) const;
  // The blocks to launch for `sliceNum` slices: a mixed kernel (aicCoreNum and aivCoreNum both set) runs
  // aivCoreNum / aicCoreNum vector blocks per launched block; otherwise one slice per block.
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  // The system workspace the kernel libraries use at the start of a launch's workspace.
  uint32_t GetLibApiWorkSpaceSize(void) const;
  uint32_t GetResCubeGroupWorkSpaceSize(void) const;
  uint32_t GetResGroupBarrierWorkSpaceSize(void) const;
  // Bytes of one core's memory of type `memType` (UB less ReserveLocalMemory's reservation; HBM: the
  // device memory; L2: the L2 cache). An unknown type leaves `size` 0.
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  // Bytes per cycle the memory moves (the Ascend910B's figures; the sim does not model bandwidth).
  void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const;
  // The last call wins.
  void ReserveLocalMemory(ReservedSize size);
  SocVersion GetSocVersion(void) const;
  NpuArch GetCurNpuArch(void) const;
  // Bits of a vector register (0: the SoC has no SIMD vector registers, as the Ascend910B family).
  uint32_t GetVecRegLen(void) const;

 private:
  fe::PlatFormInfos* GetPlatFormInfo(void) const;
  fe::PlatFormInfos* platformInfo_;
  uint32_t reservedMemSize_ = 0;
};

class PlatformAscendCManager {
 public:
  // The process's platform, created on the first call (never destroyed); nullptr when the runtime has
  // no device to describe (the reason is logged).
  static PlatformAscendC* GetInstance() {
    const std::lock_guard<std::mutex> lock(platformInitMtx);
    if (platformInfo == nullptr) PlatformAscendCManagerInit(nullptr);
    return platformInfo;
  }
  // CANN: the SoC to describe where no NPU is present; only the first call's choice counts. npurt
  // always describes the simulated SoC, so that tilings fit what runs them; a different SoC named here
  // is logged as a warning.
  static PlatformAscendC* GetInstance(const char* customSocVersion) {
    const std::lock_guard<std::mutex> lock(platformInitMtx);
    if (platformInfo == nullptr) PlatformAscendCManagerInit(customSocVersion);
    return platformInfo;
  }

 private:
  static PlatformAscendC* platformInfo;
  static std::mutex platformInitMtx;
  static PlatformAscendC* PlatformAscendCManagerInit(const char* customSocVersion);
  static SocVersion SocVersionMap(const char* socVersionStr);
  static fe::PlatFormInfos* PlatformAscendCInit(const char* customSocVersion);
  PlatformAscendCManager();
  ~PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc

#endif  // NPURT_TILING_PLATFORM_ASCENDC_H_
