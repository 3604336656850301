// The host tiling SDK against the runtime: platform answers, TilingData layout, matmul tilings.
#include <acl/acl.h>
#include <gtest/gtest.h>
#include <npurt/sim_core.h>

#include <cstring>
#include <random>
#include <vector>

#include "tiling/tiling_api.h"
#include "toolchain/slog.h"

namespace {

using platform_ascendc::CoreMemType;

int64_t DeviceInfo(aclrtDevAttr attr) {
  int64_t v = -1;
  EXPECT_EQ(aclrtGetDeviceInfo(0, attr, &v), ACL_SUCCESS);
  return v;
}

TEST(TilingPlatform, AnswersAreTheSimulatedDevice) {
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p, platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P1"));  // the first call's
  EXPECT_EQ(p->GetCoreNumAic(), DeviceInfo(ACL_DEV_ATTR_CUBE_CORE_NUM));
  EXPECT_EQ(p->GetCoreNumAiv(), DeviceInfo(ACL_DEV_ATTR_VECTOR_CORE_NUM));
  EXPECT_EQ(p->GetCoreNum(), DeviceInfo(ACL_DEV_ATTR_VECTOR_CORE_NUM));
  EXPECT_EQ(p->GetCoreNumVector(), 0u);
  uint64_t ub = 0, l1 = 0, l0a = 0, l0c = 0, hbm = 0;
  p->GetCoreMemSize(CoreMemType::UB, ub);
  p->GetCoreMemSize(CoreMemType::L1, l1);
  p->GetCoreMemSize(CoreMemType::L0_A, l0a);
  p->GetCoreMemSize(CoreMemType::L0_C, l0c);
  p->GetCoreMemSize(CoreMemType::HBM, hbm);
  EXPECT_EQ(static_cast<int64_t>(ub), DeviceInfo(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE));
  EXPECT_EQ(static_cast<int64_t>(hbm), DeviceInfo(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE));
  EXPECT_EQ(l1, NPURT_SIM_L1_BYTES);
  EXPECT_EQ(l0a, NPURT_SIM_L0A_BYTES);
  EXPECT_EQ(l0c, NPURT_SIM_L0C_BYTES);
  EXPECT_EQ(p->GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);  // the default sim SoC, Ascend910B1
  EXPECT_EQ(p->GetCurNpuArch(), NpuArch::DAV_2201);
  EXPECT_EQ(p->GetLibApiWorkSpaceSize(), NPURT_SIM_LIB_API_WORKSPACE_BYTES);
  // The sim's cube and vector cores are the same cores: one slice per block.
  EXPECT_EQ(p->CalcTschBlockDim(7, p->GetCoreNumAic(), p->GetCoreNumAiv()), 7u);
  EXPECT_EQ(p->CalcTschBlockDim(7, 24, 48), 4u);  // CANN's rule for a 1:2 SoC
  EXPECT_EQ(p->CalcTschBlockDim(7, 0, 48), 7u);
}

TEST(TilingPlatform, ReserveLocalMemoryShrinksTheUnifiedBuffer) {
  platform_ascendc::PlatformAscendC p(nullptr);  // a null description: the simulated device
  uint64_t full = 0, left = 0, l1 = 0;
  p.GetCoreMemSize(CoreMemType::UB, full);
  p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
  p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_32K);  // the last call wins
  p.GetCoreMemSize(CoreMemType::UB, left);
  p.GetCoreMemSize(CoreMemType::L1, l1);
  EXPECT_EQ(left, full - 32 * 1024);
  EXPECT_EQ(l1, NPURT_SIM_L1_BYTES);
}

}  // namespace

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerTiling)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint16_t, b);
TILING_DATA_FIELD_DEF(uint16_t, c);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(OuterTiling)
TILING_DATA_FIELD_DEF(uint64_t, total);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, dims);
TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
TILING_DATA_FIELD_DEF(uint8_t, flag);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NpurtTestOp, OuterTiling)
}  // namespace optiling

namespace {

// What the kernel sees: CANN generates the kernel struct with #pragma pack(1).
#pragma pack(push, 1)
struct InnerKernel {
  uint32_t a;
  uint16_t b;
  uint16_t c;
};
struct OuterKernel {
  uint64_t total;
  float scale;
  int32_t dims[3];
  InnerKernel inner;
  TCubeTiling cube;
  uint8_t flag;
};
#pragma pack(pop)

TEST(TilingData, SaveToBufferIsTheKernelLayout) {
  optiling::OuterTiling t;
  EXPECT_STREQ(t.GetTilingClassName(), "OuterTiling");
  ASSERT_EQ(t.GetDataSize(), sizeof(OuterKernel));
  t.set_total(0x1122334455667788ull);
  t.set_scale(1.5f);
  const int32_t dims[3] = {7, -8, 9};
  t.set_dims(dims);
  t.inner.set_a(42);
  t.inner.set_b(3);
  t.inner.set_c(4);
  t.cube.set_baseM(128);
  t.cube.set_mxTypePara(-5);
  t.set_flag(0xab);
  EXPECT_EQ(t.get_total(), 0x1122334455667788ull);
  EXPECT_EQ(t.get_dims()[1], -8);

  std::vector<uint8_t> buf(t.GetDataSize() + 4, 0xee);
  t.SaveToBuffer(buf.data(), buf.size());
  OuterKernel k;
  std::memcpy(&k, buf.data(), sizeof k);
  EXPECT_EQ(k.total, 0x1122334455667788ull);
  EXPECT_EQ(k.scale, 1.5f);
  EXPECT_EQ(k.dims[0], 7);
  EXPECT_EQ(k.dims[2], 9);
  EXPECT_EQ(k.inner.a, 42u);
  EXPECT_EQ(k.inner.c, 4u);
  EXPECT_EQ(k.cube.baseM, 128);
  EXPECT_EQ(k.cube.mxTypePara, -5);
  EXPECT_EQ(k.flag, 0xab);
  EXPECT_EQ(buf[sizeof k], 0xee);  // nothing past the data

  // A copy carries its own values; too small a buffer is left alone.
  optiling::OuterTiling copy = t;
  copy.inner.set_a(43);
  copy.SaveToBuffer(buf.data(), buf.size());
  std::memcpy(&k, buf.data(), sizeof k);
  EXPECT_EQ(k.inner.a, 43u);
  EXPECT_EQ(t.inner.get_a(), 42u);
  std::vector<uint8_t> small(8, 0);
  t.SaveToBuffer(small.data(), small.size());
  EXPECT_EQ(small, std::vector<uint8_t>(8, 0));

  const auto fields = t.GetFieldInfo();
  ASSERT_EQ(fields.size(), 6u);
  EXPECT_STREQ(fields[2].name, "dims");
  EXPECT_EQ(fields[2].offset, offsetof(OuterKernel, dims));
  EXPECT_EQ(fields[4].offset, offsetof(OuterKernel, cube));
  EXPECT_EQ(fields[4].size, sizeof(TCubeTiling));
}

TEST(TilingData, RegisteredClassesAreCreatedByOpType) {
  auto& f = optiling::CTilingDataClassFactory::GetInstance();
  auto t = f.CreateTilingDataInstance("NpurtTestOp");
  ASSERT_NE(t, nullptr);
  EXPECT_STREQ(t->GetTilingClassName(), "OuterTiling");
  EXPECT_EQ(f.CreateTilingDataInstance(std::string("NoSuchOp")), nullptr);
}

// A tiling a kernel can follow on the sim: the tiles cover the shape, the blocks fit the buffers.
void CheckCubeTiling(const TCubeTiling& t, int m, int n, int k, int bytesA, int cores) {
  SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k << " on " << cores << " cores");
  EXPECT_EQ(t.M, m);
  EXPECT_EQ(t.N, n);
  EXPECT_EQ(t.Ka, k);
  EXPECT_GE(t.usedCoreNum, 1);
  EXPECT_LE(t.usedCoreNum, cores);
  const int mTiles = (m + t.singleCoreM - 1) / t.singleCoreM, nTiles = (n + t.singleCoreN - 1) / t.singleCoreN;
  EXPECT_EQ(mTiles * nTiles, t.usedCoreNum);
  EXPECT_EQ(t.singleCoreK, k);
  EXPECT_EQ(t.baseM % 16, 0);
  EXPECT_EQ(t.baseN % 16, 0);
  EXPECT_EQ(t.baseK % (32 / bytesA), 0);
  EXPECT_LE(t.baseM, ((t.singleCoreM + 15) / 16) * 16);
  EXPECT_LE(t.baseN, ((t.singleCoreN + 15) / 16) * 16);
  EXPECT_LE(int64_t(t.baseM) * t.baseK * bytesA * t.dbL0A, NPURT_SIM_L0A_BYTES);
  EXPECT_LE(int64_t(t.baseK) * t.baseN * bytesA * t.dbL0B, NPURT_SIM_L0B_BYTES);
  EXPECT_LE(int64_t(t.baseM) * t.baseN * 4 * t.dbL0C, NPURT_SIM_L0C_BYTES);
  EXPECT_EQ(t.depthA1 % (t.stepM * t.stepKa), 0);
  EXPECT_EQ(t.depthB1 % (t.stepN * t.stepKb), 0);
  const int64_t l1 = int64_t(t.depthA1) * t.baseM * t.baseK * bytesA + int64_t(t.depthB1) * t.baseN * t.baseK * bytesA +
                     (t.isBias ? t.baseN * 4 : 0);
  EXPECT_LE(l1, NPURT_SIM_L1_BYTES);
  EXPECT_EQ(l1, t.shareL1Size);
}

TEST(MatmulTiling, RandomShapesFitTheCore) {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> dim(1, 3000);
  for (int i = 0; i < 200; ++i) {
    const int m = dim(rng), n = dim(rng), k = dim(rng);
    const bool fp32 = i % 3 == 0;
    const auto in = fp32 ? matmul_tiling::DataType::DT_FLOAT : matmul_tiling::DataType::DT_FLOAT16;
    const int cores = 1 + i % 24;
    matmul_tiling::MultiCoreMatmulTiling api;
    api.SetDim(cores);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, i % 2 == 0);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, i % 5 == 0);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(i % 4 == 0);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling host;
    ASSERT_EQ(api.GetTiling(host), 0);
    std::vector<uint8_t> buf(host.GetDataSize());
    ASSERT_EQ(buf.size(), sizeof(TCubeTiling));
    host.SaveToBuffer(buf.data(), buf.size());
    TCubeTiling t;
    std::memcpy(&t, buf.data(), sizeof t);
    CheckCubeTiling(t, m, n, k, fp32 ? 4 : 2, cores);
    EXPECT_EQ(t.isBias, i % 4 == 0 ? 1 : 0);
    int32_t used = 0, md = 0, nd = 0;
    api.GetCoreNum(used, md, nd);
    EXPECT_EQ(used, t.usedCoreNum);
  }
}

// Between (nearly) equally large tiles the tiling chooses as CANN's does (the fewest partial base blocks, then
// the most of the base blocks kept whole): kernels take their tiles' offsets from blockIdx * singleCoreM or
// * singleCoreN and rely on the split.
TEST(MatmulTiling, TiedSplitsAsCann) {
  struct Case {
    int m, n, k, fixM, fixN, singleM, singleN;
  };
  for (const Case& c : {Case{512, 512, 128, -1, -1, 256, 512}, Case{512, 128, 128, 128, 64, 512, 64},
                        Case{1024, 640, 256, 256, 128, 512, 640}, Case{128, 7679, 128, -1, -1, 128, 3840},
                        Case{64, 1024, 128, -1, -1, 64, 512}}) {
    SCOPED_TRACE(testing::Message() << c.m << "x" << c.n << "x" << c.k << " fix " << c.fixM << "/" << c.fixN);
    matmul_tiling::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim(2);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetOrgShape(c.m, c.n, c.k);
    api.SetShape(c.m, c.n, c.k);
    api.SetBias(false);
    if (c.fixM > 0) api.SetFixSplit(c.fixM, c.fixN, -1);
    api.SetBufferSpace(-1, -1, -1);
    TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0);
    CheckCubeTiling(t, c.m, c.n, c.k, 2, 2);
    EXPECT_EQ(t.usedCoreNum, 2);
    EXPECT_EQ(t.singleCoreM, c.singleM);
    EXPECT_EQ(t.singleCoreN, c.singleN);
  }
}

TEST(MatmulTiling, SingleCoreAndFixedSplit) {
  matmul_tiling::MatmulApiTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(512, 1024, 512);
  api.SetOrgShape(512, 1024, 512);
  api.SetFixSplit(128, 128, -1);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  CheckCubeTiling(t, 512, 1024, 512, 2, 1);
  EXPECT_EQ(t.usedCoreNum, 1);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 128);
  EXPECT_EQ(t.transLength, 128 * 128 * 4);  // C goes to the unified buffer through a base block
  EXPECT_EQ(api.GetBaseK(), t.baseK);

  api.SetFixSplit(100, 128, -1);  // not a multiple of 16
  EXPECT_EQ(api.GetTiling(t), -1);
  matmul_tiling::MatmulApiTiling unset;
  EXPECT_EQ(unset.GetTiling(t), -1);  // no types, no shape
}

// Batch matmul: the layouts' axes and BatchNum go to the tiling's batch fields (BSNGD and NORMAL, as
// asc-devkit's batch_matmul and batch_matmul_bias_reuse set them); a non-positive axis is refused.
TEST(MatmulTiling, BatchLayoutsAndNormalInfo) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api;
  api.SetDim(1);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(32, 256, 64);
  api.SetOrgShape(32, 256, 64);
  EXPECT_EQ(api.SetALayout(2, 32, 1, 3, 64), 0);
  EXPECT_EQ(api.SetBLayout(2, 256, 1, 3, 64), 0);
  EXPECT_EQ(api.SetCLayout(2, 32, 1, 3, 256), 0);
  EXPECT_EQ(api.SetBatchNum(3), 0);
  EXPECT_EQ(api.SetALayout(2, 0, 1, 3, 64), -1);
  EXPECT_EQ(api.SetBatchNum(0), -1);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.ALayoutInfoB, 2); EXPECT_EQ(t.ALayoutInfoS, 32); EXPECT_EQ(t.ALayoutInfoN, 1);
  EXPECT_EQ(t.ALayoutInfoG, 3); EXPECT_EQ(t.ALayoutInfoD, 64);
  EXPECT_EQ(t.BLayoutInfoS, 256); EXPECT_EQ(t.BLayoutInfoD, 64);
  EXPECT_EQ(t.CLayoutInfoB, 2); EXPECT_EQ(t.CLayoutInfoS1, 32); EXPECT_EQ(t.CLayoutInfoG, 3);
  EXPECT_EQ(t.CLayoutInfoS2, 256);
  EXPECT_EQ(t.BatchNum, 3);

  BatchMatmulTiling bmm;
  bmm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  bmm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  bmm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  bmm.SetShape(32, 256, 64);
  EXPECT_EQ(bmm.SetBatchInfoForNormal(3, 1, 32, 256, 64), 0);
  EXPECT_EQ(bmm.SetBatchNum(3), 0);
  optiling::TCubeTiling host;
  ASSERT_EQ(bmm.GetTiling(host), 0);
  EXPECT_EQ(host.get_usedCoreNum(), 1);
  EXPECT_EQ(host.get_ALayoutInfoB(), 3); EXPECT_EQ(host.get_ALayoutInfoS(), 32);
  EXPECT_EQ(host.get_ALayoutInfoD(), 64);
  EXPECT_EQ(host.get_BLayoutInfoB(), 1); EXPECT_EQ(host.get_BLayoutInfoS(), 64);
  EXPECT_EQ(host.get_BLayoutInfoD(), 256);
  EXPECT_EQ(host.get_CLayoutInfoB(), 3); EXPECT_EQ(host.get_CLayoutInfoS1(), 32);
  EXPECT_EQ(host.get_CLayoutInfoS2(), 256);
  EXPECT_EQ(host.get_BatchNum(), 3);
}

// SetMatmulConfigParams: a traverse other than NOSET sets the iteration order, as SetTraverse does; NOSET
// keeps the one set before.
TEST(MatmulTiling, MatmulConfigParamsSetTheTraverse) {
  matmul_tiling::MatmulApiTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(256, 256, 128);
  api.SetOrgShape(256, 256, 128);
  api.SetMatmulConfigParams(matmul_tiling::MatmulConfigParams(1, false, matmul_tiling::ScheduleType::OUTER_PRODUCT,
                                                              matmul_tiling::MatrixTraverse::FIRSTN, false));
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.iterateOrder, 1);
  api.SetMatmulConfigParams(0, false);  // NOSET: FIRSTN stays
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.iterateOrder, 1);
  EXPECT_EQ(api.configParams_.mmConfigType, 0);
  api.SetMatmulConfigParams(matmul_tiling::MatmulConfigParams(1, false, matmul_tiling::ScheduleType::INNER_PRODUCT,
                                                              matmul_tiling::MatrixTraverse::FIRSTM));
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.iterateOrder, 0);
}

TEST(Dlog, LevelsFollowTheProcessLevel) {
  int event = 0;
  const int level = dlog_getlevel(0, &event);
  EXPECT_EQ(event, 1);
  EXPECT_EQ(CheckLogLevel(0, DLOG_ERROR), level <= DLOG_ERROR ? 1 : 0);
  ASSERT_EQ(dlog_setlevel(0, DLOG_WARN, 1), 0);
  EXPECT_EQ(CheckLogLevel(0, DLOG_INFO), 0);
  EXPECT_EQ(CheckLogLevel(0, DLOG_WARN), 1);
  EXPECT_EQ(dlog_setlevel(0, 9, 1), -1);
  DlogRecord(5, DLOG_WARN, "dlog line from the tiling tests: %d", 42);
  dlog_error(5, "an error line: %s", "ok");
  ASSERT_EQ(dlog_setlevel(0, level, 1), 0);
}

}  // namespace
