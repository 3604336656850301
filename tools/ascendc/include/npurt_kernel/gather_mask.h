// Ascend C GatherMask and Gather for the sim. Part of kernel_operator.h.
//
// GatherMask picks the elements of src0 whose gather-mask bit is 1 and writes them one after the other
// to dst; rsvdCnt returns how many.
//
// The gather mask of a repeat (256 bytes of src0: 128 16-bit or 64 32-bit elements) is
//   a built-in pattern (src1Pattern 1..7), the same for every repeat: 1 even elements, 2 odd elements,
//   3/4/5/6 the first/second/third/fourth of every four, 7 all; or
//   a user pattern (a uint16_t tensor for 16-bit elements, uint32_t for 32-bit): bit k of the repeat's
//   pattern (least significant bit first) picks element k; repeat r's pattern starts
//   r * src1RepeatStride 32-byte blocks into src1Pattern.
// src0's blocks are src0BlockStride blocks apart in a repeat and repeats src0RepeatStride blocks apart.
// reduceMode false: gatherMaskParams.repeatTimes repeats of 256 bytes (mask unused); reduceMode true
// (counter mode): gatherMaskParams.repeatTimes repeats of `mask` elements each, as Atlas A2 runs it (the
// reference's "configuration one"; a repeat of more elements than 256 bytes goes on into the next
// blocks at the block stride, its pattern bits consumed in order). The elements gathered go to
// dst[0 .. rsvdCnt) in order; dst past them is left as it was.
#pragma once

#include <vector>

#include "npurt_kernel/vector_level0.h"

namespace AscendC {

struct GatherMaskParams {
  __aicore__ GatherMaskParams() {}
  __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                              const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;  // CANN's older spelling

namespace npurt_detail {

// Bit k of built-in pattern p (1..7).
inline bool BuiltinPatternBit(uint8_t p, uint32_t k) {
  switch (p) {
    case 1: return k % 2 == 0;
    case 2: return k % 2 == 1;
    case 3: case 4: case 5: case 6: return k % 4 == static_cast<uint32_t>(p - 3);
    default: return true;
  }
}

// pick(r, k): whether element k of repeat r is gathered.
template <typename T, typename Pick>
inline void GatherMaskImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src0, bool reduce_mode, uint32_t mask,
                           const GatherMaskParams& gp, uint64_t& rsvd_cnt, Pick pick, const char* what) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask: 16- or 32-bit elements only");
  if (reduce_mode && mask == 0) Fail("%s: counter mode (reduceMode true) needs a mask of at least 1 element", what);
  const uint32_t repeats = gp.repeatTimes;
  const uint32_t per = reduce_mode ? mask : RepeatElems(sizeof(T));  // elements of each repeat
  const Stride s0{gp.src0BlockStride, gp.src0RepeatStride};
  // Count first, so that dst's check covers every write.
  uint64_t n = 0;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t k = 0; k < per; ++k) {
      CheckLocal(src0.GetPhyAddr() + ElemOffset(s0, r, k, sizeof(T)), sizeof(T), what);
      n += pick(r, k) ? 1 : 0;
    }
  }
  CheckLocal(dst.GetPhyAddr(), n * sizeof(T), what);
  // A repeat reads its elements before it writes (dst may be src0, as in-place gathers use it).
  T* d = dst.GetPhyAddr();
  uint64_t i = 0;
  std::vector<T> vals;
  for (uint32_t r = 0; r < repeats; ++r) {
    vals.clear();
    for (uint32_t k = 0; k < per; ++k) {
      if (pick(r, k)) vals.push_back(SrcAt(src0, s0, r, k));
    }
    for (const T& v : vals) d[i++] = v;
  }
  rsvd_cnt = n;
}

}  // namespace npurt_detail

// User pattern: src1Pattern is uint16_t for 16-bit elements, uint32_t for 32-bit ones.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
  static_assert(sizeof(U) == sizeof(T), "GatherMask: the pattern is uint16_t for 16-bit elements, uint32_t for 32-bit");
  const auto* bits = reinterpret_cast<const uint8_t*>(src1Pattern.GetPhyAddr());
  const uint32_t rep_bytes = 32u * gatherMaskParams.src1RepeatStride;
  const uint32_t per = reduceMode ? mask : npurt_detail::RepeatElems(sizeof(T));
  const uint32_t repeats = gatherMaskParams.repeatTimes;
  if (repeats > 0) {
    npurt_detail::CheckLocal(bits, uint64_t{repeats - 1} * rep_bytes + (per + 7) / 8, "GatherMask");
  }
  npurt_detail::GatherMaskImpl(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                               [&](uint32_t r, uint32_t k) {
                                 return ((bits[uint64_t{r} * rep_bytes + k / 8] >> (k % 8)) & 1u) != 0;
                               },
                               "GatherMask");
}

// Built-in pattern 1..7.
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7) npurt_detail::Fail("GatherMask: built-in pattern %u outside [1, 7]", src1Pattern);
  npurt_detail::GatherMaskImpl(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                               [src1Pattern](uint32_t, uint32_t k) { return npurt_detail::BuiltinPatternBit(src1Pattern, k); },
                               "GatherMask");
}

}  // namespace AscendC

// ---- Gather ----------------------------------------------------------------------------------------------
// dst[i] = the element of src at byte offset srcBaseAddr + srcOffset[i] (offsets must keep the element's
// alignment). Count form: i < count. Level-0 form: element k of repeat r uses srcOffset[r * per + k]
// (per = elements of a 256-byte repeat) and goes to dst at r * dstRepStride 32-byte blocks + k; the mask
// picks the elements; the others keep their values.
namespace AscendC {
namespace npurt_detail {

template <typename T>
inline void GatherImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offsets,
                       uint32_t base, const MaskPlan& p, uint32_t dst_rep_stride) {
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  const uint32_t* off = offsets.GetPhyAddr();
  const uint64_t end = PlanBitEnd(p);  // 1 + the largest element index r * per + k the plan touches
  CheckLocal(off, end * 4, "Gather");
  const Stride ds{1, dst_rep_stride};
  CheckPlanned(dst.GetPhyAddr(), p, ds, "Gather");
  for (uint64_t i = 0; i < end; ++i) {
    const uint32_t r = static_cast<uint32_t>(i / p.per_repeat), k = static_cast<uint32_t>(i % p.per_repeat);
    if (Active(p, r, k)) CheckLocal(s + base + uint64_t{off[i]}, sizeof(T), "Gather");
  }
  Level0Write<T, false>(p, dst, ds, [&](uint32_t r, uint32_t k) {
    T v;
    std::memcpy(&v, s + base + uint64_t{off[uint64_t{r} * p.per_repeat + k]}, sizeof(T));
    return v;
  });
}

}  // namespace npurt_detail

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                              const uint32_t srcBaseAddr, const uint32_t count) {
  npurt_detail::MaskPlan p;
  p.counter = true;
  p.per_repeat = npurt_detail::RepeatElems(sizeof(T));
  p.count = count;
  p.repeats = (count + p.per_repeat - 1) / p.per_repeat;
  npurt_detail::GatherImpl(dst, src, srcOffset, srcBaseAddr, p, 8);
}

#define NPURT_ASCENDC_GATHER_L0(MaskParam)                                                                       \
  template <typename T>                                                                                         \
  __aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,                           \
                                const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr, MaskParam,  \
                                const uint8_t repeatTimes, const uint16_t dstRepStride) {                       \
    npurt_detail::GatherImpl(dst, src, srcOffset, srcBaseAddr,                                                  \
                             npurt_detail::PlanFor<T>(true, npurt_detail::MaskOf(mask), repeatTimes, "Gather"), \
                             dstRepStride);                                                                     \
  }
NPURT_ASCENDC_GATHER_L0(const uint64_t mask[])
NPURT_ASCENDC_GATHER_L0(const uint64_t mask)
#undef NPURT_ASCENDC_GATHER_L0

// ---- Gatherb: whole 32-byte blocks --------------------------------------------------------------------
struct GatherRepeatParams {
  __aicore__ GatherRepeatParams() {}
  __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;  // reserved
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;  // reserved
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;  // reserved
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;  // reserved
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;  // reserved
  bool repeatStrideMode = false;  // reserved
  bool strideSizeMode = false;    // reserved
};

// Each repeat gathers 8 blocks: block j of repeat i is the 32 bytes of src at byte offset[i * 8 + j]
// (32-byte aligned), written to dst block i * dstRepStride + j * dstBlkStride (dstBlkStride 0 acts as 1).
// All of a repeat's blocks are read before it writes. uint16_t / uint32_t elements on Atlas A2.
template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
                               const uint8_t repeatTime, const GatherRepeatParams& repeatParams) {
  static_assert(std::is_same<T, uint16_t>::value || std::is_same<T, uint32_t>::value,
                "Gatherb: uint16_t or uint32_t elements on Atlas A2");
  const char* what = "Gatherb";
  if (repeatTime == 0) return;
  if (dst.GetPhyAddr() == src.GetPhyAddr()) npurt_detail::Fail("%s: the source and destination must not be the same", what);
  const uint64_t blk_stride = repeatParams.dstBlkStride == 0 ? 1 : repeatParams.dstBlkStride;
  const uint32_t* off = offset.GetPhyAddr();
  npurt_detail::CheckLocal(off, uint64_t{repeatTime} * 8 * sizeof(uint32_t), what);
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t i = 0; i < repeatTime; ++i) {
    uint8_t blocks[8][32];
    for (uint32_t j = 0; j < 8; ++j) {
      const uint32_t o = off[i * 8 + j];
      if (o % 32 != 0) npurt_detail::Fail("%s: block offset %u is not a multiple of 32 bytes", what, o);
      npurt_detail::CheckLocal(s + o, 32, what);
      std::memcpy(blocks[j], s + o, 32);
    }
    for (uint32_t j = 0; j < 8; ++j) {
      uint8_t* db = d + (uint64_t{i} * repeatParams.dstRepStride + j * blk_stride) * 32;
      npurt_detail::CheckLocal(db, 32, what);
      std::memcpy(db, blocks[j], 32);
    }
  }
}

}  // namespace AscendC
