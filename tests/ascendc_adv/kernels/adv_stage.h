// Staging helpers of the adv test kernels: a global tensor copied element by element into a TBuf of the
// unified buffer, and back. (Included after kernel_operator.h.)
#pragma once

template <typename T>
__aicore__ inline AscendC::LocalTensor<T> AdvStage(AscendC::TPipe& pipe,
                                                   AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                                   AscendC::GlobalTensor<T>& g, GM_ADDR gm, uint32_t n) {
  pipe.InitBuffer(buf, (n * sizeof(T) + 31) / 32 * 32);
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm), n);
  AscendC::LocalTensor<T> t = buf.Get<T>(n);
  for (uint32_t i = 0; i < n; ++i) t.SetValue(i, g.GetValue(i));
  return t;
}

template <typename T>
__aicore__ inline void AdvWriteBack(const AscendC::LocalTensor<T>& t, AscendC::GlobalTensor<T>& g, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) g.SetValue(i, t.GetValue(i));
}
