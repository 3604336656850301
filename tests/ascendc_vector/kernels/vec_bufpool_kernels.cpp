// Test kernel of TBufPool: two pools sharing one piece of the unified buffer (the second stage's
// buffers reuse the first's bytes), an inner pool carved from an outer one, and a custom pool
// (EXTERN_IMPL_BUFPOOL) placing a queue's buffers itself. Each stage computes out = a + b on n floats.
#include "kernel_operator.h"

namespace {

class TestCustomPool {
 public:
  __aicore__ inline TestCustomPool() { Init(); }
  // The queue's buffers in reverse order from the pool's current address (custom placement).
  template <class Q>
  __aicore__ inline bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
    len = (len + 31) / 32 * 32;
    auto handle = GetBufHandle(GetCurBufSize());
    const uint32_t at = GetCurAddr();
    que.InitStartBufHandle(handle, num, len);
    for (uint32_t i = 0; i < num; ++i) que.InitBufHandle(this, i, handle, at + (num - 1 - i) * len, len);
    SetCurAddr(at + num * len);
    SetCurBufSize(GetCurBufSize() + num);
    return true;
  }
  EXTERN_IMPL_BUFPOOL(TestCustomPool, AscendC::TPosition::VECCALC, 8);
};

using InQ = AscendC::TQue<AscendC::TPosition::VECIN, 2>;
using OutQ = AscendC::TQue<AscendC::TPosition::VECOUT, 1>;

__aicore__ inline void AddStage(InQ& qa, InQ& qb, OutQ& qo, GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n) {
  AscendC::GlobalTensor<float> ga, gb, go;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), n);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), n);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), n);
  AscendC::LocalTensor<float> la = qa.AllocTensor<float>(), lb = qb.AllocTensor<float>();
  AscendC::DataCopy(la, ga, n);
  AscendC::DataCopy(lb, gb, n);
  qa.EnQue(la);
  qb.EnQue(lb);
  la = qa.DeQue<float>();
  lb = qb.DeQue<float>();
  AscendC::LocalTensor<float> lo = qo.AllocTensor<float>();
  AscendC::Add(lo, la, lb, static_cast<int32_t>(n));
  qo.EnQue(lo);
  qa.FreeTensor(la);
  qb.FreeTensor(lb);
  lo = qo.DeQue<float>();
  AscendC::DataCopy(go, lo, n);
  qo.FreeTensor(lo);
}

}  // namespace

// mode 0: pools 1 and 2 share 3 buffers' bytes, stage 1 in pool 1 (out0), stage 2 in pool 2 (out1);
// addrs[0..1] = the first input buffer's UB offset in each stage (equal: reused).
// mode 1: outer pool of 4 buffers; inner pool (2 buffers) carved first, then a TBuf in the outer one,
// stage 1 in the inner pool; addrs[0] = inner pool's first buffer, addrs[1] = the TBuf, as UB offsets.
// mode 2: a custom pool; stage 1 with a 2-buffer input queue placed in reverse; addrs[0..1] = the input
// queue's first two allocations.
extern "C" __global__ __aicore__ void vec_bufpool(GM_ADDR a, GM_ADDR b, GM_ADDR out0, GM_ADDR out1, GM_ADDR addrs,
                                                  uint32_t n, uint32_t mode) {
  AscendC::TPipe pipe;
  const uint32_t bytes = (n * 4 + 31) / 32 * 32;
  InQ qa, qb, qa2, qb2;
  OutQ qo, qo2;
  __gm__ int64_t* ad = reinterpret_cast<__gm__ int64_t*>(addrs);
  auto ub = [](const AscendC::LocalTensor<float>& t) {
    return static_cast<int64_t>(reinterpret_cast<uint8_t*>(t.GetPhyAddr()) -
                                static_cast<uint8_t*>(AscendC::npurt_detail::Block()->ub_base));
  };
  if (mode == 0) {
    AscendC::TBufPool<AscendC::TPosition::VECCALC> p1, p2;
    pipe.InitBufPool(p1, bytes * 3);
    pipe.InitBufPool(p2, bytes * 3, p1);
    p1.InitBuffer(qa, 1, bytes);
    p1.InitBuffer(qb, 1, bytes);
    p1.InitBuffer(qo, 1, bytes);
    AscendC::LocalTensor<float> t = qa.AllocTensor<float>();
    ad[0] = ub(t);
    qa.FreeTensor(t);
    AddStage(qa, qb, qo, a, b, out0, n);
    p1.Reset();
    p2.InitBuffer(qa2, 1, bytes);
    p2.InitBuffer(qb2, 1, bytes);
    p2.InitBuffer(qo2, 1, bytes);
    t = qa2.AllocTensor<float>();
    ad[1] = ub(t);
    qa2.FreeTensor(t);
    AddStage(qa2, qb2, qo2, b, a, out1, n);
    p2.Reset();
  } else if (mode == 1) {
    AscendC::TBufPool<AscendC::TPosition::VECCALC, 4> outer;
    AscendC::TBufPool<AscendC::TPosition::VECCALC, 4> inner;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tb;
    pipe.InitBufPool(outer, bytes * 5);
    outer.InitBufPool(inner, bytes * 3);
    outer.InitBuffer(tb, bytes * 2);
    inner.InitBuffer(qa, 1, bytes);
    inner.InitBuffer(qb, 1, bytes);
    inner.InitBuffer(qo, 1, bytes);
    AscendC::LocalTensor<float> t = qa.AllocTensor<float>();
    ad[0] = ub(t);
    qa.FreeTensor(t);
    ad[1] = ub(tb.Get<float>());
    AddStage(qa, qb, qo, a, b, out0, n);
  } else {
    TestCustomPool pool;
    pipe.InitBufPool(pool, bytes * 4);
    pool.InitBuffer(qa, 2, bytes);
    pool.InitBuffer(qb, 1, bytes);
    pool.InitBuffer(qo, 1, bytes);
    AscendC::LocalTensor<float> t0 = qa.AllocTensor<float>(), t1 = qa.AllocTensor<float>();
    ad[0] = ub(t0);
    ad[1] = ub(t1);
    qa.FreeTensor(t0);
    qa.FreeTensor(t1);
    AddStage(qa, qb, qo, a, b, out0, n);
    pool.Reset();
  }
}

// An InitBuffer past the pool's bytes fails the kernel.
extern "C" __global__ __aicore__ void vec_bufpool_overflow(uint32_t pool_bytes, uint32_t ask) {
  AscendC::TPipe pipe;
  AscendC::TBufPool<AscendC::TPosition::VECCALC> p;
  AscendC::TBuf<AscendC::TPosition::VECCALC> t;
  pipe.InitBufPool(p, pool_bytes);
  p.InitBuffer(t, ask);
}
