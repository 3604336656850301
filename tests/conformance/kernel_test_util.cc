#include "kernel_test_util.h"

#include <cstdio>

namespace cts {

const char* KernelBinaryPath() { return NPURT_CTS_KERNELS; }

int RunKernelInChild(const char* kernel, uint32_t blocks, void** args) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle f = nullptr;
  if (aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &bin) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(bin, kernel, &f) != ACL_SUCCESS) {
    return 3;
  }
  if (aclrtLaunchKernelWithArgsArray(f, blocks, nullptr, nullptr, args) != ACL_SUCCESS) return 4;
  if (aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) return 5;
  std::fflush(stdout);
  return 0;
}

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
