// Constant bytes shared between graph copies (graph.h ConstBytes: copy on write) and the weight packer's
// deduplication, by content and, for pinned storage, by identity (weight_packing.h), on random bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>

#include "graph.h"
#include "weight_packing.h"

namespace npurt::atc {
namespace {

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::shared_ptr<const HostTensor> Host(size_t n, uint32_t seed) {
  auto h = std::make_shared<HostTensor>();
  h->dtype = 4;  // ACL_UINT8
  h->dims = {static_cast<int64_t>(n)};
  h->bytes = RandomBytes(n, seed);
  return h;
}

TEST(ConstBytes, SharesAnOwnersBytesAndCopiesBeforeWriting) {
  auto host = Host(4096, 1);
  ConstBytes a = ConstBytes::Of(host);
  EXPECT_EQ(std::as_const(a).data(), host->bytes.data()) << "bound without a copy";
  Tensor t;
  t.data = a;
  Tensor u = t;  // a pass's copy of the tensor
  EXPECT_EQ(std::as_const(u).data.data(), host->bytes.data());
  u.data.data()[7] ^= 0xff;  // writing takes a private copy first
  EXPECT_NE(std::as_const(u).data.data(), host->bytes.data());
  EXPECT_EQ(std::as_const(t).data.data(), host->bytes.data());
  EXPECT_EQ(host->bytes, RandomBytes(4096, 1)) << "the owner's bytes are never written";
  EXPECT_NE(std::as_const(u).data.vector(), host->bytes);
  EXPECT_EQ(std::as_const(u).data.vector()[7], static_cast<uint8_t>(host->bytes[7] ^ 0xff));
  // The only holder of bytes it made writes in place.
  ConstBytes own(RandomBytes(64, 2));
  const uint8_t* before = std::as_const(own).data();
  own.data()[0] = 1;
  EXPECT_EQ(std::as_const(own).data(), before);
  own.resize(128);
  EXPECT_EQ(own.size(), 128u);
  EXPECT_EQ(std::as_const(own).data()[127], 0);
  EXPECT_TRUE(ConstBytes().empty());
}

TEST(WeightPacker, DeduplicatesByContentAndPinnedStorageByIdentity) {
  WeightPacker p;
  auto w1 = Host(10000, 3), w2 = Host(777, 4);
  p.Pin(ConstBytes::Of(w1));
  EXPECT_FALSE(p.Known(ConstBytes::Of(w1)));
  const uint64_t o1 = p.Add(ConstBytes::Of(w1));
  EXPECT_TRUE(p.Known(ConstBytes::Of(w1)));
  EXPECT_FALSE(p.Known(ConstBytes::Of(w2)));
  const uint64_t o2 = p.Add(ConstBytes::Of(w2));
  EXPECT_EQ(o1 % 64, 0u);
  EXPECT_EQ(o2 % 64, 0u);
  EXPECT_NE(o1, o2);
  const size_t size = p.region().size();
  // Equal content from other storage, and the pinned storage again: stored once.
  EXPECT_EQ(p.Add(ConstBytes(RandomBytes(10000, 3))), o1);
  EXPECT_EQ(p.Add(ConstBytes::Of(w1)), o1);
  EXPECT_EQ(p.Add(ConstBytes(RandomBytes(777, 4))), o2);
  EXPECT_EQ(p.region().size(), size);
  EXPECT_EQ(p.deduplicated_bytes(), 10000u * 2 + 777u);
  EXPECT_EQ(std::memcmp(p.region().data() + o1, w1->bytes.data(), w1->bytes.size()), 0);
  EXPECT_EQ(std::memcmp(p.region().data() + o2, w2->bytes.data(), w2->bytes.size()), 0);
  // Different bytes of one size get their own offset.
  const uint64_t o3 = p.Add(ConstBytes(RandomBytes(777, 5)));
  EXPECT_NE(o3, o2);
  EXPECT_GT(p.region().size(), size);
}

TEST(WeightPacker, ReservesExactlyFirstAndGeometricallyAfter) {
  WeightPacker p;
  p.Reserve(1000);
  EXPECT_EQ(p.region().capacity(), 1000u);
  p.Add(ConstBytes(RandomBytes(1000, 6)));
  p.Reserve(1100);  // a later compile adds a little: room for many such, not exactly this one
  EXPECT_GE(p.region().capacity(), 1500u);
}

}  // namespace
}  // namespace npurt::atc
