// Fused post-ops (attribute post_ops) and constant inputs (OperatorCall::constants) of the oneDNN-backed
// operators, through core::BuildOperator and core::RunOperatorNow on host memory: each post-op against the
// unfused operator followed by the separate element-wise operator on the same backend; constant weights
// against runtime weights; the calls that must be refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
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

struct Call {
  std::string type;
  std::vector<const HostTensor*> inputs = {};  // null: an absent input (ACL_DT_UNDEFINED)
  AttrMap attrs = {};
  std::vector<int32_t> formats = {};           // per input; ND when left out
  std::vector<const void*> constants = {};     // empty: none
};

struct Built {
  Status status;
  std::shared_ptr<const core::OperatorProgram> program;
  std::vector<TensorSpec> outputs;
};

Built Build(const Call& c) {
  std::vector<TensorSpec> specs, requested;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    TensorSpec s;
    if (c.inputs[i] != nullptr) {
      s = TensorSpec{c.inputs[i]->dtype, i < c.formats.size() ? c.formats[i] : ACL_FORMAT_ND, c.inputs[i]->dims};
    }
    specs.push_back(s);
  }
  core::OperatorCall call;
  call.type = c.type;
  call.inputs = &specs;
  call.requested = &requested;
  call.attrs = &c.attrs;
  call.constants = c.constants.empty() ? nullptr : &c.constants;
  Built b;
  auto r = core::BuildOperator(call);
  if (!r.ok()) {
    b.status = r.status();
    return b;
  }
  b.program = r->program;
  b.outputs = r->outputs;
  return b;
}

// Runs a built program on `inputs` (the pointers it is dispatched with; null for absent inputs).
HostTensor RunBuilt(const Built& b, const std::vector<const HostTensor*>& inputs) {
  std::vector<const void*> in;
  for (const HostTensor* t : inputs) in.push_back(t != nullptr ? t->bytes.data() : nullptr);
  HostTensor out(static_cast<aclDataType>(b.outputs.at(0).dtype), b.outputs.at(0).dims);
  void* outs[] = {out.bytes.data()};
  Status st = core::RunOperatorNow(*b.program, in.data(), static_cast<uint32_t>(in.size()), outs, 1, 2, "test");
  EXPECT_TRUE(st.ok()) << st.message();
  return out;
}

HostTensor RunCall(const Call& c) {
  Built b = Build(c);
  EXPECT_TRUE(b.status.ok()) << c.type << ": " << b.status.message();
  if (!b.status.ok()) return HostTensor();
  return RunBuilt(b, c.inputs);
}

int32_t BuildCode(const Call& c, std::string* message = nullptr) {
  Built b = Build(c);
  if (message != nullptr) *message = b.status.message();
  return b.status.code();
}

// |got - want| <= tol * max(|want|, 1) element-wise: relative error, measured against 1 where the
// result is smaller (a relative error of values near 0 says nothing about the kernel).
void ExpectRelClose(const HostTensor& got, const HostTensor& want, double tol, const std::string& what) {
  ASSERT_EQ(got.numel(), want.numel()) << what;
  ASSERT_GT(got.numel(), 0u) << what;
  size_t bad = 0;
  double worst = 0;
  for (size_t i = 0; i < want.numel(); ++i) {
    const double g = got.at(i), w = want.at(i);
    const double err = std::fabs(g - w) / std::max(std::fabs(w), 1.0);
    worst = std::max(worst, err);
    if (!(err <= tol) && ++bad <= 5) ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << w;
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << want.numel() << " elements out of tolerance (worst " << worst
                     << ")";
}

void ExpectBitwise(const HostTensor& got, const HostTensor& want, const std::string& what) {
  ASSERT_EQ(got.nbytes(), want.nbytes()) << what;
  EXPECT_EQ(std::memcmp(got.bytes.data(), want.bytes.data(), got.nbytes()), 0) << what;
}

// One post-op and the separate operators that compute the same on the unfused result `y`.
struct PostOpCase {
  const char* name;
  std::function<HostTensor(const HostTensor& y, const HostTensor& addend)> separate;
};

HostTensor Unary(const char* type, const HostTensor& y, AttrMap attrs = {}) { return RunCall({type, {&y}, attrs}); }
HostTensor Binary(const char* type, const HostTensor& y, const HostTensor& z) { return RunCall({type, {&y, &z}}); }

const float kClipMin = -0.75f, kClipMax = 1.5f;

std::vector<PostOpCase> Cases() {
  return {
      {"relu", [](const HostTensor& y, const HostTensor&) { return Unary("Relu", y); }},
      {"clip",
       [](const HostTensor& y, const HostTensor&) {
         return Unary("Clip", y, {{"min", kClipMin}, {"max", kClipMax}});
       }},
      {"sigmoid", [](const HostTensor& y, const HostTensor&) { return Unary("Sigmoid", y); }},
      {"swish", [](const HostTensor& y, const HostTensor&) { return Binary("Mul", y, Unary("Sigmoid", y)); }},
      {"gelu_erf", [](const HostTensor& y, const HostTensor&) { return Unary("Gelu", y); }},
      {"gelu_tanh",
       [](const HostTensor& y, const HostTensor&) { return Unary("Gelu", y, {{"approximate", std::string("tanh")}}); }},
      {"tanh", [](const HostTensor& y, const HostTensor&) { return Unary("Tanh", y); }},
      {"add", [](const HostTensor& y, const HostTensor& z) { return Binary("Add", y, z); }},
  };
}

// Applies `names` in order through the separate operators.
HostTensor Separate(const std::vector<std::string>& names, HostTensor y, const HostTensor& addend) {
  const auto cases = Cases();
  for (const std::string& n : names) {
    for (const auto& c : cases) {
      if (n == c.name) y = c.separate(y, addend);
    }
  }
  return y;
}

// The chains every operator is checked with: each post-op alone, ResNet's add+relu, ReLU6 and longer chains.
std::vector<std::vector<std::string>> Chains() {
  std::vector<std::vector<std::string>> chains;
  for (const auto& c : Cases()) chains.push_back({c.name});
  chains.push_back({"add", "relu"});
  chains.push_back({"relu", "add"});
  chains.push_back({"clip", "add", "tanh"});
  chains.push_back({"gelu_erf", "add", "sigmoid"});
  return chains;
}

bool HasAdd(const std::vector<std::string>& chain) { return std::find(chain.begin(), chain.end(), "add") != chain.end(); }

AttrMap WithPostOps(AttrMap attrs, const std::vector<std::string>& chain) {
  attrs["post_ops"] = chain;
  attrs["clip_min"] = kClipMin;
  attrs["clip_max"] = kClipMax;
  return attrs;
}

// Checks every chain of `base` (whose result has y's shape) fused against unfused + separate.
void CheckChains(const Call& base, aclDataType out_dtype, const std::vector<int64_t>& out_dims, std::mt19937& rng,
                 const std::string& what, const std::vector<int32_t>& addend_format = {}) {
  const HostTensor y = RunCall(base);
  ASSERT_EQ(y.dims, out_dims) << what;
  const HostTensor addend = Random(out_dtype, out_dims, rng, -2, 2, true);
  for (const auto& chain : Chains()) {
    Call fused = base;
    fused.attrs = WithPostOps(base.attrs, chain);
    if (HasAdd(chain)) {
      fused.inputs.push_back(&addend);
      if (!addend_format.empty()) fused.formats.push_back(addend_format[0]);
    }
    std::string name = what + " post_ops";
    for (const auto& n : chain) name += " " + n;
    const HostTensor got = RunCall(fused);
    ExpectRelClose(got, Separate(chain, y, addend), 1e-5, name);
  }
}

TEST(FusedPostOps, Conv2DMatchesTheSeparateOps) {
  std::mt19937 rng(101);
  const int64_t n = 2, c = 16, h = 9, w = 7, o = 32;
  HostTensor f = Random(ACL_FLOAT, {o, c, 3, 3}, rng, -0.5, 0.5, true);
  HostTensor bias = Random(ACL_FLOAT, {o}, rng, -1, 1, true);
  const AttrMap nchw{{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                     {"data_format", std::string("NCHW")}};
  HostTensor x = Random(ACL_FLOAT, {n, c, h, w}, rng, -1, 1, true);
  CheckChains({"Conv2D", {&x, &f, &bias}, nchw, {ACL_FORMAT_NCHW, ACL_FORMAT_NCHW, ACL_FORMAT_ND}}, ACL_FLOAT,
              {n, o, h, w}, rng, "Conv2D NCHW bias", {ACL_FORMAT_NCHW});
  CheckChains({"Conv2D", {&x, &f}, nchw, {ACL_FORMAT_NCHW, ACL_FORMAT_NCHW}}, ACL_FLOAT, {n, o, h, w}, rng,
              "Conv2D NCHW", {ACL_FORMAT_NCHW});
  const AttrMap nhwc{{"strides", std::vector<int64_t>{1, 2, 2, 1}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                     {"data_format", std::string("NHWC")}};
  HostTensor xh = Random(ACL_FLOAT, {n, h, w, c}, rng, -1, 1, true);
  CheckChains({"Conv2D", {&xh, &f, &bias}, nhwc, {ACL_FORMAT_NHWC, ACL_FORMAT_NCHW, ACL_FORMAT_ND}}, ACL_FLOAT,
              {n, 5, 4, o}, rng, "Conv2D NHWC stride 2", {ACL_FORMAT_NHWC});
  // A 1x1 convolution with few channels (oneDNN's other kernels and plain layouts).
  HostTensor x1 = Random(ACL_FLOAT, {1, 3, 5, 6}, rng, -1, 1, true);
  HostTensor f1 = Random(ACL_FLOAT, {5, 3, 1, 1}, rng, -1, 1, true);
  CheckChains({"Conv2D", {&x1, &f1}, AttrMap{{"data_format", std::string("NCHW")}}, {ACL_FORMAT_NCHW, ACL_FORMAT_NCHW}},
              ACL_FLOAT, {1, 5, 5, 6}, rng, "Conv2D 1x1", {ACL_FORMAT_NCHW});
}

TEST(FusedPostOps, MatMulBatchMatMulGemmMatchTheSeparateOps) {
  std::mt19937 rng(202);
  const int64_t m = 19, k = 45, n = 33;
  HostTensor a = Random(ACL_FLOAT, {m, k}, rng, -1, 1, true);
  HostTensor b = Random(ACL_FLOAT, {k, n}, rng, -0.5, 0.5, true);
  HostTensor bt = Random(ACL_FLOAT, {n, k}, rng, -0.5, 0.5, true);
  HostTensor bias = Random(ACL_FLOAT, {n}, rng, -1, 1, true);
  CheckChains({"MatMul", {&a, &b, &bias}}, ACL_FLOAT, {m, n}, rng, "MatMul bias");
  CheckChains({"MatMul", {&a, &bt}, AttrMap{{"transpose_x2", true}}}, ACL_FLOAT, {m, n}, rng, "MatMul transposed");
  CheckChains({"MatMulV2", {&a, &b}}, ACL_FLOAT, {m, n}, rng, "MatMulV2");
  HostTensor ba = Random(ACL_FLOAT, {3, m, k}, rng, -1, 1, true);
  HostTensor bb = Random(ACL_FLOAT, {3, k, n}, rng, -0.5, 0.5, true);
  CheckChains({"BatchMatMul", {&ba, &bb}}, ACL_FLOAT, {3, m, n}, rng, "BatchMatMul");
  CheckChains({"BatchMatMulV2", {&ba, &b}}, ACL_FLOAT, {3, m, n}, rng, "BatchMatMulV2 broadcast");
  HostTensor cm = Random(ACL_FLOAT, {m, n}, rng, -1, 1, true);
  for (double beta_v : {0.0, 1.0, -0.5}) {
    HostTensor alpha(ACL_FLOAT, {}), beta(ACL_FLOAT, {});
    alpha.set(0, 1.25);
    beta.set(0, beta_v);
    CheckChains({"GEMM", {&a, &b, &cm, &alpha, &beta}}, ACL_FLOAT, {m, n}, rng,
                "GEMM beta " + std::to_string(beta_v));
  }
}

// Half-precision calls run as fp32 inside (fp16_via_fp32): the post-ops, and the addend, ride along.
TEST(FusedPostOps, Float16AndBfloat16) {
  std::mt19937 rng(303);
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    HostTensor a = Random(dt, {8, 24}, rng, -1, 1, true), b = Random(dt, {24, 16}, rng, -1, 1, true);
    HostTensor z = Random(dt, {8, 16}, rng, -1, 1, true);
    const HostTensor y = RunCall({"MatMul", {&a, &b}});
    const HostTensor fused = RunCall({"MatMul", {&a, &b, &z}, WithPostOps({}, {"add", "relu"})});
    // One rounding of the result in the half type against two (unfused y, then the add): a half ulp each.
    ExpectRelClose(fused, Separate({"add", "relu"}, y, z), dt == ACL_FLOAT16 ? 2e-3 : 1.6e-2,
                   std::string("MatMul add relu ") + std::to_string(dt));
  }
}

// Absent bias: left out (x, filter, addend) or an absent input in its place; both are the same call.
TEST(FusedPostOps, AbsentBiasIsLeftOutOrAnUndefinedInput) {
  std::mt19937 rng(404);
  HostTensor x = Random(ACL_FLOAT, {1, 8, 6, 6}, rng, -1, 1, true), f = Random(ACL_FLOAT, {8, 8, 3, 3}, rng, -1, 1, true);
  HostTensor z = Random(ACL_FLOAT, {1, 8, 4, 4}, rng, -1, 1, true);
  const AttrMap attrs = WithPostOps({{"data_format", std::string("NCHW")}}, {"add", "relu"});
  const std::vector<int32_t> fmt(4, ACL_FORMAT_NCHW);
  const HostTensor left_out = RunCall({"Conv2D", {&x, &f, &z}, attrs, fmt});
  const HostTensor absent = RunCall({"Conv2D", {&x, &f, nullptr, &z}, attrs, fmt});
  ExpectBitwise(absent, left_out, "Conv2D absent bias");
  const HostTensor plain = RunCall({"Conv2D", {&x, &f, nullptr}, AttrMap{{"data_format", std::string("NCHW")}}, fmt});
  ExpectBitwise(plain, RunCall({"Conv2D", {&x, &f}, AttrMap{{"data_format", std::string("NCHW")}}, fmt}),
                "Conv2D trailing absent bias");
  HostTensor a = Random(ACL_FLOAT, {5, 7}, rng, -1, 1, true), b = Random(ACL_FLOAT, {7, 3}, rng, -1, 1, true);
  HostTensor za = Random(ACL_FLOAT, {5, 3}, rng, -1, 1, true);
  const AttrMap add = WithPostOps({}, {"add"});
  ExpectBitwise(RunCall({"MatMul", {&a, &b, nullptr, &za}, add}), RunCall({"MatMul", {&a, &b, &za}, add}), "MatMul absent bias");
  // Only the bias may be absent.
  EXPECT_EQ(BuildCode({"MatMul", {&a, nullptr, &za}, add}), ACL_ERROR_UNSUPPORTED_DATA_TYPE);
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b, nullptr}, add}), ACL_ERROR_OP_INPUT_NOT_MATCH);  // the addend is absent
}

TEST(FusedPostOps, BadPostOpsAndAddendsAreRefused) {
  std::mt19937 rng(505);
  HostTensor a = Random(ACL_FLOAT, {4, 6}, rng, -1, 1, true), b = Random(ACL_FLOAT, {6, 5}, rng, -1, 1, true);
  HostTensor z = Random(ACL_FLOAT, {4, 5}, rng, -1, 1, true);
  std::string msg;
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b}, WithPostOps({}, {"relu", "leaky_relu"})}, &msg), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(msg.find("leaky_relu"), std::string::npos) << msg;
  HostTensor x = Random(ACL_FLOAT, {1, 4, 5, 5}, rng, -1, 1, true), f = Random(ACL_FLOAT, {4, 4, 3, 3}, rng, -1, 1, true);
  const std::vector<int32_t> fmt(4, ACL_FORMAT_NCHW);
  EXPECT_EQ(BuildCode({"Conv2D", {&x, &f}, WithPostOps({}, {"Relu"}), fmt}, &msg), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(msg.find("'Relu'"), std::string::npos) << msg;
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b}, AttrMap{{"post_ops", std::string("relu")}}}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b, &z, &z}, WithPostOps({}, {"add", "add"})}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  AttrMap bad_clip = WithPostOps({}, {"clip"});
  bad_clip["clip_min"] = 2.0f;
  bad_clip["clip_max"] = 1.0f;
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b}, bad_clip}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  // The addend: of y's shape and type, present when add is asked for, absent otherwise.
  HostTensor wrong_shape = Random(ACL_FLOAT, {5, 4}, rng, -1, 1, true), row = Random(ACL_FLOAT, {1, 5}, rng);
  HostTensor wrong_type(ACL_INT32, {4, 5});  // (a float16 addend would run widened, as float16 x2 does)
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b, &wrong_shape}, WithPostOps({}, {"add"})}, &msg), ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_NE(msg.find("addend"), std::string::npos) << msg;
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b, &row}, WithPostOps({}, {"add"})}), ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b, &wrong_type}, WithPostOps({}, {"add"})}), ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b}, WithPostOps({}, {"add"})}), ACL_ERROR_OP_INPUT_NOT_MATCH);
  HostTensor bias = Random(ACL_FLOAT, {5}, rng);
  EXPECT_EQ(BuildCode({"MatMul", {&a, &b, &bias, &z}, WithPostOps({}, {"relu"})}), ACL_ERROR_OP_INPUT_NOT_MATCH);
  HostTensor zc = Random(ACL_FLOAT, {1, 4, 4, 4}, rng, -1, 1, true);  // y is [1, 4, 3, 3]
  EXPECT_EQ(BuildCode({"Conv2D", {&x, &f, &zc}, WithPostOps({}, {"add"}), fmt}), ACL_ERROR_OP_INPUT_NOT_MATCH);
  HostTensor ba = Random(ACL_FLOAT, {2, 4, 6}, rng), zb = Random(ACL_FLOAT, {4, 5}, rng);
  EXPECT_EQ(BuildCode({"BatchMatMul", {&ba, &b, &zb}, WithPostOps({}, {"add"})}), ACL_ERROR_OP_INPUT_NOT_MATCH);
  HostTensor cm(ACL_FLOAT, {4, 5}), alpha(ACL_FLOAT, {}), beta(ACL_FLOAT, {});
  EXPECT_EQ(BuildCode({"GEMM", {&a, &b, &cm, &alpha, &beta, &wrong_shape}, WithPostOps({}, {"add"})}),
            ACL_ERROR_OP_INPUT_NOT_MATCH);
  // Constants: one entry per input.
  Call c{"MatMul", {&a, &b}};
  c.constants = {nullptr};
  EXPECT_EQ(BuildCode(c), ACL_ERROR_OP_INPUT_NOT_MATCH);
}

// A constant weight gives the result the runtime weight gives. With `packed` (the primitive's weights
// layout is not the caller's, so the weights were reordered at build) the run no longer reads the weight
// input: Conv2D's filter always is (oneDNN's jit convolutions compute on blocked filters); a MatMul's B
// where oneDNN prefers another layout than the caller's: a transposed B, or a blocked one for its brgemm
// kernels (its fp32 GEMM reads a plain B as it is, and the kernel then reads the input).
void CheckConstantWeights(Call call, size_t weight, const std::string& what, bool bitwise, bool packed = false) {
  const HostTensor want = RunCall(call);
  call.constants.assign(call.inputs.size(), nullptr);
  call.constants[weight] = call.inputs[weight]->bytes.data();
  const Built built = Build(call);
  ASSERT_TRUE(built.status.ok()) << what << ": " << built.status.message();
  const HostTensor got = RunBuilt(built, call.inputs);
  if (bitwise) {
    ExpectBitwise(got, want, what + " constant weights");
  } else {
    ExpectRelClose(got, want, 1e-6, what + " constant weights");
  }
  if (!packed) return;
  // Dispatched with other data in the weight's place, the prepacked weights still answer.
  HostTensor other = *call.inputs[weight];
  for (auto& byte : other.bytes) byte = static_cast<uint8_t>(byte ^ 0x5a);
  std::vector<const HostTensor*> inputs = call.inputs;
  inputs[weight] = &other;
  const HostTensor again = RunBuilt(built, inputs);
  ExpectBitwise(again, got, what + " constant weights, other data dispatched");
}

TEST(ConstantInputs, Conv2DWeightsArePrepackedOnce) {
  std::mt19937 rng(606);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const aclDataType bias_dt = dt == ACL_BF16 ? ACL_FLOAT : dt;
    HostTensor x = Random(dt, {2, 16, 10, 10}, rng, -1, 1, true), f = Random(dt, {32, 16, 3, 3}, rng, -1, 1, true);
    HostTensor bias = Random(bias_dt, {32}, rng, -1, 1, true), z = Random(dt, {2, 32, 10, 10}, rng, -1, 1, true);
    const AttrMap attrs{{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"data_format", std::string("NCHW")}};
    const std::vector<int32_t> fmt(4, ACL_FORMAT_NCHW);
    const std::string t = " dtype " + std::to_string(dt);
    CheckConstantWeights({"Conv2D", {&x, &f, &bias}, attrs, fmt}, 1, "Conv2D" + t, true, true);
    CheckConstantWeights({"Conv2D", {&x, &f, &bias, &z}, WithPostOps(attrs, {"add", "relu"}), fmt}, 1,
                         "Conv2D add relu" + t, true, true);
    // NHWC activations with an HWCN filter, and groups.
    HostTensor xh = Random(dt, {1, 7, 9, 16}, rng, -1, 1, true), fh = Random(dt, {3, 3, 8, 32}, rng, -1, 1, true);
    const AttrMap ah{{"data_format", std::string("NHWC")}, {"groups", int64_t{2}}};
    CheckConstantWeights({"Conv2D", {&xh, &fh}, ah, {ACL_FORMAT_NHWC, ACL_FORMAT_HWCN}}, 1, "Conv2D NHWC HWCN" + t,
                         true, true);
  }
}

// Kernels that pack the same constant weights into the same layout share one packed copy (the gears of a
// gear model compile each weight once per gear); new bytes at the same address are packed anew.
TEST(ConstantInputs, KernelsPackingTheSameWeightsShareOneCopy) {
  std::mt19937 rng(808);
  HostTensor f = Random(ACL_FLOAT, {32, 16, 3, 3}, rng, -1, 1, true);
  const AttrMap attrs{{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"data_format", std::string("NCHW")}};
  const std::vector<int32_t> fmt(2, ACL_FORMAT_NCHW);
  HostTensor x1 = Random(ACL_FLOAT, {1, 16, 12, 12}, rng, -1, 1, true);
  HostTensor x1b = Random(ACL_FLOAT, {1, 16, 12, 12}, rng, -1, 1, true);
  Call a{"Conv2D", {&x1, &f}, attrs, fmt};
  a.constants = {nullptr, f.bytes.data()};
  const size_t before = drivers::host::dnnl_util::PackedConstantCount();
  const Built first = Build(a);
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  const size_t one = drivers::host::dnnl_util::PackedConstantCount();
  EXPECT_EQ(one, before + 1);
  Call a2 = a;
  a2.inputs = {&x1b, &f};
  const Built second = Build(a2);  // the same shape and weights: the same packed copy
  ASSERT_TRUE(second.status.ok());
  EXPECT_EQ(drivers::host::dnnl_util::PackedConstantCount(), one);
  ExpectBitwise(RunBuilt(second, a2.inputs), RunCall({"Conv2D", {&x1b, &f}, attrs, fmt}), "shared packed filter");
  // Other bytes at the same address: a new packed copy, and each kernel computes with its own weights.
  const HostTensor old_f = f;
  const HostTensor want_old = RunCall({"Conv2D", {&x1, &old_f}, attrs, fmt});
  for (auto& byte : f.bytes) byte = static_cast<uint8_t>(byte ^ 0x11);
  const Built third = Build(a);
  ASSERT_TRUE(third.status.ok());
  EXPECT_EQ(drivers::host::dnnl_util::PackedConstantCount(), one + 1);
  ExpectBitwise(RunBuilt(third, a.inputs), RunCall({"Conv2D", {&x1, &f}, attrs, fmt}), "repacked filter");
  ExpectBitwise(RunBuilt(first, a.inputs), want_old, "the first kernel keeps its packed filter");
}

TEST(ConstantInputs, MatMulAndGemmWeightsArePrepackedOnce) {
  std::mt19937 rng(707);
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string t = " dtype " + std::to_string(dt);
    HostTensor a = Random(dt, {1, 256}, rng, -1, 1, true), b = Random(dt, {256, 200}, rng, -1, 1, true);
    HostTensor bias = Random(dt, {200}, rng, -1, 1, true);
    CheckConstantWeights({"MatMul", {&a, &b, &bias}}, 1, "MatMul M=1" + t, false);
    HostTensor a2 = Random(dt, {37, 64}, rng, -1, 1, true), bt = Random(dt, {48, 64}, rng, -1, 1, true);
    HostTensor z = Random(dt, {37, 48}, rng, -1, 1, true);
    CheckConstantWeights({"MatMul", {&a2, &bt, &z}, WithPostOps({{"transpose_x2", true}}, {"add", "gelu_erf"})}, 1,
                         "MatMul transposed add gelu" + t, false, /*packed=*/true);  // a transposed B never is "any"'s pick
    HostTensor ba = Random(dt, {4, 9, 32}, rng, -1, 1, true), bb = Random(dt, {4, 32, 40}, rng, -1, 1, true);
    CheckConstantWeights({"BatchMatMul", {&ba, &bb}}, 1, "BatchMatMul" + t, false);
    HostTensor c = Random(dt, {37, 48}, rng, -1, 1, true), alpha(dt, {}), beta(dt, {});
    alpha.set(0, 0.5);
    beta.set(0, 2.0);
    CheckConstantWeights({"GEMM", {&a2, &bt, &c, &alpha, &beta}, AttrMap{{"transpose_b", true}}}, 1, "GEMM" + t,
                         false, /*packed=*/true);
  }
  // int8 -> int32 stays exact.
  HostTensor a = Random(ACL_INT8, {6, 40}, rng, -100, 100, true), b = Random(ACL_INT8, {40, 70}, rng, -100, 100, true);
  CheckConstantWeights({"MatMul", {&a, &b}}, 1, "MatMul int8", true);
}

}  // namespace
}  // namespace npurt
