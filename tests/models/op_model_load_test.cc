// Single-operator models (atc --singleop) through aclopSetModelDir and aclopLoad: files written with the
// single-op writer (models/om/single_op.h), loaded, and the operator they describe executed on random data;
// every kind of bad directory or file refused with its code and a message. aclopSetModelDir loads one
// directory per process, so the directory cases run in one test, in order.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <random>

#include "acl/acl_op.h"
#include "model_fixture.h"
#include "models/om/om_writer.h"
#include "models/om/single_op.h"

namespace npurt::test {
namespace {

om::SingleOpDef AddOp(int64_t rows, int64_t cols) {
  om::SingleOpDef op;
  op.op_type = "Add";
  const TensorSpec s{ACL_FLOAT, ACL_FORMAT_ND, {rows, cols}};
  op.inputs = {s, s};
  op.outputs = {s};
  return op;
}

std::vector<uint8_t> Serialize(const om::SingleOpDef& op) {
  auto bytes = om::SerializeModel(om::SingleOpModel(op, "Ascend910B1", "test", ""), {});
  EXPECT_TRUE(bytes.ok()) << bytes.status().message();
  return bytes.ok() ? bytes.value() : std::vector<uint8_t>{};
}

class OpModelTest : public ModelTest {
 protected:
  std::string Dir(const char* name) {
    const std::string d = WriteTemp(name, {});
    std::remove(d.c_str());
    EXPECT_EQ(mkdir(d.c_str(), 0755), 0);
    dirs_.push_back(d);
    return d;
  }
  static void Put(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
    FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
    ASSERT_NE(f, nullptr);
    if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  // aclopExecuteV2("Add") on random rows x cols floats, checked against the host sum.
  void ExpectAddRuns(int64_t rows, int64_t cols) {
    const size_t n = static_cast<size_t>(rows * cols);
    const std::vector<float> a = RandomFloats(n, 3), b = RandomFloats(n, 4);
    void* da = Upload(a);
    void* db = Upload(b);
    void* dc = Device(n * 4);
    const int64_t dims[] = {rows, cols};
    aclTensorDesc* in[] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND),
                           aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
    aclTensorDesc* out[] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
    aclDataBuffer* ib[] = {aclCreateDataBuffer(da, n * 4), aclCreateDataBuffer(db, n * 4)};
    aclDataBuffer* ob[] = {aclCreateDataBuffer(dc, n * 4)};
    aclopAttr* attr = aclopCreateAttr();
    ASSERT_EQ(aclopExecuteV2("Add", 2, in, ib, 1, out, ob, attr, stream_), ACL_SUCCESS) << Message();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<float> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
    ExpectNear(Download(dc, n), want, "Add");
    aclopDestroyAttr(attr);
    for (auto* d : in) aclDestroyTensorDesc(d);
    aclDestroyTensorDesc(out[0]);
    for (auto* d : ib) aclDestroyDataBuffer(d);
    aclDestroyDataBuffer(ob[0]);
  }
  void TearDown() override {
    for (const std::string& d : dirs_) std::system(("rm -rf " + d).c_str());
    ModelTest::TearDown();
  }
  std::vector<std::string> dirs_;
};

TEST_F(OpModelTest, SetModelDirLoadsOneValidDirectoryPerProcess) {
  EXPECT_EQ(aclopSetModelDir(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetModelDir("/no/such/op_models"), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_NE(Message().find("/no/such/op_models"), std::string::npos) << Message();

  const std::string corrupt = Dir("corrupt");
  Put(corrupt, "0_Add.om", std::vector<uint8_t>(300, 0x5a));
  EXPECT_EQ(aclopSetModelDir(corrupt.c_str()), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(Message().find("0_Add.om"), std::string::npos) << Message();

  const std::string model = Dir("model");
  Put(model, "conv.om", model_.file);  // an offline model is no single-operator model
  EXPECT_EQ(aclopSetModelDir(model.c_str()), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(Message().find("not a single-operator model"), std::string::npos) << Message();

  const std::string unknown = Dir("unknown");
  om::SingleOpDef bogus = AddOp(2, 2);
  bogus.op_type = "NoSuchOperator";
  Put(unknown, "0_NoSuchOperator.om", Serialize(bogus));
  EXPECT_EQ(aclopSetModelDir(unknown.c_str()), ACL_ERROR_OP_LOAD_FAILED);
  EXPECT_NE(Message().find("NoSuchOperator"), std::string::npos) << Message();

  // A valid directory: two operators, a file that is no .om (ignored); then the operator runs.
  const std::string good = Dir("good");
  Put(good, "0_Add_0_2_8_16_0_2_8_16_0_2_8_16.om", Serialize(AddOp(8, 16)));
  Put(good, "1_Add.om", Serialize(AddOp(3, 5)));
  Put(good, "ops.json", {'[', ']'});
  ASSERT_EQ(aclopSetModelDir(good.c_str()), ACL_SUCCESS) << Message();
  ExpectAddRuns(8, 16);
  ExpectAddRuns(3, 5);
  ExpectAddRuns(2, 7);  // npurt compiles operators without a model too (CANN: ACL_ERROR_OP_NOT_FOUND)
  EXPECT_EQ(aclopSetModelDir(good.c_str()), ACL_ERROR_REPEAT_INITIALIZE);
}

TEST_F(OpModelTest, LoadFromMemoryVerifiesTheImage) {
  const std::vector<uint8_t> bytes = Serialize(AddOp(4, 9));
  EXPECT_EQ(aclopLoad(nullptr, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopLoad(bytes.data(), 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclopLoad(bytes.data(), bytes.size()), ACL_SUCCESS) << Message();
  ExpectAddRuns(4, 9);
  EXPECT_EQ(aclopLoad(bytes.data(), bytes.size() / 2), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(Message().find("truncated"), std::string::npos) << Message();
  const char text[] = "model";
  EXPECT_EQ(aclopLoad(text, sizeof(text)), ACL_ERROR_PARSE_MODEL);
  EXPECT_EQ(aclopLoad(model_.file.data(), model_.file.size()), ACL_ERROR_PARSE_MODEL);
  // Mutated bytes: refused or, where the byte lies in padding no part covers, loaded; never a crash.
  std::mt19937 rng(29);
  for (int k = 0; k < 200; ++k) {
    std::vector<uint8_t> m = bytes;
    m[rng() % m.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    const aclError rc = aclopLoad(m.data(), m.size());
    EXPECT_TRUE(rc == ACL_SUCCESS || rc == ACL_ERROR_PARSE_MODEL) << rc;
  }
}

TEST_F(OpModelTest, ModelApiRefusesASingleOperatorModel) {
  const std::string path = WriteTemp("single_add.om", Serialize(AddOp(2, 3)));
  uint32_t id = 0;
  EXPECT_NE(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS);
  EXPECT_NE(Message().find("aclopSetModelDir"), std::string::npos) << Message();
  size_t work = 0, weight = 0;
  EXPECT_NE(aclmdlQuerySize(path.c_str(), &work, &weight), ACL_SUCCESS);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace npurt::test
