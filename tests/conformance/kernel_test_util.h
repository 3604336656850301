// Helpers of the kernel tests (kernel_*_test.cc): the suite's kernel binary (kernels/, built with
// ascendc_fatbin_library) loaded per test, and argument blocks packed from typed values.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"

namespace cts {

// Path of the suite's kernel binary (set by kernel_tests.cmake).
const char* KernelBinaryPath();

// For a child process (CTS_CHILD) that prints from a kernel: ACL initialised, device 0 set, `kernel` of the
// suite's binary launched on the default stream with `args` (its parameters in order) over `blocks` blocks,
// the stream synchronised and stdout flushed. 0, or the step that failed: 2 init, 3 load, 4 launch, 5 sync.
int RunKernelInChild(const char* kernel, uint32_t blocks, void** args);

// Device 0 set, the kernel binary loaded; unloaded at the end.
class KernelTest : public CtsTest {
 protected:
  void SetUp() override;
  void TearDown() override;
  aclrtFuncHandle Func(const char* name);
  aclrtBinHandle bin_ = nullptr;
};

// An argument block built in parameter order, each value at the next offset aligned for its type (the
// natural C layout of the kernel's parameters, computed here independently of the runtime).
class ArgBlock {
 public:
  template <typename T>
  ArgBlock& Add(const T& v) {
    const size_t align = alignof(T);
    size_t off = (bytes_.size() + align - 1) / align * align;
    bytes_.resize(off + sizeof(T));
    std::memcpy(bytes_.data() + off, &v, sizeof(T));
    max_align_ = std::max(max_align_, align);
    return *this;
  }
  // The block with the struct's tail padding.
  std::vector<uint8_t> Bytes() const {
    std::vector<uint8_t> b = bytes_;
    b.resize((b.size() + max_align_ - 1) / max_align_ * max_align_);
    return b;
  }

 private:
  std::vector<uint8_t> bytes_;
  size_t max_align_ = 1;
};

// Copies `n` values to a new device buffer.
template <typename T>
void ToDevice(const DevBuf& dst, const std::vector<T>& src) {
  ASSERT_EQ(aclrtMemcpy(dst.get(), src.size() * sizeof(T), src.data(), src.size() * sizeof(T),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
}

template <typename T>
std::vector<T> FromDevice(const DevBuf& src, size_t n) {
  std::vector<T> out(n);
  EXPECT_EQ(aclrtMemcpy(out.data(), n * sizeof(T), src.get(), n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return out;
}

// The recent error message (empty if none), consumed.
std::string TakeErrorMessage();

// A launch configuration whose one attribute, kept in *attr, is the execution timeout TIMEOUT_US.
inline aclrtLaunchKernelCfg TimeoutUsConfig(aclrtLaunchKernelAttr* attr, uint32_t us) {
  attr->id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
  attr->value.timeoutUs.timeoutLow = us;
  attr->value.timeoutUs.timeoutHigh = 0;
  return aclrtLaunchKernelCfg{attr, 1};
}

}  // namespace cts
