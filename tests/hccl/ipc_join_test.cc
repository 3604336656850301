// Joining the shared control block of IpcTransport (hccl/ipc_transport.h) when a rank cannot: the others
// fail at once with its reason instead of waiting out the connect timeout. The ranks are threads of this
// process, meeting through a store on loopback; the runtime is linked in (npurt_hccl), device 0 is real.
#include <gtest/gtest.h>

#include <future>
#include <string>

#include "base/clock.h"
#include "hccl/hccl_types.h"
#include "hccl/ipc_transport.h"
#include "hccl/net/store_client.h"
#include "hccl/net/store_server.h"

namespace npurt::hccl {
namespace ipc_join_testing {

constexpr uint64_t kMs = 1'000'000;

StatusOr<std::unique_ptr<IpcTransport>> Join(uint16_t port, uint32_t rank, uint32_t size, int32_t device,
                                             uint64_t timeout_ms) {
  auto store = StoreClient::Connect("127.0.0.1", port, NowNs() + 2000 * kMs);
  if (!store.ok()) return store.status();
  return IpcTransport::Create(rank, size, device, store.value().get(), "job/ipc/", NowNs() + timeout_ms * kMs);
}

TEST(IpcJoin, ARankThatCannotJoinEndsTheOthersWaitAtOnce) {
  auto server = StoreServer::Start("127.0.0.1", 0, 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  const uint16_t port = server.value()->port();
  const uint64_t start = NowNs();
  // Rank 0 would wait 30 s for rank 1; rank 1 names a device this process does not have.
  auto waiting = std::async(std::launch::async, [&] { return Join(port, 0, 2, 0, 30'000); });
  auto failing = Join(port, 1, 2, 99, 30'000);
  ASSERT_FALSE(failing.ok());
  EXPECT_NE(failing.status().message().find("device 99"), std::string::npos) << failing.status().message();
  auto waited = waiting.get();
  ASSERT_FALSE(waited.ok());
  EXPECT_EQ(HCCL_E_REMOTE, waited.status().code());
  EXPECT_NE(waited.status().message().find("rank 1 could not join"), std::string::npos) << waited.status().message();
  EXPECT_LT(NowNs() - start, 10'000 * kMs) << "the failure must end the wait long before the 30 s timeout";
}

TEST(IpcJoin, TwoRanksOfThisProcessJoinAndARankThatNeverComesTimesOut) {
  auto server = StoreServer::Start("127.0.0.1", 0, 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  const uint16_t port = server.value()->port();
  auto other = std::async(std::launch::async, [&] { return Join(port, 1, 2, 1, 10'000); });
  auto mine = Join(port, 0, 2, 0, 10'000);
  ASSERT_TRUE(mine.ok()) << mine.status().message();
  ASSERT_TRUE(other.get().ok());
  EXPECT_STREQ("ipc", mine.value()->name());
  // A third-rank job where rank 2 never joins: the others time out (HCCL_E_TIMEOUT) at their deadline.
  auto server3 = StoreServer::Start("127.0.0.1", 0, 0);
  ASSERT_TRUE(server3.ok());
  const uint16_t port3 = server3.value()->port();
  auto second = std::async(std::launch::async, [&] { return Join(port3, 1, 3, 1, 300); });
  auto first = Join(port3, 0, 3, 0, 300);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(HCCL_E_TIMEOUT, first.status().code()) << first.status().message();
  EXPECT_FALSE(second.get().ok());
}

}  // namespace ipc_join_testing
}  // namespace npurt::hccl
