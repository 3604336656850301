// The op compile cache: hits and misses, LRU eviction and re-compilation, the disable/force modes, and
// that keys separate every input that changes the compiled form.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <vector>
#include <thread>

#include "ops/compile_cache.h"
#include "ops/op_launch.h"

namespace npurt::ops {
namespace {

OpCall AddCall(int64_t n, const AttrMap& attrs, int32_t dtype = ACL_FLOAT) {
  OpCall c;
  c.type = "Add";
  c.attrs = &attrs;
  c.inputs = {TensorSpec{dtype, ACL_FORMAT_ND, {n}}, TensorSpec{dtype, ACL_FORMAT_ND, {n}}};
  c.requested = {TensorSpec{dtype, ACL_FORMAT_ND, {n}}};
  return c;
}

class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache().Clear();
    cache().SetMode(CacheMode::kEnable);
    cache().SetCapacity(1024);
  }
  void TearDown() override { SetUp(); }
  static CompileCache& cache() { return CompileCache::Get(); }
};

TEST_F(CompileCacheTest, HitReturnsTheSameCompiledOp) {
  AttrMap none;
  bool hit = true;
  auto a = cache().GetOrCompile(AddCall(8, none), &hit);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(hit);
  auto b = cache().GetOrCompile(AddCall(8, none), &hit);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(hit);
  EXPECT_EQ(a.value().get(), b.value().get());
  const CacheStats s = cache().Stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.size, 1u);
  EXPECT_GT(s.compile_ns, 0u);
}

TEST_F(CompileCacheTest, KeysSeparateShapesTypesAndAttributes) {
  AttrMap none, alpha{{"alpha", 2.0f}}, alpha_int{{"alpha", int64_t{2}}};
  const std::string base = CompileCache::Key(AddCall(8, none));
  EXPECT_NE(base, CompileCache::Key(AddCall(9, none)));
  EXPECT_NE(base, CompileCache::Key(AddCall(8, none, ACL_FLOAT16)));
  EXPECT_NE(base, CompileCache::Key(AddCall(8, alpha)));
  EXPECT_NE(CompileCache::Key(AddCall(8, alpha)), CompileCache::Key(AddCall(8, alpha_int)));
  // A string attribute cannot imitate the separators of another attribute.
  AttrMap s1{{"a", std::string("x;b=i1")}}, s2{{"a", std::string("x")}, {"b", int64_t{1}}};
  EXPECT_NE(CompileCache::Key(AddCall(8, s1)), CompileCache::Key(AddCall(8, s2)));
}

TEST_F(CompileCacheTest, LruEvictsTheLeastRecentlyUsedAndRecompilesIt) {
  AttrMap none;
  cache().SetCapacity(3);
  for (int64_t n = 1; n <= 3; ++n) ASSERT_TRUE(cache().GetOrCompile(AddCall(n, none)).ok());
  bool hit = false;
  ASSERT_TRUE(cache().GetOrCompile(AddCall(1, none), &hit).ok());  // 1 becomes most recent
  EXPECT_TRUE(hit);
  ASSERT_TRUE(cache().GetOrCompile(AddCall(4, none)).ok());  // evicts 2
  CacheStats s = cache().Stats();
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_EQ(s.size, 3u);
  ASSERT_TRUE(cache().GetOrCompile(AddCall(1, none), &hit).ok());
  EXPECT_TRUE(hit);
  ASSERT_TRUE(cache().GetOrCompile(AddCall(3, none), &hit).ok());
  EXPECT_TRUE(hit);
  ASSERT_TRUE(cache().GetOrCompile(AddCall(2, none), &hit).ok());
  EXPECT_FALSE(hit) << "the evicted key is compiled again";
  s = cache().Stats();
  EXPECT_EQ(s.evictions, 2u);
  // Shrinking the capacity evicts at once.
  cache().SetCapacity(1);
  EXPECT_EQ(cache().Stats().size, 1u);
}

TEST_F(CompileCacheTest, EvictedOpStaysUsableWhileReferenced) {
  AttrMap none;
  cache().SetCapacity(1);
  auto a = cache().GetOrCompile(AddCall(16, none));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(cache().GetOrCompile(AddCall(17, none)).ok());  // evicts a's entry
  std::vector<float> x(16, 1.5f), y(16, 2.0f), z(16, 0.0f);
  BoundBuffers b;
  b.inputs = {x.data(), y.data()};
  b.outputs = {z.data()};
  ASSERT_TRUE(RunNow(*a.value(), b, 1).ok());
  EXPECT_EQ(z[15], 3.5f);
}

TEST_F(CompileCacheTest, DisableAndForceModes) {
  AttrMap none;
  cache().SetMode(CacheMode::kDisable);
  bool hit = true;
  ASSERT_TRUE(cache().GetOrCompile(AddCall(5, none), &hit).ok());
  ASSERT_TRUE(cache().GetOrCompile(AddCall(5, none), &hit).ok());
  EXPECT_FALSE(hit);
  EXPECT_EQ(cache().Stats().size, 0u);
  cache().SetMode(CacheMode::kEnable);
  auto a = cache().GetOrCompile(AddCall(5, none));
  cache().SetMode(CacheMode::kForce);
  auto b = cache().GetOrCompile(AddCall(5, none), &hit);
  EXPECT_FALSE(hit);
  EXPECT_NE(a.value().get(), b.value().get());
}

TEST_F(CompileCacheTest, ConcurrentLookupsAreConsistent) {
  AttrMap none;
  cache().SetCapacity(8);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        auto op = cache().GetOrCompile(AddCall(1 + (i * 7 + t) % 12, none));
        if (!op.ok() || op.value()->outputs[0].dims[0] != 1 + (i * 7 + t) % 12) failures++;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  const CacheStats s = cache().Stats();
  EXPECT_EQ(s.hits + s.misses, 800u);
  EXPECT_LE(s.size, 8u);
}

// ASCEND_OP_CACHE_MAX_SIZE (over NPURT_OP_CACHE_CAPACITY) bounds the cache: run by the ctest entry
// ops.compile_cache_env, which sets both and NPURT_EXPECT_OP_CACHE_CAPACITY; skipped elsewhere. Under the small
// capacity, shapes cycling through more entries than it holds are evicted, compiled again, and still compute
// the right sums.
TEST(CompileCacheEnv, CapacityFromTheEnvironmentAndResultsAfterEviction) {
  const char* expect = std::getenv("NPURT_EXPECT_OP_CACHE_CAPACITY");
  if (expect == nullptr) GTEST_SKIP() << "run by ops.compile_cache_env";
  CompileCache& cache = CompileCache::Get();
  ASSERT_EQ(cache.Stats().capacity, static_cast<size_t>(std::atoi(expect)));
  cache.Clear();
  AttrMap none;
  for (int round = 0; round < 3; ++round) {
    for (int64_t n : {3, 5, 7, 9, 11}) {
      bool hit = true;
      auto op = cache.GetOrCompile(AddCall(n, none), &hit);
      ASSERT_TRUE(op.ok()) << op.status().message();
      std::vector<float> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), y(static_cast<size_t>(n), 0.0f);
      for (int64_t i = 0; i < n; ++i) {
        a[static_cast<size_t>(i)] = static_cast<float>(i * 3 + round);
        b[static_cast<size_t>(i)] = static_cast<float>(n - i);
      }
      BoundBuffers bound;
      bound.inputs = {a.data(), b.data()};
      bound.outputs = {y.data()};
      ASSERT_TRUE(RunNow(*op.value(), bound, 1).ok());
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(y[static_cast<size_t>(i)], a[static_cast<size_t>(i)] + b[static_cast<size_t>(i)]);
      }
    }
  }
  const CacheStats s = cache.Stats();
  EXPECT_EQ(s.size, s.capacity);
  EXPECT_EQ(s.misses, 15u);  // an LRU cycling 5 keys through fewer entries misses every time
  EXPECT_EQ(s.hits, 0u);
  EXPECT_EQ(s.evictions, 15u - s.capacity);
}

}  // namespace
}  // namespace npurt::ops
