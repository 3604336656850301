// Device memory and virtual memory: the device's range is usable as the driver declares; VMM primitives
// and sharing either work (map, write, unmap; export; shared flags) or report ACL_ERROR_RT_FEATURE_NOT_SUPPORT
// with a message, as the device's capabilities (hal/capabilities.h) declare.
#include <cstring>
#include <random>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "cts.h"

namespace hal_cts {
namespace {

using MemorySuite = DeviceTest;

TEST_P(MemorySuite, TheMemoryRangeIsUsable) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  ASSERT_NE(device_->memory_base(), nullptr);
  ASSERT_GE(device_->memory_size(), 4u << 20);
  if (!caps().host_visible_memory) GTEST_SKIP() << "device memory is not host-visible";
  uint8_t* end = device_->memory_base() + device_->memory_size() - 4096;
  device_->Prefault(end, 4096);
  std::memset(end, 0xa5, 4096);  // the last page of the range
  EXPECT_EQ(end[4095], 0xa5);
}

TEST_P(MemorySuite, VirtualMemoryMapsPagesOrSaysItCannot) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const size_t page = hal::Device::kPhysicalPage;
  const uint64_t window = (device_->memory_size() + page - 1) / page * page;
  uint8_t* addr = device_->memory_base() + window;
  if (!caps().virtual_memory) {
    npurt::Status st = device_->MapMemory(addr, page, hal::kLocalMemory, 0, hal::MemoryAccess::kReadWrite);
    EXPECT_EQ(st.code(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_FALSE(st.message().empty());
    return;
  }
  ASSERT_GT(device_->address_size(), window) << "no window for mappings";
  ASSERT_TRUE(device_->MapMemory(addr, page, hal::kLocalMemory, 0, hal::MemoryAccess::kReadWrite).ok());
  // The mapping shows physical page 0, which the linear range shows too.
  uint8_t* linear = device_->memory_base();
  device_->Prefault(linear, page);
  linear[123] = 0x3c;
  EXPECT_EQ(addr[123], 0x3c);
  addr[456] = 0xc3;
  EXPECT_EQ(linear[456], 0xc3);
  EXPECT_TRUE(device_->UnmapMemory(addr, page).ok());
}

TEST_P(MemorySuite, SynchronousCopiesAndFillsMoveTheBytes) {
  // Through the device operations only, so this holds for memory the host cannot address too.
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  constexpr size_t kBytes = 64 << 10;
  uint8_t* dev = device_->memory_base();
  uint8_t* dev2 = dev + 2 * kBytes;
  std::mt19937 rng(2027);
  std::vector<uint8_t> in(kBytes), out(kBytes);
  for (auto& b : in) b = static_cast<uint8_t>(rng());
  ASSERT_TRUE(device_->CopyNow(dev, in.data(), kBytes).ok());        // host to device
  ASSERT_TRUE(device_->CopyNow(dev2, dev, kBytes).ok());             // device to device
  ASSERT_TRUE(device_->CopyNow(out.data(), dev2, kBytes).ok());      // device to host
  EXPECT_EQ(in, out);

  // 2D: 16 rows of 100 bytes, at a device pitch of 256, read back at a host pitch of 128.
  ASSERT_TRUE(device_->Copy2dNow(dev, 256, in.data(), 100, 100, 16).ok());
  std::vector<uint8_t> rows(128 * 16, 0xee);
  ASSERT_TRUE(device_->Copy2dNow(rows.data(), 128, dev, 256, 100, 16).ok());
  for (size_t r = 0; r < 16; ++r) {
    for (size_t c = 0; c < 128; ++c) {
      const uint8_t want = c < 100 ? in[r * 100 + c] : 0xee;  // the pitch padding is left alone
      ASSERT_EQ(rows[r * 128 + c], want) << "row " << r << " column " << c;
    }
  }

  // Fills: bytes and 32-bit words in the middle of random data, which stays around them.
  ASSERT_TRUE(device_->CopyNow(dev, in.data(), kBytes).ok());
  ASSERT_TRUE(device_->FillNow(dev + 1000, 3000, 0x1a5, 1).ok());  // the low byte: 0xa5
  ASSERT_TRUE(device_->FillNow(dev + 8192, 500, 0xdeadbeef, 4).ok());
  ASSERT_TRUE(device_->CopyNow(out.data(), dev, kBytes).ok());
  for (size_t i = 0; i < kBytes; ++i) {
    uint8_t want = in[i];
    if (i >= 1000 && i < 4000) want = 0xa5;
    if (i >= 8192 && i < 8192 + 2000) want = static_cast<uint8_t>(0xdeadbeefu >> (8 * ((i - 8192) % 4)));
    ASSERT_EQ(out[i], want) << "byte " << i;
  }
}

TEST_P(MemorySuite, SharingWorksAsDeclaredOrSaysItCannot) {
  // ipc_memory and shared_flags: the calls work, or refuse with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and a reason.
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto token = device_->ExportMemory();
  if (caps().ipc_memory) {
    EXPECT_TRUE(token.ok()) << token.status().message();
  } else {
    EXPECT_EQ(token.status().code(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_FALSE(token.status().message().empty());
  }
  auto flag = device_->CreateSharedFlag();
  if (caps().shared_flags) {
    ASSERT_TRUE(flag.ok()) << flag.status().message();
    hal::FlagShareToken share{};
    EXPECT_TRUE(flag.value()->share_token(&share)) << "a shared flag has a token other processes open it with";
    EXPECT_NE(flag.value()->shared_area(), nullptr);
  } else {
    EXPECT_EQ(flag.status().code(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_FALSE(flag.status().message().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Cts, MemorySuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
