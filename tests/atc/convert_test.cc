// The converter end to end on small ONNX models built here: the .om it writes is read back with
// om::ReadModel (every container rule checked), its structure matches what the passes should leave,
// the plan is consistent, and every node compiles through core::BuildOperator. Bad inputs fail with
// messages that say what is wrong, and leave no file behind.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "converter.h"
#include "core/operators.h"
#include "model_dump.h"
#include "models/om/om_reader.h"
#include "om_host_runner.h"
#include "onnx_builder.h"

namespace npurt::atc {
namespace {

using testing::OnnxBuilder;
namespace fs = std::filesystem;

class ConvertTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("atc_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // Converts `model` (saved as <name>.onnx) with extra options; returns the status.
  StatusOr<ConversionReport> Convert(OnnxBuilder& b, const std::string& name, std::vector<std::string> extra = {}) {
    EXPECT_TRUE(b.Save(Path(name + ".onnx")));
    return ConvertFile(Path(name + ".onnx"), name, std::move(extra));
  }
  StatusOr<ConversionReport> ConvertFile(const std::string& model, const std::string& name,
                                         std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"atc", "--model=" + model, "--framework=5", "--output=" + Path(name),
                                     "--soc_version=Ascend310"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<const char*> argv;
    for (auto& a : args) argv.push_back(a.c_str());
    auto opts = ParseOptions(static_cast<int>(argv.size()), argv.data());
    if (!opts.ok()) return std::move(opts).status();
    return ConvertModel(opts.value());
  }

  // Reads <name>.om back and checks what every converted model must satisfy.
  om::ModelDef Check(const std::string& name) {
    std::string bytes;
    EXPECT_TRUE(om::ReadFileBytes(Path(name + ".om"), &bytes).ok());
    auto file = om::ReadModel(bytes.data(), bytes.size(), name);
    EXPECT_TRUE(file.ok()) << file.status().message();
    if (!file.ok()) return {};
    const om::ModelDef& d = file->def;
    EXPECT_EQ(d.soc_version, "Ascend310");
    EXPECT_EQ(d.producer.rfind("npurt atc ", 0), 0u);
    EXPECT_NE(d.command_line.find("--framework=5"), std::string::npos);
    EXPECT_GE(d.arena_size, d.plan_lower_bound);
    EXPECT_GE(d.plan_no_reuse, d.arena_size);
    for (const om::TensorDef& t : d.tensors) {
      if (t.region == om::Region::kArena || t.region == om::Region::kWeight) {
        EXPECT_EQ(t.offset % om::kTensorAlign, 0u);
      }
    }
    // Every node compiles with its recorded specs and infers exactly its recorded outputs.
    for (const om::NodeDef& n : d.nodes) {
      std::vector<TensorSpec> in, req;
      for (int32_t t : n.inputs) in.push_back(d.tensors[static_cast<size_t>(t)].spec);
      for (int32_t t : n.outputs) req.push_back(d.tensors[static_cast<size_t>(t)].spec);
      core::OperatorCall call{n.op_type, &in, &req, &n.attrs, true};
      auto built = core::BuildOperator(call);
      EXPECT_TRUE(built.ok()) << n.name << ": " << built.status().message();
      if (!built.ok()) continue;
      EXPECT_EQ(built->outputs.size(), n.outputs.size());
      if (built->outputs.size() != n.outputs.size()) continue;
      for (size_t k = 0; k < n.outputs.size(); ++k) {
        EXPECT_EQ(built->outputs[k].dims, req[k].dims) << n.name;
        EXPECT_EQ(built->outputs[k].dtype, req[k].dtype) << n.name;
      }
    }
    CheckArenaDisjoint(d);
    return d;
  }

  // Arena tensors live at the same time never overlap, unless one is a view of the other (same
  // offset and size, written by a Reshape of the other).
  static void CheckArenaDisjoint(const om::ModelDef& d) {
    const size_t nt = d.tensors.size();
    std::vector<int> first(nt, -1), last(nt, -1);
    for (size_t s = 0; s < d.nodes.size(); ++s) {
      auto touch = [&](int32_t t) {
        if (first[static_cast<size_t>(t)] < 0) first[static_cast<size_t>(t)] = static_cast<int>(s);
        last[static_cast<size_t>(t)] = static_cast<int>(s);
      };
      for (int32_t t : d.nodes[s].outputs) touch(t);
      for (int32_t t : d.nodes[s].inputs) touch(t);
    }
    std::map<int32_t, int32_t> view_of;
    for (const om::NodeDef& n : d.nodes) {
      if (n.op_type == "Reshape" && d.tensors[static_cast<size_t>(n.inputs[0])].region == om::Region::kArena &&
          d.tensors[static_cast<size_t>(n.outputs[0])].region == om::Region::kArena &&
          d.tensors[static_cast<size_t>(n.inputs[0])].offset == d.tensors[static_cast<size_t>(n.outputs[0])].offset) {
        view_of[n.outputs[0]] = n.inputs[0];
      }
    }
    auto root = [&](int32_t t) {
      while (view_of.count(t)) t = view_of[t];
      return t;
    };
    for (size_t i = 0; i < nt; ++i) {
      const om::TensorDef& a = d.tensors[i];
      if (a.region != om::Region::kArena) continue;
      for (size_t j = i + 1; j < nt; ++j) {
        const om::TensorDef& b = d.tensors[j];
        if (b.region != om::Region::kArena || root(static_cast<int32_t>(i)) == root(static_cast<int32_t>(j))) continue;
        const bool live_together = first[i] <= last[j] && first[j] <= last[i];
        const bool overlap = a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
        EXPECT_FALSE(live_together && overlap) << a.name << " and " << b.name;
      }
    }
  }

  static std::map<std::string, int> Ops(const om::ModelDef& d) {
    std::map<std::string, int> m;
    for (const auto& n : d.nodes) ++m[n.op_type];
    return m;
  }

  fs::path dir_;
};

// Conv+BN+Relu+MaxPool, Conv+BN, residual Add, Relu, GlobalAveragePool, Flatten, Gemm.
void BuildCnn(OnnxBuilder& b) {
  b.Input("x", {1, 3, 16, 16});
  b.Weight("w1", {8, 3, 3, 3});
  b.Weight("b1", {8});
  b.Weight("g1", {8}, 0.5f, 1.5f);
  b.Weight("be1", {8});
  b.Weight("m1", {8});
  b.Weight("v1", {8}, 0.5f, 1.5f);
  b.Weight("w2", {8, 8, 3, 3});
  b.Weight("g2", {8}, 0.5f, 1.5f);
  b.Weight("be2", {8});
  b.Weight("m2", {8});
  b.Weight("v2", {8}, 0.5f, 1.5f);
  b.Weight("fc_w", {10, 8});
  b.Weight("fc_b", {10});
  auto* c1 = b.Node("Conv", {"x", "w1", "b1"}, {"c1"}, "conv1");
  OnnxBuilder::AttrInts(c1, "pads", {1, 1, 1, 1});
  OnnxBuilder::AttrInts(c1, "kernel_shape", {3, 3});
  auto* bn1 = b.Node("BatchNormalization", {"c1", "g1", "be1", "m1", "v1"}, {"bn1"}, "bn1");
  OnnxBuilder::AttrFloat(bn1, "epsilon", 1e-5f);
  b.Node("Relu", {"bn1"}, {"r1"}, "relu1");
  auto* mp = b.Node("MaxPool", {"r1"}, {"p1"}, "pool1");
  OnnxBuilder::AttrInts(mp, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(mp, "strides", {2, 2});
  auto* c2 = b.Node("Conv", {"p1", "w2"}, {"c2"}, "conv2");
  OnnxBuilder::AttrString(c2, "auto_pad", "SAME_UPPER");
  b.Node("BatchNormalization", {"c2", "g2", "be2", "m2", "v2"}, {"bn2"}, "bn2");
  b.Node("Add", {"bn2", "p1"}, {"sum"}, "add");
  b.Node("Relu", {"sum"}, {"r2"}, "relu2");
  b.Node("GlobalAveragePool", {"r2"}, {"gap"}, "gap");
  b.Node("Flatten", {"gap"}, {"flat"}, "flatten");
  auto* fc = b.Node("Gemm", {"flat", "fc_w", "fc_b"}, {"y"}, "fc");
  OnnxBuilder::AttrInt(fc, "transB", 1);
  b.Output("y");
}

TEST_F(ConvertTest, CnnFoldsBatchNormAndPlansTheArena) {
  OnnxBuilder b;
  BuildCnn(b);
  auto r = Convert(b, "cnn", {"--blocked_layout=false"});  // the layout pass: BlockedLayoutBetweenConvolutions
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->summary.find("memory plan: arena"), std::string::npos);
  om::ModelDef d = Check("cnn");
  auto ops = Ops(d);
  EXPECT_EQ(ops.count("BatchNorm"), 0u) << "both BatchNorms fold into their Conv2D";
  EXPECT_EQ(ops["Conv2D"], 2);
  // Both Relus and the residual Add are post-ops of the convolutions: conv1 [relu], conv2 [add, relu].
  EXPECT_EQ(ops.count("Relu"), 0u);
  EXPECT_EQ(ops.count("Add"), 0u);
  EXPECT_EQ(ops["MaxPool"], 1);
  EXPECT_EQ(ops["GlobalAveragePool"], 1);
  EXPECT_EQ(ops["Reshape"], 1);
  EXPECT_EQ(ops["MatMul"], 1);
  EXPECT_EQ(d.nodes.size(), 6u);
  std::vector<std::vector<std::string>> chains;
  for (const auto& n : d.nodes) {
    if (n.op_type == "Conv2D") chains.push_back(std::get<std::vector<std::string>>(n.attrs.at("post_ops")));
  }
  ASSERT_EQ(chains.size(), 2u);
  EXPECT_EQ(chains[0], (std::vector<std::string>{"relu"}));
  EXPECT_EQ(chains[1], (std::vector<std::string>{"add", "relu"}));
  ASSERT_EQ(d.inputs.size(), 1u);
  ASSERT_EQ(d.outputs.size(), 1u);
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].spec.format, ACL_FORMAT_NCHW);
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims, (std::vector<int64_t>{1, 10}));
  // Folded convolutions have a bias; the first conv's pads, the second's SAME_UPPER pads.
  for (const auto& n : d.nodes) {
    if (n.op_type == "Conv2D") {
      // x, filter, folded bias (+ the residual as the last input of conv2's "add").
      EXPECT_EQ(n.inputs.size(), n.attrs.at("post_ops") == AttrValue(std::vector<std::string>{"relu"}) ? 3u : 4u);
      EXPECT_EQ(std::get<std::vector<int64_t>>(n.attrs.at("pads")), (std::vector<int64_t>{1, 1, 1, 1}));
    }
    if (n.op_type == "MatMul") {
      EXPECT_TRUE(std::get<bool>(n.attrs.at("transpose_x2")));
    }
  }
  // The Flatten is a view: its output shares the pooled tensor's memory.
  for (const auto& n : d.nodes) {
    if (n.op_type == "Reshape") {
      EXPECT_EQ(d.tensors[static_cast<size_t>(n.inputs[0])].offset, d.tensors[static_cast<size_t>(n.outputs[0])].offset);
    }
  }
  // Weights: 2 conv filters + 2 biases + fc weight and bias, 64-byte aligned, packed.
  int weights = 0;
  for (const auto& t : d.tensors) weights += t.region == om::Region::kWeight;
  EXPECT_EQ(weights, 6);
  EXPECT_LE(d.weight_size, (8 * 27 + 8 + 8 * 72 + 8 + 80 + 10) * 4 + 6 * 64);
}

// The folded Conv2D computes what Conv2D followed by the backend's BatchNorm computes: the same model
// converted twice, once with the conv's output also a model output (which keeps the BatchNorm).
TEST_F(ConvertTest, FoldedBatchNormMatchesTheBackendsBatchNorm) {
  auto build = [](OnnxBuilder& b, bool keep) {
    b.Input("x", {1, 3, 8, 8});
    b.Weight("w", {4, 3, 3, 3});
    b.Weight("b", {4});
    b.Weight("g", {4}, 0.5f, 1.5f);
    b.Weight("be", {4});
    b.Weight("m", {4});
    b.Weight("v", {4}, 0.5f, 1.5f);
    auto* c = b.Node("Conv", {"x", "w", "b"}, {"c"}, "conv");
    OnnxBuilder::AttrInts(c, "pads", {1, 1, 1, 1});
    b.Node("BatchNormalization", {"c", "g", "be", "m", "v"}, {"y"}, "bn");
    b.Output("y");
    if (keep) b.Output("c");
  };
  OnnxBuilder folded, kept;
  build(folded, false);
  build(kept, true);
  ASSERT_TRUE(Convert(folded, "folded").ok());
  ASSERT_TRUE(Convert(kept, "kept").ok());
  EXPECT_EQ(Ops(Check("folded")).count("BatchNorm"), 0u);
  EXPECT_EQ(Ops(Check("kept"))["BatchNorm"], 1);
  std::vector<uint8_t> x(3 * 8 * 8 * 4);
  for (size_t i = 0; i < x.size() / 4; ++i) {
    const float v = static_cast<float>((i * 37) % 17) / 8.0f - 1.0f;
    std::memcpy(x.data() + 4 * i, &v, 4);
  }
  std::vector<std::vector<uint8_t>> a, b;
  ASSERT_TRUE(testing::RunOmOnHost(Path("folded.om"), {x}, &a).ok());
  Status st = testing::RunOmOnHost(Path("kept.om"), {x}, &b);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(a[0].size(), b[0].size());
  const auto* fa = reinterpret_cast<const float*>(a[0].data());
  const auto* fb = reinterpret_cast<const float*>(b[0].data());
  double worst = 0;
  for (size_t i = 0; i < a[0].size() / 4; ++i) worst = std::max(worst, static_cast<double>(std::fabs(fa[i] - fb[i])));
  EXPECT_LT(worst, 1e-4);
}

std::vector<uint8_t> Floats(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> AsFloats(const std::vector<uint8_t>& b) {
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

// The layout pass (layout_pass.h): the convolutions and pools between them run on NC1HWC0 activations,
// TransData nodes convert where an NCHW reader (Flatten) or a model output needs NCHW, and the model
// computes what it computes without the pass (--blocked_layout=false).
TEST_F(ConvertTest, BlockedLayoutBetweenConvolutions) {
  OnnxBuilder b;
  b.Input("x", {1, 3, 12, 12});
  b.Weight("w1", {12, 3, 3, 3});
  b.Weight("w2", {12, 12, 3, 3});
  b.Weight("w3", {12, 1, 3, 3});
  b.Weight("fc_w", {5, 12});
  auto* c1 = b.Node("Conv", {"x", "w1"}, {"c1"}, "conv1");
  OnnxBuilder::AttrInts(c1, "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"}, "relu1");
  auto* mp = b.Node("MaxPool", {"r1"}, {"p1"}, "pool1");
  OnnxBuilder::AttrInts(mp, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(mp, "strides", {2, 2});
  auto* c2 = b.Node("Conv", {"p1", "w2"}, {"c2"}, "conv2");
  OnnxBuilder::AttrInts(c2, "pads", {1, 1, 1, 1});
  b.Node("Add", {"c2", "p1"}, {"sum"}, "add");
  b.Node("Relu", {"sum"}, {"r2"}, "relu2");
  auto* c3 = b.Node("Conv", {"r2", "w3"}, {"c3"}, "conv3");  // depthwise, stride 2
  OnnxBuilder::AttrInts(c3, "pads", {1, 1, 1, 1});
  OnnxBuilder::AttrInts(c3, "strides", {2, 2});
  OnnxBuilder::AttrInt(c3, "group", 12);
  b.Node("GlobalAveragePool", {"c3"}, {"gap"}, "gap");
  b.Node("Flatten", {"gap"}, {"flat"}, "flatten");
  auto* fc = b.Node("Gemm", {"flat", "fc_w"}, {"y"}, "fc");
  OnnxBuilder::AttrInt(fc, "transB", 1);
  b.Output("y");
  b.Output("p1");  // a blocked tensor that is also a model output
  auto r = Convert(b, "blocked");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(ConvertFile(Path("blocked.onnx"), "plain", {"--blocked_layout=false"}).ok());
  om::ModelDef d = Check("blocked");
  auto ops = Ops(d);
  EXPECT_EQ(ops["Conv2D"], 3);
  EXPECT_EQ(ops["TransData"], 2) << "one for the output p1, one in front of Flatten";
  EXPECT_EQ(ops.count("Add"), 0u);
  for (const auto& n : d.nodes) {
    if (n.op_type == "Conv2D" || n.op_type == "MaxPool" || n.op_type == "GlobalAveragePool") {
      const TensorSpec& y = d.tensors[static_cast<size_t>(n.outputs[0])].spec;
      EXPECT_EQ(y.format, ACL_FORMAT_NC1HWC0) << n.name;
      EXPECT_EQ(y.rank(), 5u) << n.name;
    }
  }
  ASSERT_EQ(d.outputs.size(), 2u);
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[1])].name, "p1");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[1])].spec.dims, (std::vector<int64_t>{1, 12, 6, 6}));
  EXPECT_EQ(Ops(Check("plain")).count("TransData"), 0u);
  std::vector<float> x(3 * 12 * 12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 17) / 8.0f - 1.0f;
  std::vector<std::vector<uint8_t>> blocked, plain;
  Status st = testing::RunOmOnHost(Path("blocked.om"), {Floats(x)}, &blocked);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(testing::RunOmOnHost(Path("plain.om"), {Floats(x)}, &plain).ok());
  ASSERT_EQ(blocked.size(), 2u);
  for (size_t o = 0; o < 2; ++o) {
    const std::vector<float> got = AsFloats(blocked[o]), want = AsFloats(plain[o]);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * std::max(1.0f, std::fabs(want[i])));
  }
}


// Gemm's ONNX semantics, against a direct computation: Y = alpha * A' * B' + beta * C with transA,
// transB and C of shape [M, N] (added) or [N] (the MatMul's bias).
TEST_F(ConvertTest, GemmAlphaBetaTransposesNumerically) {
  const int64_t m = 3, k = 4, n = 5;
  for (bool row_c : {false, true}) {
    OnnxBuilder b;
    b.Input("a", {k, m});  // transA
    b.Weight("bw", {n, k});  // transB
    b.Weight("c", row_c ? std::vector<int64_t>{n} : std::vector<int64_t>{m, n});
    auto* g = b.Node("Gemm", {"a", "bw", "c"}, {"y"}, "gemm");
    OnnxBuilder::AttrInt(g, "transA", 1);
    OnnxBuilder::AttrInt(g, "transB", 1);
    OnnxBuilder::AttrFloat(g, "alpha", 0.5f);
    OnnxBuilder::AttrFloat(g, "beta", 2.0f);
    b.Output("y");
    const std::string name = row_c ? "gemm_row" : "gemm_full";
    auto r = Convert(b, name);
    ASSERT_TRUE(r.ok()) << r.status().message();
    Check(name);
    const auto& inits = b.model().graph().initializer();
    std::vector<float> bw(inits[0].float_data().begin(), inits[0].float_data().end());
    std::vector<float> c(inits[1].float_data().begin(), inits[1].float_data().end());
    std::vector<float> a(static_cast<size_t>(k * m));
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
    std::vector<std::vector<uint8_t>> out;
    Status st = testing::RunOmOnHost(Path(name + ".om"), {Floats(a)}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    const auto y = AsFloats(out[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t q = 0; q < k; ++q) acc += a[static_cast<size_t>(q * m + i)] * bw[static_cast<size_t>(j * k + q)];
        const double cv = row_c ? c[static_cast<size_t>(j)] : c[static_cast<size_t>(i * n + j)];
        EXPECT_NEAR(y[static_cast<size_t>(i * n + j)], 0.5 * acc + 2.0 * cv, 1e-4) << name << " " << i << "," << j;
      }
    }
  }
}

// Softmax before opset 13 normalises over all dims from axis on (axis 1 of [2, 3, 4]: 12 values a row).
TEST_F(ConvertTest, SoftmaxBeforeOpset13CoercesTo2D) {
  OnnxBuilder b(11);
  b.Input("x", {2, 3, 4});
  auto* sm = b.Node("Softmax", {"x"}, {"y"});
  OnnxBuilder::AttrInt(sm, "axis", 1);
  b.Output("y");
  ASSERT_TRUE(Convert(b, "sm11").ok());
  Check("sm11");
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 5) * 0.3f;
  std::vector<std::vector<uint8_t>> out;
  ASSERT_TRUE(testing::RunOmOnHost(Path("sm11.om"), {Floats(x)}, &out).ok());
  const auto y = AsFloats(out[0]);
  for (int row = 0; row < 2; ++row) {
    double sum = 0;
    for (int i = 0; i < 12; ++i) sum += std::exp(static_cast<double>(x[static_cast<size_t>(row * 12 + i)]));
    for (int i = 0; i < 12; ++i) {
      EXPECT_NEAR(y[static_cast<size_t>(row * 12 + i)], std::exp(static_cast<double>(x[static_cast<size_t>(row * 12 + i)])) / sum, 1e-6);
    }
  }
}

// AveragePool with ceil_mode and count_include_pad=0 divides by the valid elements; MaxPool with
// ceil_mode adds one output column/row.
TEST_F(ConvertTest, PoolingCeilModeNumerically) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 5, 5});
  auto* ap = b.Node("AveragePool", {"x"}, {"a"});
  OnnxBuilder::AttrInts(ap, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(ap, "strides", {2, 2});
  OnnxBuilder::AttrInt(ap, "ceil_mode", 1);
  auto* mp = b.Node("MaxPool", {"x"}, {"m"});
  OnnxBuilder::AttrInts(mp, "kernel_shape", {3, 3});
  OnnxBuilder::AttrInts(mp, "strides", {2, 2});
  OnnxBuilder::AttrInt(mp, "ceil_mode", 1);
  b.Output("a");
  b.Output("m");
  auto r = Convert(b, "pool");
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("pool");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims, (std::vector<int64_t>{1, 1, 3, 3}));
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[1])].spec.dims, (std::vector<int64_t>{1, 1, 2, 2}));
  std::vector<float> x(25);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::vector<std::vector<uint8_t>> out;
  ASSERT_TRUE(testing::RunOmOnHost(Path("pool.om"), {Floats(x)}, &out).ok());
  const auto a = AsFloats(out[0]), m = AsFloats(out[1]);
  EXPECT_FLOAT_EQ(a[0], (0 + 1 + 5 + 6) / 4.0f);
  EXPECT_FLOAT_EQ(a[2], (4 + 9) / 2.0f);  // the last column holds one input column
  EXPECT_FLOAT_EQ(a[8], 24.0f);           // the corner holds one element
  EXPECT_FLOAT_EQ(m[0], 12.0f);
  EXPECT_FLOAT_EQ(m[3], 24.0f);
  // count_include_pad=1 with ceil_mode padding past the input is refused, not approximated.
  OnnxBuilder bad;
  bad.Input("x", {1, 1, 5, 5});
  auto* ap2 = bad.Node("AveragePool", {"x"}, {"a"}, "avg_pad");
  OnnxBuilder::AttrInts(ap2, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(ap2, "strides", {2, 2});
  OnnxBuilder::AttrInt(ap2, "ceil_mode", 1);
  OnnxBuilder::AttrInt(ap2, "count_include_pad", 1);
  bad.Output("a");
  auto rb = Convert(bad, "pool_bad");
  ASSERT_FALSE(rb.ok());
  EXPECT_NE(rb.status().message().find("count_include_pad"), std::string::npos) << rb.status().message();
}

// --input_format is recorded on the inputs; the operators keep reading ONNX's NCHW (their data_format
// says so), so the model computes the same whatever was recorded.
TEST_F(ConvertTest, InputFormatIsRecordedOnly) {
  OnnxBuilder b;
  BuildCnn(b);
  ASSERT_TRUE(Convert(b, "nchw").ok());
  ASSERT_TRUE(ConvertFile(Path("nchw.onnx"), "nhwc", {"--input_format=NHWC"}).ok());
  om::ModelDef d = Check("nhwc");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].spec.format, ACL_FORMAT_NHWC);
  for (const auto& n : d.nodes) {
    if (n.op_type == "Conv2D" || n.op_type == "MaxPool") {
      EXPECT_EQ(std::get<std::string>(n.attrs.at("data_format")), "NCHW");
    }
  }
  std::vector<float> x(3 * 16 * 16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 11) * 0.1f;
  std::vector<std::vector<uint8_t>> a, c;
  ASSERT_TRUE(testing::RunOmOnHost(Path("nchw.om"), {Floats(x)}, &a).ok());
  ASSERT_TRUE(testing::RunOmOnHost(Path("nhwc.om"), {Floats(x)}, &c).ok());
  EXPECT_EQ(a[0], c[0]);
  ASSERT_TRUE(ConvertFile(Path("nchw.onnx"), "nd", {"--input_format=ND"}).ok());
  d = Check("nd");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].spec.format, ACL_FORMAT_ND);
}

// A zero Pad in front of an AveragePool (PyTorch's count_include_pad export) or a Conv folds into their
// padding; in front of anything else it is refused (npurt's backend has no Pad).
TEST_F(ConvertTest, ZeroPadFoldsIntoAveragePoolAndConv) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 4, 4});
  b.Ints("pads", {0, 0, 1, 1, 0, 0, 1, 1});
  b.Weight("w", {1, 1, 3, 3});
  b.Node("Pad", {"x", "pads"}, {"xp"});
  auto* ap = b.Node("AveragePool", {"xp"}, {"a"});
  OnnxBuilder::AttrInts(ap, "kernel_shape", {3, 3});
  b.Node("Conv", {"xp", "w"}, {"c"});
  b.Output("a");
  b.Output("c");
  auto r = Convert(b, "pad", {"--blocked_layout=false"});  // the pads, not the layouts
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("pad");
  ASSERT_EQ(d.nodes.size(), 2u);
  EXPECT_EQ(d.nodes[0].op_type, "AvgPool");
  EXPECT_EQ(std::get<std::vector<int64_t>>(d.nodes[0].attrs.at("pads")), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_FALSE(std::get<bool>(d.nodes[0].attrs.at("exclusive")));
  EXPECT_EQ(std::get<std::vector<int64_t>>(d.nodes[1].attrs.at("pads")), (std::vector<int64_t>{1, 1, 1, 1}));
  std::vector<float> x(16, 1.0f);
  std::vector<std::vector<uint8_t>> out;
  ASSERT_TRUE(testing::RunOmOnHost(Path("pad.om"), {Floats(x)}, &out).ok());
  EXPECT_FLOAT_EQ(AsFloats(out[0])[0], 4.0f / 9.0f);  // the corner window holds 4 ones and 5 padded zeros
  OnnxBuilder bad;
  bad.Input("x", {1, 1, 4, 4});
  bad.Ints("pads", {0, 0, 1, 1, 0, 0, 1, 1});
  bad.Node("Pad", {"x", "pads"}, {"xp"});
  bad.Node("Relu", {"xp"}, {"y"}, "relu_after_pad");
  bad.Output("y");
  auto rb = Convert(bad, "pad_bad");
  ASSERT_FALSE(rb.ok());
  EXPECT_NE(rb.status().message().find("relu_after_pad"), std::string::npos) << rb.status().message();
  EXPECT_NE(rb.status().message().find("Pad"), std::string::npos);
}

// A model exported at batch 1 (its output declared [1, 10]) converts at batch 4: the declared output
// shapes give way to the new input shape.
TEST_F(ConvertTest, InputShapeChangesTheBatchOfAFixedModel) {
  OnnxBuilder b;
  BuildCnn(b);
  b.model().mutable_graph()->clear_output();
  b.Output("y", {1, 10});
  ASSERT_TRUE(Convert(b, "b1").ok());
  auto r = ConvertFile(Path("b1.onnx"), "b4", {"--input_shape=x:4,3,16,16"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("b4");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims, (std::vector<int64_t>{4, 10}));
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].spec.dims, (std::vector<int64_t>{4, 3, 16, 16}));
}

// A linear layer of a transformer export (BatchMatMul by a constant, then Add of a constant bias)
// becomes MatMul with its bias between two view Reshapes.
TEST_F(ConvertTest, LinearLayerBiasFusesIntoMatMul) {
  OnnxBuilder b;
  b.Input("x", {2, 8, 16});
  b.Weight("w", {16, 32});
  b.Weight("bias", {32});
  b.Node("Relu", {"x"}, {"xr"});
  b.Node("MatMul", {"xr", "w"}, {"h"});
  b.Node("Add", {"h", "bias"}, {"hb"});
  b.Node("Relu", {"hb"}, {"y"});
  b.Output("y");
  ASSERT_TRUE(Convert(b, "linear").ok());
  om::ModelDef d = Check("linear");
  auto ops = Ops(d);
  EXPECT_EQ(ops["MatMul"], 1);
  EXPECT_EQ(ops.count("Add"), 0u);
  EXPECT_EQ(ops.count("BatchMatMul"), 0u);
  EXPECT_EQ(ops["Reshape"], 2);
  for (const auto& n : d.nodes) {
    if (n.op_type == "MatMul") {
      EXPECT_EQ(n.inputs.size(), 3u);
      EXPECT_EQ(d.tensors[static_cast<size_t>(n.inputs[0])].spec.dims, (std::vector<int64_t>{16, 16}));
    }
    if (n.op_type == "Reshape") {  // views
      EXPECT_EQ(d.tensors[static_cast<size_t>(n.inputs[0])].offset, d.tensors[static_cast<size_t>(n.outputs[0])].offset);
    }
  }
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims, (std::vector<int64_t>{2, 8, 32}));
}

TEST_F(ConvertTest, AttentionBlock) {
  OnnxBuilder b;
  b.Input("x", {1, 8, 16});
  b.Weight("wq", {16, 16});
  b.Weight("wk", {16, 16});
  b.Weight("wv", {16, 16});
  b.Scalar("scale", 4.0f);
  b.Node("MatMul", {"x", "wq"}, {"q"});
  b.Node("MatMul", {"x", "wk"}, {"k"});
  b.Node("MatMul", {"x", "wv"}, {"v"});
  auto* t = b.Node("Transpose", {"k"}, {"kt"});
  OnnxBuilder::AttrInts(t, "perm", {0, 2, 1});
  b.Node("MatMul", {"q", "kt"}, {"s"});
  b.Node("Div", {"s", "scale"}, {"s2"});
  auto* sm = b.Node("Softmax", {"s2"}, {"p"});
  OnnxBuilder::AttrInt(sm, "axis", -1);
  b.Node("MatMul", {"p", "v"}, {"y"});
  b.Output("y");
  auto r = Convert(b, "attn");
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("attn");
  auto ops = Ops(d);
  EXPECT_EQ(ops["BatchMatMul"], 5);
  EXPECT_EQ(ops["Transpose"], 1);
  EXPECT_EQ(ops["Softmax"], 1);
  EXPECT_EQ(ops["Div"], 1);
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims, (std::vector<int64_t>{1, 8, 16}));
}

TEST_F(ConvertTest, ClipBoundsFromInputs) {
  OnnxBuilder b(13);
  b.Input("x", {2, 5});
  b.Scalar("lo", 0.0f);
  b.Scalar("hi", 6.0f);
  b.Node("Clip", {"x", "lo", "hi"}, {"c"});
  b.Node("Clip", {"c", "", "hi"}, {"y"});  // only max
  b.Output("y");
  auto r = Convert(b, "clip");
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("clip");
  ASSERT_EQ(d.nodes.size(), 2u);
  EXPECT_EQ(d.nodes[0].op_type, "Clip");
  EXPECT_EQ(std::get<float>(d.nodes[0].attrs.at("min")), 0.0f);
  EXPECT_EQ(std::get<float>(d.nodes[0].attrs.at("max")), 6.0f);
  EXPECT_EQ(d.nodes[1].attrs.count("min"), 0u);
}

TEST_F(ConvertTest, ReshapeThroughAShapeChainFolds) {
  OnnxBuilder b(13);
  b.Input("x", {2, 3, 4});
  b.Ints("zero", {0}, /*scalar=*/true);
  b.Ints("axes0", {0});
  b.Ints("minus1", {-1});
  b.Node("Shape", {"x"}, {"shape"});
  auto* g = b.Node("Gather", {"shape", "zero"}, {"n"});
  OnnxBuilder::AttrInt(g, "axis", 0);
  b.Node("Unsqueeze", {"n", "axes0"}, {"n1"});
  auto* cat = b.Node("Concat", {"n1", "minus1"}, {"target"});
  OnnxBuilder::AttrInt(cat, "axis", 0);
  b.Node("Reshape", {"x", "target"}, {"flat"});
  b.Node("Relu", {"flat"}, {"y"});
  b.Output("y");
  auto r = Convert(b, "chain");
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("chain");
  ASSERT_EQ(d.nodes.size(), 2u) << "Shape, Gather, Unsqueeze and Concat are folded";
  EXPECT_EQ(d.nodes[0].op_type, "Reshape");
  EXPECT_EQ(std::get<std::vector<int64_t>>(d.nodes[0].attrs.at("shape")), (std::vector<int64_t>{2, 12}));
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims, (std::vector<int64_t>{2, 12}));
}

TEST_F(ConvertTest, FusionCanBeTurnedOff) {
  OnnxBuilder b;
  BuildCnn(b);
  ASSERT_TRUE(Convert(b, "unfused", {"--fusion=false", "--blocked_layout=false"}).ok());
  om::ModelDef d = Check("unfused");
  auto ops = Ops(d);
  EXPECT_EQ(ops["Relu"], 2);
  EXPECT_EQ(ops["Add"], 1);
  EXPECT_EQ(d.nodes.size(), 9u);
  for (const auto& n : d.nodes) EXPECT_EQ(n.attrs.count("post_ops"), 0u) << n.name;
}

TEST_F(ConvertTest, OutNodesAndFp16Outputs) {
  OnnxBuilder b;
  BuildCnn(b);
  auto r = Convert(b, "cut", {"--out_nodes=pool1:0", "--output_type=FP16", "--blocked_layout=false"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("cut");
  ASSERT_EQ(d.outputs.size(), 1u);
  const om::TensorDef& out = d.tensors[static_cast<size_t>(d.outputs[0])];
  EXPECT_EQ(out.spec.dtype, ACL_FLOAT16);
  EXPECT_EQ(out.spec.dims, (std::vector<int64_t>{1, 8, 8, 8}));
  EXPECT_EQ(d.nodes.back().op_type, "Cast");
  EXPECT_EQ(d.nodes.size(), 3u);  // Conv2D (BN folded, Relu fused), MaxPool, Cast
}

// --input_fp16_nodes: the named float input becomes fp16 under its own name and index, followed by a Cast
// to fp32 (the first node), so the rest of the model is unchanged; names that are not inputs are refused.
TEST_F(ConvertTest, Fp16InputNodesGetACastToFloat) {
  OnnxBuilder b;
  BuildCnn(b);
  auto r = Convert(b, "half_in", {"--input_fp16_nodes=x", "--blocked_layout=false"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("half_in");
  ASSERT_EQ(d.inputs.size(), 1u);
  const om::TensorDef& in = d.tensors[static_cast<size_t>(d.inputs[0])];
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.spec.dtype, ACL_FLOAT16);
  EXPECT_EQ(in.bytes, in.spec.bytes());
  ASSERT_FALSE(d.nodes.empty());
  EXPECT_EQ(d.nodes.front().op_type, "Cast");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.nodes.front().outputs[0])].spec.dtype, ACL_FLOAT);

  for (const auto& [value, why] : std::vector<std::pair<std::string, std::string>>{
           {"y", "'y' is not an input of the model (its inputs: x)"}, {"x;;x", "an empty input name"},
           {"x;x", "'x' is named twice"}}) {
    r = ConvertFile(Path("half_in.onnx"), "half_bad", {"--input_fp16_nodes=" + value});
    ASSERT_FALSE(r.ok()) << value;
    EXPECT_NE(r.status().message().find(why), std::string::npos) << r.status().message();
  }
}

TEST_F(ConvertTest, InputShapeOverridesADynamicBatch) {
  OnnxBuilder b;
  b.DynamicInput("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  auto r = Convert(b, "dyn");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("dynamic dim 'N'"), std::string::npos) << r.status().message();
  EXPECT_FALSE(fs::exists(Path("dyn.om")));
  r = ConvertFile(Path("dyn.onnx"), "dyn", {"--input_shape=x:8,4"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("dyn");
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].spec.dims, (std::vector<int64_t>{8, 4}));
  r = ConvertFile(Path("dyn.onnx"), "dyn2", {"--input_shape=y:8,4"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no input y"), std::string::npos) << r.status().message();
  r = ConvertFile(Path("dyn.onnx"), "dyn2", {"--input_shape=x:8,4,1"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rank"), std::string::npos) << r.status().message();
}

// Batch gears: one graph per gear over one shared weight region and one arena sized for the largest; each
// gear computes what a static conversion at that batch computes; the selector is the last input.
TEST_F(ConvertTest, BatchGearsShareWeightsAndMatchStaticConversions) {
  OnnxBuilder b;
  BuildCnn(b);
  auto r = Convert(b, "gears", {"--input_shape=x:-1,3,16,16", "--dynamic_batch_size=1,4,2"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->summary.find("dynamic batch: 3 gears [1] [4] [2]; with none chosen the largest runs (batch 4)"),
            std::string::npos) << r->summary;
  om::ModelDef d = Check("gears");
  ASSERT_EQ(d.dynamic_kind, om::DynamicKind::kBatch);
  ASSERT_EQ(d.gears.size(), 3u);
  EXPECT_EQ(d.default_gear, 1u);
  ASSERT_EQ(d.input_templates.size(), 1u);
  EXPECT_EQ(d.input_templates[0].dims, (std::vector<int64_t>{-1, 3, 16, 16}));
  uint64_t widest = 0;
  for (size_t g = 0; g < d.gears.size(); ++g) {
    const om::ModelDef gd = om::GearModel(d, g);
    const int64_t batch = d.gears[g].values[0];
    ASSERT_EQ(gd.inputs.size(), 2u);
    EXPECT_EQ(gd.tensors[static_cast<size_t>(gd.inputs[0])].spec.dims, (std::vector<int64_t>{batch, 3, 16, 16}));
    const om::TensorDef& sel = gd.tensors[static_cast<size_t>(gd.inputs[1])];
    EXPECT_EQ(sel.name, om::kDynamicTensorName);
    EXPECT_EQ(sel.spec.dtype, ACL_INT32);
    EXPECT_EQ(sel.spec.dims, (std::vector<int64_t>{1}));
    EXPECT_EQ(gd.tensors[static_cast<size_t>(gd.outputs[0])].spec.dims, (std::vector<int64_t>{batch, 10}));
    CheckArenaDisjoint(gd);
    widest = std::max(widest, d.gears[g].arena_size);
  }
  EXPECT_EQ(d.arena_size, widest);
  // Numerically, gear by gear, against static conversions at the same batch; the weights are stored once.
  for (size_t g = 0; g < d.gears.size(); ++g) {
    const int64_t batch = d.gears[g].values[0];
    const std::string name = "static" + std::to_string(batch);
    ASSERT_TRUE(ConvertFile(Path("gears.onnx"), name, {"--input_shape=x:" + std::to_string(batch) + ",3,16,16"}).ok());
    const om::ModelDef sd = Check(name);
    EXPECT_EQ(sd.weight_size, d.weight_size) << "the gears share one weight region";
    EXPECT_EQ(sd.arena_size, d.gears[g].arena_size);
    std::mt19937 gen(static_cast<uint32_t>(g) + 5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(batch) * 3 * 16 * 16);
    for (float& v : x) v = u(gen);
    std::vector<std::vector<uint8_t>> geared, plain;
    const std::vector<uint8_t> selector(4, 0);
    ASSERT_TRUE(testing::RunOmOnHost(Path("gears.om"), {Floats(x), selector}, &geared, g).ok());
    ASSERT_TRUE(testing::RunOmOnHost(Path(name + ".om"), {Floats(x)}, &plain).ok());
    const std::vector<float> got = AsFloats(geared[0]), want = AsFloats(plain[0]);
    ASSERT_EQ(got.size(), static_cast<size_t>(batch) * 10);
    for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-5f * (1.0f + std::fabs(want[i]))) << i;
  }
  // atc --mode=6 names the mode and lists the gears; the JSON dump carries every gear's graph.
  auto info = ModelInfo(Path("gears.om"));
  ASSERT_TRUE(info.ok());
  EXPECT_NE(info->find("dynamic mode: dynamic batch"), std::string::npos) << info.value();
  EXPECT_NE(info->find("gear[1]: values [4] (default)"), std::string::npos) << info.value();
  ASSERT_TRUE(DumpModelJson(Path("gears.om"), 0, Path("gears.json")).ok());
  std::ifstream in(Path("gears.json"));
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["dynamic"]["gears"].size(), 3u);
  EXPECT_EQ(j["dynamic"]["gears"][0]["values"], nlohmann::json::array({1}));
  EXPECT_FALSE(j["dynamic"]["gears"][0]["nodes"].empty());
}

TEST_F(ConvertTest, ImageSizeAndDimsGears) {
  OnnxBuilder b;
  b.DynamicInput("x", {1, 3});  // x: [N, 3] with a symbolic batch; reshaped per gear below
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  ASSERT_TRUE(b.Save(Path("relu.onnx")));
  auto r = ConvertFile(Path("relu.onnx"), "dims", {"--input_format=ND", "--input_shape=x:-1,-1",
                                                   "--dynamic_dims=1,3;4,3;2,6"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("dims");
  ASSERT_EQ(d.dynamic_kind, om::DynamicKind::kDims);
  EXPECT_EQ(d.default_gear, 2u);  // 2x6 holds the most elements (ties: the later gear)
  EXPECT_EQ(om::GearModel(d, 1).tensors[static_cast<size_t>(om::GearModel(d, 1).inputs[0])].spec.dims,
            (std::vector<int64_t>{4, 3}));
  const om::TensorDef& sel = d.tensors[static_cast<size_t>(d.inputs.back())];
  EXPECT_EQ(sel.spec.dims, (std::vector<int64_t>{2}));
  // A gear the model cannot take (a rank the ONNX graph refuses) fails with the gear named.
  r = ConvertFile(Path("relu.onnx"), "bad", {"--input_format=ND", "--input_shape=x:-1,-1,-1", "--dynamic_dims=1,3,1;4,3,1"});
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(fs::exists(Path("bad.om")));
}

// Static AIPP (--insert_op_conf): an Aipp node in front of the CNN; the model input becomes the 8-bit
// image. Numerically, the converted model on an image equals the plain model on the image pre-processed
// here (crop, padding, normalisation written out in the test).
TEST_F(ConvertTest, StaticAippFeedsTheModelFromAnImage) {
  OnnxBuilder b;
  BuildCnn(b);
  ASSERT_TRUE(b.Save(Path("cnn.onnx")));
  {
    std::ofstream cfg(Path("aipp.cfg"));
    cfg << "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n src_image_size_w: 20\n src_image_size_h: 18\n"
           " crop: true\n load_start_pos_w: 3\n load_start_pos_h: 2\n crop_size_w: 14\n crop_size_h: 16\n"
           " padding: true\n left_padding_size: 1\n right_padding_size: 1\n rbuv_swap_switch: true\n"
           " mean_chn_0: 10\n mean_chn_1: 20\n mean_chn_2: 30\n min_chn_0: 1.5\n var_reci_chn_0: 0.01\n"
           " var_reci_chn_1: 0.02\n var_reci_chn_2: 0.03\n}\n";
  }
  auto r = ConvertFile(Path("cnn.onnx"), "aipp", {"--insert_op_conf=" + Path("aipp.cfg")});
  ASSERT_TRUE(r.ok()) << r.status().message();
  om::ModelDef d = Check("aipp");
  ASSERT_EQ(d.nodes.front().op_type, "Aipp");
  const om::TensorDef& in = d.tensors[static_cast<size_t>(d.inputs[0])];
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.spec.dtype, ACL_UINT8);
  EXPECT_EQ(in.spec.dims, (std::vector<int64_t>{1, 18, 20, 3}));
  ASSERT_TRUE(ConvertFile(Path("cnn.onnx"), "plain").ok());
  std::mt19937 gen(9);
  std::vector<uint8_t> image(18 * 20 * 3);
  for (auto& v : image) v = static_cast<uint8_t>(gen());
  // The pre-processing by hand: BGR image (rbuv swap), crop 14x16 at (3, 2), one column of zero padding
  // left and right, (v - mean - min) * var_reci per channel.
  const float mean[3] = {10, 20, 30}, min[3] = {1.5f, 0, 0}, var[3] = {0.01f, 0.02f, 0.03f};
  std::vector<float> x(3 * 16 * 16, 0.0f);
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < 16; ++y) {
      for (int xo = 1; xo < 15; ++xo) {
        const int sy = y + 2, sx = xo - 1 + 3;
        const float px = image[static_cast<size_t>((sy * 20 + sx) * 3 + (2 - c))];
        x[static_cast<size_t>((c * 16 + y) * 16 + xo)] = (px - mean[c] - min[c]) * var[c];
      }
    }
  }
  std::vector<std::vector<uint8_t>> got, want;
  ASSERT_TRUE(testing::RunOmOnHost(Path("aipp.om"), {image}, &got).ok());
  ASSERT_TRUE(testing::RunOmOnHost(Path("plain.om"), {Floats(x)}, &want).ok());
  const std::vector<float> g = AsFloats(got[0]), w = AsFloats(want[0]);
  ASSERT_EQ(g.size(), w.size());
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], 1e-4f * (1.0f + std::fabs(w[i]))) << i;
  // A config whose crop and padding do not make the model's H x W is refused with both sizes.
  {
    std::ofstream cfg(Path("bad.cfg"));
    cfg << "aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 20 src_image_size_h: 18 }";
  }
  r = ConvertFile(Path("cnn.onnx"), "bad", {"--insert_op_conf=" + Path("bad.cfg")});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("18x20"), std::string::npos) << r.status().message();
}

TEST_F(ConvertTest, UnsupportedOpsAreAllReported) {
  OnnxBuilder b;
  b.Input("x", {1, 4});
  b.Node("Round", {"x"}, {"a"}, "round_me");
  b.Node("Relu", {"a"}, {"b"});
  b.Node("Hardmax", {"b"}, {"c"}, "hardmax_me");
  auto* custom = b.Node("MyOp", {"c"}, {"y"}, "custom_me");
  custom->set_domain("com.example");
  b.Output("y");
  auto r = Convert(b, "unsup");
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_NE(m.find("E19010"), std::string::npos) << m;
  EXPECT_NE(m.find("node [round_me] optype [ai.onnx::14::Round]"), std::string::npos) << m;
  EXPECT_NE(m.find("node [hardmax_me] optype [ai.onnx::14::Hardmax]"), std::string::npos) << m;
  EXPECT_NE(m.find("custom_me"), std::string::npos) << m;
  EXPECT_NE(m.find("3 operator(s)"), std::string::npos) << m;
  EXPECT_FALSE(fs::exists(Path("unsup.om")));
}

TEST_F(ConvertTest, FilesThatAreNotOnnx) {
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(Path(name), std::ios::binary) << bytes;
    return Path(name);
  };
  struct Case {
    std::string file;
    const char* expect;
  };
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) % 251);
  const Case cases[] = {
      {Path("missing.onnx"), "cannot be opened"},
      {write("empty.onnx", ""), "empty"},
      {write("garbage.onnx", garbage), "not an ONNX model"},
      {write("cann.om", std::string("IMOD") + std::string(252, '\0')), "CANN offline model"},
      {write("zip.onnx", std::string("PK\3\4") + std::string(100, 'x')), "zip"},
  };
  for (const Case& c : cases) {
    auto r = ConvertFile(c.file, "bad");
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << r.status().message();
    EXPECT_FALSE(fs::exists(Path("bad.om")));
  }
  // An npurt .om given as --model.
  OnnxBuilder b;
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  ASSERT_TRUE(Convert(b, "ok").ok());
  auto r = ConvertFile(Path("ok.om"), "bad");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("npurt offline model"), std::string::npos) << r.status().message();
}

// Mutated and truncated models: atc fails or converts, never crashes (the converted ones are valid).
TEST_F(ConvertTest, MutatedModelsNeverCrash) {
  OnnxBuilder b;
  BuildCnn(b);
  std::string bytes;
  ASSERT_TRUE(b.model().SerializeToString(&bytes));
  // ATC_MUTATIONS=<count>[:<seed>] runs more of them.
  const char* env = std::getenv("ATC_MUTATIONS");
  const int iters = env != nullptr ? std::atoi(env) : 300;
  const char* colon = env != nullptr ? std::strchr(env, ':') : nullptr;
  std::mt19937 rng(colon != nullptr ? static_cast<unsigned>(std::atoi(colon + 1)) : 3u);
  int converted = 0;
  for (int iter = 0; iter < iters; ++iter) {
    std::string m = bytes;
    if (iter % 10 == 0) {
      m.resize(rng() % m.size());
    } else {
      const int flips = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < flips; ++k) m[rng() % m.size()] = static_cast<char>(rng() & 0xff);
    }
    std::ofstream(Path("mut.onnx"), std::ios::binary | std::ios::trunc) << m;
    auto r = ConvertFile(Path("mut.onnx"), "mut");
    if (r.ok()) {
      ++converted;
      Check("mut");
      fs::remove(Path("mut.om"));
    } else {
      EXPECT_FALSE(r.status().message().empty());
      EXPECT_FALSE(fs::exists(Path("mut.om")));
    }
  }
  RecordProperty("converted", converted);
}

TEST_F(ConvertTest, OldOpsetIsRefused) {
  OnnxBuilder b(9);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  auto r = Convert(b, "old");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("opset 9"), std::string::npos) << r.status().message();
}

TEST_F(ConvertTest, JsonDumpAndModelInfo) {
  OnnxBuilder b;
  BuildCnn(b);
  ASSERT_TRUE(Convert(b, "cnn", {"--blocked_layout=false"}).ok());
  ASSERT_TRUE(DumpModelJson(Path("cnn.om"), -1, Path("cnn.json")).ok());
  std::ifstream in(Path("cnn.json"));
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["nodes"].size(), 6u);
  EXPECT_EQ(j["soc_version"], "Ascend310");
  EXPECT_TRUE(j["plan"].contains("lower_bound"));
  EXPECT_EQ(j["nodes"][0]["op_type"], "Conv2D");
  EXPECT_TRUE(j["nodes"][0]["attrs"].contains("pads"));
  ASSERT_TRUE(DumpModelJson(Path("cnn.onnx"), 5, Path("cnn_onnx.json")).ok());
  std::ifstream in2(Path("cnn_onnx.json"));
  nlohmann::json o = nlohmann::json::parse(in2);
  EXPECT_EQ(o["graph"]["node"].size(), 11u);
  auto info = ModelInfo(Path("cnn.om"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_NE(info->find("memory plan: arena"), std::string::npos);
  EXPECT_NE(info->find("soc_version: Ascend310"), std::string::npos);
  EXPECT_FALSE(ModelInfo(Path("cnn.onnx")).ok());
}

// The executable: banners and exit codes.
int RunAtc(const std::string& args, std::string* out) {
  const std::string cmd = std::string(ATC_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  out->clear();
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out->append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST_F(ConvertTest, ExecutableBannersAndExitCodes) {
  std::string out;
  EXPECT_EQ(RunAtc("--help", &out), 0);
  EXPECT_NE(out.find("--soc_version"), std::string::npos);
  EXPECT_EQ(RunAtc("--model=x.onnx --framework=5 --output=x --soc_version=A --bogus=1", &out), 255);
  EXPECT_NE(out.find("ATC run failed, Please check the detail log, Try 'atc --help' for more information"),
            std::string::npos) << out;
  EXPECT_NE(out.find("[--bogus]"), std::string::npos) << out;
  OnnxBuilder b;
  BuildCnn(b);
  ASSERT_TRUE(b.Save(Path("cnn.onnx")));
  EXPECT_EQ(RunAtc("--model=" + Path("cnn.onnx") + " --framework=5 --output " + Path("cnn") +
                       " --input_shape=\"x:1,3,16,16\" --soc_version=Ascend310",
                   &out), 0) << out;
  EXPECT_NE(out.find("ATC start working now, please wait for a moment."), std::string::npos);
  EXPECT_NE(out.find("ATC run success, welcome to the next use."), std::string::npos) << out;
  EXPECT_NE(out.find("memory plan: arena"), std::string::npos) << out;
  EXPECT_EQ(RunAtc("--mode=6 --om=" + Path("cnn.om"), &out), 0) << out;
  EXPECT_NE(out.find("Display Model Info"), std::string::npos);
}

}  // namespace
}  // namespace npurt::atc
