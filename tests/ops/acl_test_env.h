// Shared fixture for the operator API tests: aclInit once per process, device 0, one stream per test,
// and device tensors built from host tensors.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "acl/acl.h"
#include "ref_util.h"

namespace npurt_test {

class AclEnv : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  void TearDown() override { (void)aclFinalize(); }
};

// A device copy of a host tensor with its descriptor and data buffer.
struct DevTensor {
  HostTensor host;
  void* dev = nullptr;
  size_t cap = 0;
  aclTensorDesc* desc = nullptr;
  aclDataBuffer* buf = nullptr;

  DevTensor(const HostTensor& h, aclFormat format = ACL_FORMAT_ND, size_t extra = 0) : host(h) {
    cap = std::max<size_t>(h.nbytes(), 1) + extra;
    EXPECT_EQ(aclrtMalloc(&dev, cap, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (h.nbytes() > 0) {
      EXPECT_EQ(aclrtMemcpy(dev, cap, h.bytes.data(), h.nbytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    desc = aclCreateTensorDesc(h.dtype, static_cast<int>(h.dims.size()), h.dims.data(), format);
    buf = aclCreateDataBuffer(dev, cap);
  }
  ~DevTensor() {
    aclDestroyTensorDesc(desc);
    aclDestroyDataBuffer(buf);
    aclrtFree(dev);
  }
  DevTensor(const DevTensor&) = delete;
  DevTensor& operator=(const DevTensor&) = delete;

  HostTensor Read() const {
    HostTensor r = host;
    EXPECT_EQ(aclrtMemcpy(r.bytes.data(), r.bytes.size(), dev, r.nbytes(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return r;
  }
};

class OpApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }
  aclrtStream stream_ = nullptr;
  std::mt19937 rng_{2024};
};

}  // namespace npurt_test
