// The race detector (include/npurt/racecheck.h, docs/racecheck.md) on operators: a run reads its input
// tensors and writes its outputs, in its stream's order. (aclInit comes from op_api_test.cc's environment,
// in the same executable.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl_op_compiler.h"
#include "acl_test_env.h"
#include "npurt/racecheck.h"

namespace npurt_test {
namespace {

std::string Report(size_t i) {
  char text[4096];
  EXPECT_EQ(npurtRacecheckGetReport(i, text, sizeof text, nullptr), ACL_SUCCESS);
  return text;
}

class OpRacecheckTest : public OpApiTest {
 protected:
  void SetUp() override {
    OpApiTest::SetUp();
    ASSERT_EQ(npurtRacecheckSetEnabled(1), ACL_SUCCESS);
  }
  void TearDown() override {
    npurtRacecheckSetEnabled(0);
    OpApiTest::TearDown();
  }
  aclError Add(DevTensor& a, DevTensor& b, DevTensor& out) {
    aclTensorDesc* in_desc[] = {a.desc, b.desc};
    aclDataBuffer* in_buf[] = {a.buf, b.buf};
    aclTensorDesc* out_desc[] = {out.desc};
    aclDataBuffer* out_buf[] = {out.buf};
    return aclopExecuteV2("Add", 2, in_desc, in_buf, 1, out_desc, out_buf, nullptr, stream_);
  }
};

TEST_F(OpRacecheckTest, AnOperatorsOutputReadBeforeSynchronisingIsARace) {
  const int64_t n = std::uniform_int_distribution<int64_t>(16, 4096)(rng_);
  DevTensor a(Random(ACL_FLOAT, {n}, rng_)), b(Random(ACL_FLOAT, {n}, rng_)), out(HostTensor(ACL_FLOAT, {n}));
  // Ordered: the result read after aclrtSynchronizeStream is the sum, and no race is reported.
  ASSERT_EQ(Add(a, b, out), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const HostTensor sum = out.Read();
  for (int64_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(sum.at(i), a.host.at(i) + b.host.at(i)) << i;
  EXPECT_EQ(npurtRacecheckReportCount(), 0u);
  // Unordered: the output read at once.
  ASSERT_EQ(Add(a, b, out), ACL_SUCCESS);
  out.Read();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(npurtRacecheckReportCount(), 1u) << Report(0);
  const std::string r = Report(0);
  EXPECT_NE(r.find("write ["), std::string::npos) << r;
  EXPECT_NE(r.find("by operator 'Add' (task "), std::string::npos) << r;
  EXPECT_NE(r.find("read ["), std::string::npos) << r;
  EXPECT_NE(r.find("by aclrtMemcpy (synchronous host call)"), std::string::npos) << r;
  EXPECT_NE(r.find(std::to_string(n * sizeof(float)) + " bytes, device 0"), std::string::npos) << r;
}

TEST_F(OpRacecheckTest, OverwritingAnInputTheQueuedOperatorReadsIsARace) {
  const int64_t n = std::uniform_int_distribution<int64_t>(16, 4096)(rng_);
  DevTensor a(Random(ACL_FLOAT, {n}, rng_)), b(Random(ACL_FLOAT, {n}, rng_)), out(HostTensor(ACL_FLOAT, {n}));
  ASSERT_EQ(Add(a, b, out), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(b.dev, b.cap, 0, b.cap), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(npurtRacecheckReportCount(), 1u);
  const std::string r = Report(0);
  EXPECT_NE(r.find("read ["), std::string::npos) << r;
  EXPECT_NE(r.find("by operator 'Add'"), std::string::npos) << r;
  EXPECT_NE(r.find("by aclrtMemset (synchronous host call)"), std::string::npos) << r;
}

}  // namespace
}  // namespace npurt_test
