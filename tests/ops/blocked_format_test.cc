// The blocked activation format NC1HWC0 (docs/operators.md): TransData to and from NCHW, and Conv2D and
// the pools on blocked tensors against the same ops on NCHW, on random data. Outputs are pre-filled with
// NaN, so a kernel that leaves the padding lanes past C unwritten (they must be zero) fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/operators.h"
#include "drivers/host/ops/dnnl_util.h"
#include "ref_util.h"

namespace npurt {
namespace {

using npurt_test::HostTensor;
using npurt_test::Random;

struct Arg {
  const HostTensor* t;
  int32_t format;
};

struct Result {
  Status status;
  TensorSpec spec;
  HostTensor out;
};

// Builds `type` over `args` and runs it once on them; the output starts as NaN. `constants`: per input,
// data constant for the program's life (OperatorCall::constants), as the model loader passes weights.
Result RunOp(const std::string& type, const std::vector<Arg>& args, const AttrMap& attrs,
             const std::vector<const void*>& constants = {}) {
  std::vector<TensorSpec> specs, requested;
  for (const Arg& a : args) specs.push_back(TensorSpec{a.t->dtype, a.format, a.t->dims});
  core::OperatorCall call;
  call.type = type;
  call.inputs = &specs;
  call.requested = &requested;
  call.attrs = &attrs;
  call.constants = constants.empty() ? nullptr : &constants;
  Result r;
  auto built = core::BuildOperator(call);
  if (!built.ok()) {
    r.status = built.status();
    return r;
  }
  r.spec = built->outputs.at(0);
  r.out = HostTensor(static_cast<aclDataType>(r.spec.dtype), r.spec.dims);
  for (size_t i = 0; i < r.out.numel(); ++i) r.out.set(i, std::numeric_limits<double>::quiet_NaN());
  std::vector<const void*> in;
  for (const Arg& a : args) in.push_back(a.t->bytes.data());
  void* outs[] = {r.out.bytes.data()};
  r.status = core::RunOperatorNow(*built->program, in.data(), static_cast<uint32_t>(in.size()), outs, 1, 2, "test");
  return r;
}

HostTensor MustRun(const std::string& type, const std::vector<Arg>& args, const AttrMap& attrs, const std::string& what) {
  Result r = RunOp(type, args, attrs);
  EXPECT_TRUE(r.status.ok()) << what << ": " << r.status.message();
  return r.out;
}

HostTensor ToBlocked(const HostTensor& x, int64_t c0) {
  return MustRun("TransData", {{&x, ACL_FORMAT_NCHW}}, {{"dst_format", std::string("NC1HWC0")}, {"c0", c0}},
                 "TransData to NC1HWC0");
}

HostTensor ToNchw(const HostTensor& x, int64_t channels) {
  return MustRun("TransData", {{&x, ACL_FORMAT_NC1HWC0}}, {{"dst_format", std::string("NCHW")}, {"channels", channels}},
                 "TransData to NCHW");
}

// Element (n, c, y, x) of a logical [N, C, H, W] in its NC1HWC0 buffer [N, C1, H, W, C0].
size_t BlockedIndex(const std::vector<int64_t>& bd, int64_t n, int64_t c, int64_t y, int64_t x) {
  const int64_t c0 = bd[4];
  return static_cast<size_t>((((n * bd[1] + c / c0) * bd[2] + y) * bd[3] + x) * c0 + c % c0);
}

// Every lane of `b` past `channels` is zero.
void ExpectZeroPadding(const HostTensor& b, int64_t channels, const std::string& what) {
  ASSERT_EQ(b.dims.size(), 5u) << what;
  size_t bad = 0;
  for (int64_t n = 0; n < b.dims[0]; ++n) {
    for (int64_t c = channels; c < b.dims[1] * b.dims[4]; ++c) {
      for (int64_t y = 0; y < b.dims[2]; ++y) {
        for (int64_t x = 0; x < b.dims[3]; ++x) bad += b.at(BlockedIndex(b.dims, n, c, y, x)) != 0.0;
      }
    }
  }
  EXPECT_EQ(bad, 0u) << what << ": padding lanes that are not zero";
}

void ExpectClose(const HostTensor& got, const HostTensor& want, double tol, const std::string& what) {
  ASSERT_EQ(got.dims, want.dims) << what;
  size_t bad = 0;
  for (size_t i = 0; i < want.numel(); ++i) {
    const double err = std::fabs(got.at(i) - want.at(i)) / std::max(std::fabs(want.at(i)), 1.0);
    if (!(err <= tol) && ++bad <= 5) ADD_FAILURE() << what << ": element " << i << " is " << got.at(i) << ", expected " << want.at(i);
  }
  EXPECT_EQ(bad, 0u) << what;
}

TEST(BlockedFormat, TransDataRoundTripsAndZeroesThePadding) {
  std::mt19937 rng(7);
  HostTensor x = Random(ACL_FLOAT, {2, 20, 5, 7}, rng);
  for (int64_t c0 : {8, 16}) {
    const std::string what = "c0 " + std::to_string(c0);
    HostTensor b = ToBlocked(x, c0);
    ASSERT_EQ(b.dims, (std::vector<int64_t>{2, (20 + c0 - 1) / c0, 5, 7, c0})) << what;
    for (int64_t n = 0; n < 2; ++n) {
      for (int64_t c = 0; c < 20; ++c) {
        EXPECT_EQ(b.at(BlockedIndex(b.dims, n, c, 3, 4)), x.at(static_cast<size_t>(((n * 20 + c) * 5 + 3) * 7 + 4)))
            << what;
      }
    }
    ExpectZeroPadding(b, 20, what);
    HostTensor back = ToNchw(b, 20);
    ASSERT_EQ(back.dims, x.dims) << what;
    EXPECT_EQ(std::memcmp(back.bytes.data(), x.bytes.data(), x.nbytes()), 0) << what;
  }
  // Channels that leave a block empty, or need one more, are refused.
  HostTensor b = ToBlocked(x, 8);
  AttrMap bad{{"dst_format", std::string("NCHW")}, {"channels", int64_t{16}}};
  EXPECT_FALSE(RunOp("TransData", {{&b, ACL_FORMAT_NC1HWC0}}, bad).status.ok());
  bad["channels"] = int64_t{25};
  EXPECT_FALSE(RunOp("TransData", {{&b, ACL_FORMAT_NC1HWC0}}, bad).status.ok());
}

struct ConvCase {
  const char* name;
  int64_t n, c, h, w, o, k, stride, pad, groups;
  std::vector<std::string> post_ops;
};

TEST(BlockedFormat, Conv2DMatchesNchw) {
  std::mt19937 rng(11);
  const std::vector<ConvCase> cases = {
      {"3x3", 1, 20, 9, 7, 24, 3, 1, 1, 1, {"relu"}},
      {"3x3 stride 2, add", 2, 16, 10, 10, 36, 3, 2, 1, 1, {"add", "relu"}},
      {"1x1", 1, 64, 6, 6, 40, 1, 1, 0, 1, {}},
      {"1x1 add", 1, 24, 6, 6, 24, 1, 1, 0, 1, {"add"}},
      {"depthwise", 1, 24, 11, 11, 24, 3, 2, 1, 24, {"clip"}},
      {"depthwise 32", 2, 32, 8, 8, 32, 3, 1, 1, 32, {"clip"}},
      {"first (C 3)", 1, 3, 16, 16, 32, 3, 2, 1, 1, {"clip"}},
      // ResNet-50's first: NCHW in, NC1HWC0 out runs with no scratchpad and no reorder at all.
      {"7x7 stride 2 (C 3)", 1, 3, 224, 224, 64, 7, 2, 3, 1, {"relu"}},
  };
  for (const ConvCase& cc : cases) {
    for (int64_t c0 : {8, 16}) {
      const std::string what = std::string(cc.name) + " c0 " + std::to_string(c0);
      HostTensor x = Random(ACL_FLOAT, {cc.n, cc.c, cc.h, cc.w}, rng, -1, 1);
      HostTensor f = Random(ACL_FLOAT, {cc.o, cc.c / cc.groups, cc.k, cc.k}, rng, -0.5, 0.5);
      HostTensor bias = Random(ACL_FLOAT, {cc.o}, rng, -1, 1);
      const int64_t oh = (cc.h + 2 * cc.pad - cc.k) / cc.stride + 1, ow = (cc.w + 2 * cc.pad - cc.k) / cc.stride + 1;
      HostTensor addend = Random(ACL_FLOAT, {cc.n, cc.o, oh, ow}, rng, -1, 1);
      AttrMap attrs{{"strides", std::vector<int64_t>{cc.stride, cc.stride}},
                    {"pads", std::vector<int64_t>{cc.pad, cc.pad, cc.pad, cc.pad}},
                    {"groups", cc.groups},
                    {"post_ops", cc.post_ops},
                    {"clip_min", 0.0f},
                    {"clip_max", 6.0f}};
      const bool add = std::find(cc.post_ops.begin(), cc.post_ops.end(), "add") != cc.post_ops.end();
      std::vector<Arg> plain = {{&x, ACL_FORMAT_NCHW}, {&f, ACL_FORMAT_NCHW}, {&bias, ACL_FORMAT_ND}};
      if (add) plain.push_back({&addend, ACL_FORMAT_NCHW});
      HostTensor want = MustRun("Conv2D", plain, attrs, what + " NCHW");

      // NC1HWC0 in and out (the activations between convolutions).
      HostTensor xb = ToBlocked(x, c0), ab = ToBlocked(addend, c0);
      std::vector<Arg> blocked = {{&xb, ACL_FORMAT_NC1HWC0}, {&f, ACL_FORMAT_NCHW}, {&bias, ACL_FORMAT_ND}};
      if (add) blocked.push_back({&ab, ACL_FORMAT_NC1HWC0});
      Result r = RunOp("Conv2D", blocked, attrs);
      ASSERT_TRUE(r.status.ok()) << what << ": " << r.status.message();
      EXPECT_EQ(r.spec.format, ACL_FORMAT_NC1HWC0) << what;
      EXPECT_EQ(r.spec.dims, (std::vector<int64_t>{cc.n, (cc.o + c0 - 1) / c0, oh, ow, c0})) << what;
      ExpectZeroPadding(r.out, cc.o, what + " blocked -> blocked");
      ExpectClose(ToNchw(r.out, cc.o), want, 1e-5, what + " blocked -> blocked");

      // NCHW in, NC1HWC0 out (a model's first convolution) and NC1HWC0 in, NCHW out.
      AttrMap to_blocked = attrs;
      to_blocked["dst_format"] = std::string("NC1HWC0");
      to_blocked["c0"] = c0;
      std::vector<Arg> mixed = plain;
      if (add) mixed.back() = {&ab, ACL_FORMAT_NC1HWC0};
      Result m = RunOp("Conv2D", mixed, to_blocked);
      ASSERT_TRUE(m.status.ok()) << what << ": " << m.status.message();
      ExpectZeroPadding(m.out, cc.o, what + " NCHW -> blocked");
      ExpectClose(ToNchw(m.out, cc.o), want, 1e-5, what + " NCHW -> blocked");
      AttrMap to_plain = attrs;
      to_plain["dst_format"] = std::string("NCHW");
      std::vector<Arg> back = blocked;
      if (add) back.back() = {&addend, ACL_FORMAT_NCHW};
      ExpectClose(MustRun("Conv2D", back, to_plain, what), want, 1e-5, what + " blocked -> NCHW");
    }
  }
}

// ResNet-50's first convolution as a model compiles it (constant filter, NCHW in, NC1HWC0 out): nothing
// is reordered per run. (In the model oneDNN also needed no scratchpad, which once made the kernel report a
// failed scratch allocation; standalone here it does not always reproduce that.)
TEST(BlockedFormat, Conv2DWithConstantFilterAndNothingToReorder) {
  std::mt19937 rng(13);
  HostTensor x = Random(ACL_FLOAT, {1, 3, 224, 224}, rng, -1, 1);
  HostTensor f = Random(ACL_FLOAT, {64, 3, 7, 7}, rng, -0.5, 0.5);
  HostTensor bias = Random(ACL_FLOAT, {64}, rng, -1, 1);
  AttrMap attrs{{"strides", std::vector<int64_t>{2, 2}}, {"pads", std::vector<int64_t>{3, 3, 3, 3}},
                {"post_ops", std::vector<std::string>{"relu"}}};
  const std::vector<Arg> args = {{&x, ACL_FORMAT_NCHW}, {&f, ACL_FORMAT_NCHW}, {&bias, ACL_FORMAT_ND}};
  HostTensor want = MustRun("Conv2D", args, attrs, "NCHW");
  attrs["dst_format"] = std::string("NC1HWC0");
  Result r = RunOp("Conv2D", args, attrs, {nullptr, f.bytes.data(), nullptr});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectZeroPadding(r.out, 64, "7x7");
  ExpectClose(ToNchw(r.out, 64), want, 1e-5, "7x7 constant filter");
}

TEST(BlockedFormat, Conv2DRefusesMismatchedBlockedInputs) {
  std::mt19937 rng(3);
  HostTensor x = Random(ACL_FLOAT, {1, 16, 4, 4}, rng);
  HostTensor xb = ToBlocked(x, 8);
  HostTensor f = Random(ACL_FLOAT, {8, 24, 1, 1}, rng);  // 24 channels: three blocks, x has two
  EXPECT_FALSE(RunOp("Conv2D", {{&xb, ACL_FORMAT_NC1HWC0}, {&f, ACL_FORMAT_NCHW}}, {}).status.ok());
  HostTensor f16 = Random(ACL_FLOAT, {8, 16, 1, 1}, rng);
  HostTensor addend = Random(ACL_FLOAT, {1, 8, 4, 4}, rng);  // NCHW addend for a blocked y
  AttrMap add{{"post_ops", std::vector<std::string>{"add"}}};
  EXPECT_FALSE(RunOp("Conv2D", {{&xb, ACL_FORMAT_NC1HWC0}, {&f16, ACL_FORMAT_NCHW}, {&addend, ACL_FORMAT_NCHW}}, add)
                   .status.ok());
}

TEST(BlockedFormat, PoolsMatchNchw) {
  std::mt19937 rng(5);
  struct PoolCase {
    const char* type;
    AttrMap attrs;
  };
  const std::vector<PoolCase> cases = {
      {"MaxPool", {{"ksize", std::vector<int64_t>{3, 3}}, {"strides", std::vector<int64_t>{2, 2}},
                   {"pads", std::vector<int64_t>{1, 1, 1, 1}}}},
      {"AvgPool", {{"ksize", std::vector<int64_t>{3, 3}}, {"strides", std::vector<int64_t>{1, 1}},
                   {"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"exclusive", false}}},
      {"AvgPool", {{"ksize", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}},
      {"GlobalAveragePool", {}},
  };
  for (const PoolCase& pc : cases) {
    for (int64_t c0 : {8, 16}) {
      const std::string what = std::string(pc.type) + " c0 " + std::to_string(c0);
      HostTensor x = Random(ACL_FLOAT, {2, 20, 9, 8}, rng);
      HostTensor want = MustRun(pc.type, {{&x, ACL_FORMAT_NCHW}}, pc.attrs, what);
      HostTensor xb = ToBlocked(x, c0);
      Result r = RunOp(pc.type, {{&xb, ACL_FORMAT_NC1HWC0}}, pc.attrs);
      ASSERT_TRUE(r.status.ok()) << what << ": " << r.status.message();
      EXPECT_EQ(r.spec.format, ACL_FORMAT_NC1HWC0) << what;
      ExpectZeroPadding(r.out, 20, what);
      ExpectClose(ToNchw(r.out, 20), want, 1e-6, what);
    }
  }
}

// Relative L2 error of `got` against `want`.
double RelL2(const HostTensor& got, const HostTensor& want) {
  double num = 0, den = 0;
  for (size_t i = 0; i < want.numel(); ++i) {
    num += (got.at(i) - want.at(i)) * (got.at(i) - want.at(i));
    den += want.at(i) * want.at(i);
  }
  return std::sqrt(num / std::max(den, 1e-30));
}

bool BitwiseEqual(const HostTensor& a, const HostTensor& b) {
  return a.nbytes() == b.nbytes() && std::memcmp(a.bytes.data(), b.bytes.data(), a.nbytes()) == 0;
}

// A 3x3, stride-1 Conv2D (bias, relu) on NC1HWC0 and NCHW activations with attrs `extra`, against the
// direct algorithm; the filter constant (as a model's weights) or a runtime input.
struct ConvAlgoCase {
  HostTensor x, xb, f, bias;
  AttrMap attrs{{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"post_ops", std::vector<std::string>{"relu"}}};

  explicit ConvAlgoCase(std::mt19937& rng)
      : x(Random(ACL_FLOAT, {2, 32, 13, 11}, rng, -1, 1, true)),
        xb(ToBlocked(x, 16)),
        f(Random(ACL_FLOAT, {48, 32, 3, 3}, rng, -0.5, 0.5, true)),
        bias(Random(ACL_FLOAT, {48}, rng, -1, 1, true)) {}

  HostTensor Run(const AttrMap& extra, bool blocked, bool constant_filter, const std::string& what) const {
    AttrMap a = attrs;
    for (const auto& [k, v] : extra) a[k] = v;
    const std::vector<const void*> constants = {nullptr, f.bytes.data(), nullptr};
    Result r = RunOp("Conv2D", {{blocked ? &xb : &x, blocked ? ACL_FORMAT_NC1HWC0 : ACL_FORMAT_NCHW},
                                {&f, ACL_FORMAT_NCHW}, {&bias, ACL_FORMAT_ND}},
                     a, constant_filter ? constants : std::vector<const void*>{});
    EXPECT_TRUE(r.status.ok()) << what << ": " << r.status.message();
    return blocked ? ToNchw(r.out, 48) : r.out;
  }
};

// Winograd (what atc's default --op_select_implmode=high_performance asks for) agrees with the direct algorithm
// to fp32 rounding, with a constant or a runtime filter; NPURT_CONV_WINOGRAD=0 turns it off.
TEST(ConvAlgorithms, WinogradMatchesTheDirectAlgorithm) {
  std::mt19937 rng(31);
  ConvAlgoCase c(rng);
  const AttrMap wino{{"algorithm", std::string("winograd")}};
  for (bool blocked : {true, false}) {
    for (bool constant : {true, false}) {
      const std::string what = std::string(blocked ? "NC1HWC0" : "NCHW") + (constant ? " constant filter" : " runtime filter");
      const HostTensor direct = c.Run({}, blocked, constant, what + " direct");
      const HostTensor w = c.Run(wino, blocked, constant, what + " winograd");
      ExpectClose(w, direct, 2e-5, what);
      EXPECT_LT(RelL2(w, direct), 2e-6) << what;
      // oneDNN 2.6 has Winograd on AVX-512 for blocked activations: the results then differ in the last bits.
      if (blocked && drivers::host::dnnl_util::NativeC0() == 16) {
        EXPECT_FALSE(BitwiseEqual(w, direct)) << what << ": Winograd did not run";
      }
    }
  }
  ASSERT_EQ(setenv("NPURT_CONV_WINOGRAD", "0", 1), 0);
  const HostTensor off = c.Run(wino, true, true, "NPURT_CONV_WINOGRAD=0");
  unsetenv("NPURT_CONV_WINOGRAD");
  EXPECT_TRUE(BitwiseEqual(off, c.Run({}, true, true, "direct"))) << "NPURT_CONV_WINOGRAD=0 runs the direct algorithm";
}

// compute_dtype bfloat16 (atc's bf16 precision modes): fp32 tensors, bf16 products with fp32 sums, where the CPU
// has AVX512-BF16; elsewhere the convolution stays fp32.
TEST(ConvAlgorithms, Bf16ComputeStaysWithinBf16Rounding) {
  std::mt19937 rng(32);
  ConvAlgoCase c(rng);
  const AttrMap bf16{{"compute_dtype", std::string("bfloat16")}};
  for (bool blocked : {true, false}) {
    const std::string what = blocked ? "NC1HWC0" : "NCHW";
    const HostTensor fp32 = c.Run({}, blocked, true, what + " fp32");
    const HostTensor b = c.Run(bf16, blocked, true, what + " bf16");
    const double err = RelL2(b, fp32);
    EXPECT_LT(err, 1e-2) << what;  // 8 bits of mantissa in each factor of 288 products
    if (drivers::host::dnnl_util::Bf16Instructions()) {
      EXPECT_GT(err, 1e-5) << what << ": no bf16 rounding, so bf16 did not compute";
    } else {
      EXPECT_TRUE(BitwiseEqual(b, fp32)) << what << ": without AVX512-BF16 the convolution stays fp32";
    }
  }
}

// Two bf16 convolutions with the activation between them stored in bf16 NC1HWC0 (attr dst_dtype bfloat16 on
// the first, atc's ChainBf16Activations) compute what two fp32 ones do, to bf16 rounding.
TEST(ConvAlgorithms, Bf16ActivationsBetweenConvolutions) {
  std::mt19937 rng(34);
  ConvAlgoCase c(rng);
  HostTensor f2 = Random(ACL_FLOAT, {16, 48, 3, 3}, rng, -0.5, 0.5, true);
  const AttrMap bf16{{"compute_dtype", std::string("bfloat16")}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  AttrMap first = bf16;
  first["dst_dtype"] = std::string("bfloat16");
  first["post_ops"] = std::vector<std::string>{"relu"};
  Result mid = RunOp("Conv2D", {{&c.xb, ACL_FORMAT_NC1HWC0}, {&c.f, ACL_FORMAT_NCHW}, {&c.bias, ACL_FORMAT_ND}}, first);
  ASSERT_TRUE(mid.status.ok()) << mid.status.message();
  EXPECT_EQ(mid.spec.dtype, ACL_BF16);
  EXPECT_EQ(mid.spec.format, ACL_FORMAT_NC1HWC0);
  Result out = RunOp("Conv2D", {{&mid.out, ACL_FORMAT_NC1HWC0}, {&f2, ACL_FORMAT_NCHW}}, bf16);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.spec.dtype, ACL_FLOAT);
  const HostTensor mid32 = c.Run({}, true, true, "fp32 first");
  const HostTensor mid32b = ToBlocked(mid32, 16);
  const AttrMap pads{{"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  const HostTensor want = MustRun("Conv2D", {{&mid32b, ACL_FORMAT_NC1HWC0}, {&f2, ACL_FORMAT_NCHW}}, pads, "fp32 second");
  EXPECT_LT(RelL2(ToNchw(out.out, 16), ToNchw(want, 16)), 2e-2);
  // A bf16 y needs a bf16 convolution writing NC1HWC0; a bf16 x needs compute_dtype bfloat16.
  AttrMap fp32_bf16_y = c.attrs;
  fp32_bf16_y["dst_dtype"] = std::string("bfloat16");
  Result r = RunOp("Conv2D", {{&c.xb, ACL_FORMAT_NC1HWC0}, {&c.f, ACL_FORMAT_NCHW}}, fp32_bf16_y);
  EXPECT_EQ(r.status.code(), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(r.status.message().find("dst_dtype"), std::string::npos) << r.status.message();
  // (Where bf16 is not native the backend widens every bf16 input to fp32 first, so the types then agree.)
  if (drivers::host::dnnl_util::NativeBf16()) {
    Result plain = RunOp("Conv2D", {{&mid.out, ACL_FORMAT_NC1HWC0}, {&f2, ACL_FORMAT_NCHW}}, pads);
    EXPECT_FALSE(plain.status.ok()) << "an fp32 convolution of a bf16 x with an fp32 filter";
  }
}

TEST(ConvAlgorithms, UnknownValuesAreRefused) {
  std::mt19937 rng(33);
  ConvAlgoCase c(rng);
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"algorithm", "fft"}, {"compute_dtype", "float16"}, {"dst_dtype", "int8"}}) {
    AttrMap a = c.attrs;
    a[name] = value;
    Result r = RunOp("Conv2D", {{&c.x, ACL_FORMAT_NCHW}, {&c.f, ACL_FORMAT_NCHW}}, a);
    EXPECT_EQ(r.status.code(), ACL_ERROR_OP_ATTR_NOT_MATCH) << name;
    EXPECT_NE(r.status.message().find(value), std::string::npos) << r.status.message();
  }
}

}  // namespace
}  // namespace npurt
