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

#include "convert_fixture.h"
#include "converter.h"
#include "core/operators.h"
#include "model_dump.h"
#include "models/om/om_reader.h"
#include "om_host_runner.h"
#include "onnx_builder.h"

namespace npurt::atc {
namespace {

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

}  // namespace
// --op_select_implmode and the bf16 precision modes mark the Conv2D nodes (impl_select.h), and the marked
// models compute what the direct fp32 one does: to fp32 rounding with Winograd, to bf16 rounding in bf16.
TEST_F(ConvertTest, ImplementationModesChooseWinogradAndBf16) {
  OnnxBuilder b;
  b.Input("x", {1, 16, 14, 14});
  b.Weight("w1", {32, 16, 3, 3});
  b.Weight("w2", {32, 32, 3, 3});
  b.Weight("w3", {16, 32, 1, 1});
  auto* c1 = b.Node("Conv", {"x", "w1"}, {"c1"}, "conv3x3");
  OnnxBuilder::AttrInts(c1, "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"}, "relu1");
  auto* c2 = b.Node("Conv", {"r1", "w2"}, {"c2"}, "conv3x3_stride2");
  OnnxBuilder::AttrInts(c2, "pads", {1, 1, 1, 1});
  OnnxBuilder::AttrInts(c2, "strides", {2, 2});
  b.Node("Conv", {"c2", "w3"}, {"y"}, "conv1x1");
  b.Output("y");
  ASSERT_TRUE(Convert(b, "impl").ok());
  ASSERT_TRUE(ConvertFile(Path("impl.onnx"), "precise", {"--op_select_implmode=high_precision"}).ok());
  ASSERT_TRUE(ConvertFile(Path("impl.onnx"), "bf16", {"--precision_mode=allow_mix_precision_bf16"}).ok());
  auto attr = [](const om::ModelDef& d, const std::string& node, const char* name) -> std::string {
    for (const auto& n : d.nodes) {
      if (n.name != node) continue;
      auto it = n.attrs.find(name);
      return it == n.attrs.end() ? "" : std::get<std::string>(it->second);
    }
    ADD_FAILURE() << "no node " << node;
    return "";
  };
  const om::ModelDef def = Check("impl"), precise = Check("precise"), bf16 = Check("bf16");
  EXPECT_EQ(attr(def, "conv3x3", "algorithm"), "winograd") << "high_performance is the default";
  EXPECT_EQ(attr(def, "conv3x3_stride2", "algorithm"), "") << "Winograd serves stride 1 only";
  EXPECT_EQ(attr(def, "conv1x1", "algorithm"), "");
  EXPECT_EQ(attr(precise, "conv3x3", "algorithm"), "");
  for (const char* n : {"conv3x3", "conv3x3_stride2", "conv1x1"}) {
    EXPECT_EQ(attr(bf16, n, "compute_dtype"), "bfloat16") << n;
    EXPECT_EQ(attr(def, n, "compute_dtype"), "") << n;
  }
  // The activations between the bf16 convolutions are stored in bf16; the model's output stays fp32.
  EXPECT_EQ(attr(bf16, "conv3x3", "dst_dtype"), "bfloat16");
  EXPECT_EQ(attr(bf16, "conv3x3_stride2", "dst_dtype"), "bfloat16");
  EXPECT_EQ(attr(bf16, "conv1x1", "dst_dtype"), "");
  EXPECT_EQ(attr(def, "conv3x3", "dst_dtype"), "");
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(16 * 14 * 14);
  for (float& v : x) v = u(rng);
  std::vector<std::vector<uint8_t>> got_def, got_precise, got_bf16;
  ASSERT_TRUE(testing::RunOmOnHost(Path("impl.om"), {Floats(x)}, &got_def).ok());
  ASSERT_TRUE(testing::RunOmOnHost(Path("precise.om"), {Floats(x)}, &got_precise).ok());
  ASSERT_TRUE(testing::RunOmOnHost(Path("bf16.om"), {Floats(x)}, &got_bf16).ok());
  const std::vector<float> want = AsFloats(got_precise.at(0));
  auto rel_l2 = [&](const std::vector<float>& got) {
    double num = 0, den = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      num += (got[i] - want[i]) * (got[i] - want[i]);
      den += static_cast<double>(want[i]) * want[i];
    }
    return std::sqrt(num / den);
  };
  ASSERT_EQ(AsFloats(got_def.at(0)).size(), want.size());
  EXPECT_LT(rel_l2(AsFloats(got_def.at(0))), 1e-5);
  EXPECT_LT(rel_l2(AsFloats(got_bf16.at(0))), 2e-2);
}

}  // namespace npurt::atc
