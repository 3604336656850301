// A fixture on the real simulated device 0, driven through core (the unit tests link npurt_runtime, not
// libascendcl): its default context, core streams, a device word to park streams on, and the device's
// allocator.
#pragma once

#include <gtest/gtest.h>

#include <cstring>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory/memory_ops.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "hal/hal.h"

namespace npurt::core::testing {

class DeviceFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dev = Runtime::Get().GetDevice(0);
    ASSERT_TRUE(dev.ok()) << dev.status().message();
    device_ = dev.value();
    auto ctx = device_->RetainDefaultContext();
    ASSERT_TRUE(ctx.ok()) << ctx.status().message();
    ctx_ = ctx.value();
    SetCurrentContext(ctx_);
    auto g = allocator().Allocate(64, ctx_);
    ASSERT_TRUE(g.ok());
    gate_ = static_cast<uint64_t*>(g.value());
    *gate_ = 0;  // the sim's device memory is host-addressable
  }
  void TearDown() override {
    Open();
    if (gate_ != nullptr) (void)allocator().Free(gate_, nullptr, 0);
    (void)device_->ReleaseDefaultContext(/*force=*/true);
  }
  DeviceAllocator& allocator() { return device_->allocator(); }
  Stream* NewStream() {
    auto s = Stream::Create(ctx_, StreamOptions());
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? s.value() : nullptr;
  }
  // Parks `s` until Open() (a value wait on the gate word).
  void Block(Stream* s) {
    hal::Task t;
    t.kind = hal::TaskKind::kValueWait;
    t.dst = gate_;
    t.value = 1;
    t.aux = static_cast<uint32_t>(hal::ValueCompare::kGreaterEqual);
    s->Submit(t);
  }
  void Open() {
    if (gate_ == nullptr) return;
    __atomic_store_n(gate_, 1, __ATOMIC_RELEASE);
    device_->hal()->NotifyMemoryWritten();
  }
  // aclrtFree: fences of every busy stream.
  Status FreeNow(void* p) {
    size_t n = 0;
    const StreamFence* f = BusyFences(device_, &n);
    return allocator().Free(p, f, n);
  }

  Device* device_ = nullptr;
  Context* ctx_ = nullptr;
  uint64_t* gate_ = nullptr;
};

}  // namespace npurt::core::testing
