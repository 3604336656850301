#include "kernel_test_util.h"

namespace cts {

const char* KernelBinaryPath() { return NPURT_CTS_KERNELS; }

void KernelTest::SetUp() {
  CtsTest::SetUp();
  if (IsSkipped()) return;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &bin_));
}

void KernelTest::TearDown() {
  if (bin_ != nullptr) {
    EXPECT_ACL_OK(aclrtBinaryUnLoad(bin_));
  }
  bin_ = nullptr;
  CtsTest::TearDown();
}

aclrtFuncHandle KernelTest::Func(const char* name) {
  aclrtFuncHandle f = nullptr;
  EXPECT_ACL_OK(aclrtBinaryGetFunction(bin_, name, &f));
  return f;
}

std::string TakeErrorMessage() {
  const char* m = aclGetRecentErrMsg();
  return m != nullptr ? std::string(m) : std::string();
}

}  // namespace cts
