// A program linked against libacl_rt.so only (the CANN runtime repo's library name). libacl_rt.so is an
// ELF filter of libascendcl.so: every ACL symbol must resolve to libascendcl.so's definition, so a
// process has one runtime whichever library it links.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

std::string DefiningLibrary(const char* symbol) {
  void* addr = dlsym(RTLD_DEFAULT, symbol);
  if (addr == nullptr) return "<unresolved>";
  Dl_info info;
  if (dladdr(addr, &info) == 0 || info.dli_fname == nullptr) return "<unknown>";
  return info.dli_fname;
}

TEST(AclRtFilterLibrary, SymbolsResolveToLibAscendcl) {
  for (const char* symbol : {"aclInit", "aclrtSetDevice", "aclrtMalloc", "aclrtMemcpyAsync", "aclGetRecentErrMsg"}) {
    const std::string lib = DefiningLibrary(symbol);
    EXPECT_NE(std::string::npos, lib.find("libascendcl.so")) << symbol << " resolves to " << lib;
  }
}

TEST(AclRtFilterLibrary, RuntimeWorksThroughTheFilter) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  uint32_t count = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&count));
  EXPECT_GE(count, 1u);
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  constexpr size_t n = 1 << 16;
  std::vector<uint8_t> data(n), back(n, 0);
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint8_t>(i * 131 + 7);
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dev, n, data.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(back.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
  EXPECT_EQ(data, back);
  // Errors and their messages come from the same runtime state.
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtFree(nullptr));
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  EXPECT_NE(nullptr, std::strstr(msg, "aclrtFree"));
  EXPECT_EQ(ACL_SUCCESS, aclrtFree(dev));
  EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
  EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
  EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

}  // namespace
