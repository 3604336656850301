// Test kernel of the global PIPE_* / EVENT_ID* names (no `using namespace AscendC`) and of ASSERT / assert.
#include <cassert>  // before kernel_operator.h, as in asc-devkit's 09_log: assert must stay the kernel's
#include "kernel_operator.h"

// data[0] = v: asserts v < limit (ASSERT), v != 12345 (assert) and v != 777 (ascendc_assert with a
// message), then stores v + 1.
extern "C" __global__ __aicore__ void vec_assert(GM_ADDR data, uint32_t limit) {
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::PipeBarrier<AscendC::PIPE_ALL>();
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  const event_t id = static_cast<event_t>(EVENT_ID7);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(id);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(id);
  const pipe_t pipes[] = {PIPE_S, PIPE_MTE2, PIPE_MTE3, PIPE_ALL};
  (void)pipes;
  __gm__ uint32_t* p = reinterpret_cast<__gm__ uint32_t*>(data);
  const uint32_t v = p[0];
  ASSERT(v < limit);
  assert(v != 12345);
  ascendc_assert((v != 777), "v is %u, limit %u\n", v, limit);
  p[0] = v + 1;
}

// gm[0 .. n) = value with InitGlobalMemory (use_fill 0) or Fill (1).
extern "C" __global__ __aicore__ void vec_fill_gm(GM_ADDR gm, uint32_t n, float value, uint32_t use_fill) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm), n);
  if (use_fill != 0) {
    AscendC::Fill(g, n, value);
  } else {
    AscendC::InitGlobalMemory(g, n, value);
  }
}

// Brcb of n_src floats from src into dst (n_dst floats, holding dst's initial contents).
extern "C" __global__ __aicore__ void vec_brcb(GM_ADDR src, GM_ADDR dst, uint32_t n_src, uint32_t n_dst, uint32_t repeat,
                                               uint32_t blk_stride, uint32_t rep_stride) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, (n_src * 4 + 31) / 32 * 32);
  pipe.InitBuffer(bd, (n_dst * 4 + 31) / 32 * 32);
  AscendC::GlobalTensor<float> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), n_src);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), n_dst);
  AscendC::LocalTensor<float> ls = bs.Get<float>(), ld = bd.Get<float>();
  AscendC::DataCopy(ls, gs, n_src);
  AscendC::DataCopy(ld, gd, n_dst);
  AscendC::Brcb(ld, ls, static_cast<uint8_t>(repeat),
                AscendC::BrcbRepeatParams(static_cast<uint16_t>(blk_stride), static_cast<uint16_t>(rep_stride)));
  AscendC::DataCopy(gd, ld, n_dst);
}

// Sort32 of n = 32 * repeat scores (is_half: half scores, else float) with indices, then, when
// merge_lists > 1, MrgSort of the first merge_lists sorted 32-element lists (validBit from the count,
// exhausted suspension when `suspend`) into merged; sorted_num[0..3] receives sortedNum.
template <typename T>
__aicore__ inline void SortCase(GM_ADDR scores, GM_ADDR indices, GM_ADDR sorted, GM_ADDR merged, GM_ADDR sorted_num,
                                uint32_t repeat, uint32_t merge_lists, uint32_t suspend) {
  const uint32_t n = 32 * repeat;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bi, bo, bm;
  pipe.InitBuffer(bs, (n * sizeof(T) + 31) / 32 * 32);
  pipe.InitBuffer(bi, n * 4);
  pipe.InitBuffer(bo, n * 8);
  pipe.InitBuffer(bm, n * 8);
  AscendC::GlobalTensor<T> gs, go, gm;
  AscendC::GlobalTensor<uint32_t> gi;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(scores), n);
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(indices), n);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(sorted), n * 8 / sizeof(T));
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(merged), n * 8 / sizeof(T));
  AscendC::LocalTensor<T> ls = bs.Get<T>(), lo = bo.Get<T>(), lm = bm.Get<T>();
  AscendC::LocalTensor<uint32_t> li = bi.Get<uint32_t>();
  AscendC::DataCopy(ls, gs, n);
  AscendC::DataCopy(li, gi, n);
  AscendC::DataCopy(lo, go, n * 8 / sizeof(T));  // the reserved bytes of half structures keep these
  AscendC::DataCopy(lm, gm, n * 8 / sizeof(T));
  AscendC::Sort32(lo, ls, li, static_cast<int32_t>(repeat));
  AscendC::DataCopy(go, lo, n * 8 / sizeof(T));
  if (merge_lists > 1) {
    const uint32_t per_list = 32 * 8 / sizeof(T);  // elements of T in one sorted 32-structure list
    AscendC::MrgSortSrcList<T> lists(lo[0], lo[per_list], lo[2 * per_list], lo[3 * per_list]);
    const uint16_t counts[4] = {32, 32, 32, 32};
    uint32_t done[4] = {0, 0, 0, 0};
    const uint16_t valid = static_cast<uint16_t>((1u << merge_lists) - 1);
    if (suspend != 0) {
      AscendC::MrgSort<T, true>(lm, lists, counts, done, valid, 1);
    } else {
      AscendC::MrgSort<T, false>(lm, lists, counts, done, valid, 1);
    }
    AscendC::DataCopy(gm, lm, n * 8 / sizeof(T));
    for (int q = 0; q < 4; ++q) reinterpret_cast<__gm__ uint32_t*>(sorted_num)[q] = done[q];
  }
}

extern "C" __global__ __aicore__ void vec_sort(GM_ADDR scores, GM_ADDR indices, GM_ADDR sorted, GM_ADDR merged,
                                               GM_ADDR sorted_num, uint32_t repeat, uint32_t merge_lists,
                                               uint32_t suspend, uint32_t is_half) {
  if (is_half != 0) {
    SortCase<half>(scores, indices, sorted, merged, sorted_num, repeat, merge_lists, suspend);
  } else {
    SortCase<float>(scores, indices, sorted, merged, sorted_num, repeat, merge_lists, suspend);
  }
}

// Leaves the mask register in counter mode with a count of 3: the next block must not see it.
extern "C" __global__ __aicore__ void vec_leave_counter_mode() {
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, 3);
}

// Broadcast of floats: mode 0 = dim 1 ([1] -> [cols]), 1 = dim 2 axis 1 ([rows, 1] -> [rows, cols]),
// 2 = dim 2 axis 0 ([1, cols] -> [rows, cols]). dst holds rows * cols + 8 floats (its initial contents).
extern "C" __global__ __aicore__ void vec_broadcast(GM_ADDR src, GM_ADDR dst, uint32_t mode, uint32_t rows, uint32_t cols) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd, bt;
  const uint32_t n_src = mode == 0 ? 1 : (mode == 1 ? rows : cols), n_dst = rows * cols + 8;
  pipe.InitBuffer(bs, (n_src * 4 + 31) / 32 * 32);
  pipe.InitBuffer(bd, (n_dst * 4 + 31) / 32 * 32);
  pipe.InitBuffer(bt, 1024);
  AscendC::GlobalTensor<float> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), n_src);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), n_dst);
  AscendC::LocalTensor<float> ls = bs.Get<float>(), ld = bd.Get<float>();
  AscendC::LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  AscendC::DataCopy(ls, gs, n_src);
  AscendC::DataCopy(ld, gd, n_dst);
  if (mode == 0) {
    const uint32_t d[1] = {cols}, s[1] = {1};
    AscendC::Broadcast<float, 1, 0>(ld, ls, d, s);
  } else if (mode == 1) {
    const uint32_t d[2] = {rows, cols}, s[2] = {rows, 1};
    AscendC::Broadcast<float, 2, 1>(ld, ls, d, s, tmp);
  } else {
    const uint32_t d[2] = {rows, cols}, s[2] = {1, cols};
    AscendC::BroadCast<float, 2, 0>(ld, ls, d, s);
  }
  AscendC::DataCopy(gd, ld, n_dst);
}

// After SetMaskCount + SetVectorMask(3), a count-form Adds (isSetMask = true) on data[0..64) leaves normal
// mode and the full mask, so a level-0 Adds with isSetMask = false then covers all of data[64..128).
extern "C" __global__ __aicore__ void vec_count_form_resets_mask(GM_ADDR data) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  pipe.InitBuffer(b, 128 * 4);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(data), 128);
  AscendC::LocalTensor<float> l = b.Get<float>();
  AscendC::DataCopy(l, g, 128);
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, 3);
  AscendC::Adds(l, l, 1.0f, 64);
  AscendC::LocalTensor<float> upper = l[64];
  AscendC::Adds<float, false>(upper, upper, 2.0f, AscendC::MASK_PLACEHOLDER, 1, AscendC::UnaryRepeatParams());
  AscendC::DataCopy(g, l, 128);
}

// Static-tensor programming: z = x + y over n floats (n <= 4096) with the UB carved by LocalMemAllocator for
// x and y, and z at a byte address of the UB (LocalTensor(TPosition, address, length)) right after them;
// `z_addr_extra` moves z's address further (past the UB's end: the kernel must fail).
extern "C" __global__ __aicore__ void vec_static_tensor_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n,
                                                            uint32_t z_addr_extra) {
  AscendC::InitSocState();
  AscendC::GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), n);
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<float> xl = ub.Alloc<float, 4096>();
  AscendC::LocalTensor<float> yl = ub.Alloc<float>(4096);
  AscendC::LocalTensor<float> zl(AscendC::TPosition::VECCALC, ub.GetCurAddr() + z_addr_extra, n);
  AscendC::DataCopy(xl, xg, n);
  AscendC::DataCopy(yl, yg, n);
  AscendC::Add(zl, xl, yl, n);
  AscendC::DataCopy(zg, zl, n);
}

// Sort32 of 128 * groups float scores (indices 0..) into lists of 32, then one MrgSort with repeatTimes =
// groups merging each four consecutive lists into `merged` (groups lists of 128 structures).
extern "C" __global__ __aicore__ void vec_mrgsort_repeat(GM_ADDR scores, GM_ADDR merged, uint32_t groups) {
  const uint32_t n = 128 * groups;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bi, bo, bm;
  pipe.InitBuffer(bs, n * 4);
  pipe.InitBuffer(bi, n * 4);
  pipe.InitBuffer(bo, n * 8);
  pipe.InitBuffer(bm, n * 8);
  AscendC::GlobalTensor<float> gs, gm;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scores), n);
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(merged), 2 * n);
  AscendC::LocalTensor<float> ls = bs.Get<float>(), lo = bo.Get<float>(), lm = bm.Get<float>();
  AscendC::LocalTensor<uint32_t> li = bi.Get<uint32_t>();
  AscendC::DataCopy(ls, gs, n);
  for (uint32_t i = 0; i < n; ++i) li.SetValue(i, i);
  AscendC::Sort32(lo, ls, li, static_cast<int32_t>(4 * groups));
  AscendC::MrgSort4Info info;
  for (int q = 0; q < 4; ++q) info.elementLengths[q] = 32;
  info.ifExhaustedSuspension = false;
  info.validBit = 0b1111;
  info.repeatTimes = static_cast<uint16_t>(groups);
  AscendC::MrgSortSrcList<float> lists(lo[0], lo[64], lo[128], lo[192]);  // 32 structures = 64 floats apart
  AscendC::MrgSort<float>(lm, lists, info);
  AscendC::DataCopy(gm, lm, 2 * n);
}
