// Kernel modules and launches (hal/kernel_module.h, kKernel): a driver's loader describes the kernels of a
// binary as its table declares them, finds its globals, refuses images that are not kernel binaries with
// the documented codes, and loads the same bytes twice as two independent modules; a kKernel task runs
// every block of a launch on its arguments, and a block that fails fails the task with its code. The
// binary is tests/hal_cts/kernels/cts_kernels.c (NPURT_CTS_KERNELS: its path). A driver without a kernel
// loader skips these tests (core then refuses aclrtBinaryLoad* with ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "cts.h"
#include "hal/kernel_module.h"

namespace hal_cts {
namespace {

std::vector<uint8_t> ReadFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Where the bytes the loader maps end: past the last loadable segment's file part (section headers and
// other unmapped tails may follow).
size_t LoadedEnd(const std::vector<uint8_t>& image) {
  ElfW(Ehdr) eh;
  if (image.size() < sizeof eh) return 0;
  std::memcpy(&eh, image.data(), sizeof eh);
  size_t end = 0;
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    ElfW(Phdr) ph;
    if (eh.e_phoff + (i + 1) * sizeof ph > image.size()) break;
    std::memcpy(&ph, image.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD) end = std::max<size_t>(end, ph.p_offset + ph.p_filesz);
  }
  return end;
}

const hal::KernelInfo* Find(const hal::KernelModule& m, const char* name) {
  for (const hal::KernelInfo& k : m.kernels()) {
    if (std::strcmp(k.desc->name, name) == 0) return &k;
  }
  return nullptr;
}

struct AxpyArgs {  // the argument block of cts_kernels.c's axpy
  float* x;
  float* y;
  float alpha;
  uint32_t n;
};

class KernelModuleSuite : public DriverTest {
 protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure()) return;
    loader_ = driver_->kernel_loader();
    if (loader_ == nullptr) GTEST_SKIP() << "driver '" << backend().driver << "' has no kernel loader";
  }
  const hal::KernelLoader* loader_ = nullptr;
};

TEST_P(KernelModuleSuite, AModuleDescribesItsKernelsAndGlobalsAsItsTableDeclares) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto module = loader_->LoadFile(NPURT_CTS_KERNELS, "cts");
  ASSERT_TRUE(module.ok()) << module.status().message();
  const hal::KernelModule& m = *module.value();
  ASSERT_EQ(m.kernels().size(), 2u);
  EXPECT_STREQ(m.kernels()[0].desc->name, "axpy");
  EXPECT_STREQ(m.kernels()[1].desc->name, "fail_on");
  EXPECT_STREQ(m.library(), "hal_cts_kernels");
  const hal::KernelInfo* axpy = Find(m, "axpy");
  ASSERT_NE(axpy, nullptr);
  EXPECT_NE(axpy->code, nullptr);
  EXPECT_NE(axpy->code, Find(m, "fail_on")->code);
  ASSERT_EQ(axpy->desc->param_count, 4u);
  EXPECT_EQ(axpy->desc->args_size, sizeof(AxpyArgs));
  EXPECT_EQ(axpy->desc->params[2].offset, offsetof(AxpyArgs, alpha));
  EXPECT_STREQ(axpy->desc->params[3].name, "n");
  EXPECT_NE(m.image(), nullptr);
  EXPECT_EQ(m.image_size(), ReadFile(NPURT_CTS_KERNELS).size());

  void* address = nullptr;
  size_t size = 0;
  ASSERT_TRUE(m.Global("cts_kernel_global", "cts", &address, &size).ok());
  EXPECT_NE(address, nullptr);
  EXPECT_EQ(size, 4 * sizeof(uint32_t));
  const auto missing = m.Global("no_such_global", "cts", &address, &size);
  EXPECT_EQ(missing.code(), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(missing.message().find("no_such_global"), std::string::npos) << missing.message();
}

TEST_P(KernelModuleSuite, TheSameBytesLoadTwiceAsTwoModules) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const std::vector<uint8_t> bytes = ReadFile(NPURT_CTS_KERNELS);
  ASSERT_FALSE(bytes.empty());
  auto a = loader_->LoadData(bytes.data(), bytes.size(), "a");
  auto b = loader_->LoadData(bytes.data(), bytes.size(), "b");
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(a.value()->image_size(), bytes.size());
  // Two copies of the code and of its globals: a write to one module's global leaves the other's alone.
  void* ga = nullptr;
  void* gb = nullptr;
  ASSERT_TRUE(a.value()->Global("cts_kernel_global", "a", &ga, nullptr).ok());
  ASSERT_TRUE(b.value()->Global("cts_kernel_global", "b", &gb, nullptr).ok());
  EXPECT_NE(ga, gb);
  EXPECT_NE(a.value()->kernels()[0].code, b.value()->kernels()[0].code);
  a.value().reset();  // unloading one keeps the other loaded
  ASSERT_TRUE(b.value()->Global("cts_kernel_global", "b", &gb, nullptr).ok());
}

TEST_P(KernelModuleSuite, WhatIsNotAKernelBinaryIsRefusedWithItsCode) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  std::mt19937 rng(5);
  std::vector<uint8_t> noise(4096);
  for (uint8_t& byte : noise) byte = static_cast<uint8_t>(rng());
  auto random = loader_->LoadData(noise.data(), noise.size(), "noise");
  ASSERT_FALSE(random.ok());
  EXPECT_EQ(random.status().code(), ACL_ERROR_PARSE_FILE);
  EXPECT_NE(random.status().message().find("noise"), std::string::npos) << random.status().message();

  // Truncated images: cut inside the header, the program headers, and the segments the loader maps.
  const std::vector<uint8_t> bytes = ReadFile(NPURT_CTS_KERNELS);
  const size_t mapped = LoadedEnd(bytes);
  ASSERT_GT(mapped, 1000u);
  for (size_t keep : {size_t{0}, size_t{16}, size_t{100}, mapped / 3, mapped - 1}) {
    auto cut = loader_->LoadData(bytes.data(), keep, "cut");
    ASSERT_FALSE(cut.ok()) << "a " << keep << "-byte prefix of " << bytes.size() << " bytes loaded";
    EXPECT_EQ(cut.status().code(), ACL_ERROR_PARSE_FILE) << keep << ": " << cut.status().message();
  }
  auto absent = loader_->LoadFile("/nonexistent/npurt/cts_kernels.so", "absent");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), ACL_ERROR_INVALID_FILE);
}

INSTANTIATE_TEST_SUITE_P(Cts, KernelModuleSuite, testing::ValuesIn(Backends()), BackendName);

class KernelLaunchSuite : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    const hal::KernelLoader* loader = driver_->kernel_loader();
    if (loader == nullptr) GTEST_SKIP() << "driver '" << backend().driver << "' has no kernel loader";
    auto module = loader->LoadFile(NPURT_CTS_KERNELS, "cts");
    ASSERT_TRUE(module.ok()) << module.status().message();
    module_ = std::move(module.value());
  }
  void TearDown() override {
    DeviceTest::TearDown();  // drains the queue before the module's code goes
    module_.reset();
  }
  static hal::Task KernelTask(hal::KernelLaunch* launch) {
    hal::Task t;
    t.kind = hal::TaskKind::kKernel;
    t.kernel = launch;
    return t;
  }
  std::unique_ptr<hal::KernelModule> module_;
};

TEST_P(KernelLaunchSuite, EveryBlockRunsOnTheLaunchsArguments) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  constexpr uint32_t kN = 10007;  // not a multiple of the block count: the last block is short
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> x(kN), y(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  auto* dx = reinterpret_cast<float*>(device_->memory_base());
  auto* dy = reinterpret_cast<float*>(device_->memory_base() + (1 << 20));
  ASSERT_TRUE(device_->CopyNow(dx, x.data(), kN * sizeof(float)).ok());
  ASSERT_TRUE(device_->CopyNow(dy, y.data(), kN * sizeof(float)).ok());
  const float alpha = 1.5f;
  for (uint32_t blocks : {1u, 7u, 48u}) {
    AxpyArgs args{dx, dy, alpha, kN};
    hal::KernelLaunch launch;
    launch.code = Find(*module_, "axpy")->code;
    launch.args = &args;
    launch.args_size = sizeof args;
    launch.num_blocks = blocks;
    launch.name = "axpy";
    ASSERT_TRUE(RunAndWait(KernelTask(&launch))) << blocks << " blocks";
    EXPECT_EQ(queue_->error(), 0) << launch.failure;
    for (uint32_t i = 0; i < kN; ++i) y[i] += alpha * x[i];
    std::vector<float> got(kN);
    ASSERT_TRUE(device_->CopyNow(got.data(), dy, kN * sizeof(float)).ok());
    // Each element is written by exactly one block: a block that ran twice or not at all is off by
    // alpha * x; the tolerance only allows for a fused multiply-add in the kernel.
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < kN; ++i) wrong += std::fabs(got[i] - y[i]) > 1e-5f * (1.0f + std::fabs(y[i]));
    EXPECT_EQ(wrong, 0u) << blocks << " blocks";
  }
}

TEST_P(KernelLaunchSuite, AFailingBlockFailsTheTaskWithItsCode) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  uint32_t which = 3;
  hal::KernelLaunch launch;
  launch.code = Find(*module_, "fail_on")->code;
  launch.args = &which;
  launch.args_size = sizeof which;
  launch.num_blocks = 8;
  launch.name = "fail_on";
  ASSERT_TRUE(RunAndWait(KernelTask(&launch)));
  EXPECT_EQ(queue_->error(), 507015);
  EXPECT_NE(launch.failure.find("on purpose"), std::string::npos) << launch.failure;
  queue_->ClearError();

  which = 100;  // no block has that index: the launch succeeds
  hal::KernelLaunch fine = launch;
  fine.failure.clear();
  ASSERT_TRUE(RunAndWait(KernelTask(&fine)));
  EXPECT_EQ(queue_->error(), 0) << fine.failure;
}

INSTANTIATE_TEST_SUITE_P(Cts, KernelLaunchSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
