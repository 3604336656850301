// Device memory and virtual memory: the device's range is usable as the driver declares; VMM primitives
// and sharing either work (map, write, unmap; export; shared flags) or report ACL_ERROR_RT_FEATURE_NOT_SUPPORT
// with a message, as the device's capabilities (hal/capabilities.h) declare.
#include <cstring>

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
