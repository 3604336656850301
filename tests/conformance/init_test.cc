// Initialization, finalization, versions, SoC name and run mode, CANN attributes.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_util.h"

namespace cts {
namespace {

// A temporary file removed at scope exit.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    char name[] = "/tmp/npurt_cts_XXXXXX.json";
    const int fd = mkstemps(name, 5);
    EXPECT_GE(fd, 0);
    if (fd >= 0) {
      EXPECT_EQ(static_cast<ssize_t>(content.size()), write(fd, content.data(), content.size()));
      close(fd);
      path_ = name;
    }
  }
  ~TempFile() {
    if (!path_.empty()) unlink(path_.c_str());
  }
  const char* path() const { return path_.c_str(); }

 private:
  std::string path_;
};

using InitTest = CtsNoDeviceTest;

TEST_F(InitTest, RepeatedInitReturnsRepeatInitializeAndCountsReferences) {
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  // The repeated init took a reference: one aclFinalizeReference leaves the runtime initialised.
  uint64_t remaining = 99;
  ASSERT_ACL_OK(aclFinalizeReference(&remaining));
  EXPECT_EQ(1u, remaining);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr)) << "the runtime must still be initialised";
  ASSERT_ACL_OK(aclFinalizeReference(&remaining));
  EXPECT_EQ(1u, remaining);
}

TEST_F(InitTest, FinalizeThenRepeatedFinalizeThenInitAgain) {
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
  uint64_t remaining = 0;
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(&remaining));
  ASSERT_ACL_OK(aclInit(nullptr));
  // The runtime is fully usable again.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* p = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

TEST_F(InitTest, FinalizeReferenceTearsDownAtZero) {
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  uint64_t remaining = 0;
  ASSERT_ACL_OK(aclFinalizeReference(&remaining));
  EXPECT_EQ(2u, remaining);
  ASSERT_ACL_OK(aclFinalizeReference(&remaining));
  EXPECT_EQ(1u, remaining);
  ASSERT_ACL_OK(aclFinalizeReference(&remaining));
  EXPECT_EQ(0u, remaining);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize()) << "the last reference must finalize";
  ASSERT_ACL_OK(aclInit(nullptr));
}

TEST_F(InitTest, FinalizeReleasesTheThreadsDevice) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclFinalize());
  int32_t dev = -1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
  aclrtStreamStatus status;
  EXPECT_BAD_HANDLE(aclrtStreamQuery(s, &status)) << "streams do not survive aclFinalize";
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(0, dev);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(p)) << "memory of the default context does not survive";
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

TEST_F(InitTest, InitAcceptsEmptyObjectAndUnknownKeys) {
  TempFile empty_object("{}");
  TempFile unknown_keys(R"({"dump": {"dump_path": "/tmp"}, "some_future_key": [1, 2, {"a": 3}]})");
  for (const TempFile* f : {&empty_object, &unknown_keys}) {
    ASSERT_ACL_OK(aclFinalize());
    const aclError e = aclInit(f->path());
    EXPECT_ACL_OK(e) << "config file " << f->path();
    if (e != ACL_SUCCESS) {
      ASSERT_ACL_OK(aclInit(nullptr));
    }
  }
}

TEST_F(InitTest, InitRejectsMalformedConfigAfterFinalize) {
  TempFile bad("{ this is not json");
  ASSERT_ACL_OK(aclFinalize());
  const aclError e = aclInit(bad.path());
  if (e == ACL_SUCCESS) {
    // Leave the runtime initialised for the following tests before failing.
    ADD_FAILURE() << "aclInit accepted a malformed JSON config on re-initialisation";
    return;
  }
  EXPECT_EQ(ACL_ERROR_PARSE_FILE, e);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize()) << "a failed aclInit must leave the runtime uninitialised";
  ASSERT_ACL_OK(aclInit(nullptr));
}

CTS_CHILD(init_config_errors) {
  TempFile bad("{ \"dump\": [1, 2 ");
  ChildReport("malformed", aclInit(bad.path()));
  ChildReport("missing", aclInit("/nonexistent/npurt/acl.json"));
  const aclError ok = aclInit(nullptr);
  ChildReport("after", ok);
  if (ok == ACL_SUCCESS) ChildReport("finalize", aclFinalize());
  return 0;
}

TEST_F(InitTest, InitReportsConfigFileErrorsInAFreshProcess) {
  ChildResult r = RunChild("init_config_errors", {});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_ERROR_PARSE_FILE, r.Int("malformed"));
  EXPECT_EQ(ACL_ERROR_INVALID_FILE, r.Int("missing"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("after")) << "a failed aclInit must not poison a later one";
  EXPECT_EQ(ACL_SUCCESS, r.Int("finalize"));
}

CTS_CHILD(finalize_without_init) {
  ChildReport("finalize", aclFinalize());
  uint64_t remaining = 7;
  ChildReport("finalize_reference", aclFinalizeReference(&remaining));
  return 0;
}

TEST_F(InitTest, FinalizeWithoutInitInAFreshProcess) {
  ChildResult r = RunChild("finalize_without_init", {});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, r.Int("finalize"));
  EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, r.Int("finalize_reference"));
}

CTS_CHILD(runtime_before_init) {
  // Pure runtime calls work before aclInit, as on CANN.
  uint32_t count = 0;
  ChildReport("count_rc", aclrtGetDeviceCount(&count));
  ChildReport("count", count);
  ChildReport("set_rc", aclrtSetDevice(0));
  void* p = nullptr;
  ChildReport("malloc_rc", aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  const uint32_t word = 0xC0FFEE11u;
  uint32_t back = 0;
  ChildReport("h2d_rc", aclrtMemcpy(p, 4096, &word, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ChildReport("d2h_rc", aclrtMemcpy(&back, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  ChildReport("roundtrip", back == word ? 1 : 0);
  ChildReport("free_rc", aclrtFree(p));
  ChildReport("reset_rc", aclrtResetDevice(0));
  aclDataBuffer* b = aclCreateDataBuffer(&back, sizeof back);
  ChildReport("buffer", b != nullptr && aclGetDataBufferAddr(b) == &back ? 1 : 0);
  ChildReport("buffer_destroy_rc", aclDestroyDataBuffer(b));
  ChildReport("init_rc", aclInit(nullptr));
  ChildReport("finalize_rc", aclFinalize());
  return 0;
}

TEST_F(InitTest, RuntimeCallsWorkBeforeInit) {
  ChildResult r = RunChild("runtime_before_init", {});
  ASSERT_EQ(0, r.exit_code) << r.output;
  for (const char* key : {"count_rc", "set_rc", "malloc_rc", "h2d_rc", "d2h_rc", "free_rc", "reset_rc",
                          "buffer_destroy_rc", "init_rc", "finalize_rc"}) {
    EXPECT_EQ(ACL_SUCCESS, r.Int(key)) << key << "\n" << r.output;
  }
  EXPECT_GE(r.Int("count"), 1);
  EXPECT_EQ(1, r.Int("roundtrip"));
  EXPECT_EQ(1, r.Int("buffer"));
}

// ---------------------------------------------------------------------------------------------
// Versions, SoC, run mode, attributes
// ---------------------------------------------------------------------------------------------

using VersionTest = CtsNoDeviceTest;

TEST_F(VersionTest, GetVersionReportsTheHeaderVersion) {
  int32_t major = -1, minor = -1, patch = -1;
  ASSERT_ACL_OK(aclrtGetVersion(&major, &minor, &patch));
  EXPECT_EQ(ACL_MAJOR_VERSION, major);
  EXPECT_EQ(ACL_MINOR_VERSION, minor);
  EXPECT_EQ(ACL_PATCH_VERSION, patch);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(nullptr, &minor, &patch));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&major, nullptr, &patch));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&major, &minor, nullptr));
}

TEST_F(VersionTest, VersionStringAndNumberAgreeForEveryPackage) {
  for (const char* pkg : {"cann", "runtime", "compiler", "opp", "driver", "toolkit"}) {
    SCOPED_TRACE(pkg);
    std::string name = pkg;
    char version[ACL_PKG_VERSION_MAX_SIZE] = {};
    ASSERT_ACL_OK(aclsysGetVersionStr(name.data(), version));
    int major = -1, minor = -1, patch = -1;
    ASSERT_EQ(3, std::sscanf(version, "%d.%d.%d", &major, &minor, &patch)) << "version string '" << version << "'";
    EXPECT_GT(major, 0);
    int32_t num = -1;
    ASSERT_ACL_OK(aclsysGetVersionNum(name.data(), &num));
    // CANN's numbering: major * 10000000 + minor * 100000 + patch * 1000 (9.1.0 is 90100000, as
    // 0_quickstart/3_cross_version/0_runtime_compatibility shows).
    EXPECT_EQ(num, major * 10000000 + minor * 100000 + patch * 1000) << version;
  }
}

TEST_F(VersionTest, VersionQueriesRejectBadArguments) {
  char version[ACL_PKG_VERSION_MAX_SIZE] = {};
  int32_t num = 0;
  std::string unknown = "no_such_package";
  std::string runtime = "runtime";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(unknown.data(), version));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(unknown.data(), &num));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(nullptr, version));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(runtime.data(), nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(runtime.data(), nullptr));
}

TEST_F(VersionTest, CannVersionStructIsFilledForEveryPackageName) {
  std::string cann = "cann";
  char expected[ACL_PKG_VERSION_MAX_SIZE] = {};
  ASSERT_ACL_OK(aclsysGetVersionStr(cann.data(), expected));
  for (int n = ACL_PKG_NAME_CANN; n <= ACL_PKG_NAME_DRIVER; ++n) {
    SCOPED_TRACE(n);
    aclCANNPackageVersion v;
    std::memset(&v, 0x7f, sizeof v);
    ASSERT_ACL_OK(aclsysGetCANNVersion(static_cast<aclCANNPackageName>(n), &v));
    ASSERT_NE(nullptr, std::memchr(v.version, '\0', sizeof v.version)) << "version must be NUL-terminated";
    EXPECT_STREQ(expected, v.version);
    int major = -1, minor = -1;
    std::sscanf(expected, "%d.%d", &major, &minor);
    EXPECT_EQ(std::to_string(major), std::string(v.majorVersion));
    EXPECT_EQ(std::to_string(minor), std::string(v.minorVersion));
  }
  aclCANNPackageVersion v;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion(static_cast<aclCANNPackageName>(1234), &v));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion(ACL_PKG_NAME_CANN, nullptr));
}

TEST_F(VersionTest, SocNameIsAnAscendNameAndStable) {
  const char* soc = aclrtGetSocName();
  ASSERT_NE(nullptr, soc);
  const std::string name = soc;
  EXPECT_EQ(0u, name.rfind("Ascend", 0)) << "SoC name '" << name << "'";
  EXPECT_GT(name.size(), 6u);
  EXPECT_EQ(name, std::string(aclrtGetSocName()));
  std::string other;
  std::thread([&] { other = aclrtGetSocName() ? aclrtGetSocName() : ""; }).join();
  EXPECT_EQ(name, other);
}

TEST_F(VersionTest, ArchCompatibilityWithOwnSoc) {
  const std::string soc = aclrtGetSocName();
  int32_t compatible = -1;
  ASSERT_ACL_OK(aclrtCheckArchCompatibility(soc.c_str(), &compatible));
  EXPECT_EQ(1, compatible);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility(nullptr, &compatible));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility(soc.c_str(), nullptr));
}

TEST_F(VersionTest, RunModeIsHost) {
  aclrtRunMode mode = ACL_DEVICE;
  ASSERT_ACL_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(ACL_HOST, mode);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
}

TEST_F(VersionTest, CannAttributes) {
  const aclCannAttr* list = nullptr;
  size_t num = 0;
  ASSERT_ACL_OK(aclGetCannAttributeList(&list, &num));
  ASSERT_NE(nullptr, list);
  // 0_quickstart/3_cross_version/0_runtime_compatibility shows three: INF_NAN, BF16, JIT_COMPILE.
  ASSERT_EQ(3u, num);
  EXPECT_EQ(ACL_CANN_ATTR_INF_NAN, list[0]);
  EXPECT_EQ(ACL_CANN_ATTR_BF16, list[1]);
  EXPECT_EQ(ACL_CANN_ATTR_JIT_COMPILE, list[2]);
  for (size_t i = 0; i < num; ++i) {
    int32_t value = -1;
    EXPECT_ACL_OK(aclGetCannAttribute(list[i], &value));
    EXPECT_EQ(1, value) << "attribute " << list[i] << " is listed, so it is supported";
  }
  int32_t value = -1;
  EXPECT_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &value));
  EXPECT_EQ(1, value) << "operators are compiled at run time";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(nullptr, &num));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(&list, nullptr));
}

}  // namespace
}  // namespace cts
