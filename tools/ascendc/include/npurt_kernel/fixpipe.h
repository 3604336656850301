// Fixpipe for the sim: CO1 (L0C, NZ accumulators) -> GM, L1 or the unified buffer, with NZ-to-ND
// conversion (CFG_ROW_MAJOR, the default) or NZ output (CFG_NZ), relu and the quantisation modes of
// FixpipeParamsV220. Part of kernel_operator.h.
//
//   source element (r, c) of matrix i: src + i * srcNdStride * 1024 bytes + ((c / 16) * srcStride + r) * 16 + c % 16
//     (srcStride: the rows of the NZ matrix, a multiple of 16, >= mSize);
//   ND destination: dst + i * dstNdStride + r * dstStride + c (elements);
//   NZ destination: 16-column blocks (32 for 8-bit outputs, a C0) of mSize rows, block j at j * dstStride * 32
//     bytes, row r of it at r * 16 (32) elements.
// The mSize x nSize values are converted: relu first (reluEn), then quantPre: NoQuant keeps the value (float,
// int32_t), F322F16 / F322BF16 round float to half / bfloat16 to nearest even, DEQF16 (int32 -> half),
// QF322B8_PRE (float -> int8) and REQ8 (int32 -> int8) multiply by the float scale in deqScalar's low 32 bits,
// round to nearest even and saturate; the V* forms take one scale per column from the workspace tensor
// (uint64_t per column, its float in the low 32 bits).
#pragma once

#include "npurt_kernel/cube_copy.h"

// A global name, as CANN's compiler gives it (kernels write QuantMode_t::F322F16 without AscendC::).
enum QuantMode_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

namespace AscendC {
using ::QuantMode_t;

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
  __aicore__ FixpipeParamsV220() = default;
  __aicore__ FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t src_stride, uint32_t dst_stride, bool relu)
      : nSize(n), mSize(m), srcStride(src_stride), dstStride(dst_stride), reluEn(relu) {}
  // Every field but isChannelSplit, in the order the API reference gives (kernels brace-initialise it so:
  // FixpipeParamsV220{n, m, srcStride, dstStride, relu, quantPre, deqScalar, ndNum, srcNdStride, dstNdStride,
  // unitFlag}).
  __aicore__ FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t src_stride, uint32_t dst_stride, bool relu,
                               QuantMode_t quant_pre, int64_t deq_scalar, uint16_t nd_num, uint16_t src_nd_stride,
                               uint16_t dst_nd_stride, uint8_t unit_flag)
      : nSize(n),
        mSize(m),
        srcStride(src_stride),
        dstStride(dst_stride),
        quantPre(quant_pre),
        deqScalar(static_cast<uint64_t>(deq_scalar)),
        ndNum(nd_num),
        srcNdStride(src_nd_stride),
        dstNdStride(dst_nd_stride),
        reluEn(relu),
        unitFlag(unit_flag) {}
};

namespace npurt_detail {

inline float ScaleOf(uint64_t word) {
  const auto bits = static_cast<uint32_t>(word);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The int32 -> half dequantisation (DEQF16 / VDEQF16, and the Matmul's int8 -> half result) multiplies by the
// scale with 10 of its 23 mantissa bits (sign, 8 exponent bits, 10 mantissa bits: the low 13 bits dropped), as
// CANN's quantised-matmul samples model it in their reference.
inline float DeqF16Scale(float scale) {
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof bits);
  bits &= 0xFFFFE000u;
  std::memcpy(&scale, &bits, sizeof bits);
  return scale;
}

template <typename Out>
inline Out SaturateRint(float v) {
  const float r = std::nearbyint(v);
  if (!(r == r)) return Out(0);
  if (r < static_cast<float>(std::numeric_limits<Out>::lowest())) return std::numeric_limits<Out>::lowest();
  if (r > static_cast<float>(std::numeric_limits<Out>::max())) return std::numeric_limits<Out>::max();
  return static_cast<Out>(r);
}

template <typename Out, typename In>
inline Out FixpipeConvert(In v, QuantMode_t mode, float scale) {
  switch (mode) {
    case NoQuant: return static_cast<Out>(v);
    case F322F16:
    case F322BF16:
    case DEQF16:
    case VDEQF16: {
      const float f =
          (mode == DEQF16 || mode == VDEQF16) ? static_cast<float>(v) * DeqF16Scale(scale) : static_cast<float>(v);
      return Out(f);
    }
    default:
      if constexpr (std::is_integral<Out>::value) return SaturateRint<Out>(static_cast<float>(v) * scale);
      return Out(static_cast<float>(v) * scale);
  }
}

template <typename Out, typename In>
inline void CheckQuantTypes(QuantMode_t mode) {
  bool ok = false;
  switch (mode) {
    case NoQuant: ok = std::is_same<Out, In>::value; break;
    case F322F16: ok = std::is_same<In, float>::value && std::is_same<Out, half>::value; break;
    case F322BF16: ok = std::is_same<In, float>::value && std::is_same<Out, bfloat16_t>::value; break;
    case DEQF16:
    case VDEQF16: ok = std::is_same<In, int32_t>::value && std::is_same<Out, half>::value; break;
    case QF322B8_PRE:
    case VQF322B8_PRE:
      ok = std::is_same<In, float>::value && (std::is_same<Out, int8_t>::value || std::is_same<Out, uint8_t>::value);
      break;
    case REQ8:
    case VREQ8:
      ok = std::is_same<In, int32_t>::value && (std::is_same<Out, int8_t>::value || std::is_same<Out, uint8_t>::value);
      break;
  }
  if (!ok) Fail("Fixpipe: quantPre %d does not convert these source and destination types", static_cast<int>(mode));
}

template <typename Out, typename In, CO2Layout layout>
inline void FixpipeRun(Out* dst, bool dst_global, const In* src, const FixpipeParamsV220& p, const uint64_t* scales) {
  static_assert(std::is_same<In, float>::value || std::is_same<In, int32_t>::value,
                "Fixpipe: the CO1 source holds float or int32_t accumulators");
  CheckQuantTypes<Out, In>(p.quantPre);
  constexpr uint32_t kNzCols = sizeof(Out) == 1 ? 32 : 16;  // NZ output: a C0 of 8-bit values, else 16 columns
  const bool vector_scale = p.quantPre == VDEQF16 || p.quantPre == VQF322B8_PRE || p.quantPre == VREQ8;
  if (vector_scale && scales == nullptr) {
    Fail("Fixpipe: quantPre %d needs the per-channel scales (a workspace tensor, or SetFixPipeConfig)", p.quantPre);
  }
  if (p.srcStride < p.mSize) Fail("Fixpipe: srcStride %u is below mSize %u", p.srcStride, p.mSize);
  const float scalar = ScaleOf(p.deqScalar);
  const uint32_t nd = p.ndNum == 0 ? 1 : p.ndNum;
  const uint32_t n1 = (p.nSize + 15u) / 16u;
  for (uint32_t i = 0; i < nd; ++i) {
    const In* s = src + static_cast<size_t>(i) * p.srcNdStride * (1024 / sizeof(In));
    Out* d = dst + static_cast<size_t>(i) * p.dstNdStride;
    CheckCube(s, (static_cast<uint64_t>(n1 - 1) * p.srcStride * 16 + static_cast<uint64_t>(p.mSize) * 16) * sizeof(In),
              LocalMem::kL0C, "Fixpipe (CO1 source)");
    for (uint32_t r = 0; r < p.mSize; ++r) {
      Out* row = nullptr;
      if (layout == CO2Layout::ROW_MAJOR) {
        row = d + static_cast<size_t>(r) * p.dstStride;
        if (dst_global)
          CheckGlobal(row, p.nSize * sizeof(Out), true, "Fixpipe");
        else
          CheckLocal(row, p.nSize * sizeof(Out), "Fixpipe");
      }
      for (uint32_t c = 0; c < p.nSize; ++c) {
        In v = s[((static_cast<size_t>(c) / 16) * p.srcStride + r) * 16 + c % 16];
        if (p.reluEn && v < In(0)) v = In(0);
        const float scale = vector_scale ? ScaleOf(scales[c]) : scalar;
        const Out o = FixpipeConvert<Out, In>(v, p.quantPre, scale);
        if (layout == CO2Layout::ROW_MAJOR) {
          row[c] = o;
        } else {
          Out* at = reinterpret_cast<Out*>(reinterpret_cast<uint8_t*>(d) +
                                           static_cast<size_t>(c / kNzCols) * p.dstStride * 32) +
                    static_cast<size_t>(r) * kNzCols + c % kNzCols;
          if (dst_global)
            CheckGlobal(at, sizeof(Out), true, "Fixpipe");
          else
            CheckLocal(at, sizeof(Out), "Fixpipe");
          *at = o;
        }
      }
    }
  }
}

// The fixpipe's configuration register (SetFixPipeConfig): the per-channel quantisation scales a Fixpipe
// without a workspace tensor takes for VDEQF16 / VQF322B8_PRE / VREQ8, for the block that set it.
struct FixpipeConfigRegister {
  const void* block = nullptr;
  const uint64_t* quant = nullptr;
};
inline thread_local FixpipeConfigRegister g_fpc;

inline const uint64_t* ConfiguredScales() { return g_fpc.block == g_state.block ? g_fpc.quant : nullptr; }

}  // namespace npurt_detail

// Points the fixpipe at its per-channel parameters (uint64_t words, the scale's float in the low 32 bits):
// quantPre for the vector quantisation modes; reluPre (or preData with setRelu) for the vector relu, which
// FixpipeParamsV220 does not select (reluEn is the plain relu), so it has no effect. isUnitFlag clears the
// cube's unit flags, which on the sim only order work that is already in order.
template <typename T>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre,
                                        bool isUnitFlag = false) {
  (void)reluPre, (void)isUnitFlag;
  npurt_detail::g_fpc = {npurt_detail::g_state.block, reinterpret_cast<const uint64_t*>(quantPre.GetPhyAddr())};
}
template <typename T, bool setRelu = false>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
  (void)isUnitFlag;
  if constexpr (!setRelu) {
    npurt_detail::g_fpc = {npurt_detail::g_state.block, reinterpret_cast<const uint64_t*>(preData.GetPhyAddr())};
  }
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
  npurt_detail::FixpipeRun<T, U, config.format>(dst.GetPhyAddr(), true, src.GetPhyAddr(), p,
                                                npurt_detail::ConfiguredScales());
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& p) {
  npurt_detail::FixpipeRun<T, U, config.format>(dst.GetPhyAddr(), true, src.GetPhyAddr(), p,
                                                cbufWorkspace.GetPhyAddr());
}

// CO1 -> L1 (A1/B1/C1) or the unified buffer (VECIN/VECCALC).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
  npurt_detail::FixpipeRun<T, U, config.format>(dst.GetPhyAddr(), false, src.GetPhyAddr(), p,
                                                npurt_detail::ConfiguredScales());
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& p) {
  npurt_detail::FixpipeRun<T, U, config.format>(dst.GetPhyAddr(), false, src.GetPhyAddr(), p,
                                                cbufWorkspace.GetPhyAddr());
}

}  // namespace AscendC
