// Device memory and virtual memory: the device's range is usable as the driver declares; VMM primitives
// either work (map, write, unmap) or report ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a message, as the
// capability says.
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
  if (!backend().caps.host_addressable_memory) GTEST_SKIP() << "device memory is not host-addressable";
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
  if (!backend().caps.virtual_memory) {
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

INSTANTIATE_TEST_SUITE_P(Cts, MemorySuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
