// atc's command line and the AIPP configuration parser.
#include <gtest/gtest.h>

#include "aipp_config.h"
#include "aipp_insert.h"
#include "atc_options.h"
#include "converter.h"
#include "gear_options.h"
#include "impl_select.h"

namespace npurt::atc {
namespace {

StatusOr<Options> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "atc");
  return ParseOptions(static_cast<int>(args.size()), args.data());
}

TEST(Options, SampleCommandLine) {
  auto o = Parse({"--model=resnet50.onnx", "--framework=5", "--output=resnet50",
                  "--input_shape=actual_input_1:1,3,224,224", "--soc_version=Ascend310"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->model, "resnet50.onnx");
  EXPECT_EQ(o->framework, 5);
  ASSERT_EQ(o->input_shapes.size(), 1u);
  EXPECT_EQ(o->input_shapes[0].name, "actual_input_1");
  EXPECT_EQ(o->input_shapes[0].dims, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_NE(o->command_line.find("--soc_version=Ascend310"), std::string::npos);
}

TEST(Options, SpaceSeparatedValuesAndRecordedTuningOptions) {
  auto o = Parse({"--model", "m.onnx", "--framework", "5", "--output", "out", "--soc_version", "Ascend310P3",
                  "--oo_level=O3", "--log=debug"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->output, "out");
  EXPECT_EQ(o->recorded.at("oo_level"), "O3");
  EXPECT_EQ(o->log, LogLevel::kDebug);
}

// --op_select_implmode / --optypelist_for_implmode choose Conv2D's algorithm, the bf16 precision modes its
// compute type (impl_select.h).
TEST(Options, ImplementationModeAndBf16PrecisionModes) {
  const std::vector<const char*> base = {"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A"};
  auto with = [&](std::vector<const char*> extra) {
    std::vector<const char*> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return Parse(args);
  };
  auto def = with({});
  ASSERT_TRUE(def.ok());
  EXPECT_TRUE(HighPerformanceImpl(*def, "Conv2D")) << "CANN's default is high_performance";
  EXPECT_FALSE(Bf16Compute(*def)) << "the default precision mode computes fp32 models in fp32";
  auto precise = with({"--op_select_implmode=high_precision"});
  ASSERT_TRUE(precise.ok());
  EXPECT_FALSE(HighPerformanceImpl(*precise, "Conv2D"));
  auto listed = with({"--op_select_implmode=high_precision", "--optypelist_for_implmode=MatMul, Conv2D"});
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  EXPECT_FALSE(HighPerformanceImpl(*listed, "Conv2D"));
  auto unlisted = with({"--op_select_implmode=high_precision", "--optypelist_for_implmode=MatMul"});
  ASSERT_TRUE(unlisted.ok());
  EXPECT_TRUE(HighPerformanceImpl(*unlisted, "Conv2D")) << "types left out of the list keep the default";
  auto all = with({"--op_select_implmode=high_precision_for_all"});
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(HighPerformanceImpl(*all, "Conv2D"));
  for (const char* mode : {"--precision_mode=allow_mix_precision_bf16", "--precision_mode=allow_fp32_to_bf16",
                           "--precision_mode_v2=mixed_bfloat16"}) {
    auto bf = with({mode});
    ASSERT_TRUE(bf.ok()) << mode;
    EXPECT_TRUE(Bf16Compute(*bf)) << mode;
  }
  for (const char* mode : {"--precision_mode=force_fp16", "--precision_mode=allow_mix_precision",
                           "--precision_mode_v2=mixed_float16", "--precision_mode=must_keep_origin_dtype"}) {
    auto other = with({mode});
    ASSERT_TRUE(other.ok()) << mode;
    EXPECT_FALSE(Bf16Compute(*other)) << mode;
  }
  struct Bad {
    std::vector<const char*> extra;
    const char* expect;
  };
  const Bad bad[] = {
      {{"--op_select_implmode=fastest"}, "high_precision_for_all"},
      {{"--optypelist_for_implmode=Conv2D"}, "needs --op_select_implmode"},
      {{"--op_select_implmode=high_precision_for_all", "--optypelist_for_implmode=Conv2D"}, "needs --op_select_implmode"},
      {{"--op_select_implmode=high_precision", "--optypelist_for_implmode=Conv2D,,MatMul"}, "an empty op type"},
      {{"--precision_mode_v2=bf16"}, "mixed_bfloat16"},
      {{"--precision_mode=force_fp32", "--precision_mode_v2=origin"}, "cannot be given together"},
  };
  for (const Bad& b : bad) {
    auto r = with(b.extra);
    ASSERT_FALSE(r.ok()) << b.extra[0];
    EXPECT_NE(r.status().message().find(b.expect), std::string::npos) << r.status().message();
  }
}

TEST(Options, Failures) {
  struct Case {
    std::vector<const char*> args;
    const char* expect;
  };
  const Case cases[] = {
      {{"--model=m.onnx", "--framework=3", "--output=o", "--soc_version=A"}, "framework 3 (TensorFlow) is not supported"},
      {{"--model=m.onnx", "--framework=0", "--output=o", "--soc_version=A"}, "Caffe"},
      {{"--model=m.onnx", "--framework=5", "--output=o"}, "[--soc_version]"},
      {{"--framework=5", "--output=o", "--soc_version=A"}, "[--model]"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--no_such_option=1"}, "[--no_such_option]"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--input_shape=x:1,a"}, "not a non-negative"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--input_shape=1,3,224"}, "name:dim"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--dynamic_batch_size=1,2"}, "must mark the dims"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--output_type=INT8"}, "FP32 and FP16"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--precision_mode=fast"}, "force_fp32"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--out_nodes=conv1"}, "node_name:output_index"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--mode=3"}, "mode 0"},
      {{"--mode=6"}, "[--om]"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--log=loud"}, "debug, info"},
      {{"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--input_format=NC1HWC0"}, "NCHW"},
  };
  for (const Case& c : cases) {
    auto o = Parse(c.args);
    ASSERT_FALSE(o.ok()) << c.args.back();
    EXPECT_NE(o.status().message().find(c.expect), std::string::npos) << o.status().message();
  }
}

// atc --singleop (single_op_test.cc has the op lists): it replaces --model and needs --output and --soc_version.
TEST(Options, SingleopInsteadOfModel) {
  auto o = Parse({"--singleop=ops.json", "--soc_version=Ascend310", "--output=op_models",
                  "--op_select_implmode=high_precision", "--precision_mode=must_keep_origin_dtype"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->singleop, "ops.json");
  auto no_output = Parse({"--singleop=ops.json", "--soc_version=Ascend310"});
  ASSERT_FALSE(no_output.ok());
  EXPECT_NE(no_output.status().message().find("[--output]"), std::string::npos);
  auto both = Parse({"--singleop=ops.json", "--model=m.onnx", "--soc_version=A", "--output=o"});
  ASSERT_FALSE(both.ok());
  EXPECT_NE(HelpText("atc").find("--singleop"), std::string::npos);
}

// Gear options (gear_options.h): what each takes, and CANN's rules with the reason for each refusal.
TEST(Options, Gears) {
  auto b = Parse({"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A",
                  "--input_shape=x:-1,3,224,224;y:-1,4", "--dynamic_batch_size=1,2,4,8"});
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->dynamic_kind, om::DynamicKind::kBatch);
  ASSERT_EQ(b->gears.size(), 4u);
  EXPECT_EQ(b->gears[3], (std::vector<int64_t>{8}));
  EXPECT_EQ(LargestGear(b.value()), 3u);
  auto shapes = GearShapes(b.value(), 1);
  EXPECT_EQ(shapes[0].dims, (std::vector<int64_t>{2, 3, 224, 224}));
  EXPECT_EQ(shapes[1].dims, (std::vector<int64_t>{2, 4}));

  auto hw = Parse({"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--input_shape=data:1,3,-1,-1",
                   "--dynamic_image_size=416,416;832,832;224,960;"});
  ASSERT_TRUE(hw.ok()) << hw.status().message();
  EXPECT_EQ(hw->dynamic_kind, om::DynamicKind::kImageSize);
  EXPECT_EQ(hw->gears.size(), 3u);
  EXPECT_EQ(LargestGear(hw.value()), 1u);  // 832x832 holds the most pixels
  EXPECT_EQ(GearShapes(hw.value(), 2)[0].dims, (std::vector<int64_t>{1, 3, 224, 960}));

  auto dims = Parse({"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--input_format=ND",
                     "--input_shape=data:1,-1,40,-1;mask:-1,-1", "--dynamic_dims=1,8,8,8;2,16,16,16"});
  ASSERT_TRUE(dims.ok()) << dims.status().message();
  EXPECT_EQ(dims->dynamic_kind, om::DynamicKind::kDims);
  EXPECT_EQ(GearShapes(dims.value(), 1)[0].dims, (std::vector<int64_t>{1, 2, 40, 16}));
  EXPECT_EQ(GearShapes(dims.value(), 1)[1].dims, (std::vector<int64_t>{16, 16}));

  struct Case {
    std::vector<const char*> args;
    const char* expect;
  };
  const Case refused[] = {
      {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,2", "--dynamic_dims=1;2"}, "exclude each other"},
      {{"--input_shape=x:1,3", "--dynamic_batch_size=1,2"}, "must mark the dims"},
      {{"--input_shape=x:1,-1", "--dynamic_batch_size=1,2"}, "first dim only"},
      {{"--input_shape=x:-1,3", "--dynamic_batch_size=2"}, "give 2 to 100"},
      {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,2,2"}, "given twice"},
      {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,0"}, "positive integer"},
      {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,-4"}, "positive integer"},
      {{"--input_shape=x:-1,3", "--dynamic_batch_size=1,two"}, "positive integer"},
      {{"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=224,224;448"}, "each gear takes 2"},
      {{"--input_shape=x:-1,3,-1,-1", "--dynamic_image_size=224,224;448,448"}, "H and W only"},
      {{"--input_shape=x:1,3,-1,-1", "--input_format=ND", "--dynamic_image_size=224,224;448,448"}, "NCHW or NHWC"},
      {{"--input_shape=x:-1,3", "--dynamic_dims=1;2"}, "--input_format=ND"},
      {{"--input_shape=x:-1,-1", "--input_format=ND", "--dynamic_dims=1,2;3"}, "each gear takes 2"},
      {{"--input_shape=x:-1,3", "--input_format=ND", "--insert_op_conf=a.cfg", "--dynamic_dims=1;2"}, "AIPP"},
      {{"--input_shape=x:1~4,3", "--dynamic_batch_size=1,2"}, "ranges make a dynamic-shape model"},
      {{"--input_shape=x:0~4,3"}, "1 <= min <= max"},
      {{"--input_shape=x:4~2,3"}, "1 <= min <= max"},
      {{"--input_shape=x:a~2,3"}, "1 <= min <= max"},
      {{"--input_shape=x:-1,3", "--insert_op_conf=a.cfg"}, "exclude it"},
      {{"--input_shape_range=x:1~4,3"}, "name:[dim,dim,...]"},
      {{"--input_shape_range=x:[1~4,3]", "--input_shape=x:1,3"}, "not both"},
  };
  for (const Case& c : refused) {
    std::vector<const char*> args = {"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto o = Parse(args);
    ASSERT_FALSE(o.ok()) << c.args.back();
    EXPECT_NE(o.status().message().find(c.expect), std::string::npos) << c.expect << ": " << o.status().message();
  }
  std::string many = "1";
  for (int i = 2; i <= 101; ++i) many += "," + std::to_string(i);
  const std::string opt = "--dynamic_batch_size=" + many;
  auto o = Parse({"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A", "--input_shape=x:-1,3", opt.c_str()});
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.status().message().find("101 gears"), std::string::npos) << o.status().message();
}

TEST(Options, DynamicShapes) {
  // -1 or ranges without a gear option: a dynamic-shape model, each dim with its [min, max].
  auto o = Parse({"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A",
                  "--input_shape=x:1~8,-1,16;mask:2~-1"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->dynamic_kind, om::DynamicKind::kShape);
  ASSERT_EQ(o->input_shapes.size(), 2u);
  EXPECT_EQ(o->input_shapes[0].dims, (std::vector<int64_t>{-1, -1, 16}));
  EXPECT_EQ(o->input_shapes[0].range_min, (std::vector<int64_t>{1, 1, 16}));
  EXPECT_EQ(o->input_shapes[0].range_max, (std::vector<int64_t>{8, -1, 16}));
  EXPECT_EQ(o->input_shapes[1].range_min, (std::vector<int64_t>{2}));
  EXPECT_EQ(o->input_shapes[1].range_max, (std::vector<int64_t>{-1}));
  // CANN's older spelling reads the same.
  auto r = Parse({"--model=m.onnx", "--framework=5", "--output=o", "--soc_version=A",
                  "--input_shape_range=x:[1~8,-1,16];mask:[2~-1]"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->dynamic_kind, om::DynamicKind::kShape);
  EXPECT_EQ(r->input_shapes[0].range_max, o->input_shapes[0].range_max);
  EXPECT_EQ(r->input_shapes[1].range_min, o->input_shapes[1].range_min);
  // The options a dynamic-shape model keeps read back as they were.
  Options full = o.value();
  full.out_nodes = {{"node", 1}};
  full.output_type = "FP16";
  full.input_fp16_nodes = {"mask"};
  full.fusion = false;
  auto back = ShapeOptionsFromJson(ShapeOptionsJson(full).dump());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->output_type, "FP16");
  EXPECT_EQ(back->out_nodes[0].node, "node");
  EXPECT_EQ(back->out_nodes[0].index, 1);
  EXPECT_EQ(back->input_fp16_nodes, full.input_fp16_nodes);
  EXPECT_FALSE(back->fusion);
  EXPECT_EQ(back->input_shapes[0].range_max, full.input_shapes[0].range_max);
  EXPECT_FALSE(ShapeOptionsFromJson("{\"input_format\": 3}").ok());
  EXPECT_FALSE(ShapeOptionsFromJson("not json").ok());
}

TEST(Options, HelpAndScalarShapes) {
  auto o = Parse({"--help"});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->help);
  EXPECT_NE(HelpText("atc").find("--input_shape"), std::string::npos);
  EXPECT_EQ(HelpText("atc").find("--fusion"), std::string::npos);  // hidden
  auto s = ParseInputShape("a:1,2;b:;x:0:4");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->size(), 3u);
  EXPECT_TRUE((*s)[1].dims.empty());
  EXPECT_EQ((*s)[2].name, "x:0");
  auto n = ParseOutNodes("conv1:0;fc:1");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ((*n)[1].node, "fc");
  EXPECT_EQ((*n)[1].index, 1);
}

TEST(Aipp, ParsesAndChecksWhatRuns) {
  const char* text = R"(# AIPP for resnet
aipp_op {
  aipp_mode: static
  related_input_rank: 0
  input_format: YUV420SP_U8
  src_image_size_w: 224
  src_image_size_h: 224
  csc_switch: true
  matrix_r0c0: 256
  mean_chn_0: 104
  var_reci_chn_0: 0.0171
})";
  auto cfg = ParseAippConfig(text, "aipp.cfg");
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  ASSERT_EQ(cfg->ops.size(), 1u);
  EXPECT_EQ(cfg->ops[0].fields.at("input_format"), "YUV420SP_U8");
  EXPECT_TRUE(CheckAippSupported(cfg.value(), false).ok());
  EXPECT_TRUE(CheckAippSupported(AippConfig{}, false).ok());
  Status st = CheckAippSupported(cfg.value(), true);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("--dynamic_batch_size"), std::string::npos) << st.message();
  struct Refused {
    const char* text;
    const char* expect;
  };
  const Refused refused[] = {
      {"aipp_op { aipp_mode: dynamic max_src_image_size: 1000 }", "dynamic AIPP is not supported"},
      {"aipp_op { aipp_mode: static input_format: YUYV_U8 }", "YUYV_U8 is not supported"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 resize: true }", "resize: true"},
      {"aipp_op { aipp_mode: static }", "(not given)"},
  };
  for (const Refused& r : refused) {
    auto c = ParseAippConfig(r.text, "f");
    ASSERT_TRUE(c.ok()) << c.status().message();
    Status s = CheckAippSupported(c.value(), false);
    ASSERT_FALSE(s.ok()) << r.text;
    EXPECT_NE(s.message().find(r.expect), std::string::npos) << s.message();
  }
}

TEST(Aipp, SyntaxErrors) {
  EXPECT_FALSE(ParseAippConfig("aipp_op { aipp_mode: sometimes }", "f").ok());
  EXPECT_FALSE(ParseAippConfig("aipp_op { aipp_mode: static src_image_size_w: wide }", "f").ok());
  EXPECT_FALSE(ParseAippConfig("aipp_op { aipp_mode: static colour: 1 }", "f").ok());
  EXPECT_FALSE(ParseAippConfig("aipp_op { aipp_mode: static", "f").ok());
  EXPECT_FALSE(ParseAippConfig("aipp_op { input_format: RGB888_U8 }", "f").ok());  // no aipp_mode
  EXPECT_TRUE(ParseAippConfig("# nothing\n", "f").ok());
}

}  // namespace
}  // namespace npurt::atc
