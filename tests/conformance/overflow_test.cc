// Floating-point overflow detection: tasks on a stream whose overflow switch is on raise the device's
// overflow status when they produce Inf/NaN or saturate (built-in reduce tasks, operators), the status
// is read and cleared by stream-ordered tasks (every read/reset entry point), a stream with the switch
// off leaves it alone, and bad arguments are refused.
#include <cstring>
#include <limits>
#include <vector>

#include "acl/acl_op.h"
#include "test_util.h"

namespace cts {
namespace {

using OverflowTest = CtsTest;

uint32_t ReadStatus(aclrtStream s) {
  DevBuf out(64);
  EXPECT_ACL_OK(aclrtMemset(out.get(), 64, 0xee, 64));
  EXPECT_ACL_OK(aclrtGetOverflowStatus(out.get(), 64, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  const std::vector<uint8_t> bytes = out.Read();
  EXPECT_TRUE(AllBytesAre(bytes.data() + 4, 60, 0)) << "the rest of the buffer is cleared";
  uint32_t status = 0;
  std::memcpy(&status, bytes.data(), 4);
  return status;
}

// 3e38 + 3e38 overflows float.
void OverflowingReduce(aclrtStream s) {
  const std::vector<float> big(16, 3e38f);
  DevBuf a(64), b(64);
  EXPECT_ACL_OK(a.Upload(big.data(), 64));
  EXPECT_ACL_OK(b.Upload(big.data(), 64));
  EXPECT_ACL_OK(aclrtReduceAsync(a.get(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
}

void OverflowingAdd(aclrtStream s, float x) {
  const int64_t dims[1] = {16};
  const std::vector<float> values(16, x);
  DevBuf a(64), b(64), out(64);
  EXPECT_ACL_OK(a.Upload(values.data(), 64));
  EXPECT_ACL_OK(b.Upload(values.data(), 64));
  aclTensorDesc* in_desc[2] = {aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND),
                               aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND)};
  aclTensorDesc* out_desc[1] = {aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND)};
  aclDataBuffer* in_buf[2] = {aclCreateDataBuffer(a.get(), 64), aclCreateDataBuffer(b.get(), 64)};
  aclDataBuffer* out_buf[1] = {aclCreateDataBuffer(out.get(), 64)};
  EXPECT_ACL_OK(aclopExecuteV2("Add", 2, in_desc, in_buf, 1, out_desc, out_buf, nullptr, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  for (aclTensorDesc* d : {in_desc[0], in_desc[1], out_desc[0]}) aclDestroyTensorDesc(d);
  for (aclDataBuffer* d : {in_buf[0], in_buf[1], out_buf[0]}) EXPECT_ACL_OK(aclDestroyDataBuffer(d));
}

TEST_F(OverflowTest, ReduceOverflowRaisesTheStatusWhenTheSwitchIsOn) {
  Stream s;
  ASSERT_ACL_OK(aclrtResetOverflowStatus(s));
  OverflowingReduce(s);
  EXPECT_EQ(0u, ReadStatus(s)) << "switch off: not checked";
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
  uint32_t sw = 0;
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(s, &sw));
  EXPECT_EQ(1u, sw);
  OverflowingReduce(s);
  EXPECT_EQ(1u, ReadStatus(s));
  EXPECT_EQ(1u, ReadStatus(s)) << "reading does not clear";
  ASSERT_ACL_OK(aclrtResetOverflowStatus(s));
  EXPECT_EQ(0u, ReadStatus(s));
}

TEST_F(OverflowTest, OperatorOverflowRaisesTheStatusInBothModes) {
  aclrtFloatOverflowMode original = ACL_RT_OVERFLOW_MODE_SATURATION;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&original));
  Stream s;
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
  for (auto mode : {ACL_RT_OVERFLOW_MODE_SATURATION, ACL_RT_OVERFLOW_MODE_INFNAN}) {
    ASSERT_ACL_OK(aclrtSetDeviceSatMode(mode));
    ASSERT_ACL_OK(aclrtResetOverflowStatus(s));
    OverflowingAdd(s, 1.5f);
    EXPECT_EQ(0u, ReadStatus(s)) << "finite results";
    OverflowingAdd(s, 3e38f);
    EXPECT_EQ(1u, ReadStatus(s)) << "mode " << mode;
  }
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(original));
  ASSERT_ACL_OK(aclrtResetOverflowStatus(s));
}

TEST_F(OverflowTest, StatusReadsAreOrderedInTheStream) {
  Stream s;
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
  ASSERT_ACL_OK(aclrtResetOverflowStatus(s));
  const std::vector<float> big(16, 3e38f);
  DevBuf a(64), b(64), before(8), after(8), cleared(8);
  ASSERT_ACL_OK(a.Upload(big.data(), 64));
  ASSERT_ACL_OK(b.Upload(big.data(), 64));
  ASSERT_ACL_OK(aclrtGetFloatOverflowStatus(before.get(), 8, s));
  ASSERT_ACL_OK(aclrtReduceAsync(a.get(), b.get(), 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr));
  ASSERT_ACL_OK(aclrtNpuGetFloatOverFlowStatus(after.get(), 8, 1, s));  // mode 1 reads and clears
  ASSERT_ACL_OK(aclrtNpuGetFloatOverFlowStatus(cleared.get(), 8, 0, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  uint32_t v[3] = {};
  ASSERT_ACL_OK(before.Download(&v[0], 4));
  ASSERT_ACL_OK(after.Download(&v[1], 4));
  ASSERT_ACL_OK(cleared.Download(&v[2], 4));
  EXPECT_EQ(0u, v[0]);
  EXPECT_EQ(1u, v[1]);
  EXPECT_EQ(0u, v[2]);
  OverflowingReduce(s);
  ASSERT_ACL_OK(aclrtNpuClearFloatOverFlowStatus(0, s));
  EXPECT_EQ(0u, ReadStatus(s));
  OverflowingReduce(s);
  ASSERT_ACL_OK(aclrtResetFloatOverflowStatus(s));
  EXPECT_EQ(0u, ReadStatus(s));
}

TEST_F(OverflowTest, BadInputs) {
  DevBuf out(64);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOverflowStatus(nullptr, 64, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOverflowStatus(out.get(), 2, nullptr)) << "smaller than the word";
  uint32_t host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetOverflowStatus(&host, 4, nullptr)) << "host memory";
  EXPECT_NE(ACL_SUCCESS, aclrtGetOverflowStatus(out.get(), 1 << 20, nullptr)) << "past the allocation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetFloatOverflowStatus(nullptr, 64, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNpuGetFloatOverFlowStatus(out.get(), 64, 2, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNpuClearFloatOverFlowStatus(7, nullptr));
  EXPECT_BAD_HANDLE(aclrtResetOverflowStatus(reinterpret_cast<aclrtStream>(&host)));
  EXPECT_BAD_HANDLE(aclrtGetOverflowStatus(out.get(), 64, reinterpret_cast<aclrtStream>(&host)));
  void* addr = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtCtxGetFloatOverflowAddr(&addr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetFloatOverflowAddr(nullptr));
}

}  // namespace
}  // namespace cts
