// InitConstValue (and CANN's older spelling Fill(LocalTensor, InitConstValueParams)) for the sim: sets
// repeatTimes iterations of blockNum blocks of a cube-side local tensor to initValue, dstGap blocks apart;
// a block is 32 bytes in L1 (A1/B1) and 512 bytes in L0A/L0B (A2/B2), as on Atlas A2. The blocks written
// must lie in that memory, else the kernel fails. Part of kernel_operator.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npurt_kernel/local_memory.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

template <typename T>
struct InitConstValueParams {
  __aicore__ InitConstValueParams() = default;
  __aicore__ InitConstValueParams(uint16_t repeat, uint16_t blocks, uint16_t gap, T value)
      : repeatTimes(repeat), blockNum(blocks), dstGap(gap), initValue(value) {}
  // The older two-field form: repeatTimes iterations of 512 bytes.
  __aicore__ InitConstValueParams(uint16_t repeat, T value) : repeatTimes(repeat), initValue(value) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
};

template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& params) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || std::is_same<T, float>::value ||
                    std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                    std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value,
                "InitConstValue: T is half, bfloat16_t, float, int16_t, uint16_t, int32_t or uint32_t on Atlas A2");
  npurt_detail::LocalMem mem = npurt_detail::LocalMem::kUB;
  if (!npurt_detail::FindCubeMemory(dst.GetPhyAddr(), 1, &mem) ||
      (mem != npurt_detail::LocalMem::kL1 && mem != npurt_detail::LocalMem::kL0A &&
       mem != npurt_detail::LocalMem::kL0B)) {
    npurt_detail::Fail("InitConstValue: the destination must be in L1 (A1/B1), L0A (A2) or L0B (B2)");
  }
  // The two-field form leaves blockNum 0: an iteration is then 512 bytes.
  const uint64_t block = mem == npurt_detail::LocalMem::kL1 ? 32u : 512u;
  const uint64_t blocks = params.blockNum != 0 ? params.blockNum : 512u / block;
  const uint64_t per = blocks * block / sizeof(T);
  auto* base = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t r = 0; r < params.repeatTimes; ++r) {
    T* p = reinterpret_cast<T*>(base + r * (blocks + params.dstGap) * block);
    npurt_detail::CheckCube(p, per * sizeof(T), mem, "InitConstValue");
    for (uint64_t i = 0; i < per; ++i) p[i] = params.initValue;
  }
}

// CANN's older name of InitConstValue.
template <typename T>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<T>& params) {
  InitConstValue(dst, params);
}

}  // namespace AscendC
