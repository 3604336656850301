// Operators from several threads and streams at once: each thread runs its own sequence of ops on its
// own stream (and one shared handle) and checks every result. Bounded: fixed iteration counts.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "acl_test_env.h"

namespace npurt_test {
namespace {

TEST_F(OpApiTest, ManyThreadsAndStreamsRunOperatorsConcurrently) {
  constexpr int kThreads = 4, kIters = 25;
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  // A handle shared by every thread.
  const int64_t d[] = {256};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, d, ACL_FORMAT_ND);
  const aclTensorDesc* in_desc[] = {desc, desc};
  const aclTensorDesc* out_desc[] = {desc};
  aclopHandle* add = nullptr;
  ASSERT_EQ(aclopCreateHandle("Add", 2, in_desc, 1, out_desc, nullptr, &add), ACL_SUCCESS);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) {
        failures++;
        return;
      }
      std::mt19937 rng(100 + t);
      aclrtStream s = nullptr;
      if (aclrtCreateStream(&s) != ACL_SUCCESS) {
        failures++;
        return;
      }
      for (int i = 0; i < kIters; ++i) {
        DevTensor a(Random(ACL_FLOAT, {256}, rng)), b(Random(ACL_FLOAT, {256}, rng)), sum(HostTensor(ACL_FLOAT, {256}));
        DevTensor prod(HostTensor(ACL_FLOAT, {256}));
        const aclDataBuffer* ib[] = {a.buf, b.buf};
        aclDataBuffer* ob[] = {sum.buf};
        if (aclopExecWithHandle(add, 2, ib, 1, ob, s) != ACL_SUCCESS) failures++;
        aclTensorDesc* in[] = {a.desc, b.desc};
        aclDataBuffer* ib2[] = {a.buf, b.buf};
        aclTensorDesc* od[] = {prod.desc};
        aclDataBuffer* ob2[] = {prod.buf};
        // Different shapes per thread exercise concurrent compiles as well as cache hits.
        if (aclopExecuteV2(i % 2 ? "Mul" : "Maximum", 2, in, ib2, 1, od, ob2, nullptr, s) != ACL_SUCCESS) failures++;
        if (aclrtSynchronizeStream(s) != ACL_SUCCESS) failures++;
        HostTensor rs = sum.Read(), rp = prod.Read();
        for (size_t k = 0; k < 256; ++k) {
          const double x = a.host.at(k), y = b.host.at(k);
          if (std::fabs(rs.at(k) - (x + y)) > 1e-5) failures++;
          const double p = i % 2 ? x * y : std::max(x, y);
          if (std::fabs(rp.at(k) - p) > 1e-5) failures++;
        }
      }
      aclrtDestroyStream(s);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  aclopDestroyHandle(add);
  aclDestroyTensorDesc(desc);
}

TEST_F(OpApiTest, OperatorsKeepStreamOrderWithCopies) {
  // y = ((x + x) * x) computed with async copies around it, all on one stream, no host sync between.
  std::vector<float> hx(1024), hy(1024, 0.0f);
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = 0.5f + static_cast<float>(i % 17) * 0.25f;
  DevTensor x(HostTensor(ACL_FLOAT, {1024})), t(HostTensor(ACL_FLOAT, {1024})), y(HostTensor(ACL_FLOAT, {1024}));
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
  std::memcpy(pinned, hx.data(), 4096);
  ASSERT_EQ(aclrtMemcpyAsync(x.dev, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
  aclTensorDesc* in1[] = {x.desc, x.desc};
  aclDataBuffer* b1[] = {x.buf, x.buf};
  aclTensorDesc* o1[] = {t.desc};
  aclDataBuffer* ob1[] = {t.buf};
  ASSERT_EQ(aclopExecuteV2("Add", 2, in1, b1, 1, o1, ob1, nullptr, stream_), ACL_SUCCESS);
  aclTensorDesc* in2[] = {t.desc, x.desc};
  aclDataBuffer* b2[] = {t.buf, x.buf};
  aclTensorDesc* o2[] = {y.desc};
  aclDataBuffer* ob2[] = {y.buf};
  ASSERT_EQ(aclopExecuteV2("Mul", 2, in2, b2, 1, o2, ob2, nullptr, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(pinned, 4096, y.dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::memcpy(hy.data(), pinned, 4096);
  for (size_t i = 0; i < hx.size(); ++i) ASSERT_FLOAT_EQ(hy[i], 2 * hx[i] * hx[i]);
  aclrtFreeHost(pinned);
}

}  // namespace
}  // namespace npurt_test
