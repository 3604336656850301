// Kernels of the basic cube API tests: GM -> A1/B1 (DataCopy with Nd2NzParams), L1 -> L0A/L0B (LoadData),
// Mmad (with and without bias, accumulating), Fixpipe CO1 -> GM with NZ-to-ND conversion, relu and
// quantisation, as CANN's cube samples write them.
#include "kernel_operator.h"
#include "cube_basic_kernels.h"

using namespace AscendC;

namespace {

constexpr uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Bytes of `elems` elements of T (int4b_t: two a byte).
template <typename T>
constexpr uint32_t Bytes(uint32_t elems) {
  return IsSameType<T, int4b_t>::value ? elems / 2 : elems * static_cast<uint32_t>(sizeof(T));
}

// BiasT: the bias in global memory and L1; BtT: in the bias table (float from a half bias: DataCopy C1 -> C2
// converts on the way, its blockLen counting 64-byte units of the source).
template <typename In, typename Acc, typename Out, typename BiasT, typename BtT = BiasT>
__aicore__ inline void CubeMm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const CubeMmArgs& p, QuantMode_t quant) {
  constexpr bool kS4 = IsSameType<In, int4b_t>::value;
  constexpr uint32_t c0 = kS4 ? 64 : 32 / sizeof(In);  // elements in a 32-byte fractal row
  const uint32_t mA = Align(p.m, 16), nA = Align(p.n, 16), k16 = Align(p.k, 16), kC0 = Align(p.k, c0);
  const uint32_t kd = kS4 ? p.k / 2 : p.k;  // a row of A or B^T for Nd2Nz, which counts int4b_t rows in bytes
  const uint32_t m1 = mA / 16, n1 = nA / 16, k1 = kC0 / c0;
  GlobalTensor<In> aGm, bGm;
  GlobalTensor<BiasT> biasGm;
  GlobalTensor<Out> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(a), p.m * p.k);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(b), p.k * p.n);
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT*>(bias), p.n);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(c), p.m * p.n);

  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  TQue<TPosition::C1, 1> qBiasL1;
  TQue<TPosition::C2, 1> qBiasBt;
  pipe.InitBuffer(qA1, 1, Bytes<In>(mA * kC0));
  pipe.InitBuffer(qB1, 1, Bytes<In>(p.transB ? nA * kC0 : k16 * nA));
  pipe.InitBuffer(qA2, 1, Bytes<In>(mA * kC0));
  pipe.InitBuffer(qB2, 1, Bytes<In>(nA * kC0 > k16 * nA ? nA * kC0 : k16 * nA));
  pipe.InitBuffer(qCO1, 1, mA * nA * sizeof(Acc));
  pipe.InitBuffer(qBiasL1, 1, nA * sizeof(BiasT));
  pipe.InitBuffer(qBiasBt, 1, nA * sizeof(BtT));

  // A: m x k ND -> NZ (columns of c0, mA rows each).
  LocalTensor<In> a1 = qA1.AllocTensor<In>();
  DataCopy(a1, aGm, Nd2NzParams(1, p.m, kd, 0, kd, mA, 1, 0));
  qA1.EnQue(a1);
  LocalTensor<In> b1 = qB1.AllocTensor<In>();
  if (p.transB) {
    DataCopy(b1, bGm, Nd2NzParams(1, p.n, kd, 0, kd, nA, 1, 0));  // B^T: n x k
  } else {
    DataCopy(b1, bGm, Nd2NzParams(1, p.k, p.n, 0, p.n, k16, 1, 0));  // B: k x n (16-bit types)
  }
  qB1.EnQue(b1);

  // A1 -> A2: per 16-row block, its k1 fractals (one per column block, m1 fractals apart).
  a1 = qA1.DeQue<In>();
  LocalTensor<In> a2 = qA2.AllocTensor<In>();
  for (uint32_t i = 0; i < m1; ++i) {
    LoadData(a2[i * 16 * kC0], a1[i * 16 * c0],
             LoadData2DParams(0, static_cast<uint8_t>(k1), static_cast<uint16_t>(m1), 0, 0, false, 0));
  }
  qA2.EnQue(a2);
  qA1.FreeTensor(a1);
  b1 = qB1.DeQue<In>();
  LocalTensor<In> b2 = qB2.AllocTensor<In>();
  if (p.transB) {
    // The NZ of B^T is already B's L0B layout: fractal (j, l) at j * n1 + l, columns of B stored together.
    for (uint32_t j = 0; j < k1; ++j) {
      LoadData(b2[j * n1 * 16 * c0], b1[j * n1 * 16 * c0],
               LoadData2DParams(0, static_cast<uint8_t>(n1), 1, 0, 0, false, 0));
    }
  } else {
    // Per 16-row block of K: its n1 fractals, k16/16 apart, each transposed.
    for (uint32_t j = 0; j < k16 / 16; ++j) {
      LoadData(b2[j * n1 * 256], b1[j * 256],
               LoadData2DParams(0, static_cast<uint8_t>(n1), static_cast<uint16_t>(k16 / 16), 0, 0, true, 0));
    }
  }
  qB2.EnQue(b2);
  qB1.FreeTensor(b1);

  a2 = qA2.DeQue<In>();
  b2 = qB2.DeQue<In>();
  LocalTensor<Acc> co1 = qCO1.AllocTensor<Acc>();
  MmadParams mp;
  mp.m = static_cast<uint16_t>(p.m);
  mp.n = static_cast<uint16_t>(p.n);
  mp.k = static_cast<uint16_t>(p.k);
  if (p.bias) {
    LocalTensor<BiasT> biasL1 = qBiasL1.AllocTensor<BiasT>();
    DataCopy(biasL1, biasGm, Align(p.n, 32 / sizeof(BiasT)));
    LocalTensor<BtT> bt = qBiasBt.AllocTensor<BtT>();
    if constexpr (std::is_same<BtT, BiasT>::value) {
      DataCopy(bt, biasL1, Align(p.n, 32 / sizeof(BiasT)));
    } else {
      DataCopy(bt, biasL1, {1, static_cast<uint16_t>(Align(nA * sizeof(BiasT), 64) / 64), 0, 0});
    }
    Mmad(co1, a2, b2, bt, mp);
    qBiasBt.FreeTensor(bt);
    qBiasL1.FreeTensor(biasL1);
  } else {
    Mmad(co1, a2, b2, mp);
  }
  if (p.twice) {
    mp.cmatrixInitVal = false;
    Mmad(co1, a2, b2, mp);
  }
  qCO1.EnQue(co1);
  qA2.FreeTensor(a2);
  qB2.FreeTensor(b2);

  co1 = qCO1.DeQue<Acc>();
  if (p.co2) {
    TQue<TPosition::CO2, 1> qCO2;
    pipe.InitBuffer(qCO2, 1, mA * nA * sizeof(Out));
    LocalTensor<Out> co2 = qCO2.AllocTensor<Out>();
    DataCopyEnhancedParams enhanced;
    enhanced.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    enhanced.isRelu = p.relu != 0;
    DataCopy(co2, co1, DataCopyParams(1, static_cast<uint16_t>(m1 * n1), 0, 0), enhanced);
    qCO1.FreeTensor(co1);
    // NZ -> ND: column block l holds mA rows of 16 values.
    for (uint32_t l = 0; l < n1; ++l) {
      DataCopy(cGm[l * 16], co2[l * mA * 16],
               DataCopyParams(static_cast<uint16_t>(p.m), 16 * sizeof(Out) / 32, 0,
                              static_cast<uint16_t>((p.n - 16) * sizeof(Out) / 32)));
    }
    qCO2.FreeTensor(co2);
    return;
  }
  if (quant == QuantMode_t::VDEQF16) {
    // Per-channel scales (uint64_t words, passed where the bias goes): GM -> L1 -> the fixpipe buffer, which
    // SetFixPipeConfig points the fixpipe at (the Fixpipe below has no workspace tensor).
    TQue<TPosition::C1, 1> qScaleL1;
    TQue<TPosition::C2PIPE2GM, 1> qScaleFb;
    pipe.InitBuffer(qScaleL1, 1, nA * sizeof(uint64_t));
    pipe.InitBuffer(qScaleFb, 1, nA * sizeof(uint64_t));
    GlobalTensor<uint64_t> scaleGm;
    scaleGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(bias), p.n);
    LocalTensor<uint64_t> scaleL1 = qScaleL1.AllocTensor<uint64_t>();
    DataCopy(scaleL1, scaleGm, Align(p.n, 4));
    LocalTensor<uint64_t> scaleFb = qScaleFb.AllocTensor<uint64_t>();
    DataCopy(scaleFb, scaleL1, Align(p.n, 4));
    SetFixPipeConfig(scaleFb);
  }
  float scale = p.scale;
  uint32_t bits = 0;
  std::memcpy(&bits, &scale, sizeof bits);
  // Brace-initialised with every field, as CANN's samples write it: {nSize, mSize, srcStride, dstStride, reluEn,
  // quantPre, deqScalar, ndNum, srcNdStride, dstNdStride, unitFlag}.
  Fixpipe(cGm, co1,
          FixpipeParamsV220{static_cast<uint16_t>(p.n), static_cast<uint16_t>(p.m), static_cast<uint16_t>(mA), p.n,
                            p.relu != 0, quant, static_cast<int64_t>(bits), 1, 0, 0, 0});
  qCO1.FreeTensor(co1);
}

}  // namespace

extern "C" __global__ __aicore__ void cube_mm_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<half, float, float, float>(a, b, bias, c, p, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void cube_mm_f16_hbias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<half, float, float, half, float>(a, b, bias, c, p, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void cube_mm_f16_to_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<half, float, half, float>(a, b, bias, c, p, QuantMode_t::F322F16);
}
extern "C" __global__ __aicore__ void cube_mm_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<bfloat16_t, float, float, float>(a, b, bias, c, p, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void cube_mm_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<float, float, float, float>(a, b, bias, c, p, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void cube_mm_s8(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<int8_t, int32_t, int32_t, int32_t>(a, b, bias, c, p, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void cube_mm_s4(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<int4b_t, int32_t, int32_t, int32_t>(a, b, bias, c, p, QuantMode_t::NoQuant);
}
extern "C" __global__ __aicore__ void cube_mm_s8_deq(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  CubeMm<int8_t, int32_t, half, int32_t>(a, b, bias, c, p, QuantMode_t::DEQF16);
}

// GEMV: Mmad with m == 1 reads A from L0A as k contiguous elements (ND), not as a zZ fractal's row 0.
// A (1 x k) goes GM -> A1 -> A2 as one run of elements; B is given as B^T (n x k); C is row 0 of L0C's
// fractals (each 1 x 16 piece of the result in a whole 16 x 16 fractal).
// InitConstValue: L0A (16 x 64 half, four 512-byte fractals) zeroed, then fractals 0 and 2 set to a (two
// iterations of one block, one block apart); L0B (64 x 16) set to b through Fill (the older name). C = A x B,
// 16 x 16 float, every element 32 * a * b. where_ub != 0 aims InitConstValue at the unified buffer instead,
// which must fail the kernel.
extern "C" __global__ __aicore__ void cube_init_const(GM_ADDR c, float a, float b, uint32_t where_ub) {
  GlobalTensor<float> cGm;
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 256);
  TPipe pipe;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  TBuf<TPosition::VECCALC> ub;
  pipe.InitBuffer(qA2, 1, 16 * 64 * sizeof(half));
  pipe.InitBuffer(qB2, 1, 64 * 16 * sizeof(half));
  pipe.InitBuffer(qCO1, 1, 16 * 16 * sizeof(float));
  pipe.InitBuffer(ub, 2048);
  if (where_ub != 0) {
    InitConstValue(ub.Get<half>(), InitConstValueParams<half>(1, 1, 0, half(1.0f)));
    return;
  }
  LocalTensor<half> a2 = qA2.AllocTensor<half>();
  InitConstValue(a2, InitConstValueParams<half>(1, 4, 0, half(0.0f)));
  InitConstValue(a2, InitConstValueParams<half>(2, 1, 1, half(a)));
  LocalTensor<half> b2 = qB2.AllocTensor<half>();
  Fill(b2, InitConstValueParams<half>(1, 4, 0, half(b)));
  LocalTensor<float> co1 = qCO1.AllocTensor<float>();
  MmadParams mp;
  mp.m = 16;
  mp.n = 16;
  mp.k = 64;
  Mmad(co1, a2, b2, mp);
  PipeBarrier<PIPE_ALL>();
  FixpipeParamsV220 fp(16, 16, 16, 16, false);
  Fixpipe(cGm, co1, fp);
}

extern "C" __global__ __aicore__ void cube_gemv_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t n, uint32_t k) {
  constexpr uint32_t c0 = 16;
  const uint32_t nA = Align(n, 16), kC0 = Align(k, c0), n1 = nA / 16, k1 = kC0 / c0;
  const uint32_t kVec = Align(k, 256);  // A in L1 / L0A: whole 512-byte fractals
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), k);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), n * k);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), n);
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  pipe.InitBuffer(qA1, 1, kVec * sizeof(half));
  pipe.InitBuffer(qB1, 1, nA * kC0 * sizeof(half));
  pipe.InitBuffer(qA2, 1, kVec * sizeof(half));
  pipe.InitBuffer(qB2, 1, nA * kC0 * sizeof(half));
  pipe.InitBuffer(qCO1, 1, 16 * nA * sizeof(float));

  // A: its k elements one after another (Nd2Nz of one row with a C0 stride of one block).
  LocalTensor<half> a1 = qA1.AllocTensor<half>();
  DataCopy(a1, aGm, Nd2NzParams(1, 1, static_cast<uint16_t>(k), 0, static_cast<uint16_t>(k), 1, 1, 0));
  LocalTensor<half> b1 = qB1.AllocTensor<half>();
  DataCopy(b1, bGm, Nd2NzParams(1, static_cast<uint16_t>(n), static_cast<uint16_t>(k), 0, static_cast<uint16_t>(k),
                                static_cast<uint16_t>(nA), 1, 0));
  LocalTensor<half> a2 = qA2.AllocTensor<half>();
  LoadData(a2, a1, LoadData2DParams(0, static_cast<uint8_t>(kVec / 256), 1, 0, 0, false, 0));
  LocalTensor<half> b2 = qB2.AllocTensor<half>();
  LoadData(b2, b1, LoadData2DParams(0, static_cast<uint8_t>(k1 * n1), 1, 0, 0, false, 0));
  PipeBarrier<PIPE_ALL>();
  LocalTensor<float> co1 = qCO1.AllocTensor<float>();
  MmadParams mp;
  mp.m = 1;
  mp.n = static_cast<uint16_t>(n);
  mp.k = static_cast<uint16_t>(k);
  Mmad(co1, a2, b2, mp);
  PipeBarrier<PIPE_ALL>();
  FixpipeParamsV220 fp(static_cast<uint16_t>(n), 1, 16, n, false);
  Fixpipe(cGm, co1, fp);
  qCO1.FreeTensor(co1);
  qA1.FreeTensor(a1);
  qB1.FreeTensor(b1);
  qA2.FreeTensor(a2);
  qB2.FreeTensor(b2);
}

extern "C" __global__ __aicore__ void cube_mm_s8_vdeq(GM_ADDR a, GM_ADDR b, GM_ADDR scales, GM_ADDR c, CubeMmArgs p) {
  CubeMm<int8_t, int32_t, half, int32_t>(a, b, scales, c, p, QuantMode_t::VDEQF16);
}

// int8 C[m, n] = A[m, k] x B[k, n] + bias with B in its own (k x n) layout: B's NZ in L1 (columns of 32, rows
// aligned to 32) becomes L0B's zN through LoadDataWithTranspose (32 x 32 squares, two fractals each, n padded
// to 32); the bias goes C1 -> C2 with DataCopyParams in 64-byte units and C starts from the bias table's start
// (the Mmad without a bias tensor, cmatrixInitVal false, cmatrixSource true).
extern "C" __global__ __aicore__ void cube_mm_s8_btrans(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, CubeMmArgs p) {
  constexpr uint32_t c0 = 32;
  const uint32_t mA = Align(p.m, 16), kA = Align(p.k, c0), nA = Align(p.n, 32);
  const uint32_t m1 = mA / 16, k1 = kA / c0;
  GlobalTensor<int8_t> aGm, bGm;
  GlobalTensor<int32_t> biasGm, cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), p.m * p.k);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), p.k * p.n);
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(bias), p.n);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), p.m * p.n);
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::C1, 1> qBiasL1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::C2, 1> qBt;
  TQue<TPosition::CO1, 1> qCO1;
  pipe.InitBuffer(qA1, 1, mA * kA);
  pipe.InitBuffer(qB1, 1, kA * nA);
  pipe.InitBuffer(qBiasL1, 1, Align(p.n * 4, 64));
  pipe.InitBuffer(qA2, 1, mA * kA);
  pipe.InitBuffer(qB2, 1, kA * nA);
  pipe.InitBuffer(qBt, 1, Align(p.n * 4, 64));
  pipe.InitBuffer(qCO1, 1, mA * nA * 4);

  LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
  DataCopy(a1, aGm, Nd2NzParams(1, p.m, p.k, 0, p.k, mA, 1, 0));
  LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
  DataCopy(b1, bGm, Nd2NzParams(1, p.k, p.n, 0, p.n, kA, 1, 0));  // k x n: columns of 32, kA rows each
  LocalTensor<int32_t> biasL1 = qBiasL1.AllocTensor<int32_t>();
  DataCopy(biasL1, biasGm, Nd2NzParams(1, 1, p.n, 0, p.n, 1, 1, 0));
  PipeBarrier<PIPE_ALL>();
  LocalTensor<int8_t> a2 = qA2.AllocTensor<int8_t>();
  for (uint32_t i = 0; i < m1; ++i) {
    LoadData(a2[i * 16 * kA], a1[i * 16 * c0],
             LoadData2DParams(0, static_cast<uint8_t>(k1), static_cast<uint16_t>(m1), 0, 0, false, 0));
  }
  LocalTensor<int8_t> b2 = qB2.AllocTensor<int8_t>();
  for (uint32_t i = 0; i < kA / 32; ++i) {  // per 32 rows of K: the squares of the column blocks
    LoadDataWithTranspose(b2[i * 32 * nA], b1[i * 32 * 32],
                          LoadData2dTransposeParams(0, static_cast<uint8_t>(nA / 32), static_cast<uint16_t>(kA / 32),
                                                    1, 0));
  }
  LocalTensor<int32_t> bt = qBt.AllocTensor<int32_t>();
  DataCopy(bt, biasL1, DataCopyParams(1, static_cast<uint16_t>(Align(p.n * 4, 64) / 64), 0, 0));
  PipeBarrier<PIPE_ALL>();
  LocalTensor<int32_t> co1 = qCO1.AllocTensor<int32_t>();
  MmadParams mp;
  mp.m = static_cast<uint16_t>(p.m);
  mp.n = static_cast<uint16_t>(nA);
  mp.k = static_cast<uint16_t>(p.k);
  mp.cmatrixInitVal = false;
  mp.cmatrixSource = true;
  Mmad(co1, a2, b2, mp);
  PipeBarrier<PIPE_ALL>();
  Fixpipe(cGm, co1, FixpipeParamsV220(static_cast<uint16_t>(p.n), static_cast<uint16_t>(p.m),
                                      static_cast<uint16_t>(mA), p.n, false));
  qCO1.FreeTensor(co1);
  qA1.FreeTensor(a1);
  qB1.FreeTensor(b1);
  qBiasL1.FreeTensor(biasL1);
  qA2.FreeTensor(a2);
  qB2.FreeTensor(b2);
  qBt.FreeTensor(bt);
}

extern "C" __global__ __aicore__ void cube_oversize(uint32_t which, uint32_t bytes) {
  TPipe pipe;
  TQue<TPosition::A1, 1> a1;
  TQue<TPosition::A2, 1> a2;
  TQue<TPosition::B2, 1> b2;
  TQue<TPosition::CO1, 1> co1;
  TQue<TPosition::C2, 1> c2;
  TQue<TPosition::C2PIPE2GM, 1> fb;
  switch (which) {
    case 0: pipe.InitBuffer(a1, 1, bytes); break;
    case 1: pipe.InitBuffer(a2, 1, bytes); break;
    case 2: pipe.InitBuffer(b2, 1, bytes); break;
    case 3: pipe.InitBuffer(co1, 1, bytes); break;
    case 4: pipe.InitBuffer(c2, 1, bytes); break;
    default: pipe.InitBuffer(fb, 1, bytes); break;
  }
}

int32_t CubeMmF16(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_f16<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b), static_cast<uint8_t*>(bias),
                                        static_cast<uint8_t*>(c), p);
}
int32_t CubeInitConst(void* s, void* c, float a, float b, uint32_t where_ub) {
  return cube_init_const<<<1, nullptr, s>>>(static_cast<uint8_t*>(c), a, b, where_ub);
}
int32_t CubeMmF16HBias(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_f16_hbias<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                              static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c), p);
}
int32_t CubeMmF16ToF16(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_f16_to_f16<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                               static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c), p);
}
int32_t CubeMmBf16(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_bf16<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                         static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c), p);
}
int32_t CubeMmF32(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_f32<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b), static_cast<uint8_t*>(bias),
                                        static_cast<uint8_t*>(c), p);
}
int32_t CubeMmS8(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_s8<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b), static_cast<uint8_t*>(bias),
                                       static_cast<uint8_t*>(c), p);
}
int32_t CubeMmS4(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_s4<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b), static_cast<uint8_t*>(bias),
                                       static_cast<uint8_t*>(c), p);
}
int32_t CubeMmS8Deq(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_s8_deq<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                           static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c), p);
}
int32_t CubeOversize(void* s, uint32_t which, uint32_t bytes) { return cube_oversize<<<1, nullptr, s>>>(which, bytes); }
int32_t CubeMmS8VDeq(void* s, void* a, void* b, void* scales, void* c, CubeMmArgs p) {
  return cube_mm_s8_vdeq<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                            static_cast<uint8_t*>(scales), static_cast<uint8_t*>(c), p);
}
int32_t CubeMmS8BTrans(void* s, void* a, void* b, void* bias, void* c, CubeMmArgs p) {
  return cube_mm_s8_btrans<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                              static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c), p);
}
int32_t CubeGemvF16(void* s, void* a, void* bT, void* c, uint32_t n, uint32_t k) {
  return cube_gemv_f16<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(bT), static_cast<uint8_t*>(c),
                                          n, k);
}
