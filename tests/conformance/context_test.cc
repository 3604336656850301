// Contexts: creation makes current, set/get current, thread-local isolation, the default context,
// destruction (streams, events and memory go with the context), default streams, system options.
#include "test_util.h"

namespace cts {
namespace {

using ContextTest = CtsTest;

TEST_F(ContextTest, CreateMakesTheContextCurrent) {
  aclrtContext before = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&before));
  const int32_t dev_id = DeviceCount() >= 2 ? 1 : 0;
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, dev_id));
  ASSERT_NE(nullptr, ctx);
  EXPECT_NE(before, ctx);
  aclrtContext cur = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(ctx, cur);
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev_id, dev);
  // Switching back also switches the thread's device.
  ASSERT_ACL_OK(aclrtSetCurrentContext(before));
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(0, dev);
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(before, cur);
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateContext(nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetCurrentContext(nullptr));
}

TEST_F(ContextTest, CreateDoesNotNeedTheDeviceToBeSet) {
  std::thread([] {
    aclrtContext ctx = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
    int32_t dev = -1;
    EXPECT_ACL_OK(aclrtGetDevice(&dev));
    EXPECT_EQ(0, dev);
    void* p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_OK(aclrtFree(p));
    EXPECT_ACL_OK(aclrtDestroyContext(ctx));
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev)) << "the destroyed context was current";
    ClearErrorState();
  }).join();
}

TEST_F(ContextTest, CurrentContextIsThreadLocal) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  aclrtContext mine = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&mine));
  ASSERT_EQ(ctx, mine);
  aclrtContext other_ctx = nullptr;
  std::thread([&] {
    aclrtContext cur = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur)) << "a new thread has no context";
    // The context can be shared: set it explicitly and use it.
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
    ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
    EXPECT_EQ(ctx, cur);
    aclrtStream s = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    EXPECT_ACL_OK(aclrtDestroyStream(s));
    // Switching this thread to another context does not affect the creator's thread.
    ASSERT_ACL_OK(aclrtCreateContext(&other_ctx, 0));
    ClearErrorState();
  }).join();
  ASSERT_ACL_OK(aclrtGetCurrentContext(&mine));
  EXPECT_EQ(ctx, mine);
  EXPECT_ACL_OK(aclrtDestroyContext(other_ctx));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
}

TEST_F(ContextTest, DefaultContextCannotBeDestroyed) {
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(def));
  // Still alive and usable.
  aclrtContext cur = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(def, cur);
  DevBuf buf(256);
  EXPECT_TRUE(buf.ok());
  EXPECT_ACL_OK(aclrtSetCurrentContext(def));
}

TEST_F(ContextTest, DestroyInvalidatesStreamsEventsAndFreesMemory) {
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  size_t free_before = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));

  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  aclrtStream ctx_default = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&ctx_default));
  constexpr size_t kBig = 32 << 20;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kBig, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<uint8_t> data = RandomBytes(4096, 21);
  ASSERT_ACL_OK(aclrtMemcpyAsync(p, kBig, data.data(), data.size(), ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  uint32_t avail_before = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&avail_before));

  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
  aclrtStreamStatus st;
  EXPECT_BAD_HANDLE(aclrtStreamQuery(s, &st));
  EXPECT_BAD_HANDLE(aclrtDestroyStream(s));
  aclrtEventRecordedStatus es;
  EXPECT_BAD_HANDLE(aclrtQueryEventStatus(e, &es));
  EXPECT_BAD_HANDLE(aclrtDestroyEvent(e));
  EXPECT_BAD_HANDLE(aclrtSynchronizeStream(ctx_default)) << "the context's default stream went with it";
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(p)) << "the context's memory was freed with it";
  EXPECT_BAD_HANDLE(aclrtSetCurrentContext(ctx));
  EXPECT_BAD_HANDLE(aclrtDestroyContext(ctx));
  aclrtContext cur = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur)) << "the destroyed context was current";

  ASSERT_ACL_OK(aclrtSetCurrentContext(def));
  size_t free_after = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  // The destroyed context's memory is free again (issue 14: as on CANN, reclaimed memory does not count
  // as used), and the same allocation from another context gets it.
  EXPECT_EQ(free_before, free_after) << "the destroyed context's allocation is free again";
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, kBig, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free_reused = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_reused, &total));
  EXPECT_LE(free_reused + kBig, free_after) << "and used again by the new allocation";
  EXPECT_GE(free_reused + kBig + (4u << 20), free_after) << "its pages and no more";
  ASSERT_ACL_OK(aclrtFree(again));
  uint32_t avail_after = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&avail_after));
  EXPECT_EQ(avail_before + 2, avail_after) << "its stream and its default stream are released";
}

TEST_F(ContextTest, EachContextHasItsOwnDefaultStream) {
  aclrtStream def0 = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def0));
  ASSERT_NE(nullptr, def0);
  aclrtContext def_ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def_ctx));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  aclrtStream def1 = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def1));
  ASSERT_NE(nullptr, def1);
  EXPECT_NE(def0, def1);
  int32_t id_null = -1, id_def = -2;
  ASSERT_ACL_OK(aclrtStreamGetId(nullptr, &id_null));
  ASSERT_ACL_OK(aclrtStreamGetId(def1, &id_def));
  EXPECT_EQ(id_def, id_null) << "the NULL stream is the current context's default stream";
  // The default stream handle works like any stream but cannot be destroyed.
  {
    DevBuf buf(4096);
    const std::vector<uint8_t> data = RandomBytes(4096, 22);
    ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, def1));
    ASSERT_ACL_OK(aclrtSynchronizeStream(def1));
    EXPECT_EQ(data, buf.Read());
  }
  EXPECT_NE(ACL_SUCCESS, aclrtDestroyStream(def1));
  EXPECT_NE(ACL_SUCCESS, aclrtDestroyStreamForce(def1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetCurrentDefaultStream(nullptr));
  ASSERT_ACL_OK(aclrtSetCurrentContext(def_ctx));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
  std::thread([] {
    aclrtStream s = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxGetCurrentDefaultStream(&s));
    ClearErrorState();
  }).join();
}

TEST_F(ContextTest, ContextsOnDifferentDevicesIsolateMemory) {
  CTS_REQUIRE_DEVICES(2);
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  aclrtContext ctx1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx1, 1));
  void* p1 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtPtrAttributes attr;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(p1, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, attr.location.type);
  EXPECT_EQ(1u, attr.location.id);
  ASSERT_ACL_OK(aclrtSetCurrentContext(def));
  void* p0 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtPointerGetAttributes(p0, &attr));
  EXPECT_EQ(0u, attr.location.id);
  EXPECT_ACL_OK(aclrtFree(p0));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx1));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(p1));
}

TEST_F(ContextTest, DestroyWaitsForQueuedWorkOfItsStreams) {
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  constexpr size_t kSize = 4 << 20;
  PinnedBuf out(kSize);
  std::memset(out.get(), 0, kSize);
  const std::vector<uint8_t> data = RandomBytes(kSize, 23);
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < 8; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(p, kSize, data.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  }
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, p, kSize, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
  EXPECT_EQ(-1, FirstDifference(out.get(), data.data(), kSize)) << "queued work completes before the destroy";
  ASSERT_ACL_OK(aclrtSetCurrentContext(def));
}

TEST_F(ContextTest, BadContextHandles) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(nullptr));
  Stream s;
  EXPECT_BAD_HANDLE(aclrtSetCurrentContext(s.get())) << "a stream is not a context";
  EXPECT_BAD_HANDLE(aclrtDestroyContext(s.get()));
  int on_stack[16] = {};
  EXPECT_BAD_HANDLE(aclrtSetCurrentContext(&on_stack[3]));
  int32_t dev = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&dev)) << "a rejected context does not change the current one";
  EXPECT_EQ(0, dev);
}

// ---------------------------------------------------------------------------------------------
// System parameter options
// ---------------------------------------------------------------------------------------------

TEST_F(ContextTest, ContextSystemOptionsArePerContext) {
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  int64_t v = -1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(1, v);
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
  EXPECT_EQ(0, v);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(99), 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr));
  // A fresh context has its own (unset) options.
  aclrtContext ctx2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx2, 0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  ASSERT_ACL_OK(aclrtSetCurrentContext(def));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx2));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
}

TEST_F(ContextTest, ProcessSystemOptions) {
  int64_t v = -1;
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v));
  EXPECT_EQ(1, v);
  std::thread([] {
    int64_t w = -1;
    EXPECT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &w)) << "process-wide: no context needed";
    EXPECT_EQ(1, w);
  }).join();
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 0));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v));
  EXPECT_EQ(0, v);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(-5), 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr));
}

TEST_F(ContextTest, AFailedStreamDoesNotStopOtherContexts) {
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  aclrtContext failing = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&failing, 0));
  aclrtStream bad = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&bad));
  aclrtNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, bad, 5));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(bad));
  // The default context's streams keep working.
  ASSERT_ACL_OK(aclrtSetCurrentContext(def));
  Stream good;
  DevBuf buf(1 << 16);
  const std::vector<uint8_t> data = RandomBytes(1 << 16, 24);
  ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), buf.size(), data.data(), data.size(), ACL_MEMCPY_HOST_TO_DEVICE, good));
  EXPECT_ACL_OK(aclrtSynchronizeStream(good));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(data, buf.Read());
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  EXPECT_ACL_OK(aclrtDestroyContext(failing));
  EXPECT_ACL_OK(aclrtSynchronizeDevice()) << "the failed stream went with its context";
}

}  // namespace
}  // namespace cts
