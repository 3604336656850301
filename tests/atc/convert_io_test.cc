// The converter end to end, continued (convert_test.cc has the graph passes): input shapes and gears,
// static AIPP, unsupported and malformed models, the JSON dump and model information, and the executable's
// banners and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "convert_fixture.h"
#include "om_host_runner.h"

namespace npurt::atc {
namespace {

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

// -1 and ranges without gears: the .om keeps the inputs and outputs (-1 where they vary), the ranges, the
// source graph in its weight part and the options; atc converted it at both ends of the ranges first.
TEST_F(ConvertTest, DynamicShapeModelKeepsItsSourceGraph) {
  OnnxBuilder b;
  BuildCnn(b);
  auto r = Convert(b, "shapes", {"--input_shape=x:1~4,3,8~-1,8~-1"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->summary.find("dynamic shape: inputs x:[1~4,3,8~-1,8~-1]"), std::string::npos) << r->summary;
  om::ModelDef d = Check("shapes");
  ASSERT_EQ(d.dynamic_kind, om::DynamicKind::kShape);
  EXPECT_TRUE(d.nodes.empty());
  EXPECT_EQ(d.arena_size, 0u);
  ASSERT_EQ(d.inputs.size(), 1u);
  ASSERT_EQ(d.outputs.size(), 1u);
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].spec.dims, (std::vector<int64_t>{-1, 3, -1, -1}));
  EXPECT_EQ(d.tensors[static_cast<size_t>(d.inputs[0])].bytes, 0u) << "unbounded H and W";
  const auto& out = d.tensors[static_cast<size_t>(d.outputs[0])].spec.dims;
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out[0], -1) << "the output follows the batch";
  ASSERT_EQ(d.input_templates.size(), 1u);
  EXPECT_EQ(d.input_templates[0].range_min, (std::vector<int64_t>{1, 3, 8, 8}));
  EXPECT_EQ(d.input_templates[0].range_max, (std::vector<int64_t>{4, 3, -1, -1}));
  EXPECT_GT(d.shape_weight_size, 0u);
  EXPECT_GT(d.weight_size, d.shape_weight_size / 2) << "the weight part holds the ONNX graph and its initializers";
  EXPECT_TRUE(ShapeOptionsFromJson(d.shape_options).ok());
  // A graph that does not convert at the ends of its ranges is refused by atc, not at run time.
  auto bad = Convert(b, "too_small", {"--input_shape=x:1~4,3,1~2,1~2"});
  EXPECT_FALSE(bad.ok());
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

// Found by fuzz_model_load through the runtime's shape compiler: a node without outputs (a forged graph) is
// refused with its name, never indexed.
TEST_F(ConvertTest, NodeWithoutOutputIsRefused) {
  OnnxBuilder b;
  b.Input("x", {2, 4});
  auto* c = b.model().mutable_graph()->add_node();
  c->set_op_type("Constant");
  c->set_name("silent");
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  auto r = Convert(b, "no_output");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("silent"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("it has no output"), std::string::npos) << r.status().message();
}

// Also found by fuzz_model_load: a node of constant inputs that lacks a required one is refused by its
// schema before constant folding reads its inputs by position.
TEST_F(ConvertTest, NodeMissingARequiredInputIsRefusedBeforeFolding) {
  OnnxBuilder b;
  b.Input("x", {2, 4});
  b.Ints("table", {1, 2, 3});
  b.Node("Gather", {"table"}, {"picked"}, "short_gather");
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  auto r = Convert(b, "missing_input");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("short_gather"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("not a valid ONNX node"), std::string::npos) << r.status().message();
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

// npurt runs NonZero (tests/models/model_data_dependent_test.cc); the other operators whose output shapes depend
// on the data are named as such.
TEST_F(ConvertTest, DataDependentShapesAreNamedAsSuch) {
  OnnxBuilder b;
  b.Input("x", {3, 4});
  b.Node("Unique", {"x"}, {"y"}, "unique_me");
  b.Output("y");
  auto r = Convert(b, "unique");
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_NE(m.find("node [unique_me] optype [ai.onnx::14::Unique]"), std::string::npos) << m;
  EXPECT_NE(m.find("depend on the input data"), std::string::npos) << m;
  EXPECT_NE(m.find("NonZero only"), std::string::npos) << m;
  EXPECT_FALSE(fs::exists(Path("unique.om")));
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
