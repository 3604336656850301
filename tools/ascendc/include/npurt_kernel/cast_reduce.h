// Ascend C Cast (with the RoundMode of the vector unit) and the count-form reductions ReduceSum /
// ReduceMax / ReduceMin for the sim. Part of kernel_operator.h.
//
// Cast: float to half/bfloat16 rounds as asked (RINT/NONE nearest-even, FLOOR, CEIL, TRUNC, ROUND = ties
// away from zero, ODD = round to odd); float to integer rounds as asked and saturates (NaN -> 0);
// widening conversions are exact. Reductions accumulate in float over 64 lanes combined pairwise (the
// shape of the vector unit's tree), so results can differ from a sequential sum in the last bits.
#pragma once

#include "npurt_kernel/vector_ops.h"

namespace AscendC {
namespace npurt_detail {

// IEEE bit-level helpers for the 16-bit float types.
template <typename N>
struct Narrow;
template <>
struct Narrow<half> {
  static uint16_t Bits(half h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  static half FromBits(uint16_t b) {
    half h;
    std::memcpy(&h, &b, 2);
    return h;
  }
  static half Nearest(float f) { return static_cast<half>(f); }
  static uint16_t MantissaLsb() { return 1; }
};
template <>
struct Narrow<bfloat16_t> {
  static uint16_t Bits(bfloat16_t h) { return h.bits; }
  static bfloat16_t FromBits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
  static bfloat16_t Nearest(float f) { return bfloat16_t(f); }
  static uint16_t MantissaLsb() { return 1; }
};

// The next representable value above / below (sign-magnitude bit patterns).
inline uint16_t NextUp(uint16_t b) {
  if ((b & 0x7fffu) == 0) return 0x0001u;    // +-0 -> smallest positive subnormal
  return (b & 0x8000u) ? static_cast<uint16_t>(b - 1) : static_cast<uint16_t>(b + 1);
}
inline uint16_t NextDown(uint16_t b) {
  if ((b & 0x7fffu) == 0) return 0x8001u;
  return (b & 0x8000u) ? static_cast<uint16_t>(b + 1) : static_cast<uint16_t>(b - 1);
}

template <typename N>
inline N RoundNarrow(float f, RoundMode mode) {
  using Tr = Narrow<N>;
  const N nearest = Tr::Nearest(f);
  if (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT || std::isnan(f)) return nearest;
  const float back = static_cast<float>(nearest);
  if (back == f || std::isinf(f)) return nearest;  // exact
  uint16_t lo_bits, hi_bits;
  if (back < f) {
    lo_bits = Tr::Bits(nearest);
    hi_bits = NextUp(lo_bits);
  } else {
    hi_bits = Tr::Bits(nearest);
    lo_bits = NextDown(hi_bits);
  }
  const N lo = Tr::FromBits(lo_bits);
  const N hi = Tr::FromBits(hi_bits);
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return f > 0 ? lo : hi;
    case RoundMode::CAST_ROUND: {
      // Nearest, ties away from zero; past the largest finite value it overflows like nearest-even.
      if (std::isinf(static_cast<float>(lo)) || std::isinf(static_cast<float>(hi))) return nearest;
      const double dl = static_cast<double>(f) - static_cast<double>(static_cast<float>(lo));
      const double dh = static_cast<double>(static_cast<float>(hi)) - static_cast<double>(f);
      if (dl < dh) return lo;
      if (dh < dl) return hi;
      return f > 0 ? hi : lo;  // tie: away from zero
    }
    case RoundMode::CAST_ODD:
      return (lo_bits & Tr::MantissaLsb()) ? lo : hi;
    default:
      return nearest;
  }
}

inline double RoundToIntegral(double v, RoundMode mode) {
  switch (mode) {
    case RoundMode::CAST_FLOOR: return std::floor(v);
    case RoundMode::CAST_CEIL: return std::ceil(v);
    case RoundMode::CAST_TRUNC: return std::trunc(v);
    case RoundMode::CAST_ROUND: return std::round(v);
    default: return std::nearbyint(v);  // NONE / RINT / ODD: nearest, ties to even
  }
}

template <typename D, typename S>
inline D CastOne(S v, RoundMode mode) {
  if constexpr (std::is_same<D, S>::value) {
    return v;
  } else if constexpr (kIsNarrowFloat<D>) {
    return RoundNarrow<D>(static_cast<float>(v), mode);
  } else if constexpr (std::is_floating_point<D>::value) {
    return static_cast<D>(static_cast<double>(static_cast<float>(v)));
  } else if constexpr (std::is_floating_point<S>::value || kIsNarrowFloat<S>) {
    const double f = static_cast<double>(static_cast<float>(v));
    if (std::isnan(f)) return D(0);
    const double r = RoundToIntegral(f, mode);
    if (r <= static_cast<double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (r >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  } else {
    return static_cast<D>(v);  // integer to integer: two's-complement conversion
  }
}

}  // namespace npurt_detail

namespace npurt_detail {
// Cast to and from int4b_t (Atlas A2: half -> int4b_t in any round mode, saturating to -8..7;
// int4b_t -> half exactly). Element i of an int4 operand is nibble i (int4b.h).
template <typename D, typename S>
constexpr void CheckInt4Cast() {
  static_assert((kIsInt4<D> && std::is_same<S, half>::value) || (std::is_same<D, half>::value && kIsInt4<S>),
                "Cast: int4b_t converts from and to half only on Atlas A2");
}
template <typename D, typename S>
inline void CastInt4Elem(void* d, uint64_t di, const void* s, uint64_t si, RoundMode mode) {
  if constexpr (kIsInt4<D>) {
    const double f = static_cast<double>(static_cast<float>(static_cast<const S*>(s)[si]));
    double r = std::isnan(f) ? 0.0 : RoundToIntegral(f, mode);
    r = r < -8.0 ? -8.0 : (r > 7.0 ? 7.0 : r);
    PutInt4(d, di, static_cast<int>(r));
  } else {
    static_cast<D*>(d)[di] = static_cast<D>(static_cast<float>(GetInt4(s, si)));
  }
}
}  // namespace npurt_detail

template <typename D, typename S>
__aicore__ inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode,
                            const uint32_t count) {
  if constexpr (npurt_detail::kIsInt4<D> || npurt_detail::kIsInt4<S>) {
    npurt_detail::CheckInt4Cast<D, S>();
    npurt_detail::CheckLocal(dst.GetPhyAddr(), (uint64_t{count} * npurt_detail::kElemBits<D> + 7) / 8, "Cast");
    npurt_detail::CheckLocal(src.GetPhyAddr(), (uint64_t{count} * npurt_detail::kElemBits<S> + 7) / 8, "Cast");
    for (uint32_t i = 0; i < count; ++i) npurt_detail::CastInt4Elem<D, S>(dst.GetPhyAddr(), i, src.GetPhyAddr(), i, mode);
  } else {
    const int32_t n = static_cast<int32_t>(count);
    npurt_detail::CheckOperand(dst, n, "Cast");
    npurt_detail::CheckOperand(src, n, "Cast");
    D* d = dst.GetPhyAddr();
    const S* s = src.GetPhyAddr();
    if constexpr (std::is_same<D, float>::value && std::is_same<S, half>::value) {
      npurt_detail::HalfToFloat(d, s, count);
    } else if constexpr (std::is_same<D, half>::value && std::is_same<S, float>::value) {
      if (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) {
        npurt_detail::FloatToHalf(d, s, count);
        return;
      }
      for (uint32_t i = 0; i < count; ++i) d[i] = npurt_detail::CastOne<D>(s[i], mode);
    } else {
      for (uint32_t i = 0; i < count; ++i) d[i] = npurt_detail::CastOne<D>(s[i], mode);
    }
  }
}

namespace npurt_detail {

constexpr uint32_t kReduceLanes = 64;

template <typename T>
inline float SumToFloat(const T* s, uint32_t n) {
  float lanes[kReduceLanes] = {};
  float buf[kFloatChunk];
  for (uint32_t i = 0; i < n; i += kFloatChunk) {
    const uint32_t m = n - i < kFloatChunk ? n - i : kFloatChunk;
    ToFloat(buf, s + i, m);
    for (uint32_t j = 0; j < m; ++j) lanes[(i + j) % kReduceLanes] += buf[j];
  }
  for (uint32_t width = kReduceLanes / 2; width > 0; width /= 2) {
    for (uint32_t j = 0; j < width; ++j) lanes[j] += lanes[j + width];
  }
  return lanes[0];
}

// Stores an element index into a T slot, bit for bit (as the hardware does for calIndex).
template <typename T>
inline void StoreIndex(T* slot, uint32_t index) {
  if constexpr (sizeof(T) == 2) {
    const uint16_t v = static_cast<uint16_t>(index);
    std::memcpy(slot, &v, 2);
  } else if constexpr (sizeof(T) == 4) {
    std::memcpy(slot, &index, 4);
  } else {
    *slot = static_cast<T>(index);
  }
}

template <typename T, typename Better>
inline void ReduceExtreme(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, bool cal_index,
                          Better better, const char* what) {
  CheckOperand(src, count, what);
  CheckOperand(dst, cal_index ? 2 : 1, what);
  if (count <= 0) Fail("%s: element count must be positive (got %d)", what, count);
  const T* s = src.GetPhyAddr();
  uint32_t best = 0;
  for (uint32_t i = 1; i < static_cast<uint32_t>(count); ++i) {
    if (better(static_cast<ComputeType<T>>(s[i]), static_cast<ComputeType<T>>(s[best]))) best = i;
  }
  T* d = dst.GetPhyAddr();
  d[0] = s[best];
  if (cal_index) StoreIndex(d + 1, best);
}

}  // namespace npurt_detail

// dst[0] = sum of src[0 .. count). workLocal is scratch space on the hardware; unused here.
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
                                 const int32_t count) {
  npurt_detail::CheckOperand(src, count, "ReduceSum");
  npurt_detail::CheckOperand(dst, 1, "ReduceSum");
  const float sum = npurt_detail::SumToFloat(src.GetPhyAddr(), static_cast<uint32_t>(count));
  const T result = T(sum);
  dst.GetPhyAddr()[0] = result;
  // The vector unit also leaves the sum in a special register (GetReduceRepeatSumSpr).
  uint64_t bits = 0;
  std::memcpy(&bits, &result, sizeof(T));
  npurt_detail::g_state.reduce_sum_spr = bits;
}

// The sum of the last count-form ReduceSum of this block (the special register it leaves it in), as T;
// 0 before any.
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr() {
  static_assert(sizeof(T) <= 8, "GetReduceRepeatSumSpr: a scalar element type");
  T v;
  std::memcpy(&v, &npurt_detail::g_state.reduce_sum_spr, sizeof(T));
  return v;
}

// dst[0] = max of src[0 .. count); with calIndex, dst[1] holds the index of its first occurrence.
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
                                 const int32_t count, bool calIndex = false) {
  npurt_detail::ReduceExtreme(dst, src, count, calIndex, [](auto a, auto b) { return a > b; }, "ReduceMax");
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
                                 const int32_t count, bool calIndex = false) {
  npurt_detail::ReduceExtreme(dst, src, count, calIndex, [](auto a, auto b) { return a < b; }, "ReduceMin");
}

}  // namespace AscendC
