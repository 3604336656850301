// Kernel binaries and functions: loading from a file, from memory and through aclrtCreateBinary; lookup
// by name, entry and symbol; parameter metadata; clear errors for files that are not kernel binaries.
#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "kernel_test_util.h"

namespace cts {
namespace {

std::vector<uint8_t> ReadFile(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string TempFile(const std::string& tag, const void* data, size_t size) {
  char path[] = "/tmp/npurt-kernel-test-XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, data, size), static_cast<ssize_t>(size));
  close(fd);
  (void)tag;
  return path;
}

class KernelBinaryTest : public KernelTest {};

TEST_F(KernelBinaryTest, FunctionsByName) {
  for (const char* name : {"cts_empty", "cts_block_ids", "cts_vec_add", "cts_fault_trap", "cts_vector_f16"}) {
    aclrtFuncHandle f = nullptr;
    ASSERT_ACL_OK(aclrtBinaryGetFunction(bin_, name, &f)) << name;
    char buf[64];
    ASSERT_ACL_OK(aclrtGetFunctionName(f, sizeof buf, buf));
    EXPECT_STREQ(buf, name);
    aclrtBinHandle owner = nullptr;
    ASSERT_ACL_OK(aclrtFunctionGetBinary(f, &owner));
    EXPECT_EQ(owner, bin_);
  }
  char small[4];
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetFunctionName(Func("cts_empty"), sizeof small, small));
}

TEST_F(KernelBinaryTest, UnknownKernelNameIsAClearError) {
  aclrtFuncHandle f = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtBinaryGetFunction(bin_, "no_such_kernel", &f));
  const std::string msg = TakeErrorMessage();
  EXPECT_NE(msg.find("no_such_kernel"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cts_vec_add("), std::string::npos) << "the message lists the binary's kernels: " << msg;
  EXPECT_EQ(f, nullptr);
}

TEST_F(KernelBinaryTest, ParameterMetadataIsTheNaturalLayout) {
  aclrtFuncHandle f = Func("cts_mixed_args");
  struct Natural {
    uint8_t* out;
    uint8_t a;
    int16_t b;
    uint32_t c;
    uint64_t d;
    float e;
    int32_t* ptr;
    double f;
    int8_t g;
  };
  const size_t offsets[] = {offsetof(Natural, out), offsetof(Natural, a), offsetof(Natural, b),
                            offsetof(Natural, c),   offsetof(Natural, d), offsetof(Natural, e),
                            offsetof(Natural, ptr), offsetof(Natural, f), offsetof(Natural, g)};
  const size_t sizes[] = {8, 1, 2, 4, 8, 4, 8, 8, 1};
  size_t count = 0;
  ASSERT_ACL_OK(aclrtFunctionGetParamCount(f, &count));
  ASSERT_EQ(count, 9u);
  for (size_t i = 0; i < count; ++i) {
    size_t off = 0, size = 0;
    ASSERT_ACL_OK(aclrtFunctionGetParamInfo(f, i, &off, &size));
    EXPECT_EQ(off, offsets[i]) << "parameter " << i;
    EXPECT_EQ(size, sizes[i]) << "parameter " << i;
  }
  size_t off = 0, size = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFunctionGetParamInfo(f, 9, &off, &size));
  ASSERT_ACL_OK(aclrtFunctionGetParamCount(Func("cts_empty"), &count));
  EXPECT_EQ(count, 0u);
}

TEST_F(KernelBinaryTest, AttributesAddressesAndEntries) {
  aclrtFuncHandle f = Func("cts_vec_add");
  int64_t type = -1;
  ASSERT_ACL_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &type));
  EXPECT_EQ(type, ACL_KERNEL_TYPE_AICORE);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetFunctionAttribute(f, static_cast<aclrtFuncAttribute>(99), &type));
  void* aic = nullptr;
  void* aiv = nullptr;
  ASSERT_ACL_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
  EXPECT_NE(aic, nullptr);
  size_t aic_size = 0, aiv_size = 0;
  ASSERT_ACL_OK(aclrtGetFunctionSize(f, &aic_size, &aiv_size));
  // The kernel's code address finds it again (aclrtGetFuncBySymbol) ...
  aclrtFuncHandle by_symbol = nullptr;
  ASSERT_ACL_OK(aclrtGetFuncBySymbol(aic, &by_symbol));
  EXPECT_EQ(by_symbol, f);
  // ... and so does the entry (as an address).
  aclrtFuncHandle by_entry = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunctionByEntry(bin_, reinterpret_cast<uint64_t>(aic), &by_entry));
  EXPECT_EQ(by_entry, f);
  int local = 0;
  aclrtFuncHandle none = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetFuncBySymbol(&local, &none));
  void* image = nullptr;
  size_t image_size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetDevAddress(bin_, &image, &image_size));
  EXPECT_NE(image, nullptr);
  EXPECT_GT(image_size, 0u);
  size_t ubuf = 1;
  ASSERT_ACL_OK(aclrtFunctionGetAvailDynUbufPerBlock(f, 0, &ubuf));
  EXPECT_EQ(ubuf, 0u);
}

TEST_F(KernelBinaryTest, LoadFromDataAndCreateBinary) {
  const std::vector<uint8_t> image = ReadFile(KernelBinaryPath());
  ASSERT_GT(image.size(), 1000u);
  aclrtBinHandle from_data = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &from_data));
  aclrtFuncHandle f = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(from_data, "cts_block_ids", &f));
  // The kernel of the in-memory copy runs.
  Stream s;
  DevBuf out(3 * 4 * sizeof(uint32_t));
  ArgBlock args;
  args.Add(out.get()).Add(uint32_t{0});
  std::vector<uint8_t> block = args.Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 4, s, nullptr, block.data(), block.size(), nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(FromDevice<uint32_t>(out, 12)[3 * 3], 3u);
  ASSERT_ACL_OK(aclrtBinaryUnLoad(from_data));

  aclrtBinary wrapped = aclrtCreateBinary(image.data(), image.size());
  ASSERT_NE(wrapped, nullptr);
  aclrtBinHandle loaded = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoad(wrapped, &loaded));
  ASSERT_ACL_OK(aclrtBinaryGetFunction(loaded, "cts_empty", &f));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(loaded));
  ASSERT_ACL_OK(aclrtDestroyBinary(wrapped));
  EXPECT_BAD_HANDLE(aclrtDestroyBinary(wrapped));
  EXPECT_EQ(aclrtCreateBinary(nullptr, 10), nullptr);
}

TEST_F(KernelBinaryTest, UnloadInvalidatesBinaryAndFunctions) {
  aclrtBinHandle b = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &b));
  aclrtFuncHandle f = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(b, "cts_empty", &f));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(b));
  EXPECT_BAD_HANDLE(aclrtBinaryUnLoad(b));
  aclrtFuncHandle g = nullptr;
  EXPECT_BAD_HANDLE(aclrtBinaryGetFunction(b, "cts_empty", &g));
  Stream s;
  EXPECT_BAD_HANDLE(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, nullptr, 0, nullptr, 0));
  size_t count = 0;
  EXPECT_BAD_HANDLE(aclrtFunctionGetParamCount(f, &count));
}

TEST_F(KernelBinaryTest, UnloadWhileLaunchesAreInFlight) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "needs work to stay queued";
  aclrtBinHandle b = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &b));
  aclrtFuncHandle f = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(b, "cts_block_ids", &f));
  Stream s;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  DevBuf out(3 * 8 * sizeof(uint32_t));
  std::vector<uint8_t> block = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 8, s, nullptr, block.data(), block.size(), nullptr, 0));
  // The binary goes away for the API while its launch is still queued; the launch still runs.
  ASSERT_ACL_OK(aclrtBinaryUnLoad(b));
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(FromDevice<uint32_t>(out, 24)[3 * 7 + 1], 8u);
}

TEST_F(KernelBinaryTest, MissingFileIsAClearError) {
  aclrtBinHandle b = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclrtBinaryLoadFromFile("/nonexistent/kernels.o", nullptr, &b));
  EXPECT_NE(TakeErrorMessage().find("/nonexistent/kernels.o"), std::string::npos);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtBinaryLoadFromFile(nullptr, nullptr, &b));
  EXPECT_EQ(b, nullptr);
}

TEST_F(KernelBinaryTest, NotAnElfIsAClearError) {
  const std::string text = "this is not an ELF file\n";
  const std::string path = TempFile("text", text.data(), text.size());
  aclrtBinHandle b = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclrtBinaryLoadFromFile(path.c_str(), nullptr, &b));
  EXPECT_NE(TakeErrorMessage().find("not an ELF"), std::string::npos);
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclrtBinaryLoadFromData(text.data(), text.size(), nullptr, &b));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtBinaryLoadFromData(text.data(), 0, nullptr, &b));
  unlink(path.c_str());
}

TEST_F(KernelBinaryTest, DeviceElfObjectIsAClearError) {
  // An ELF relocatable object for another machine: what the Ascend C compiler produces for a real NPU.
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_REL;
  eh.e_machine = 0x1029;
  eh.e_version = EV_CURRENT;
  aclrtBinHandle b = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclrtBinaryLoadFromData(&eh, sizeof eh, nullptr, &b));
  EXPECT_NE(TakeErrorMessage().find("ascendc.cmake"), std::string::npos);
}

TEST_F(KernelBinaryTest, SharedObjectWithoutKernelTableIsAClearError) {
  Dl_info info;
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&aclInit), &info), 0);
  aclrtBinHandle b = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclrtBinaryLoadFromFile(info.dli_fname, nullptr, &b));
  EXPECT_NE(TakeErrorMessage().find("npurt_kernel_table"), std::string::npos);
}

TEST_F(KernelBinaryTest, LoadOptions) {
  aclrtBinaryLoadOption opts[2];
  opts[0].type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  opts[0].value.isLazyLoad = 1;
  opts[1].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  opts[1].value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  aclrtBinaryLoadOptions options{opts, 2};
  aclrtBinHandle b = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(KernelBinaryPath(), &options, &b));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(b));
  opts[1].value.magic = 0x1234;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtBinaryLoadFromFile(KernelBinaryPath(), &options, &b));
  opts[0].type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  options.numOpt = 1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtBinaryLoadFromFile(KernelBinaryPath(), &options, &b));
  options.options = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtBinaryLoadFromFile(KernelBinaryPath(), &options, &b));
}

TEST_F(KernelBinaryTest, WrongHandlesAreRejected) {
  Stream s;
  aclrtFuncHandle f = nullptr;
  EXPECT_BAD_HANDLE(aclrtBinaryGetFunction(s.get(), "cts_empty", &f));
  size_t count = 0;
  EXPECT_BAD_HANDLE(aclrtFunctionGetParamCount(bin_, &count));
  EXPECT_BAD_HANDLE(aclrtLaunchKernel(bin_, 1, nullptr, 0, s));
  int not_a_handle = 0;
  EXPECT_BAD_HANDLE(aclrtBinaryUnLoad(&not_a_handle));
}

// A driver without a kernel loader (the null template) refuses every load with FEATURE_NOT_SUPPORT and says
// why, before it reads the file or the image.
CTS_CHILD(kernel_binary_null_driver) {
  const aclError init = aclInit(nullptr);
  ChildReport("init", init);
  if (init != ACL_SUCCESS) return 1;
  aclrtBinHandle bin = nullptr;
  ChildReport("file", aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &bin));
  const char* message = aclGetRecentErrMsg();
  ChildReportText("file_message", message != nullptr ? message : "");
  const std::vector<uint8_t> image = ReadFile(KernelBinaryPath());
  ChildReport("data", aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &bin));
  ChildReport("bin_untouched", bin == nullptr);
  ChildReport("finalize", aclFinalize());
  return 0;
}

TEST(KernelBinaryDriverTest, ADriverWithoutAKernelLoaderRefusesToLoad) {
  ChildResult r = RunChild("kernel_binary_null_driver", {{"NPURT_DRIVER", "null"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("init"));
  EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, r.Int("file"));
  EXPECT_NE(r.Text("file_message").find("'null' driver cannot load kernel binaries"), std::string::npos)
      << r.Text("file_message");
  EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, r.Int("data"));
  EXPECT_EQ(1, r.Int("bin_untouched"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("finalize"));
}

}  // namespace
}  // namespace cts
