// CANN 9's kernel debugging output (kernels/kernel_cts_debug.cpp): with utils/debug/asc_printf.h every line
// a block prints starts with "[AIV Block i/n] " (a zero-argument printf too, a line of two calls once), and
// DumpTensor / asc_dump_gm print CANN's header line and the values. Run in child processes, whose stdout
// the test reads.
#include <cmath>
#include <random>

#include "kernel_test_util.h"

namespace cts {
namespace {

CTS_CHILD(asc_printf) {
  uint32_t value = 7;
  void* array[] = {&value};
  return RunKernelInChild("cts_asc_print", 3, array);
}

size_t CountLines(const std::string& output, const std::string& line) {
  const std::string out = "\n" + output;
  size_t n = 0;
  for (size_t at = out.find("\n" + line + "\n"); at != std::string::npos; at = out.find("\n" + line + "\n", at + 1)) {
    ++n;
  }
  return n;
}

TEST(KernelDebugPrintTest, AscPrintfPrefixesEveryLineWithItsBlock) {
  ChildResult r = RunChild("asc_printf", {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int b = 0; b < 3; ++b) {
    const std::string prefix = "[AIV Block " + std::to_string(b) + "/3] ";
    EXPECT_EQ(1u, CountLines(r.output, prefix + "hello 7 from " + std::to_string(b))) << r.output;
    EXPECT_EQ(1u, CountLines(r.output, prefix + "no arguments")) << r.output;
    EXPECT_EQ(1u, CountLines(r.output, prefix + "split line 8")) << r.output;
  }
}

// The test's data, the same in parent and child: n halves (small integers and halves, exact in %f) and n
// int32.
constexpr uint32_t kDumpN = 21;  // a multiple of 3 (kernel_cts_debug.cpp)
std::vector<_Float16> DumpHalves() {
  std::vector<_Float16> v(kDumpN);
  for (uint32_t i = 0; i < kDumpN; ++i) v[i] = static_cast<_Float16>(static_cast<float>(i * 37 % 19) * 0.5f - 4.0f);
  return v;
}
std::vector<int32_t> DumpInts() {
  std::vector<int32_t> v(kDumpN);
  for (uint32_t i = 0; i < kDumpN; ++i) v[i] = static_cast<int32_t>(i * 7919 % 2001) - 1000;
  return v;
}

CTS_CHILD(dump_tensor) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle f = nullptr;
  if (aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &bin) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(bin, "cts_dump", &f) != ACL_SUCCESS) {
    return 3;
  }
  const std::vector<_Float16> h = DumpHalves();
  const std::vector<int32_t> i = DumpInts();
  void *x = nullptr, *y = nullptr;
  if (aclrtMalloc(&x, 64 * 2, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&y, kDumpN * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(x, 64 * 2, h.data(), kDumpN * 2, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
      aclrtMemcpy(y, kDumpN * 4, i.data(), kDumpN * 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    return 4;
  }
  ChildReport("x", static_cast<long long>(reinterpret_cast<uintptr_t>(x)));
  ChildReport("y", static_cast<long long>(reinterpret_cast<uintptr_t>(y)));
  uint32_t n = kDumpN;
  void* array[] = {&x, &y, &n};
  if (aclrtLaunchKernelWithArgsArray(f, 1, nullptr, nullptr, array) != ACL_SUCCESS) return 5;
  if (aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) return 6;
  std::fflush(stdout);
  return 0;
}

TEST(KernelDebugPrintTest, DumpTensorPrintsHeaderAndValues) {
  ChildResult r = RunChild("dump_tensor", {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::string halves = "[", ints = "[";
  char text[64];
  const std::vector<_Float16> h = DumpHalves();
  const std::vector<int32_t> v = DumpInts();
  for (uint32_t i = 0; i < kDumpN; ++i) {
    std::snprintf(text, sizeof text, "%f%s", static_cast<double>(static_cast<float>(h[i])), i + 1 < kDumpN ? ", " : "");
    halves += text;
    std::snprintf(text, sizeof text, "%d%s", v[i], i + 1 < kDumpN ? ", " : "");
    ints += text;
  }
  halves += "]";
  ints += "]";
  const std::string n = std::to_string(kDumpN);
  EXPECT_EQ(1u, CountLines(r.output, "DumpTensor: desc=5, addr=40, data_type=float16, position=UB, dump_size=" + n + "\n" +
                                         halves))
      << r.output;
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(r.Int("x")));
  EXPECT_EQ(1u, CountLines(r.output, std::string("DumpTensor: desc=6, addr=") + text +
                                         ", data_type=float16, position=GM, dump_size=" + n + "\n" + halves))
      << r.output;
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(r.Int("y")));
  EXPECT_EQ(1u, CountLines(r.output, std::string("DumpTensor: desc=7, addr=") + text +
                                         ", data_type=int32, position=GM, dump_size=" + n + "\n" + ints))
      << r.output;
  // With a ShapeInfo: nested by the shape; a shape covering fewer elements than dumped, then the rest flat.
  auto join = [&](uint32_t from, uint32_t to) {
    std::string s;
    for (uint32_t i = from; i < to; ++i) s += std::to_string(v[i]) + (i + 1 < to ? ", " : "");
    return s;
  };
  const std::string header = std::string(", addr=") + text + ", data_type=int32, position=GM, dump_size=" + n + "\n";
  EXPECT_EQ(1u, CountLines(r.output, "DumpTensor: desc=8" + header + "[[" + join(0, kDumpN / 3) + "], [" +
                                         join(kDumpN / 3, 2 * kDumpN / 3) + "], [" + join(2 * kDumpN / 3, kDumpN) +
                                         "]]"))
      << r.output;
  EXPECT_EQ(1u, CountLines(r.output, "DumpTensor: desc=9" + header + "[[[" + join(0, kDumpN - 2) + "]], " +
                                         join(kDumpN - 2, kDumpN) + "]"))
      << r.output;
}

}  // namespace
}  // namespace cts
