// A device's declared capabilities (hal/capabilities.h) and what core does with them: a device core cannot
// drive (other pages) is refused with a reason when it is opened, and the allocator keeps to fixed segments on
// a device without virtual memory.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/stream.h"  // StreamFence vectors hold Ref<Stream>
#include "hal/driver_registry.h"

namespace npurt::core {
namespace {

DeviceCapabilities Usable() {
  DeviceCapabilities caps;
  caps.host_visible_memory = true;
  return caps;
}

TEST(DeviceCapabilitiesTest, ADeviceCoreCanDriveIsAccepted) {
  EXPECT_TRUE(CheckDeviceCapabilities(Usable(), "unit", 0).ok());
}

TEST(DeviceCapabilitiesTest, ADeviceWithoutHostVisibleMemoryIsAccepted) {
  // Core reaches device memory through the device (CopyNow); what needs a host mapping refuses on its own.
  DeviceCapabilities caps = Usable();
  caps.host_visible_memory = false;
  EXPECT_TRUE(CheckDeviceCapabilities(caps, "gpu", 3).ok());
}

TEST(DeviceCapabilitiesTest, ADeviceWithAnotherPageSizeIsRefused) {
  DeviceCapabilities caps = Usable();
  caps.page_bytes = 64u << 10;
  const Status st = CheckDeviceCapabilities(caps, "gpu", 0);
  EXPECT_EQ(st.code(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(st.message().find("65536-byte pages"), std::string::npos) << st.message();
}

TEST(DeviceCapabilitiesTest, DefaultsAreCannot) {
  // A driver that declares nothing is driven without what it did not declare: every feature that needs one
  // of these refuses with ACL_ERROR_RT_FEATURE_NOT_SUPPORT, never runs on a guess.
  const DeviceCapabilities none;
  EXPECT_FALSE(none.host_visible_memory || none.virtual_memory || none.ipc_memory || none.shared_flags ||
               none.peer_access);
  EXPECT_EQ(none.page_bytes, hal::kPhysicalPageBytes);
  EXPECT_TRUE(CheckDeviceCapabilities(none, "unit", 0).ok());
}

// A small sim driver with one device.
StatusOr<std::unique_ptr<hal::Driver>> SmallSim() {
  hal::RegisterBuiltinDrivers();
  hal::DriverConfig o;
  o.SetText("device_count", "1");
  o.SetText("memory_mb", "64");
  o.SetText("aicore_count", "2");
  return hal::CreateDriver("sim", o);
}

TEST(DeviceCapabilitiesTest, TheSimDeclaresWhatItDoes) {
  auto driver = SmallSim();
  ASSERT_TRUE(driver.ok()) << driver.status().message();
  auto device = driver.value()->OpenDevice(0);
  ASSERT_TRUE(device.ok()) << device.status().message();
  const DeviceCapabilities& caps = device.value()->info().caps;
  EXPECT_TRUE(CheckDeviceCapabilities(caps, "sim", 0).ok());
  EXPECT_TRUE(caps.host_visible_memory);
  EXPECT_TRUE(caps.virtual_memory && caps.ipc_memory && caps.shared_flags && caps.peer_access);
  EXPECT_EQ(caps.unified_buffer_bytes, 192u * 1024) << "an Ascend 910B vector core's unified buffer";
  EXPECT_EQ(caps.max_blocks_per_launch, 65535u);
}

TEST(DeviceCapabilitiesTest, TheSimPosesAsADiscreteDeviceWhenAsked) {
  hal::RegisterBuiltinDrivers();
  hal::DriverConfig o;
  o.SetText("device_count", "1");
  o.SetText("memory_mb", "64");
  o.SetText("aicore_count", "2");
  o.SetText("host_visible_memory", "0");
  auto driver = hal::CreateDriver("sim", o);
  ASSERT_TRUE(driver.ok()) << driver.status().message();
  auto device = driver.value()->OpenDevice(0);
  ASSERT_TRUE(device.ok()) << device.status().message();
  EXPECT_FALSE(device.value()->info().caps.host_visible_memory);
  EXPECT_TRUE(CheckDeviceCapabilities(device.value()->info().caps, "sim", 0).ok());
}

// The sim's device, declaring no virtual memory.
class NoVirtualMemoryDevice final : public hal::Device {
 public:
  explicit NoVirtualMemoryDevice(std::unique_ptr<hal::Device> inner) : inner_(std::move(inner)), info_(inner_->info()) {
    info_.caps.virtual_memory = false;
  }
  const hal::DeviceInfo& info() const override { return info_; }
  uint8_t* memory_base() const override { return inner_->memory_base(); }
  uint64_t memory_size() const override { return inner_->memory_size(); }
  void Prefault(void* addr, size_t size) override { inner_->Prefault(addr, size); }
  uint64_t address_size() const override { return inner_->address_size(); }  // the window is there
  std::unique_ptr<hal::Queue> CreateQueue(const hal::QueueOptions& o) override { return inner_->CreateQueue(o); }
  std::unique_ptr<hal::Flag> CreateFlag() override { return inner_->CreateFlag(); }
  void NotifyMemoryWritten() override { inner_->NotifyMemoryWritten(); }
  Status CopyNow(void* dst, const void* src, size_t size) override { return inner_->CopyNow(dst, src, size); }
  Status Copy2dNow(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) override {
    return inner_->Copy2dNow(dst, dpitch, src, spitch, width, height);
  }
  Status FillNow(void* dst, size_t count, uint32_t value, uint32_t bytes) override {
    return inner_->FillNow(dst, count, value, bytes);
  }
  // Counts what core asks of the mapping it was told is not there (and refuses it, as the default does).
  Status MapMemory(void* addr, size_t size, int32_t source, uint64_t offset, hal::MemoryAccess access) override {
    ++map_calls;
    return hal::Device::MapMemory(addr, size, source, offset, access);
  }
  int map_calls = 0;

 private:
  std::unique_ptr<hal::Device> inner_;
  hal::DeviceInfo info_;
};

TEST(DeviceCapabilitiesTest, WithoutVirtualMemoryTheAllocatorUsesFixedSegments) {
  auto driver = SmallSim();
  ASSERT_TRUE(driver.ok()) << driver.status().message();
  auto sim = driver.value()->OpenDevice(0);
  ASSERT_TRUE(sim.ok()) << sim.status().message();
  const bool sim_expands = sim.value()->info().caps.virtual_memory;
  for (bool vmm : {true, false}) {
    SCOPED_TRACE(vmm ? "virtual memory" : "no virtual memory");
    std::unique_ptr<hal::Device> device;
    NoVirtualMemoryDevice* without = nullptr;
    if (vmm) {
      device = std::move(sim.value());
    } else {
      auto again = driver.value()->OpenDevice(0);
      ASSERT_TRUE(again.ok()) << again.status().message();
      device = std::make_unique<NoVirtualMemoryDevice>(std::move(again.value()));
      without = static_cast<NoVirtualMemoryDevice*>(device.get());
    }
    ASSERT_TRUE(sim_expands);
    DeviceAllocator alloc(device.get(), device->memory_base(), device->memory_size());
    auto p = alloc.Allocate(4096, nullptr);
    ASSERT_TRUE(p.ok()) << p.status().message();
    const nlohmann::json snap = alloc.caching().Snapshot();
    ASSERT_FALSE(snap["segments"].empty());
    for (const auto& seg : snap["segments"]) {
      // Expandable segments (the default, docs/memory.md) only where the device can map pages.
      EXPECT_EQ(seg["expandable"].get<bool>(), vmm && AllocatorConfigFromEnvironment().expandable_segments);
    }
    EXPECT_TRUE(alloc.Free(p.value(), {}).ok());
    if (without != nullptr) {
      EXPECT_EQ(without->map_calls, 0) << "core tried a mapping the device declared it lacks";
    }
  }
}

}  // namespace
}  // namespace npurt::core
