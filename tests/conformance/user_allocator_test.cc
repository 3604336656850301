// User allocators registered per stream (acl_rt_allocator.h).
#include "acl/acl_rt_allocator.h"
#include "test_util.h"

namespace cts {
namespace {

using UserAllocatorTest = CtsTest;

struct Counter {
  int allocs = 0;
  int frees = 0;
};

void* Alloc(aclrtAllocator a, size_t size) {
  static_cast<Counter*>(a)->allocs++;
  void* p = nullptr;
  return aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? p : nullptr;
}
void Free(aclrtAllocator a, aclrtAllocatorBlock block) {
  static_cast<Counter*>(a)->frees++;
  (void)aclrtFree(block);
}
void* AllocAdvise(aclrtAllocator a, size_t size, aclrtAllocatorAddr) { return Alloc(a, size); }
void* AddrOf(aclrtAllocatorBlock block) { return block; }

TEST_F(UserAllocatorTest, RegisterLookUpAndUnregister) {
  Counter counter;
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(nullptr, desc);
  ASSERT_ACL_OK(aclrtAllocatorSetObjToDesc(desc, &counter));
  ASSERT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc, &Alloc));
  ASSERT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc, &Free));
  ASSERT_ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, &AllocAdvise));
  ASSERT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, &AddrOf));
  Stream s;
  ASSERT_ACL_OK(aclrtAllocatorRegister(s, desc));
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(desc));  // the registration keeps its own copy
  aclrtAllocatorDesc got_desc = nullptr;
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free_fn = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc addr = nullptr;
  ASSERT_ACL_OK(aclrtAllocatorGetByStream(s, &got_desc, &obj, &alloc, &free_fn, &advise, &addr));
  EXPECT_EQ(desc, got_desc);
  EXPECT_EQ(static_cast<void*>(&counter), obj);
  EXPECT_EQ(&Alloc, alloc);
  EXPECT_EQ(&Free, free_fn);
  EXPECT_EQ(&AllocAdvise, advise);
  EXPECT_EQ(&AddrOf, addr);
  // What a component does with it: workspace through the user's allocator.
  void* block = alloc(obj, 4096);
  ASSERT_NE(nullptr, block);
  ASSERT_ACL_OK(aclrtMemset(addr(block), 4096, 1, 4096));
  free_fn(obj, block);
  EXPECT_EQ(1, counter.allocs);
  EXPECT_EQ(1, counter.frees);
  Stream other;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtAllocatorGetByStream(other, &got_desc, &obj, &alloc, &free_fn, &advise, &addr))
      << "nothing registered for that stream";
  ASSERT_ACL_OK(aclrtAllocatorUnregister(s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, &got_desc, &obj, &alloc, &free_fn, &advise, &addr));
}

TEST_F(UserAllocatorTest, IncompleteDescriptionsAndStaleHandles) {
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(nullptr, desc);
  Stream s;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, desc)) << "no callbacks yet";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocFuncToDesc(desc, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(nullptr, &s));
  EXPECT_BAD_HANDLE(aclrtAllocatorSetObjToDesc(s.get(), &s)) << "a stream is not a description";
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(desc));
  EXPECT_BAD_HANDLE(aclrtAllocatorDestroyDesc(desc));
  EXPECT_BAD_HANDLE(aclrtAllocatorRegister(s, desc));
  aclrtStream dead = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&dead));
  ASSERT_ACL_OK(aclrtDestroyStream(dead));
  EXPECT_BAD_HANDLE(aclrtAllocatorUnregister(dead));
}

}  // namespace
}  // namespace cts
