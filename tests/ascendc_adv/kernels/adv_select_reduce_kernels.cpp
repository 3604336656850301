// Test kernels of Sum and Select with a bytes mask (npurt_kernel/adv_select_reduce.h), and of TBuf's
// AllocTensor / FreeTensor: operands staged through the unified buffer, one call, dst written back.
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;

template <typename T>
__aicore__ inline LocalTensor<T> StageS(AscendC::TPipe& pipe, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                        AscendC::GlobalTensor<T>& g, GM_ADDR gm, uint32_t n) {
  pipe.InitBuffer(buf, (n * sizeof(T) + 31) / 32 * 32);
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm), n);
  LocalTensor<T> t = buf.AllocTensor<T>();
  // Byte by byte: a bool mask holds any byte value (the library reads it as a byte), which a bool load
  // must not see.
  const __gm__ uint8_t* from = reinterpret_cast<const __gm__ uint8_t*>(gm);
  auto* to = reinterpret_cast<uint8_t*>(t.GetPhyAddr());
  for (uint32_t i = 0; i < n * sizeof(T); ++i) to[i] = from[i];
  return t;
}

template <typename T>
__aicore__ inline void SumCase(GM_ADDR src, GM_ADDR dst, uint32_t outter, uint32_t inner, uint32_t n,
                               uint32_t with_tmp) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd, bt;
  AscendC::GlobalTensor<T> gs, gd;
  LocalTensor<T> s = StageS(pipe, bs, gs, src, outter * inner);
  LocalTensor<T> d = StageS(pipe, bd, gd, dst, outter + 16);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.AllocTensor<uint8_t>();
  AscendC::SumParams p;
  p.outter = outter;
  p.inner = inner;
  p.n = n;
  if (with_tmp != 0) {
    AscendC::Sum(d, s, tmp, p);
  } else {
    AscendC::Sum<T>(d, s, p);
  }
  bt.FreeTensor(tmp);
  for (uint32_t i = 0; i < outter + 16; ++i) gd.SetValue(i, d.GetValue(i));
}

template <typename T, typename U>
__aicore__ inline void SelectCase(GM_ADDR src, GM_ADDR mask, GM_ADDR dst, uint32_t rows, uint32_t cols,
                                  uint32_t mcols, float scalar, uint32_t scalar_first, uint32_t new_name) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bm, bd, bt;
  AscendC::GlobalTensor<T> gs, gd;
  AscendC::GlobalTensor<U> gm;
  LocalTensor<T> s = StageS(pipe, bs, gs, src, rows * cols);
  LocalTensor<U> m = StageS(pipe, bm, gm, mask, rows * mcols);
  LocalTensor<T> d = StageS(pipe, bd, gd, dst, rows * cols);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = rows;
  info.srcLastAxis = cols;
  info.maskLastAxis = mcols;
  const T v = static_cast<T>(scalar);
  if (scalar_first != 0) {
    if (new_name != 0) AscendC::Select(d, v, s, m, tmp, info); else AscendC::SelectWithBytesMask(d, v, s, m, tmp, info);
  } else {
    if (new_name != 0) AscendC::Select(d, s, v, m, tmp, info); else AscendC::SelectWithBytesMask(d, s, v, m, tmp, info);
  }
  for (uint32_t i = 0; i < rows * cols; ++i) gd.SetValue(i, d.GetValue(i));
}

}  // namespace

// Sum of outter rows (inner elements each, the first n summed) into dst (outter + 16 elements kept past).
extern "C" __global__ __aicore__ void adv_sum(GM_ADDR src, GM_ADDR dst, uint32_t outter, uint32_t inner, uint32_t n,
                                              uint32_t is_half, uint32_t with_tmp) {
  if (is_half != 0) {
    SumCase<half>(src, dst, outter, inner, n, with_tmp);
  } else {
    SumCase<float>(src, dst, outter, inner, n, with_tmp);
  }
}

// mask_type 0 bool (uint8_t storage on the host), 1 half, 2 int16_t; is_half: half sources, else float.
extern "C" __global__ __aicore__ void adv_select(GM_ADDR src, GM_ADDR mask, GM_ADDR dst, uint32_t rows, uint32_t cols,
                                                 uint32_t mcols, uint32_t is_half, uint32_t mask_type, float scalar,
                                                 uint32_t scalar_first, uint32_t new_name) {
#define ADV_SELECT_MASKS(T)                                                                        \
  if (mask_type == 0) {                                                                            \
    SelectCase<T, bool>(src, mask, dst, rows, cols, mcols, scalar, scalar_first, new_name);        \
  } else if (mask_type == 1) {                                                                     \
    SelectCase<T, half>(src, mask, dst, rows, cols, mcols, scalar, scalar_first, new_name);        \
  } else {                                                                                         \
    SelectCase<T, int16_t>(src, mask, dst, rows, cols, mcols, scalar, scalar_first, new_name);     \
  }
  if (is_half != 0) {
    ADV_SELECT_MASKS(half)
  } else {
    ADV_SELECT_MASKS(float)
  }
#undef ADV_SELECT_MASKS
}

// Event IDs from the pipe (GetTPipePtr() without a namespace, FetchEventID, AllocEventID / ReleaseEventID)
// around a copy: dst = src + 1 (n floats).
extern "C" __global__ __aicore__ void adv_event_ids(GM_ADDR src, GM_ADDR dst, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  AscendC::GlobalTensor<float> gs, gd;
  LocalTensor<float> t = StageS(pipe, b, gs, src, n);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), n);
  AscendC::TEventID id = GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_V);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
  AscendC::Adds(t, t, 1.0f, static_cast<int32_t>(n));
  const AscendC::TEventID vm = GetTPipePtr()->AllocEventID<AscendC::HardEvent::V_MTE3>();
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(vm);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(vm);
  GetTPipePtr()->ReleaseEventID<AscendC::HardEvent::V_MTE3>(vm);
  id = GetTPipePtr()->FetchEventID<AscendC::HardEvent::MTE3_MTE2>();
  (void)id;
  for (uint32_t i = 0; i < n; ++i) gd.SetValue(i, t.GetValue(i));
}

// DropOut of rows x cols (half when is_half, else float) with a rows x mcols uint8_t mask.
template <typename T>
__aicore__ inline void DropOutCase(GM_ADDR src, GM_ADDR mask, GM_ADDR dst, uint32_t rows, uint32_t cols,
                                   uint32_t mcols, float keep_prob, uint32_t with_tmp) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bm, bd, bt;
  AscendC::GlobalTensor<T> gs, gd;
  AscendC::GlobalTensor<uint8_t> gm;
  LocalTensor<T> s = StageS(pipe, bs, gs, src, rows * cols);
  LocalTensor<uint8_t> m = StageS(pipe, bm, gm, mask, rows * mcols);
  LocalTensor<T> d = StageS(pipe, bd, gd, dst, rows * cols);
  pipe.InitBuffer(bt, 1024);
  AscendC::DropOutShapeInfo info;
  info.firstAxis = rows;
  info.srcLastAxis = cols;
  info.maskLastAxis = mcols;
  if (with_tmp != 0) {
    AscendC::DropOut(d, s, m, bt.Get<uint8_t>(), keep_prob, info);
  } else {
    AscendC::DropOut<T>(d, s, m, keep_prob, info);
  }
  for (uint32_t i = 0; i < rows * cols; ++i) gd.SetValue(i, d.GetValue(i));
}

extern "C" __global__ __aicore__ void adv_dropout(GM_ADDR src, GM_ADDR mask, GM_ADDR dst, uint32_t rows, uint32_t cols,
                                                  uint32_t mcols, float keep_prob, uint32_t is_half, uint32_t with_tmp) {
  if (is_half != 0) {
    DropOutCase<half>(src, mask, dst, rows, cols, mcols, keep_prob, with_tmp);
  } else {
    DropOutCase<float>(src, mask, dst, rows, cols, mcols, keep_prob, with_tmp);
  }
}
