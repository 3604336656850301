// Views of another device's memory through its share token (core/memory/mem_peer_view.h), as the HCCL
// transport between processes uses them; here the "peer" is simulated device 0 of this process, opened by
// device 1 through /proc/self/fd as another process would open it.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/context.h"
#include "core/device.h"
#include "core/memory/mem_peer_view.h"
#include "core/runtime.h"

namespace npurt::core {
namespace peer_view_testing {

class PeerViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = Runtime::Get().GetDevice(0), b = Runtime::Get().GetDevice(1);
    ASSERT_TRUE(a.ok() && b.ok());
    owner_ = a.value();
    viewer_ = b.value();
    auto ctx = owner_->RetainDefaultContext();
    ASSERT_TRUE(ctx.ok());
    ctx_ = ctx.value();
  }
  void TearDown() override {
    for (void* p : blocks_) (void)owner_->allocator().Free(p, nullptr, 0);
    (void)owner_->ReleaseDefaultContext(/*force=*/true);
  }
  uint8_t* Allocate(size_t bytes) {
    auto p = owner_->allocator().Allocate(bytes, ctx_);
    EXPECT_TRUE(p.ok());
    blocks_.push_back(p.value());
    return static_cast<uint8_t*>(p.value());
  }
  std::unique_ptr<PeerMemoryViews> OpenViews() {
    auto token = PeerShareToken(owner_);
    EXPECT_TRUE(token.ok()) << token.status().message();
    auto views = PeerMemoryViews::Open(viewer_, token.value(), PeerMemoryBytes(owner_), PeerMemoryBytes(viewer_));
    EXPECT_TRUE(views.ok()) << views.status().message();
    return views.ok() ? std::move(views.value()) : nullptr;
  }
  StatusOr<uint8_t*> ViewOf(PeerMemoryViews& views, const void* p, size_t bytes, uint64_t use) {
    PeerExtents e;
    NPURT_RETURN_IF_ERROR(DescribeForPeers(owner_, p, bytes, &e));
    return views.View(e.runs, e.inner, use);
  }

  Device* owner_ = nullptr;
  Device* viewer_ = nullptr;
  Context* ctx_ = nullptr;
  std::vector<void*> blocks_;
};

TEST_F(PeerViewTest, AViewShowsTheBufferBothWaysAndIsReusedForTheSamePages) {
  auto views = OpenViews();
  ASSERT_NE(views, nullptr);
  std::mt19937 rng(3);
  for (size_t bytes : {size_t{100}, size_t{3u << 20}, size_t{9u << 20} + 77}) {
    uint8_t* p = Allocate(bytes);
    std::vector<uint8_t> data(bytes);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    std::memcpy(p, data.data(), bytes);  // the sim's device memory is host-addressable
    auto v = ViewOf(*views, p, bytes, 1);
    ASSERT_TRUE(v.ok()) << v.status().message();
    EXPECT_NE(v.value(), p);
    EXPECT_EQ(0, std::memcmp(v.value(), data.data(), bytes));
    v.value()[bytes - 1] = static_cast<uint8_t>(~data[bytes - 1]);  // writes reach the owner's buffer
    EXPECT_EQ(p[bytes - 1], static_cast<uint8_t>(~data[bytes - 1]));
    const uint64_t made = views->views_made();
    auto again = ViewOf(*views, p, bytes, 2);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again.value(), v.value());
    EXPECT_EQ(made, views->views_made()) << "the same pages reuse their view";
  }
}

TEST_F(PeerViewTest, RunsOutsideThePeersMemoryAreRefused) {
  auto views = OpenViews();
  ASSERT_NE(views, nullptr);
  const uint64_t page = 2u << 20, total = PeerMemoryBytes(owner_);
  EXPECT_FALSE(views->View({{total, page}}, 0, 1).ok()) << "past the end";
  EXPECT_FALSE(views->View({{page / 2, page}}, 0, 1).ok()) << "unaligned";
  EXPECT_FALSE(views->View({{total - page, 2 * page}}, 0, 1).ok()) << "straddling the end";
  EXPECT_FALSE(views->View({{0, page}}, page, 1).ok()) << "an offset past the first run";
  EXPECT_FALSE(views->View({}, 0, 1).ok()) << "no runs";
  EXPECT_TRUE(views->View({{0, page}}, 5, 1).ok());
}

TEST_F(PeerViewTest, HostMemoryAndForeignPointersCannotBeDescribed) {
  std::vector<uint8_t> host(4096);
  PeerExtents e;
  EXPECT_FALSE(DescribeForPeers(owner_, host.data(), host.size(), &e).ok());
  uint8_t* p = Allocate(4096);
  EXPECT_FALSE(DescribeForPeers(owner_, p, 1u << 30, &e).ok()) << "past the allocation";
}

TEST_F(PeerViewTest, ManyBuffersEvictOldViewsButNeverThoseOfTheCurrentUse) {
  auto views = OpenViews();
  ASSERT_NE(views, nullptr);
  std::vector<uint8_t*> current;
  const uint64_t page = 2u << 20;
  for (uint64_t i = 0; i < 300; ++i) {  // more than the cache keeps; two pages each, every pair different
    auto v = views->View({{(i % 20) * page, page}, {(20 + i / 20) * page, page}}, i % 7, i < 290 ? i : 290);
    ASSERT_TRUE(v.ok()) << v.status().message();
    if (i >= 290) current.push_back(v.value());
  }
  EXPECT_LE(views->cached(), 256u);
  EXPECT_EQ(views->views_made(), 300u);
  // The views of the current use (290) are still mapped: writing and reading through them does not fault.
  for (uint8_t* p : current) {
    volatile uint8_t* q = p;
    *q = 0xa5;
    EXPECT_EQ(*q, 0xa5);
  }
}

}  // namespace peer_view_testing
}  // namespace npurt::core
