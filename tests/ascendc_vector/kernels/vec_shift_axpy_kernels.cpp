// Test kernels of ShiftLeft / ShiftRight, Axpy and CreateVecIndex: the count form on n elements, or the
// level-0 form with a continuous mask of `mask` elements per repeat, `repeat` repeats and the given repeat
// strides (block stride 1). dst holds its initial contents, so elements outside the mask must stay.
#include "kernel_operator.h"

namespace {

__aicore__ inline uint32_t Bytes32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T, typename F>
__aicore__ inline void Staged(GM_ADDR src, GM_ADDR dst, uint32_t n_src, uint32_t n_dst, F body) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, Bytes32(n_src * sizeof(T)));
  pipe.InitBuffer(bd, Bytes32(n_dst * sizeof(T)));
  AscendC::GlobalTensor<T> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src), n_src);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), n_dst);
  AscendC::LocalTensor<T> ls = bs.Get<T>(), ld = bd.Get<T>();
  AscendC::DataCopy(ls, gs, n_src);
  AscendC::DataCopy(ld, gd, n_dst);
  body(ld, ls);
  AscendC::DataCopy(gd, ld, n_dst);
}

template <typename T>
__aicore__ inline void Shift(GM_ADDR src, GM_ADDR dst, uint32_t n_src, uint32_t n_dst, uint32_t left, uint32_t shift,
                             uint32_t mask, uint32_t repeat, uint32_t src_rep, uint32_t dst_rep, uint32_t round) {
  Staged<T>(src, dst, n_src, n_dst, [&](AscendC::LocalTensor<T>& d, AscendC::LocalTensor<T>& s) {
    const T sv = static_cast<T>(shift);
    const AscendC::UnaryRepeatParams rp(1, 1, static_cast<uint8_t>(dst_rep), static_cast<uint8_t>(src_rep));
    if (mask == 0) {
      if (left != 0) AscendC::ShiftLeft(d, s, sv, static_cast<int32_t>(n_src));
      else AscendC::ShiftRight(d, s, sv, static_cast<int32_t>(n_src));
    } else if (left != 0) {
      AscendC::ShiftLeft(d, s, sv, static_cast<uint64_t>(mask), static_cast<uint8_t>(repeat), rp);
    } else {
      AscendC::ShiftRight(d, s, sv, static_cast<uint64_t>(mask), static_cast<uint8_t>(repeat), rp, round != 0);
    }
  });
}

}  // namespace

// dtype: 0 int16, 1 uint16, 2 int32, 3 uint32. mask 0: the count form on n_src elements.
extern "C" __global__ __aicore__ void vec_shift(GM_ADDR src, GM_ADDR dst, uint32_t dtype, uint32_t n_src,
                                                uint32_t n_dst, uint32_t left, uint32_t shift, uint32_t mask,
                                                uint32_t repeat, uint32_t src_rep, uint32_t dst_rep, uint32_t round) {
  switch (dtype) {
    case 0: Shift<int16_t>(src, dst, n_src, n_dst, left, shift, mask, repeat, src_rep, dst_rep, round); break;
    case 1: Shift<uint16_t>(src, dst, n_src, n_dst, left, shift, mask, repeat, src_rep, dst_rep, round); break;
    case 2: Shift<int32_t>(src, dst, n_src, n_dst, left, shift, mask, repeat, src_rep, dst_rep, round); break;
    default: Shift<uint32_t>(src, dst, n_src, n_dst, left, shift, mask, repeat, src_rep, dst_rep, round); break;
  }
}

// Axpy on float (is_half 0) or half operands; mask 0: the count form on n_src elements.
extern "C" __global__ __aicore__ void vec_axpy(GM_ADDR src, GM_ADDR dst, uint32_t is_half, uint32_t n_src,
                                               uint32_t n_dst, float scalar, uint32_t mask, uint32_t repeat,
                                               uint32_t src_rep, uint32_t dst_rep) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    Staged<T>(src, dst, n_src, n_dst, [&](AscendC::LocalTensor<T>& d, AscendC::LocalTensor<T>& s) {
      const T sv = static_cast<T>(scalar);
      if (mask == 0) {
        AscendC::Axpy<T, T>(d, s, sv, static_cast<int32_t>(n_src));
      } else {
        const AscendC::UnaryRepeatParams rp(1, 1, static_cast<uint8_t>(dst_rep), static_cast<uint8_t>(src_rep));
        AscendC::Axpy<T, T>(d, s, sv, static_cast<uint64_t>(mask), static_cast<uint8_t>(repeat), rp);
      }
    });
  };
  if (is_half != 0) run(half(0)); else run(0.0f);
}

// Axpy of a half source into a float destination (count form), n elements.
extern "C" __global__ __aicore__ void vec_axpy_mixed(GM_ADDR src, GM_ADDR dst, uint32_t n, float scalar) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, Bytes32(n * 2));
  pipe.InitBuffer(bd, Bytes32(n * 4));
  AscendC::GlobalTensor<half> gs;
  AscendC::GlobalTensor<float> gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(src), n);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), n);
  AscendC::LocalTensor<half> ls = bs.Get<half>();
  AscendC::LocalTensor<float> ld = bd.Get<float>();
  AscendC::DataCopy(ls, gs, n);
  AscendC::DataCopy(ld, gd, n);
  AscendC::Axpy<float, half>(ld, ls, static_cast<half>(scalar), static_cast<int32_t>(n));
  AscendC::DataCopy(gd, ld, n);
}

// CreateVecIndex of n int32 (is_float 0) or float elements from `first` into dst (n_dst elements).
extern "C" __global__ __aicore__ void vec_create_index(GM_ADDR dst, uint32_t is_float, uint32_t n, uint32_t n_dst,
                                                       int32_t first) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    Staged<T>(dst, dst, n_dst, n_dst, [&](AscendC::LocalTensor<T>& d, AscendC::LocalTensor<T>&) {
      AscendC::CreateVecIndex(d, static_cast<T>(first), n);
    });
  };
  if (is_float != 0) run(0.0f); else run(int32_t(0));
}
