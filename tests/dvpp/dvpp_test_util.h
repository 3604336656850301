// Shared by the DVPP tests: a device and stream, DVPP buffers, picture descriptions and random pictures.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

namespace dvpp_test {

#define ASSERT_ACL_OK(expr) ASSERT_EQ(ACL_SUCCESS, (expr)) << aclGetRecentErrMsg()
#define EXPECT_ACL_OK(expr) EXPECT_EQ(ACL_SUCCESS, (expr)) << aclGetRecentErrMsg()

class DvppTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  void SetUp() override;
  void TearDown() override;

  aclrtStream stream_ = nullptr;
  acldvppChannelDesc* channel_ = nullptr;
};

// A DVPP buffer (acldvppMalloc) freed at scope end.
class DvppBuf {
 public:
  explicit DvppBuf(size_t size);
  ~DvppBuf();
  DvppBuf(const DvppBuf&) = delete;
  DvppBuf& operator=(const DvppBuf&) = delete;
  void* get() const { return ptr_; }
  size_t size() const { return size_; }
  void Upload(const std::vector<uint8_t>& bytes);
  std::vector<uint8_t> Download(size_t n) const;

 private:
  void* ptr_ = nullptr;
  size_t size_ = 0;
};

// A picture description destroyed at scope end.
class Pic {
 public:
  Pic(void* data, uint32_t size, acldvppPixelFormat format, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs);
  ~Pic();
  Pic(const Pic&) = delete;
  Pic& operator=(const Pic&) = delete;
  acldvppPicDesc* get() const { return desc_; }

 private:
  acldvppPicDesc* desc_;
};

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed);
// A smooth random picture (a few random gradients): what JPEG keeps well.
std::vector<uint8_t> SmoothPlane(uint32_t w, uint32_t h, uint32_t seed);

// A JPEG of random smooth Y, Cb, Cr planes with TurboJPEG's subsampling `tjsamp`.
std::vector<uint8_t> MakeJpeg(uint32_t w, uint32_t h, int tjsamp, uint32_t seed);
// TurboJPEG's own decoding of `jpeg` to planes at the file's subsampling (Y, then Cb, Cr).
std::vector<std::vector<uint8_t>> TurboPlanes(const std::vector<uint8_t>& jpeg, uint32_t w, uint32_t h, int tjsamp);

// An 8-bit RGBA PNG of `rgba` (w x h x 4 bytes).
std::vector<uint8_t> MakePng(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h);

}  // namespace dvpp_test
