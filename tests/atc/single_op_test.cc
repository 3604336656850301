// atc --singleop (tools/atc/single_op.h): CANN's op list parsed and checked, each operator compiled and
// written as a single-operator .om that reads back to the same call; bad lists refused with the reason.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "atc_options.h"
#include "models/om/om_reader.h"
#include "single_op.h"

namespace npurt::atc {
namespace {

// The gemm list of the CANN BLAS sample's form (5 inputs: A, B, C, alpha, beta), in fp16.
const char* kGemmList = R"([
  {
    "op": "GEMM",
    "input_desc": [
      {"format": "ND", "shape": [16, 16], "type": "float16"},
      {"format": "ND", "shape": [16, 16], "type": "float16"},
      {"format": "ND", "shape": [16, 16], "type": "float16"},
      {"format": "ND", "shape": [], "type": "float16"},
      {"format": "ND", "shape": [], "type": "float16"}
    ],
    "output_desc": [{"format": "ND", "shape": [16, 16], "type": "float16"}],
    "attr": [
      {"name": "transpose_a", "type": "bool", "value": false},
      {"name": "transpose_b", "type": "bool", "value": true}
    ]
  },
  {
    "op": "Add",
    "name": "my_add",
    "input_desc": [
      {"format": "ND", "shape": [8, 16], "type": "int32"},
      {"format": "ND", "shape": [8, 16], "type": "int32"}
    ],
    "output_desc": [{"format": "ND", "shape": [8, 16], "type": "int32"}]
  },
  {
    "op": "Add",
    "input_desc": [
      {"format": "ND", "shape": [-1, 16], "type": "float", "shape_range": [[1, 64], [16, 16]]},
      {"format": "ND", "shape": [-1, 16], "type": "float"}
    ],
    "output_desc": [{"format": "ND", "shape": [-1, 16], "type": "float"}]
  }
])";

std::string TempDir() {
  char tmpl[] = "/tmp/npurt_singleop_XXXXXX";
  const char* d = mkdtemp(tmpl);
  EXPECT_NE(d, nullptr);
  return d == nullptr ? std::string("/tmp") : std::string(d);
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

bool Exists(const std::string& path) {
  struct stat st{};
  return stat(path.c_str(), &st) == 0;
}

TEST(SingleOp, ParsesCannListWithCannFileNames) {
  auto list = ParseSingleOpList(kGemmList);
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->size(), 3u);
  const SingleOpEntry& gemm = (*list)[0];
  EXPECT_EQ(gemm.op.op_type, "GEMM");
  ASSERT_EQ(gemm.op.inputs.size(), 5u);
  EXPECT_EQ(gemm.op.inputs[3].dims.size(), 0u);
  EXPECT_EQ(gemm.op.inputs[0].dtype, ACL_FLOAT16);
  EXPECT_EQ(std::get<bool>(gemm.op.attrs.at("transpose_b")), true);
  // CANN's rule: index, op, then dtype_format_dims of every input and output.
  EXPECT_EQ(gemm.file_name, "0_GEMM_1_2_16_16_1_2_16_16_1_2_16_16_1_2_1_2_1_2_16_16.om");
  EXPECT_FALSE(gemm.dynamic);
  EXPECT_EQ((*list)[1].file_name, "my_add.om");
  EXPECT_TRUE((*list)[2].dynamic);
}

// A name over 240 bytes (many inputs of high rank) becomes index, op and a hash: short, and distinct per call.
TEST(SingleOp, LongDefaultNamesEndInAHash) {
  om::SingleOpDef op;
  op.op_type = "ConcatD";
  for (int i = 0; i < 20; ++i) op.inputs.push_back(TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {1000, 2000, 3000, 4000}});
  op.outputs.push_back(TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {20000, 2000, 3000, 4000}});
  const std::string a = om::SingleOpFileName(3, op);
  EXPECT_LE(a.size(), 255u);
  EXPECT_EQ(a.rfind("3_ConcatD_", 0), 0u) << a;
  EXPECT_EQ(a.substr(a.size() - 3), ".om");
  op.inputs[7].dims[2] = 3001;
  EXPECT_NE(om::SingleOpFileName(3, op), a);
}

TEST(SingleOp, EveryAttributeType) {
  auto list = ParseSingleOpList(R"([{"op": "X", "input_desc": [], "output_desc": [{"format": "NCHW", "shape": [1],
      "type": "DT_FLOAT"}], "attr": [
      {"name": "b", "type": "bool", "value": true}, {"name": "i", "type": "int", "value": -7},
      {"name": "f", "type": "float", "value": 0.5}, {"name": "s", "type": "string", "value": "SAME"},
      {"name": "dt", "type": "data_type", "value": "DT_FLOAT16"}, {"name": "lb", "type": "list_bool", "value": [true, false]},
      {"name": "li", "type": "list_int", "value": [1, 2, 3]}, {"name": "lf", "type": "list_float", "value": [1, 2.5]},
      {"name": "ls", "type": "list_string", "value": ["a", "b"]},
      {"name": "lli", "type": "list_list_int", "value": [[1, 2], [3]]},
      {"name": "ldt", "type": "list_data_type", "value": ["float", 3]}]}])");
  ASSERT_TRUE(list.ok()) << list.status().message();
  const AttrMap& a = (*list)[0].op.attrs;
  EXPECT_EQ(std::get<int64_t>(a.at("i")), -7);
  EXPECT_EQ(std::get<float>(a.at("f")), 0.5f);
  EXPECT_EQ(std::get<std::string>(a.at("s")), "SAME");
  EXPECT_EQ(std::get<DataTypeValue>(a.at("dt")).v, ACL_FLOAT16);
  EXPECT_EQ(std::get<std::vector<uint8_t>>(a.at("lb")), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(std::get<std::vector<int64_t>>(a.at("li")), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(std::get<std::vector<float>>(a.at("lf")), (std::vector<float>{1.0f, 2.5f}));
  EXPECT_EQ(std::get<std::vector<std::string>>(a.at("ls")).size(), 2u);
  EXPECT_EQ(std::get<std::vector<std::vector<int64_t>>>(a.at("lli"))[1], (std::vector<int64_t>{3}));
  EXPECT_EQ(std::get<std::vector<int32_t>>(a.at("ldt")), (std::vector<int32_t>{ACL_FLOAT, ACL_INT32}));
  EXPECT_EQ((*list)[0].op.outputs[0].format, ACL_FORMAT_NCHW);
}

TEST(SingleOp, BadListsAreRefusedWithTheReason) {
  const std::string out = R"("output_desc": [{"format": "ND", "shape": [2], "type": "float"}])";
  struct Case {
    std::string json;
    const char* expect;
  };
  const Case cases[] = {
      {"[", "not valid JSON"},
      {"[]", "non-empty array"},
      {"[3]", "op 0 of the --singleop list: is not an object"},
      {"[{" + out + "}]", "'op' is required"},
      {R"([{"op": "Add"}])", "'input_desc' is required"},
      {R"([{"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "type": "float17"}], )" + out + "}]",
       "input_desc[0].type' \"float17\""},
      {R"([{"op": "Add", "input_desc": [{"format": "XY", "shape": [2], "type": "float"}], )" + out + "}]",
       "input_desc[0].format"},
      {R"([{"op": "Add", "input_desc": [{"format": "ND", "shape": [2, -3], "type": "float"}], )" + out + "}]",
       "is not a shape"},
      {R"([{"op": "Add", "input_desc": [{"format": "ND", "shape": [18446744073709551615], "type": "float"}], )" + out +
           "}]",
       "is not a shape"},
      {R"([{"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "type": "float", "is_const": true}], )" + out +
           "}]",
       "constant inputs"},
      {R"([{"op": "Add", "input_desc": [], "output_desc": []}])", "lists no output"},
      {R"([{"op": "Add", "input_desc": [], )" + out + R"(, "attr": [{"name": "a", "type": "int", "value": 1.5}]}])",
       "not a int"},
      {R"([{"op": "Add", "input_desc": [], )" + out + R"(, "attr": [{"name": "a", "type": "tensor", "value": 1}]}])",
       "has the type 'tensor'"},
      {R"([{"op": "Add", "input_desc": [], )" + out +
           R"(, "attr": [{"name": "a", "type": "int", "value": 1}, {"name": "a", "type": "int", "value": 2}]}])",
       "given twice"},
      {R"([{"op": "Add", "name": "../x", "input_desc": [], )" + out + "}]", "not a file name"},
      {R"([{"op": "A", "name": "n", "input_desc": [], )" + out + R"(}, {"op": "B", "name": "n.om", "input_desc": [], )" +
           out + "}]",
       "used by another operator"},
  };
  for (const Case& c : cases) {
    auto list = ParseSingleOpList(c.json);
    ASSERT_FALSE(list.ok()) << c.json;
    EXPECT_NE(list.status().message().find(c.expect), std::string::npos) << c.json << "\n" << list.status().message();
  }
}

TEST(SingleOp, WritesModelsThatReadBackAsTheSameCall) {
  const std::string dir = TempDir();
  Options o;
  o.singleop = WriteFile(dir, "ops.json", kGemmList);
  o.output = dir + "/op_models/nested";
  o.soc_version = "Ascend910B1";
  auto r = BuildSingleOpModels(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->summary.find("2 of 3 operators"), std::string::npos) << r->summary;
  EXPECT_NE(r->summary.find("dynamic dims: no file"), std::string::npos) << r->summary;
  auto list = ParseSingleOpList(kGemmList);
  ASSERT_TRUE(list.ok());
  for (size_t i = 0; i < 2; ++i) {
    const SingleOpEntry& e = (*list)[i];
    const std::string path = o.output + "/" + e.file_name;
    std::string bytes;
    ASSERT_TRUE(om::ReadFileBytes(path, &bytes).ok()) << path;
    auto file = om::ReadModel(bytes.data(), bytes.size(), path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    EXPECT_EQ(file->header.format_version, 3u);
    EXPECT_EQ(file->def.soc_version, "Ascend910B1");
    auto op = om::SingleOpOf(file->def);
    ASSERT_TRUE(op.ok()) << op.status().message();
    EXPECT_EQ(op->op_type, e.op.op_type);
    EXPECT_EQ(op->inputs, e.op.inputs);
    EXPECT_EQ(op->outputs, e.op.outputs);
    EXPECT_EQ(op->attrs, e.op.attrs);

    // Any flipped byte of the file is refused by the verifier, never read as another operator.
    std::mt19937 rng(static_cast<uint32_t>(i) + 7);
    for (int k = 0; k < 64; ++k) {
      std::string mutated = bytes;
      mutated[rng() % mutated.size()] ^= static_cast<char>(1 + rng() % 255);
      auto m = om::ReadModel(mutated.data(), mutated.size(), "mutated");
      if (m.ok()) {  // only bytes no part covers (the padding after the model part) may change
        EXPECT_EQ(om::SingleOpOf(m->def).value().attrs, e.op.attrs);
      }
    }
  }
  EXPECT_FALSE(Exists(o.output + "/" + (*list)[2].file_name));
  std::system(("rm -rf " + dir).c_str());
}

TEST(SingleOp, AnOperatorThatDoesNotCompileWritesNothing) {
  const std::string dir = TempDir();
  Options o;
  o.singleop = WriteFile(dir, "ops.json", R"([
    {"op": "Add", "input_desc": [{"format": "ND", "shape": [4], "type": "float"}, {"format": "ND", "shape": [4],
     "type": "float"}], "output_desc": [{"format": "ND", "shape": [4], "type": "float"}]},
    {"op": "Add", "input_desc": [{"format": "ND", "shape": [4], "type": "float"}, {"format": "ND", "shape": [5],
     "type": "float"}], "output_desc": [{"format": "ND", "shape": [4], "type": "float"}]},
    {"op": "NoSuchOperator", "input_desc": [], "output_desc": [{"format": "ND", "shape": [4], "type": "float"}]}])");
  o.output = dir + "/op_models";
  o.soc_version = "Ascend310";
  auto r = BuildSingleOpModels(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("op 1 (Add)"), std::string::npos) << r.status().message();
  EXPECT_FALSE(Exists(o.output));
  o.singleop = dir + "/missing.json";
  r = BuildSingleOpModels(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot be read"), std::string::npos);
  std::system(("rm -rf " + dir).c_str());
}

// The atc binary with the sample's command line (CANN's BLAS sample form).
TEST(SingleOp, AtcBinaryWithTheSamplesCommandLine) {
  const std::string dir = TempDir();
  const std::string json = WriteFile(dir, "gemm.json", kGemmList);
  const std::string cmd = std::string(ATC_BINARY) + " --singleop=" + json +
                          " --soc_version=Ascend310 --output=" + dir + "/op_models > " + dir + "/log.txt 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream log(dir + "/log.txt");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("ATC run success"), std::string::npos) << text;
  EXPECT_TRUE(Exists(dir + "/op_models/0_GEMM_1_2_16_16_1_2_16_16_1_2_16_16_1_2_1_2_1_2_16_16.om"));
  EXPECT_TRUE(Exists(dir + "/op_models/my_add.om"));
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
}  // namespace npurt::atc
