// The quantization library functions (npurt_kernel/adv_quant.h) against host models of their documented
// steps: AscendQuant per tensor in every call form with tails and saturation, AscendDequant with vector and
// scalar scales, every dst/scale type, the single-row reshaping and the padded dst rows.
#include <cmath>

#include "aclrtlaunch_adv_antiquant.h"
#include "aclrtlaunch_adv_dequant.h"
#include "aclrtlaunch_adv_quant.h"
#include "adv_case.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvQuantTest : public VecTest {};

// AscendQuant's documented steps: to half, half multiply, half add, to int8 rounding half to even.
int8_t RefQuant(float x, float scale, float offset) {
  const half hx = static_cast<half>(x), hs = static_cast<half>(scale), ho = static_cast<half>(offset);
  const half t = static_cast<half>(static_cast<float>(hx) * static_cast<float>(hs));
  const half u = static_cast<half>(static_cast<float>(t) + static_cast<float>(ho));
  const float r = std::nearbyint(static_cast<float>(u));
  return static_cast<int8_t>(std::fmax(-128.0f, std::fmin(127.0f, r)));
}

template <typename T>
void RunQuant(aclrtStream stream, uint32_t form, uint32_t n, uint32_t count, float scale, float offset, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> src = RandomValues<T>(n, rng, -4, 4);
  // Exact ties after scaling by 2 (x.25 * 2 + 0.5 lands on .0 / .5 boundaries) and values that saturate.
  if (n > 8) {
    src[0] = static_cast<T>(1.25f);
    src[1] = static_cast<T>(-1.25f);
    src[2] = static_cast<T>(100.0f);
    src[3] = static_cast<T>(-100.0f);
  }
  const std::vector<int8_t> dst0 = RandomValues<int8_t>(n, rng, -100, 100);
  DevMem ds(n * sizeof(T)), dd(n);
  CopyIn(ds, src.data(), n * sizeof(T));
  CopyIn(dd, dst0.data(), n);
  ASSERT_EQ(aclrtlaunch_adv_quant(1, stream, ds.get(), dd.get(), n, count, sizeof(T) == 2 ? 1 : 0, form, scale, offset),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<int8_t> got(n);
  CopyOut(got.data(), dd, n);
  const uint32_t m = (form == kAdvWhole || form == kAdvWholeTmp) ? n : count;
  std::vector<int8_t> want = dst0;
  for (uint32_t i = 0; i < m; ++i) want[i] = RefQuant(static_cast<float>(src[i]), scale, offset);
  EXPECT_EQ(Mismatches(got, want), "") << "form " << form << " n " << n << " count " << count;
}

TEST_F(AdvQuantTest, AscendQuantPerTensorInEveryForm) {
  uint64_t seed = 1;
  for (uint32_t form = 0; form < kAdvFormCount; ++form) {
    RunQuant<float>(stream_, form, 1024, 1000, 2.0f, 0.9f, ++seed);
    RunQuant<half>(stream_, form, 512, 333, 2.0f, 0.5f, ++seed);
    RunQuant<float>(stream_, form, 96, 96, -3.3f, -1.1f, ++seed);
  }
}

TEST_F(AdvQuantTest, AscendQuantRoundsHalfToEven) {
  // 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> -0, -1.5 -> -2 (scale 1, offset 0).
  std::vector<float> src = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 3.5f, 200.0f, -200.0f};
  DevMem ds(32), dd(32);
  CopyIn(ds, src.data(), 32);
  ASSERT_EQ(aclrtlaunch_adv_quant(1, stream_, ds.get(), dd.get(), 8, 8, 0, kAdvCount, 1.0f, 0.0f), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<int8_t> got(8);
  CopyOut(got.data(), dd, 8);
  EXPECT_EQ(Mismatches(got, std::vector<int8_t>{0, 2, 2, 0, -2, 4, 127, -128}), "");
}

float ScaleValue(float f, uint32_t scale_type) {
  return scale_type == 1 ? static_cast<float>(static_cast<half>(f)) : f;
}

// One AscendDequant case: dst_type 0 half, 1 float, 2 bfloat16 (compared as raw bits after the same
// conversion on the host); scale_type 0 float, 1 half, 2 uint64_t.
struct DeqCase {
  uint32_t m, n, cal, scale_count, dst_type, scale_type, scalar, mode, with_tmp;
};

uint16_t Bf16Bits(float f) {  // round to nearest even
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu)) return static_cast<uint16_t>((b >> 16) | 0x40);
  b += 0x7fffu + ((b >> 16) & 1u);
  return static_cast<uint16_t>(b >> 16);
}

void RunDequant(aclrtStream stream, const DeqCase& k, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t dsize = k.dst_type == 1 ? 4 : 2, block = 32 / dsize;
  // The single-row reshaping: {1, n, cal} -> {n / cal, cal, cal}.
  uint32_t m = k.m, n = k.n, cal = k.cal;
  if (k.mode == 0 && m == 1 && cal != 0 && cal % block == 0 && n % cal == 0) {
    m = n / cal;
    n = cal;
  }
  const uint32_t n_dst = (n + block - 1) / block * block, dst_elems = m * n_dst + 16;
  const std::vector<int32_t> src = RandomValues<int32_t>(k.m * k.n, rng, -1000, 1000);
  const std::vector<float> scales_f = RandomValues<float>(k.scale_count, rng, -3, 3);
  const float scalar_value = -1.75f;
  std::vector<uint8_t> scale_bytes;
  if (k.scale_type == 0) {
    scale_bytes.resize(k.scale_count * 4);
    std::memcpy(scale_bytes.data(), scales_f.data(), scale_bytes.size());
  } else if (k.scale_type == 1) {
    std::vector<half> h(k.scale_count);
    for (uint32_t i = 0; i < k.scale_count; ++i) h[i] = static_cast<half>(scales_f[i]);
    scale_bytes.resize(k.scale_count * 2);
    std::memcpy(scale_bytes.data(), h.data(), scale_bytes.size());
  } else {
    std::vector<uint64_t> u(k.scale_count);
    for (uint32_t i = 0; i < k.scale_count; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &scales_f[i], 4);
      u[i] = (uint64_t{0xabcd} << 32) | bits;  // the high half is control bits, not part of the scale
    }
    scale_bytes.resize(k.scale_count * 8);
    std::memcpy(scale_bytes.data(), u.data(), scale_bytes.size());
  }
  std::vector<uint8_t> dst0(dst_elems * dsize);
  for (auto& b : dst0) b = static_cast<uint8_t>(rng());
  DevMem ds(src.size() * 4), dc(scale_bytes.size()), dd(dst0.size());
  CopyIn(ds, src.data(), src.size() * 4);
  CopyIn(dc, scale_bytes.data(), scale_bytes.size());
  CopyIn(dd, dst0.data(), dst0.size());
  ASSERT_EQ(aclrtlaunch_adv_dequant(1, stream, ds.get(), dc.get(), dd.get(), k.m, k.n, k.cal, dst_elems,
                                    k.scale_count, k.dst_type, k.scale_type, k.scalar, scalar_value, k.mode,
                                    k.with_tmp),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<uint8_t> got(dst0.size());
  CopyOut(got.data(), dd, got.size());
  std::vector<uint8_t> want = dst0;
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < cal; ++j) {
      const float sc = k.scalar ? ScaleValue(scalar_value, k.scale_type) : ScaleValue(scales_f[j], k.scale_type);
      const float prod = static_cast<float>(src[r * n + j]) * sc;
      uint8_t* w = want.data() + (static_cast<size_t>(r) * n_dst + j) * dsize;
      if (k.dst_type == 1) {
        std::memcpy(w, &prod, 4);
      } else if (k.dst_type == 0) {
        const half h = static_cast<half>(prod);
        std::memcpy(w, &h, 2);
      } else {
        const uint16_t b = Bf16Bits(prod);
        std::memcpy(w, &b, 2);
      }
    }
  }
  EXPECT_EQ(Mismatches(got, want), "") << "m " << k.m << " n " << k.n << " cal " << k.cal << " dst_type "
                                       << k.dst_type << " scale_type " << k.scale_type << " scalar " << k.scalar
                                       << " mode " << k.mode;
}

TEST_F(AdvQuantTest, AscendDequantRowsScalesAndTypes) {
  uint64_t seed = 50;
  const DeqCase cases[] = {
      {128, 32, 32, 32, 1, 0, 0, 0, 0},  // the sample's shape: float out, float scales
      {4, 8, 4, 16, 2, 0, 0, 1, 1},      // the documented bfloat16 example: n_dst 16, 4 of 8 scaled
      {4, 8, 4, 16, 1, 0, 1, 1, 0},      // scalar scale
      {3, 24, 17, 20, 0, 1, 0, 1, 1},    // half out (n_dst 32), half scales, a tail
      {5, 16, 16, 16, 0, 2, 0, 0, 0},    // uint64_t scales (low 32 bits)
      {1, 64, 16, 16, 1, 0, 0, 0, 1},    // single row: computed as {4, 16, 16}
      {1, 64, 16, 16, 1, 0, 0, 1, 0},    // multi-row mode keeps {1, 64, 16}
      {1, 48, 16, 16, 0, 1, 1, 0, 0},    // single row, half out, scalar: {3, 16, 16}
  };
  for (const DeqCase& k : cases) RunDequant(stream_, k, ++seed);
}

TEST_F(AdvQuantTest, AscendDequantRejectsUnalignedRowsAndShortScales) {
  // n = 12 int32_t is 48 bytes, not a multiple of 32.
  const std::vector<int32_t> src(48, 1);
  const std::vector<float> sc(16, 1.0f);
  DevMem ds(48 * 4), dc(16 * 4), dd(64 * 4);
  CopyIn(ds, src.data(), 48 * 4);
  CopyIn(dc, sc.data(), 16 * 4);
  ASSERT_EQ(aclrtlaunch_adv_dequant(1, stream_, ds.get(), dc.get(), dd.get(), 4, 12, 12, 64, 16, 1, 0, 0, 0.0f, 1, 0),
            ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("AscendDequant"), std::string::npos) << RecentError();
  // calCount 16 with 8 scales.
  ASSERT_EQ(aclrtlaunch_adv_dequant(1, stream_, ds.get(), dc.get(), dd.get(), 2, 16, 16, 64, 8, 1, 0, 0, 0.0f, 1, 0),
            ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("deqScale"), std::string::npos) << RecentError();
}

// AscendAntiQuant: dst = scale * (src + offset); half: half add then half multiply; bfloat16: in float,
// rounded once (host bf16 bits by round to nearest even).
struct AntiCase {
  uint32_t k, n, groups, out_bf16, transpose, per_tensor, shape_arg, with_tmp;
};

void RunAntiQuant(aclrtStream stream, const AntiCase& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t total = c.k * c.n, params = c.per_tensor ? 1 : c.groups * c.n;
  const std::vector<int8_t> src = RandomValues<int8_t>(total, rng, -128, 127);
  const std::vector<float> off_f = RandomValues<float>(params, rng, -10, 10);
  const std::vector<float> sc_f = RandomValues<float>(params, rng, -3, 3);
  // The parameters as the kernel holds them (half, or bfloat16 bits), and their float values.
  std::vector<uint16_t> off(params), sc(params);
  std::vector<float> offv(params), scv(params);
  for (uint32_t i = 0; i < params; ++i) {
    if (c.out_bf16) {
      off[i] = Bf16Bits(off_f[i]);
      sc[i] = Bf16Bits(sc_f[i]);
      const uint32_t ob = uint32_t{off[i]} << 16, sb = uint32_t{sc[i]} << 16;
      std::memcpy(&offv[i], &ob, 4);
      std::memcpy(&scv[i], &sb, 4);
    } else {
      const half ho = static_cast<half>(off_f[i]), hs = static_cast<half>(sc_f[i]);
      std::memcpy(&off[i], &ho, 2);
      std::memcpy(&sc[i], &hs, 2);
      offv[i] = static_cast<float>(ho);
      scv[i] = static_cast<float>(hs);
    }
  }
  std::vector<uint16_t> dst0(total);
  for (auto& v : dst0) v = static_cast<uint16_t>(rng());
  DevMem ds(total), dof(params * 2), dsc(params * 2), dd(total * 2);
  CopyIn(ds, src.data(), total);
  CopyIn(dof, off.data(), params * 2);
  CopyIn(dsc, sc.data(), params * 2);
  CopyIn(dd, dst0.data(), total * 2);
  ASSERT_EQ(aclrtlaunch_adv_antiquant(1, stream, ds.get(), dof.get(), dsc.get(), dd.get(), c.k, c.n, c.groups,
                                      c.out_bf16, c.transpose, c.per_tensor, c.shape_arg, c.with_tmp),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<uint16_t> got(total);
  CopyOut(got.data(), dd, total * 2);
  std::vector<uint16_t> want(total);
  const uint32_t rows = c.transpose ? c.n : c.k, cols = c.transpose ? c.k : c.n, group = c.k / c.groups;
  const uint32_t pw = c.transpose ? c.groups : c.n;
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) {
      const uint32_t p = c.per_tensor ? 0 : (c.transpose ? i * pw + j / group : (i / group) * pw + j);
      const float x = src[i * cols + j];
      if (c.out_bf16) {
        want[i * cols + j] = Bf16Bits((x + offv[p]) * scv[p]);
      } else {
        const half sum = static_cast<half>(x + offv[p]);
        const half r = static_cast<half>(static_cast<float>(sum) * scv[p]);
        std::memcpy(&want[i * cols + j], &r, 2);
      }
    }
  }
  EXPECT_EQ(Mismatches(got, want), "") << "k " << c.k << " n " << c.n << " groups " << c.groups << " bf16 "
                                       << c.out_bf16 << " transpose " << c.transpose << " per_tensor "
                                       << c.per_tensor;
}

TEST_F(AdvQuantTest, AscendAntiQuantPerChannelGroupAndTensor) {
  uint64_t seed = 70;
  const AntiCase cases[] = {
      {8, 128, 1, 0, 0, 0, 0, 1},   // the sample: [8, 128], offset [1, 128] by SetShapeInfo
      {8, 64, 4, 0, 0, 0, 1, 0},    // groups of 2 rows, shape by AntiQuantShapeInfo
      {16, 32, 2, 1, 0, 0, 0, 1},   // bfloat16 out
      {32, 16, 4, 0, 1, 0, 1, 1},   // transposed: src [16, 32], params [16, 4]
      {64, 8, 2, 1, 1, 0, 0, 0},    // transposed, bfloat16
      {8, 64, 1, 0, 0, 1, 0, 1},    // per tensor
      {16, 32, 1, 1, 1, 1, 0, 0},   // per tensor, bfloat16, transposed
  };
  for (const AntiCase& c : cases) RunAntiQuant(stream_, c, ++seed);
}

TEST(AdvQuantTiling, SizesAndDataTypes) {
  uint32_t maxv = 0, minv = 0;
  AscendC::GetAscendQuantMaxMinTmpSize(AscendC::TensorShape({1024}), 4, maxv, minv);
  EXPECT_GE(maxv, minv);
  EXPECT_GE(minv, 256u);
  AscendC::GetAscendDequantMaxMinTmpSize(AscendC::TensorShape({128, 32}), 4, maxv, minv);
  EXPECT_GE(maxv, 128u * 32u * 4u);
  AscendC::GetAscendAntiQuantMaxMinTmpSize(AscendC::TensorShape({1024}), AscendC::TensorShape({128}), false,
                                           AscendC::TensorDataType::DT_INT8, AscendC::TensorDataType::DT_FLOAT16,
                                           maxv, minv);
  EXPECT_GE(maxv, minv);
}

}  // namespace
}  // namespace vectest
