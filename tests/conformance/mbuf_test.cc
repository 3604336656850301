// Message buffers (aclrt*Buf* and their acltdt*Buf* names): data and its valid length, the 96-byte
// user-data area, shared references (aclrtCopyBufRef) and chains, with every error path.
#include <cstring>

#include "acl/acl_tdt_queue.h"
#include "test_util.h"

namespace cts {
namespace {

using MbufTest = CtsTest;

TEST_F(MbufTest, DataAndLength) {
  constexpr size_t n = 3000;
  aclrtMbuf buf = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&buf, n));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtGetBufData(buf, &data, &size));
  ASSERT_NE(nullptr, data);
  EXPECT_EQ(n, size);
  const std::vector<uint8_t> bytes = RandomBytes(n, 41);
  std::memcpy(data, bytes.data(), n);
  size_t len = 1;
  ASSERT_ACL_OK(aclrtGetBufDataLen(buf, &len));
  EXPECT_EQ(0u, len);
  ASSERT_ACL_OK(aclrtSetBufDataLen(buf, 1234));
  ASSERT_ACL_OK(aclrtGetBufDataLen(buf, &len));
  EXPECT_EQ(1234u, len);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetBufDataLen(buf, n + 1));
  EXPECT_EQ(-1, FirstDifference(data, bytes.data(), n));

  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocBuf(nullptr, n));
  aclrtMbuf none = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocBuf(&none, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocBuf(&none, static_cast<size_t>(-1)));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufData(buf, nullptr, &size));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufData(buf, &data, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufDataLen(buf, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufDataLen(nullptr, &len));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetBufDataLen(nullptr, 0));
  EXPECT_ACL_OK(aclrtFreeBuf(buf));
  EXPECT_BAD_HANDLE(aclrtFreeBuf(buf));
  EXPECT_BAD_HANDLE(aclrtGetBufDataLen(buf, &len));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeBuf(nullptr));
  int local = 7;
  EXPECT_BAD_HANDLE(aclrtFreeBuf(&local));
}

TEST_F(MbufTest, UserDataArea) {
  aclrtMbuf buf = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&buf, 64));
  const std::vector<uint8_t> user = RandomBytes(96, 42);
  ASSERT_ACL_OK(aclrtSetBufUserData(buf, user.data(), 96, 0));
  std::vector<uint8_t> back(96, 0);
  ASSERT_ACL_OK(aclrtGetBufUserData(buf, back.data(), 96, 0));
  EXPECT_EQ(user, back);
  // A window at an offset.
  const std::vector<uint8_t> part = RandomBytes(16, 43);
  ASSERT_ACL_OK(aclrtSetBufUserData(buf, part.data(), 16, 80));
  std::vector<uint8_t> window(16, 0);
  ASSERT_ACL_OK(aclrtGetBufUserData(buf, window.data(), 16, 80));
  EXPECT_EQ(part, window);
  ASSERT_ACL_OK(aclrtGetBufUserData(buf, window.data(), 16, 0));
  EXPECT_EQ(0, std::memcmp(window.data(), user.data(), 16));

  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetBufUserData(buf, user.data(), 97, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetBufUserData(buf, user.data(), 16, 81));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufUserData(buf, back.data(), 1, 96));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufUserData(buf, back.data(), static_cast<size_t>(-1), 2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetBufUserData(buf, nullptr, 4, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufUserData(buf, nullptr, 4, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufUserData(nullptr, back.data(), 4, 0));
  EXPECT_ACL_OK(aclrtFreeBuf(buf));
}

TEST_F(MbufTest, CopyBufRefSharesData) {
  aclrtMbuf a = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&a, 512));
  void* da = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtGetBufData(a, &da, &size));
  FillRandom(da, size, 44);
  ASSERT_ACL_OK(aclrtSetBufDataLen(a, 300));
  const std::vector<uint8_t> user = RandomBytes(8, 45);
  ASSERT_ACL_OK(aclrtSetBufUserData(a, user.data(), 8, 4));

  aclrtMbuf b = nullptr;
  ASSERT_ACL_OK(aclrtCopyBufRef(a, &b));
  ASSERT_NE(a, b);
  void* db = nullptr;
  ASSERT_ACL_OK(aclrtGetBufData(b, &db, &size));
  EXPECT_EQ(da, db);  // the same bytes
  EXPECT_EQ(512u, size);
  size_t len = 0;
  ASSERT_ACL_OK(aclrtGetBufDataLen(b, &len));
  EXPECT_EQ(300u, len);
  std::vector<uint8_t> got(8, 0);
  ASSERT_ACL_OK(aclrtGetBufUserData(b, got.data(), 8, 4));
  EXPECT_EQ(user, got);
  // Lengths and user data are per buffer.
  ASSERT_ACL_OK(aclrtSetBufDataLen(b, 10));
  ASSERT_ACL_OK(aclrtGetBufDataLen(a, &len));
  EXPECT_EQ(300u, len);

  // The data outlives the first buffer.
  const std::vector<uint8_t> expect(static_cast<uint8_t*>(db), static_cast<uint8_t*>(db) + 512);
  ASSERT_ACL_OK(aclrtFreeBuf(a));
  EXPECT_EQ(-1, FirstDifference(db, expect.data(), 512));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCopyBufRef(b, nullptr));
  aclrtMbuf c = nullptr;
  EXPECT_BAD_HANDLE(aclrtCopyBufRef(a, &c));
  EXPECT_ACL_OK(aclrtFreeBuf(b));
}

TEST_F(MbufTest, Chains) {
  aclrtMbuf bufs[4] = {};
  for (int i = 0; i < 4; ++i) {
    ASSERT_ACL_OK(aclrtAllocBuf(&bufs[i], 32 * (i + 1)));
  }
  uint32_t num = 0;
  ASSERT_ACL_OK(aclrtGetBufChainNum(bufs[0], &num));
  EXPECT_EQ(1u, num);
  for (int i = 1; i < 4; ++i) {
    ASSERT_ACL_OK(aclrtAppendBufChain(bufs[0], bufs[i]));
  }
  ASSERT_ACL_OK(aclrtGetBufChainNum(bufs[0], &num));
  EXPECT_EQ(4u, num);
  for (uint32_t i = 0; i < 4; ++i) {
    aclrtMbuf got = nullptr;
    ASSERT_ACL_OK(aclrtGetBufFromChain(bufs[0], i, &got));
    EXPECT_EQ(bufs[i], got);
  }
  aclrtMbuf got = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufFromChain(bufs[0], 4, &got));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufFromChain(bufs[0], 0, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetBufChainNum(bufs[0], nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(bufs[0], bufs[0]));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(bufs[0], bufs[2]));  // already chained
  aclrtMbuf extra = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&extra, 8));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(bufs[1], extra));  // bufs[1] is no head
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(extra, bufs[0]));  // bufs[0] heads a chain
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(nullptr, extra));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(extra, nullptr));
  // Members are freed with their head, not alone.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeBuf(bufs[2]));
  ASSERT_ACL_OK(aclrtFreeBuf(bufs[0]));
  size_t len = 0;
  for (int i = 0; i < 4; ++i) {
    EXPECT_BAD_HANDLE(aclrtGetBufDataLen(bufs[i], &len)) << i;
  }
  EXPECT_ACL_OK(aclrtFreeBuf(extra));
}

TEST_F(MbufTest, TdtNames) {
  acltdtBuf buf = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(100, ACL_TDT_NORMAL_MEM, &buf));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtAllocBuf(100, 7, &buf));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(acltdtGetBufData(buf, &data, &size));
  EXPECT_EQ(100u, size);
  ASSERT_ACL_OK(acltdtSetBufDataLen(buf, 99));
  size_t len = 0;
  ASSERT_ACL_OK(acltdtGetBufDataLen(buf, &len));
  EXPECT_EQ(99u, len);
  const std::vector<uint8_t> user = RandomBytes(12, 46);
  ASSERT_ACL_OK(acltdtSetBufUserData(buf, user.data(), 12, 3));
  std::vector<uint8_t> back(12, 0);
  ASSERT_ACL_OK(acltdtGetBufUserData(buf, back.data(), 12, 3));
  EXPECT_EQ(user, back);
  acltdtBuf ref = nullptr;
  ASSERT_ACL_OK(acltdtCopyBufRef(buf, &ref));
  acltdtBuf dvpp = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(16, ACL_TDT_DVPP_MEM, &dvpp));
  ASSERT_ACL_OK(acltdtAppendBufChain(buf, dvpp));
  uint32_t num = 0;
  ASSERT_ACL_OK(acltdtGetBufChainNum(buf, &num));
  EXPECT_EQ(2u, num);
  acltdtBuf member = nullptr;
  ASSERT_ACL_OK(acltdtGetBufFromChain(buf, 1, &member));
  EXPECT_EQ(dvpp, member);
  EXPECT_ACL_OK(acltdtFreeBuf(buf));
  EXPECT_ACL_OK(acltdtFreeBuf(ref));
  EXPECT_BAD_HANDLE(acltdtFreeBuf(ref));
}

}  // namespace
}  // namespace cts
