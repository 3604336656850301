// Pinned host memory (core/memory/mem_pinned_host.h): one registry answers "is this host range pinned?" for both
// origins, aclrtMallocHost blocks and aclrtHostRegister ranges, exactly at their edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/memory/mem_pinned_host.h"

namespace npurt::core {
namespace {

TEST(PinnedHostTest, BothOriginsArePinnedToTheirLastByte) {
  PinnedHost& h = PinnedHost::Get();
  std::mt19937 rng(5);
  const size_t alloc_size = 1000 + rng() % 5000;
  auto block = h.Allocate(alloc_size);
  ASSERT_TRUE(block.ok()) << block.status().message();
  auto* a = static_cast<uint8_t*>(block.value());
  std::vector<uint8_t> heap(8192 + rng() % 4096);
  uint8_t* r = heap.data() + 100;
  const size_t reg_size = heap.size() - 200;
  ASSERT_TRUE(h.Register(r, reg_size, ACL_HOST_REG_MAPPED).ok());

  for (const auto& [base, size] : {std::pair<uint8_t*, size_t>{a, alloc_size}, {r, reg_size}}) {
    EXPECT_TRUE(h.IsPinned(base, size));
    EXPECT_TRUE(h.IsPinned(base + size - 1, 1));
    EXPECT_TRUE(h.IsPinned(base + size, 0)) << "an empty range at the end (as before the merge)";
    EXPECT_FALSE(h.IsPinned(base, size + 1)) << "one byte past the end";
    EXPECT_FALSE(h.IsPinned(base + size, 1));
    EXPECT_FALSE(h.IsPinned(base - 1, 2));
  }
  EXPECT_TRUE(h.IsAllocated(a + alloc_size - 1));
  EXPECT_FALSE(h.IsAllocated(r)) << "a registered range is not an aclrtMallocHost block";
  EXPECT_TRUE(h.DevicePointer(r + 5).ok());
  EXPECT_EQ(h.DevicePointer(a).status().code(), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);

  // A range registered inside an aclrtMallocHost block: both origins hold it; removing one leaves the other.
  ASSERT_TRUE(h.Register(a + 16, 64, ACL_HOST_REG_MAPPED).ok());
  EXPECT_TRUE(h.IsPinned(a + 16, 64));
  ASSERT_TRUE(h.Unregister(a + 16).ok());
  EXPECT_TRUE(h.IsPinned(a + 16, 64));

  ASSERT_TRUE(h.Unregister(r).ok());
  EXPECT_FALSE(h.IsPinned(r, 1));
  ASSERT_TRUE(h.Free(a).ok());
  EXPECT_FALSE(h.IsPinned(a, 1));
  EXPECT_EQ(h.Free(a).code(), ACL_ERROR_RT_MEMORY_FREE) << "double free";
  EXPECT_EQ(h.Unregister(r).code(), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

TEST(PinnedHostTest, RegisteredRangesMayNotOverlap) {
  PinnedHost& h = PinnedHost::Get();
  std::vector<uint8_t> heap(4096);
  ASSERT_TRUE(h.Register(heap.data() + 1000, 1000, 0).ok());
  EXPECT_EQ(h.Register(heap.data() + 1999, 10, 0).code(), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  EXPECT_EQ(h.Register(heap.data() + 900, 101, 0).code(), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  EXPECT_TRUE(h.Register(heap.data() + 2000, 10, 0).ok()) << "adjacent is not overlapping";
  EXPECT_TRUE(h.Unregister(heap.data() + 2000).ok());
  EXPECT_TRUE(h.Unregister(heap.data() + 1000).ok());
}

}  // namespace
// Freed blocks are cached and taken back by a request they fit (at most twice its size); a cached block is
// neither allocated nor pinned, so freeing it again is still a double free.
TEST(PinnedHostTest, FreedBlocksAreReusedBySizeAndStayDoubleFreeChecked) {
  PinnedHost& h = PinnedHost::Get();
  h.ReleaseCache();
  auto a = h.Allocate(3 * 4096 + 100);  // 4 pages
  ASSERT_TRUE(a.ok());
  std::memset(a.value(), 0x5a, 3 * 4096 + 100);
  ASSERT_TRUE(h.Free(a.value()).ok());
  EXPECT_EQ(h.CachedBytes(), 4u * 4096);
  EXPECT_FALSE(h.IsPinned(a.value(), 1)) << "a cached block is free memory";
  EXPECT_EQ(h.Free(a.value()).code(), ACL_ERROR_RT_MEMORY_FREE) << "double free of a cached block";

  auto small = h.Allocate(4096);  // 1 page: the 4-page block is more than twice that
  ASSERT_TRUE(small.ok());
  EXPECT_NE(small.value(), a.value());
  auto again = h.Allocate(3 * 4096);  // 3 pages: fits the cached block
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), a.value());
  EXPECT_EQ(h.CachedBytes(), 0u);
  EXPECT_TRUE(h.IsPinned(again.value(), 3 * 4096)) << "pinned to the request's size";
  EXPECT_FALSE(h.IsPinned(again.value(), 3 * 4096 + 1));
  ASSERT_TRUE(h.Free(again.value()).ok());
  ASSERT_TRUE(h.Free(small.value()).ok());
  EXPECT_EQ(h.CachedBytes(), 5u * 4096);
  h.ReleaseCache();
  EXPECT_EQ(h.CachedBytes(), 0u);
}

}  // namespace npurt::core
