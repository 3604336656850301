// What the converter's end-to-end tests share (convert_test.cc, convert_io_test.cc): a fixture that builds
// ONNX models in a temporary directory, converts them and reads the .om back with every container rule
// checked, and the CNN most tests convert.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "converter.h"
#include "core/operators.h"
#include "model_dump.h"
#include "models/om/om_reader.h"
#include "onnx_builder.h"

namespace npurt::atc {

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
inline void BuildCnn(OnnxBuilder& b) {
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

inline std::vector<uint8_t> Floats(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

inline std::vector<float> AsFloats(const std::vector<uint8_t>& b) {
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

}  // namespace npurt::atc
