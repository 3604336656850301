// TDT queues (acl_tdt_queue.h): attributes, buffer and data enqueue/dequeue with depth and timeouts,
// producer and consumer threads, destroy waking a waiter, routes (forwarding, fan-out, cycles, queries),
// grant/attach, and every error path. Host threads only, so every backend runs these.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "acl/acl_tdt_queue.h"
#include "test_util.h"

namespace cts {
namespace {

using TdtQueueTest = CtsTest;

uint32_t MakeQueue(const char* name, uint32_t depth) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  EXPECT_NE(nullptr, attr);
  if (name != nullptr) {
    EXPECT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name));
  }
  EXPECT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth));
  uint32_t qid = UINT32_MAX;
  EXPECT_ACL_OK(acltdtCreateQueue(attr, &qid));
  EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
  return qid;
}

acltdtBuf MakeBuf(const std::vector<uint8_t>& bytes) {
  acltdtBuf buf = nullptr;
  EXPECT_ACL_OK(acltdtAllocBuf(bytes.size(), ACL_TDT_NORMAL_MEM, &buf));
  void* data = nullptr;
  size_t size = 0;
  EXPECT_ACL_OK(acltdtGetBufData(buf, &data, &size));
  std::memcpy(data, bytes.data(), bytes.size());
  EXPECT_ACL_OK(acltdtSetBufDataLen(buf, bytes.size()));
  return buf;
}

std::vector<uint8_t> BufBytes(acltdtBuf buf) {
  void* data = nullptr;
  size_t size = 0, len = 0;
  EXPECT_ACL_OK(acltdtGetBufData(buf, &data, &size));
  EXPECT_ACL_OK(acltdtGetBufDataLen(buf, &len));
  return std::vector<uint8_t>(static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + len);
}

TEST_F(TdtQueueTest, Attributes) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  ASSERT_NE(nullptr, attr);
  uint32_t depth = 0;
  size_t ret = 0;
  ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &ret, &depth));
  EXPECT_EQ(8u, depth);
  EXPECT_EQ(sizeof(uint32_t), ret);
  const char* name = "cts_attr_queue";
  ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name));
  const char* back = nullptr;
  ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(back), &ret, &back));
  EXPECT_STREQ(name, back);
  EXPECT_NE(name, back);  // the attribute keeps its own copy
  EXPECT_EQ(sizeof(char*), ret);
  depth = 33;
  ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth));
  depth = 0;
  ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &ret, &depth));
  EXPECT_EQ(33u, depth);

  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &depth));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr));
  uint32_t zero = 0, huge = 1u << 20;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &zero));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &huge));
  const std::string longName(128, 'q');
  const char* longPtr = longName.c_str();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(longPtr), &longPtr));
  const char* nullName = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(nullName), &nullName));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 acltdtSetQueueAttr(attr, static_cast<acltdtQueueAttrType>(9), sizeof(depth), &depth));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &ret, &depth));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr, &depth));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &ret, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 acltdtGetQueueAttr(attr, static_cast<acltdtQueueAttrType>(9), 4, &ret, &depth));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueAttr(nullptr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &ret, &depth));
  EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
  EXPECT_BAD_HANDLE(acltdtDestroyQueueAttr(attr));
  uint32_t qid = 0;
  EXPECT_BAD_HANDLE(acltdtCreateQueue(attr, &qid));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtCreateQueue(nullptr, &qid));
}

TEST_F(TdtQueueTest, BuffersInOrderWithDepthAndTimeouts) {
  const uint32_t qid = MakeQueue("cts_buffers", 3);
  std::vector<std::vector<uint8_t>> sent;
  for (int i = 0; i < 3; ++i) {
    sent.push_back(RandomBytes(100 + 17 * i, 70 + i));
    ASSERT_ACL_OK(acltdtEnqueue(qid, MakeBuf(sent.back()), 0));
  }
  acltdtBuf extra = MakeBuf(RandomBytes(10, 74));
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_FULL, acltdtEnqueue(qid, extra, 0));
  auto start = std::chrono::steady_clock::now();
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_FULL, acltdtEnqueue(qid, extra, 50));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40));
  for (int i = 0; i < 3; ++i) {
    acltdtBuf got = nullptr;
    ASSERT_ACL_OK(acltdtDequeue(qid, &got, 0));
    EXPECT_EQ(sent[i], BufBytes(got)) << i;
    EXPECT_ACL_OK(acltdtFreeBuf(got));
  }
  acltdtBuf got = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtDequeue(qid, &got, 0));
  start = std::chrono::steady_clock::now();
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtDequeue(qid, &got, 40));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));

  // A queued buffer belongs to the queue.
  ASSERT_ACL_OK(acltdtEnqueue(qid, extra, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtFreeBuf(extra));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueue(qid, extra, 0));
  // Destroying the queue frees what it holds.
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
  EXPECT_BAD_HANDLE(acltdtFreeBuf(extra));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDestroyQueue(qid));
  acltdtBuf b = MakeBuf(RandomBytes(5, 75));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueue(qid, b, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeue(qid, &got, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueue(qid, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeue(qid, nullptr, 0));
  EXPECT_ACL_OK(acltdtFreeBuf(b));
}

TEST_F(TdtQueueTest, EnqueueDataDequeueData) {
  const uint32_t qid = MakeQueue(nullptr, 4);
  const std::vector<uint8_t> data = RandomBytes(777, 76), user = RandomBytes(96, 77);
  ASSERT_ACL_OK(acltdtEnqueueData(qid, data.data(), data.size(), user.data(), user.size(), 0, 0));
  ASSERT_ACL_OK(acltdtEnqueueData(qid, data.data(), 0, nullptr, 0, 0, 0));
  std::vector<uint8_t> out(1000, 0), userOut(96, 0);
  size_t ret = 0;
  // Too small: nothing is dequeued.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeueData(qid, out.data(), 776, &ret, userOut.data(), 96, 0));
  ASSERT_ACL_OK(acltdtDequeueData(qid, out.data(), out.size(), &ret, userOut.data(), 96, 0));
  EXPECT_EQ(777u, ret);
  EXPECT_EQ(-1, FirstDifference(out.data(), data.data(), 777));
  EXPECT_EQ(user, userOut);
  ASSERT_ACL_OK(acltdtDequeueData(qid, out.data(), out.size(), &ret, nullptr, 0, 0));
  EXPECT_EQ(0u, ret);
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtDequeueData(qid, out.data(), out.size(), &ret, nullptr, 0, 0));

  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueueData(qid, nullptr, 8, nullptr, 0, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueueData(qid, data.data(), 8, nullptr, 8, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueueData(qid, data.data(), 8, user.data(), 97, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueueData(qid, data.data(), 8, nullptr, 0, -3, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtEnqueueData(qid + 1000, data.data(), 8, nullptr, 0, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeueData(qid, out.data(), 8, nullptr, nullptr, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeueData(qid, nullptr, 8, &ret, nullptr, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeueData(qid, out.data(), 8, &ret, nullptr, 4, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDequeueData(qid, out.data(), 8, &ret, userOut.data(), 97, 0));
  EXPECT_ACL_OK(acltdtDestroyQueue(qid));
}

TEST_F(TdtQueueTest, ProducerAndConsumerThreads) {
  constexpr int kMessages = 200;
  const uint32_t qid = MakeQueue("cts_threads", 2);
  std::atomic<int> failures{0};
  std::thread producer([&] {
    for (int i = 0; i < kMessages; ++i) {
      const std::vector<uint8_t> d = RandomBytes(1 + i % 50, 1000 + i);
      if (acltdtEnqueueData(qid, d.data(), d.size(), &i, sizeof(i), 10000, 0) != ACL_SUCCESS) failures++;
    }
  });
  std::vector<uint8_t> out(64, 0);
  for (int i = 0; i < kMessages; ++i) {
    size_t ret = 0;
    int tag = -1;
    ASSERT_ACL_OK(acltdtDequeueData(qid, out.data(), out.size(), &ret, &tag, sizeof(tag), 10000)) << i;
    EXPECT_EQ(i, tag);
    const std::vector<uint8_t> expect = RandomBytes(1 + i % 50, 1000 + i);
    ASSERT_EQ(expect.size(), ret);
    EXPECT_EQ(-1, FirstDifference(out.data(), expect.data(), ret)) << i;
  }
  producer.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_ACL_OK(acltdtDestroyQueue(qid));
}

TEST_F(TdtQueueTest, DestroyWakesWaiter) {
  const uint32_t qid = MakeQueue("cts_destroy_wakes", 2);
  std::atomic<aclError> result{ACL_SUCCESS};
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    acltdtBuf buf = nullptr;
    result = acltdtDequeue(qid, &buf, -1);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(returned.load());
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
  waiter.join();
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, result.load());
}

TEST_F(TdtQueueTest, NamesAreUnique) {
  const uint32_t a = MakeQueue("cts_unique", 2);
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  const char* name = "cts_unique";
  ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name));
  uint32_t b = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtCreateQueue(attr, &b));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtCreateQueue(attr, nullptr));
  ASSERT_ACL_OK(acltdtDestroyQueue(a));
  ASSERT_ACL_OK(acltdtCreateQueue(attr, &b));
  EXPECT_NE(a, b);  // ids are not reused
  EXPECT_ACL_OK(acltdtDestroyQueue(b));
  EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
}

// Route helpers: a list holding one route src -> dst.
acltdtQueueRouteList* OneRouteList(uint32_t src, uint32_t dst) {
  acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  EXPECT_ACL_OK(acltdtAddQueueRoute(list, route));
  EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
  return list;
}

TEST_F(TdtQueueTest, RoutesForwardBuffers) {
  const uint32_t src = MakeQueue("cts_route_src", 4), dst = MakeQueue("cts_route_dst", 2);
  acltdtQueueRouteList* list = OneRouteList(src, dst);
  EXPECT_EQ(1u, acltdtGetQueueRouteNum(list));
  // Buffers queued before the bind move when it happens.
  const std::vector<uint8_t> first = RandomBytes(40, 80), second = RandomBytes(50, 81), third = RandomBytes(60, 82);
  ASSERT_ACL_OK(acltdtEnqueue(src, MakeBuf(first), 0));
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  ASSERT_ACL_OK(acltdtEnqueue(src, MakeBuf(second), 0));
  ASSERT_ACL_OK(acltdtEnqueue(src, MakeBuf(third), 0));  // dst is full: waits in src
  // Each dequeue from dst makes room, so the buffer waiting in src moves on.
  acltdtBuf got = nullptr;
  for (const auto* expect : {&first, &second, &third}) {
    ASSERT_ACL_OK(acltdtDequeue(dst, &got, 1000));
    EXPECT_EQ(*expect, BufBytes(got));
    EXPECT_ACL_OK(acltdtFreeBuf(got));
  }

  // The route's state, through a query.
  acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof(src), &src));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof(dst), &dst));
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  ASSERT_ACL_OK(acltdtQueryQueueRoutes(query, found));
  ASSERT_EQ(1u, acltdtGetQueueRouteNum(found));
  acltdtQueueRoute* view = acltdtCreateQueueRoute(UINT32_MAX, UINT32_MAX);
  ASSERT_ACL_OK(acltdtGetQueueRoute(found, 0, view));
  uint32_t s = 0, d = 0;
  int32_t status = -1;
  size_t ret = 0;
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, sizeof(s), &ret, &s));
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof(d), &ret, &d));
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof(status), &ret, &status));
  EXPECT_EQ(src, s);
  EXPECT_EQ(dst, d);
  EXPECT_EQ(ACL_TDT_QUEUE_ROUTE_BIND, status);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueRoute(found, 1, view));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 2, &ret, &s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 acltdtGetQueueRouteParam(view, static_cast<acltdtQueueRouteParamType>(7), 4, &ret, &s));
  mode = ACL_TDT_QUEUE_ROUTE_QUERY_DST;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof(src), &src));
  ASSERT_ACL_OK(acltdtQueryQueueRoutes(query, found));
  EXPECT_EQ(0u, acltdtGetQueueRouteNum(found));

  // Binding twice, or the reverse route (a cycle), is refused.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(list));
  acltdtQueueRouteList* reverse = OneRouteList(dst, src);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(reverse));
  acltdtQueueRouteList* self = OneRouteList(src, src);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(self));
  acltdtQueueRouteList* missing = OneRouteList(src, dst + 1000);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(missing));

  // After unbinding, buffers stay in the source.
  ASSERT_ACL_OK(acltdtUnbindQueueRoutes(list));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtUnbindQueueRoutes(list));
  ASSERT_ACL_OK(acltdtEnqueue(src, MakeBuf(first), 0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtDequeue(dst, &got, 0));
  ASSERT_ACL_OK(acltdtDequeue(src, &got, 0));
  EXPECT_ACL_OK(acltdtFreeBuf(got));

  for (acltdtQueueRouteList* l : {list, found, reverse, self, missing}) EXPECT_ACL_OK(acltdtDestroyQueueRouteList(l));
  EXPECT_ACL_OK(acltdtDestroyQueueRoute(view));
  EXPECT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(query));
  EXPECT_ACL_OK(acltdtDestroyQueue(src));
  EXPECT_ACL_OK(acltdtDestroyQueue(dst));
}

TEST_F(TdtQueueTest, RoutesFanOutAndChain) {
  const uint32_t a = MakeQueue(nullptr, 4), b = MakeQueue(nullptr, 4), c = MakeQueue(nullptr, 4), e = MakeQueue(nullptr, 4);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  for (auto [s, d] : {std::pair<uint32_t, uint32_t>{a, b}, {a, c}, {c, e}}) {
    acltdtQueueRoute* r = acltdtCreateQueueRoute(s, d);
    ASSERT_ACL_OK(acltdtAddQueueRoute(list, r));
    ASSERT_ACL_OK(acltdtDestroyQueueRoute(r));
  }
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  const std::vector<uint8_t> data = RandomBytes(123, 83);
  ASSERT_ACL_OK(acltdtEnqueue(a, MakeBuf(data), 0));
  acltdtBuf fromB = nullptr, fromE = nullptr;
  ASSERT_ACL_OK(acltdtDequeue(b, &fromB, 0));
  ASSERT_ACL_OK(acltdtDequeue(e, &fromE, 0));
  EXPECT_EQ(data, BufBytes(fromB));
  EXPECT_EQ(data, BufBytes(fromE));
  acltdtBuf none = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtDequeue(c, &none, 0));
  EXPECT_ACL_OK(acltdtFreeBuf(fromB));
  EXPECT_ACL_OK(acltdtFreeBuf(fromE));
  // Destroying a queue unbinds its routes.
  ASSERT_ACL_OK(acltdtDestroyQueue(c));
  acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof(a), &a));
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  ASSERT_ACL_OK(acltdtQueryQueueRoutes(query, found));
  EXPECT_EQ(1u, acltdtGetQueueRouteNum(found));
  int32_t badMode = 55;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(badMode), &badMode));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 2, &a));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 acltdtSetQueueRouteQueryInfo(query, static_cast<acltdtQueueRouteQueryInfoParamType>(8), 4, &a));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtQueryQueueRoutes(nullptr, found));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtQueryQueueRoutes(query, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtAddQueueRoute(found, nullptr));
  EXPECT_EQ(0u, acltdtGetQueueRouteNum(nullptr));
  acltdtQueueRouteList* empty = acltdtCreateQueueRouteList();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(empty));
  EXPECT_ACL_OK(acltdtDestroyQueueRouteList(empty));
  EXPECT_BAD_HANDLE(acltdtDestroyQueueRouteList(empty));
  EXPECT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(query));
  EXPECT_BAD_HANDLE(acltdtDestroyQueueRouteQueryInfo(query));
  EXPECT_ACL_OK(acltdtDestroyQueueRouteList(found));
  EXPECT_ACL_OK(acltdtDestroyQueueRouteList(list));
  for (uint32_t q : {a, b, e}) EXPECT_ACL_OK(acltdtDestroyQueue(q));
}

TEST_F(TdtQueueTest, ManyThreadsThroughARoute) {
  constexpr int kProducers = 4, kConsumers = 3, kPerProducer = 150;
  const uint32_t src = MakeQueue(nullptr, 3), dst = MakeQueue(nullptr, 2);
  acltdtQueueRouteList* list = OneRouteList(src, dst);
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  std::atomic<int> failures{0};
  std::atomic<uint64_t> sum_in{0}, sum_out{0};
  std::atomic<int> received{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        const uint64_t value = (static_cast<uint64_t>(p) << 32) | static_cast<uint64_t>(i * 2654435761u);
        if (acltdtEnqueueData(src, &value, sizeof(value), nullptr, 0, 10000, 0) != ACL_SUCCESS) failures++;
        sum_in += value;
      }
    });
  }
  for (int c = 0; c < kConsumers; ++c) {
    threads.emplace_back([&] {
      for (;;) {
        uint64_t value = 0;
        size_t ret = 0;
        const aclError rc = acltdtDequeueData(dst, &value, sizeof(value), &ret, nullptr, 0, 200);
        if (rc == ACL_ERROR_RT_QUEUE_EMPTY) {
          if (received.load() == kProducers * kPerProducer || failures.load() > 0) return;
          continue;
        }
        if (rc != ACL_SUCCESS || ret != sizeof(value)) {
          failures++;
          return;
        }
        sum_out += value;
        received++;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_EQ(kProducers * kPerProducer, received.load());
  EXPECT_EQ(sum_in.load(), sum_out.load());
  EXPECT_ACL_OK(acltdtDestroyQueueRouteList(list));
  EXPECT_ACL_OK(acltdtDestroyQueue(src));
  EXPECT_ACL_OK(acltdtDestroyQueue(dst));
}

TEST_F(TdtQueueTest, GrantAndAttach) {
  const uint32_t qid = MakeQueue("cts_grant", 2);
  const int32_t self = static_cast<int32_t>(getpid());
  EXPECT_ACL_OK(acltdtGrantQueue(qid, self, ACL_TDT_QUEUE_PERMISSION_ENQUEUE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, acltdtGrantQueue(qid, self + 1, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGrantQueue(qid, self, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGrantQueue(qid, self, 8, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGrantQueue(qid, self, 1, -9));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGrantQueue(qid + 1000, self, 1, 0));
  uint32_t permission = 0;
  ASSERT_ACL_OK(acltdtAttachQueue(qid, 0, &permission));
  EXPECT_EQ(7u, permission);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtAttachQueue(qid, 0, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtAttachQueue(qid + 1000, 0, &permission));
  EXPECT_ACL_OK(acltdtDestroyQueue(qid));
}

}  // namespace
}  // namespace cts
