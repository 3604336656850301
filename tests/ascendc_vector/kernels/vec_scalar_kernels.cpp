// Test kernel of the scalar-unit API (npurt_kernel/scalar.h): one result row per input word.
#include "kernel_operator.h"

// For each of the n words of `in` (as uint64_t, and its low 32 bits as a float), a row of 13 int64 in out:
// GetBitCount<1>, ScalarGetCountOfValue<0>, ScalarCountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue<1>,
// ScalarGetSFFValue<0>, ScalarCast to int32_t (ROUND, FLOOR, CEIL, TRUNC, RINT), the bits of ScalarCast to
// half (CAST_ODD), and the float bits of ToFloat(ToBfloat16(f)).
extern "C" __global__ __aicore__ void vec_scalar_api(GM_ADDR in, GM_ADDR out, uint32_t n) {
  const __gm__ uint64_t* x = reinterpret_cast<const __gm__ uint64_t*>(in);
  __gm__ int64_t* y = reinterpret_cast<__gm__ int64_t*>(out);
  using AscendC::RoundMode;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t v = x[i];
    const uint32_t low = static_cast<uint32_t>(v);
    float f;
    __builtin_memcpy(&f, &low, sizeof f);
    __gm__ int64_t* r = y + uint64_t{i} * 13;
    r[0] = AscendC::GetBitCount<1>(v);
    r[1] = AscendC::ScalarGetCountOfValue<0>(v);
    r[2] = AscendC::ScalarCountLeadingZero(v);
    r[3] = AscendC::CountBitsCntSameAsSignBit(static_cast<int64_t>(v));
    r[4] = AscendC::GetSFFValue<1>(v);
    r[5] = AscendC::ScalarGetSFFValue<0>(v);
    r[6] = AscendC::ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(f);
    r[7] = AscendC::ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(f);
    r[8] = AscendC::ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(f);
    r[9] = AscendC::ScalarCast<float, int32_t, RoundMode::CAST_TRUNC>(f);
    r[10] = AscendC::ScalarCast<float, int32_t, RoundMode::CAST_RINT>(f);
    const half h = AscendC::ScalarCast<float, half, RoundMode::CAST_ODD>(f);
    uint16_t hb;
    __builtin_memcpy(&hb, &h, sizeof hb);
    r[11] = hb;
    const bfloat16_t b = AscendC::ToBfloat16(f);
    const float back = AscendC::ToFloat(b);
    uint32_t bb;
    __builtin_memcpy(&bb, &back, sizeof bb);
    r[12] = bb;
  }
}
