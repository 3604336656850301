// The fixture of the SyncAll and atomic tests: ACL initialised once, device 0, a stream per test, device
// buffers.
#pragma once

#include <acl/acl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace ascendc_sync {

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    EXPECT_EQ(aclrtMalloc(&ptr_, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ~DeviceBuffer() { aclrtFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <typename T = void>
  T* get() const { return static_cast<T*>(ptr_); }
  template <typename T>
  void Write(const std::vector<T>& v) const {
    ASSERT_EQ(aclrtMemcpy(ptr_, bytes_, v.data(), v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  template <typename T>
  std::vector<T> Read(size_t n) const {
    std::vector<T> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * sizeof(T), ptr_, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return v;
  }

 private:
  void* ptr_ = nullptr;
  size_t bytes_;
};

class SyncTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    static const bool initialised = aclInit(nullptr) == ACL_SUCCESS;
    ASSERT_TRUE(initialised);
  }
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
  }
  // The recent error message, consumed.
  static std::string ErrorMessage() {
    const char* m = aclGetRecentErrMsg();
    return m != nullptr ? m : "";
  }
  aclrtStream stream_ = nullptr;
  std::mt19937 rng_{std::random_device{}()};
};

}  // namespace ascendc_sync
