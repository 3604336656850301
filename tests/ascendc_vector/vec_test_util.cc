#include "vec_test_util.h"

namespace vectest {
namespace {

// aclInit once for the whole program.
class AclEnvironment : public testing::Environment {
 public:
  void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  void TearDown() override { aclFinalize(); }
};
const testing::Environment* const kAclEnvironment = testing::AddGlobalTestEnvironment(new AclEnvironment);

}  // namespace

void VecTest::SetUp() {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
}

void VecTest::TearDown() {
  if (stream_ != nullptr) EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  stream_ = nullptr;
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

DevMem::DevMem(size_t bytes) {
  EXPECT_EQ(aclrtMalloc(&p_, bytes == 0 ? 32 : bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
}

DevMem::~DevMem() {
  if (p_ != nullptr) aclrtFree(p_);
}

void CopyIn(const DevMem& dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  ASSERT_EQ(aclrtMemcpy(dst.get(), bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

void CopyOut(void* dst, const DevMem& src, size_t bytes) {
  if (bytes == 0) return;
  ASSERT_EQ(aclrtMemcpy(dst, bytes, src.get(), bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

std::string RecentError() {
  const char* m = aclGetRecentErrMsg();
  return m != nullptr ? std::string(m) : std::string();
}

}  // namespace vectest
