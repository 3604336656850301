// Bad handles everywhere: every entry point that takes a stream, event, context or notify is called
// with a destroyed handle, a handle of another type, a pointer to zeroed memory, a pointer into the
// middle of a stack array, heap garbage and device/host memory. Each call must fail with a documented
// code (ACL_ERROR_RT_INVALID_HANDLE or ACL_ERROR_INVALID_PARAM), must not crash or write through the
// pointer, and the runtime must keep working afterwards.
#include <functional>

#include "test_util.h"

namespace cts {
namespace {

class BadHandleTest : public CtsTest {
 protected:
  void SetUp() override {
    CtsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateEvent(&event_));
    ASSERT_ACL_OK(aclrtCreateNotify(&notify_, ACL_NOTIFY_DEFAULT));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMallocHost(&pinned_, 4096));
    FillRandom(stack_, sizeof stack_, 140);
    heap_ = RandomBytes(4096, 141);
    // Dead handles of every type.
    ASSERT_ACL_OK(aclrtCreateStream(&dead_stream_));
    ASSERT_ACL_OK(aclrtDestroyStream(dead_stream_));
    ASSERT_ACL_OK(aclrtCreateEvent(&dead_event_));
    ASSERT_ACL_OK(aclrtDestroyEvent(dead_event_));
    ASSERT_ACL_OK(aclrtCreateNotify(&dead_notify_, ACL_NOTIFY_DEFAULT));
    ASSERT_ACL_OK(aclrtDestroyNotify(dead_notify_));
    ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx_));
    ASSERT_ACL_OK(aclrtCreateContext(&dead_ctx_, 0));
    ASSERT_ACL_OK(aclrtDestroyContext(dead_ctx_));
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx_));
  }

  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    }
    if (event_ != nullptr) {
      EXPECT_ACL_OK(aclrtDestroyEvent(event_));
    }
    if (notify_ != nullptr) {
      EXPECT_ACL_OK(aclrtDestroyNotify(notify_));
    }
    if (dev_ != nullptr) {
      EXPECT_ACL_OK(aclrtFree(dev_));
    }
    if (pinned_ != nullptr) {
      EXPECT_ACL_OK(aclrtFreeHost(pinned_));
    }
    CtsTest::TearDown();
  }

  // Handles that are not live objects of any type `want` ("stream", "event", ...).
  std::vector<std::pair<std::string, void*>> BadHandles(const std::string& want) {
    std::vector<std::pair<std::string, void*>> v = {
        {"zeroed memory", zeros_},
        {"middle of a stack array", &stack_[13]},
        {"heap garbage", heap_.data() + 8},
        {"device memory", dev_},
        {"pinned host memory", pinned_},
        {"small integer", reinterpret_cast<void*>(uintptr_t(0x40))},
    };
    if (want != "stream") v.push_back({"a stream", stream_});
    if (want != "event") v.push_back({"an event", event_});
    if (want != "context") v.push_back({"a context", ctx_});
    if (want != "notify") v.push_back({"a notify", notify_});
    if (want == "stream") v.push_back({"a destroyed stream", dead_stream_});
    if (want == "event") v.push_back({"a destroyed event", dead_event_});
    if (want == "context") v.push_back({"a destroyed context", dead_ctx_});
    if (want == "notify") v.push_back({"a destroyed notify", dead_notify_});
    return v;
  }

  // Runs every call with every bad handle, then checks nothing was written and the runtime works.
  void Check(const std::string& want, const std::vector<std::pair<std::string, std::function<aclError(void*)>>>& calls) {
    for (const auto& [what, handle] : BadHandles(want)) {
      for (const auto& [name, call] : calls) {
        EXPECT_BAD_HANDLE(call(handle)) << name << " with " << what << " as the " << want;
      }
    }
    ClearErrorState();
    EXPECT_TRUE(AllBytesAre(zeros_, sizeof zeros_, 0)) << "a rejected handle was written through";
    EXPECT_EQ(-1, FirstDifference(heap_.data(), RandomBytes(4096, 141).data(), 4096));
    ExpectRuntimeWorks();
  }

  void ExpectRuntimeWorks() {
    const std::vector<uint8_t> data = RandomBytes(4096, 142);
    std::vector<uint8_t> back(4096);
    EXPECT_ACL_OK(aclrtMemcpyAsync(dev_, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    EXPECT_ACL_OK(aclrtRecordEvent(event_, stream_));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(event_));
    EXPECT_ACL_OK(aclrtMemcpy(back.data(), 4096, dev_, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(data, back);
    EXPECT_ACL_OK(aclrtRecordNotify(notify_, stream_));
    EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify_, stream_, 10000));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  }

  aclrtStream stream_ = nullptr;
  aclrtEvent event_ = nullptr;
  aclrtNotify notify_ = nullptr;
  aclrtContext ctx_ = nullptr;
  aclrtStream dead_stream_ = nullptr;
  aclrtEvent dead_event_ = nullptr;
  aclrtNotify dead_notify_ = nullptr;
  aclrtContext dead_ctx_ = nullptr;
  void* dev_ = nullptr;
  void* pinned_ = nullptr;
  alignas(64) uint8_t zeros_[2048] = {};
  uint8_t stack_[256];
  std::vector<uint8_t> heap_;
};

void Nop(void*) {}

TEST_F(BadHandleTest, Streams) {
  uint8_t host[64] = {1};
  int32_t i32 = 0;
  uint32_t u32 = 0;
  aclrtStreamStatus st;
  aclrtStreamAttrValue attr;
  std::memset(&attr, 0, sizeof attr);
  Check("stream",
        {
            {"aclrtSynchronizeStream", [](void* h) { return aclrtSynchronizeStream(h); }},
            {"aclrtSynchronizeStreamWithTimeout", [](void* h) { return aclrtSynchronizeStreamWithTimeout(h, 10); }},
            {"aclrtStreamQuery", [&](void* h) { return aclrtStreamQuery(h, &st); }},
            {"aclrtDestroyStream", [](void* h) { return aclrtDestroyStream(h); }},
            {"aclrtDestroyStreamForce", [](void* h) { return aclrtDestroyStreamForce(h); }},
            {"aclrtStreamGetId", [&](void* h) { return aclrtStreamGetId(h, &i32); }},
            {"aclrtStreamGetPriority", [&](void* h) { return aclrtStreamGetPriority(h, &u32); }},
            {"aclrtStreamGetFlags", [&](void* h) { return aclrtStreamGetFlags(h, &u32); }},
            {"aclrtSetStreamFailureMode", [](void* h) { return aclrtSetStreamFailureMode(h, ACL_STOP_ON_FAILURE); }},
            {"aclrtSetStreamAttribute",
             [&](void* h) { return aclrtSetStreamAttribute(h, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &attr); }},
            {"aclrtGetStreamAttribute",
             [&](void* h) { return aclrtGetStreamAttribute(h, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &attr); }},
            {"aclrtStreamAbort", [](void* h) { return aclrtStreamAbort(h); }},
            {"aclrtSetStreamOverflowSwitch", [](void* h) { return aclrtSetStreamOverflowSwitch(h, 1); }},
            {"aclrtGetStreamOverflowSwitch", [&](void* h) { return aclrtGetStreamOverflowSwitch(h, &u32); }},
            {"aclrtMemcpyAsync",
             [&](void* h) { return aclrtMemcpyAsync(dev_, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, h); }},
            {"aclrtMemcpy2dAsync",
             [&](void* h) { return aclrtMemcpy2dAsync(dev_, 64, host, 64, 64, 1, ACL_MEMCPY_HOST_TO_DEVICE, h); }},
            {"aclrtMemsetAsync", [&](void* h) { return aclrtMemsetAsync(dev_, 64, 0, 64, h); }},
            {"aclrtMemsetD32Async", [&](void* h) { return aclrtMemsetD32Async(dev_, 64, 0, 16, h); }},
            {"aclrtRecordEvent", [&](void* h) { return aclrtRecordEvent(event_, h); }},
            {"aclrtRecordEventWithFlag", [&](void* h) { return aclrtRecordEventWithFlag(event_, h, 0); }},
            {"aclrtResetEvent", [&](void* h) { return aclrtResetEvent(event_, h); }},
            {"aclrtStreamWaitEvent", [&](void* h) { return aclrtStreamWaitEvent(h, event_); }},
            {"aclrtStreamWaitEventWithTimeout", [&](void* h) { return aclrtStreamWaitEventWithTimeout(h, event_, 10); }},
            {"aclrtStreamWaitEventWithFlag", [&](void* h) { return aclrtStreamWaitEventWithFlag(h, event_, 10, 0); }},
            {"aclrtSubscribeReport", [](void* h) { return aclrtSubscribeReport(CurrentThreadId(), h); }},
            {"aclrtUnSubscribeReport", [](void* h) { return aclrtUnSubscribeReport(CurrentThreadId(), h); }},
            {"aclrtLaunchCallback", [](void* h) { return aclrtLaunchCallback(&Nop, nullptr, ACL_CALLBACK_BLOCK, h); }},
            {"aclrtLaunchHostFunc", [](void* h) { return aclrtLaunchHostFunc(h, &Nop, nullptr); }},
            {"aclrtSubscribeHostFunc", [](void* h) { return aclrtSubscribeHostFunc(CurrentThreadId(), h); }},
            {"aclrtUnSubscribeHostFunc", [](void* h) { return aclrtUnSubscribeHostFunc(CurrentThreadId(), h); }},
            {"aclrtRecordNotify", [&](void* h) { return aclrtRecordNotify(notify_, h); }},
            {"aclrtWaitAndResetNotify", [&](void* h) { return aclrtWaitAndResetNotify(notify_, h, 10); }},
            {"aclrtValueWrite", [&](void* h) { return aclrtValueWrite(dev_, 1, 0, h); }},
            {"aclrtValueWait", [&](void* h) { return aclrtValueWait(dev_, 0, ACL_STREAM_WAIT_VALUE_GEQ, h); }},
        });
}

TEST_F(BadHandleTest, Events) {
  aclrtEventStatus es;
  aclrtEventRecordedStatus rs;
  aclrtEventWaitStatus ws;
  float ms = 0;
  uint64_t ts = 0;
  uint32_t id = 0;
  Check("event",
        {
            {"aclrtDestroyEvent", [](void* h) { return aclrtDestroyEvent(h); }},
            {"aclrtRecordEvent", [&](void* h) { return aclrtRecordEvent(h, stream_); }},
            {"aclrtRecordEventWithFlag", [&](void* h) { return aclrtRecordEventWithFlag(h, stream_, 0); }},
            {"aclrtResetEvent", [&](void* h) { return aclrtResetEvent(h, stream_); }},
            {"aclrtQueryEvent", [&](void* h) { return aclrtQueryEvent(h, &es); }},
            {"aclrtQueryEventStatus", [&](void* h) { return aclrtQueryEventStatus(h, &rs); }},
            {"aclrtQueryEventWaitStatus", [&](void* h) { return aclrtQueryEventWaitStatus(h, &ws); }},
            {"aclrtSynchronizeEvent", [](void* h) { return aclrtSynchronizeEvent(h); }},
            {"aclrtSynchronizeEventWithTimeout", [](void* h) { return aclrtSynchronizeEventWithTimeout(h, 10); }},
            {"aclrtEventElapsedTime(start)", [&](void* h) { return aclrtEventElapsedTime(&ms, h, event_); }},
            {"aclrtEventElapsedTime(end)", [&](void* h) { return aclrtEventElapsedTime(&ms, event_, h); }},
            {"aclrtEventGetTimestamp", [&](void* h) { return aclrtEventGetTimestamp(h, &ts); }},
            {"aclrtGetEventId", [&](void* h) { return aclrtGetEventId(h, &id); }},
            {"aclrtStreamWaitEvent", [&](void* h) { return aclrtStreamWaitEvent(stream_, h); }},
            {"aclrtStreamWaitEventWithTimeout", [&](void* h) { return aclrtStreamWaitEventWithTimeout(stream_, h, 10); }},
            {"aclrtStreamWaitEventWithFlag", [&](void* h) { return aclrtStreamWaitEventWithFlag(stream_, h, 10, 0); }},
        });
}

TEST_F(BadHandleTest, Contexts) {
  Check("context",
        {
            {"aclrtDestroyContext", [](void* h) { return aclrtDestroyContext(h); }},
            {"aclrtSetCurrentContext", [](void* h) { return aclrtSetCurrentContext(h); }},
        });
  aclrtContext cur = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(ctx_, cur) << "rejected contexts do not change the current one";
}

TEST_F(BadHandleTest, Notifies) {
  uint32_t id = 0;
  Check("notify",
        {
            {"aclrtDestroyNotify", [](void* h) { return aclrtDestroyNotify(h); }},
            {"aclrtRecordNotify", [&](void* h) { return aclrtRecordNotify(h, stream_); }},
            {"aclrtWaitAndResetNotify", [&](void* h) { return aclrtWaitAndResetNotify(h, stream_, 10); }},
            {"aclrtGetNotifyId", [&](void* h) { return aclrtGetNotifyId(h, &id); }},
            {"aclrtNotifyBatchReset", [](void* h) { return aclrtNotifyBatchReset(&h, 1); }},
        });
}

TEST_F(BadHandleTest, NullHandlesWhereNullIsNotTheDefault) {
  float ms = 0;
  aclrtEventRecordedStatus rs;
  uint32_t id = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(nullptr, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(nullptr, &rs));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEvent(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(&ms, nullptr, event_));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEvent(stream_, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(nullptr, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(nullptr, &id));
  ClearErrorState();
  ExpectRuntimeWorks();
}

TEST_F(BadHandleTest, StreamFromADestroyedContextAndAcrossThreads) {
  // A destroyed stream is rejected from any thread, and a live one keeps working from another thread.
  std::thread([&] {
    EXPECT_BAD_HANDLE(aclrtSynchronizeStream(dead_stream_));
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx_));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
    ClearErrorState();
  }).join();
  ExpectRuntimeWorks();
}

TEST_F(BadHandleTest, BadMemoryPointers) {
  std::vector<uint8_t> host = RandomBytes(4096, 143);
  const std::vector<uint8_t> host_copy = host;
  // Pointers that are not (live) device memory where device memory is required.
  void* freed = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&freed, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(freed));
  for (void* p : {freed, static_cast<void*>(&stack_[7]), static_cast<void*>(zeros_)}) {
    // A synchronous copy's kind is advisory (CANN 8): host memory is a valid end whatever the kind says, so
    // only the freed device pointer is refused there.
    if (p == freed) {
      EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(p, 64, dev_, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
      EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(host.data(), 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    EXPECT_NE(ACL_SUCCESS, aclrtMemcpyAsync(p, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    EXPECT_NE(ACL_SUCCESS, aclrtValueWrite(p, 1, 0, stream_));
    EXPECT_NE(ACL_SUCCESS, aclrtFree(p));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(host_copy, host);
  EXPECT_TRUE(AllBytesAre(zeros_, sizeof zeros_, 0));
  ClearErrorState();
  ExpectRuntimeWorks();
}

}  // namespace
}  // namespace cts
