// Kernel of the static-tensor cube test: the basic cube API's matrix multiplication (DataCopy Nd2Nz to L1,
// LoadData to L0A/L0B, Mmad, Fixpipe) with no TPipe: the kernel places its tensors in the core's memories
// itself, as asc-devkit's basic-API samples do.
#include "kernel_operator.h"
#include "cube_static_kernels.h"

using namespace AscendC;

namespace {
constexpr uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

extern "C" __global__ __aicore__ void cube_mm_static_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, CubeMmArgs p,
                                                         uint32_t explicit_addresses) {
  InitSocState();
  constexpr uint32_t c0 = 16;
  const uint32_t mA = Align(p.m, 16), nA = Align(p.n, 16), k16 = Align(p.k, 16);
  const uint32_t m1 = mA / 16, n1 = nA / 16, k1 = k16 / c0;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), p.m * p.k);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), p.k * p.n);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), p.m * p.n);

  LocalTensor<half> a1, b1, a2, b2;
  LocalTensor<float> co1;
  if (explicit_addresses == 0) {
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    a1 = l1.Alloc<TPosition::A1, half>(mA * k16);
    b1 = l1.Alloc<TPosition::B1, half>(k16 * nA);
    a2 = l0a.Alloc<TPosition::A2, half>(mA * k16);
    b2 = l0b.Alloc<half>(k16 * nA);  // L0B's default position: B2
    co1 = l0c.Alloc<float>(mA * nA);
  } else {
    // B1 in the upper half of L1, the rest at address 0 of their memories.
    a1 = LocalTensor<half>(TPosition::A1, 0, mA * k16);
    b1 = LocalTensor<half>(TPosition::B1, 256 * 1024, k16 * nA);
    a2 = LocalTensor<half>(TPosition::A2, 0, mA * k16);
    b2 = LocalTensor<half>(TPosition::B2, 0, k16 * nA);
    co1 = LocalTensor<float>(TPosition::CO1, 0, mA * nA);
  }
  DataCopy(a1, aGm, Nd2NzParams(1, p.m, p.k, 0, p.k, mA, 1, 0));
  DataCopy(b1, bGm, Nd2NzParams(1, p.k, p.n, 0, p.n, k16, 1, 0));
  for (uint32_t i = 0; i < m1; ++i) {
    LoadData(a2[i * 16 * k16], a1[i * 16 * c0],
             LoadData2DParams(0, static_cast<uint8_t>(k1), static_cast<uint16_t>(m1), 0, 0, false, 0));
  }
  for (uint32_t j = 0; j < k1; ++j) {
    LoadData(b2[j * n1 * 256], b1[j * 256],
             LoadData2DParams(0, static_cast<uint8_t>(n1), static_cast<uint16_t>(k1), 0, 0, true, 0));
  }
  MmadParams mp;
  mp.m = static_cast<uint16_t>(p.m);
  mp.n = static_cast<uint16_t>(p.n);
  mp.k = static_cast<uint16_t>(p.k);
  Mmad(co1, a2, b2, mp);
  FixpipeParamsV220 fp(static_cast<uint16_t>(p.n), static_cast<uint16_t>(p.m), static_cast<uint16_t>(mA), p.n, false);
  Fixpipe(cGm, co1, fp);
}

int32_t CubeMmStaticF16(void* stream, void* a, void* b, void* c, CubeMmArgs args, uint32_t explicit_addresses) {
  return cube_mm_static_f16<<<1, nullptr, stream>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                                    static_cast<uint8_t*>(c), args, explicit_addresses);
}
