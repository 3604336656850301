// Kernel launches: every launch path reaches the same kernel with the same arguments; blocks are indexed
// correctly; launch settings are honoured or refused; a stream runs its kernels one at a time and in
// order while different streams run theirs concurrently; the mixed style (<<<>>>, aclrtlaunch_<k>).
#include <thread>

#include "aclrtlaunch_cts_chevron_fill.h"
#include "aclrtlaunch_cts_chevron_tiled.h"
#include "kernel_cts_chevron.h"
#include "kernel_test_util.h"

namespace cts {
namespace {

class KernelLaunchTest : public KernelTest {
 protected:
  // The block-id table of a `blocks`-block launch of cts_block_ids, read back.
  std::vector<uint32_t> BlockIds(DevBuf& out, uint32_t blocks) { return FromDevice<uint32_t>(out, 3 * blocks); }
  void ExpectBlockIds(const std::vector<uint32_t>& ids, uint32_t blocks, uint32_t offset) {
    for (uint32_t i = 0; i < blocks; ++i) {
      EXPECT_EQ(ids[3 * i], i + offset) << "block " << i;
      EXPECT_EQ(ids[3 * i + 1], blocks) << "block " << i;
      EXPECT_EQ(ids[3 * i + 2], i + offset) << "block " << i;
    }
  }
};

TEST_F(KernelLaunchTest, EveryBlockSeesItsIndexAndTheBlockCount) {
  Stream s;
  for (uint32_t blocks : {1u, 2u, 7u, 48u, 1000u}) {
    DevBuf out(3 * blocks * sizeof(uint32_t));
    ASSERT_ACL_OK(aclrtMemset(out.get(), out.size(), 0xff, out.size()));
    std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), blocks, s, nullptr, args.data(), args.size(),
                                                nullptr, 0));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    ExpectBlockIds(BlockIds(out, blocks), blocks, 0);
  }
}

TEST_F(KernelLaunchTest, BlockOffsetAttribute) {
  Stream s;
  const uint32_t blocks = 5, offset = 100;
  DevBuf out(3 * blocks * sizeof(uint32_t));
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(offset).Bytes();
  aclrtLaunchKernelAttr attr;
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET;
  attr.value.blockDimOffset = offset;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), blocks, s, &cfg, args.data(), args.size(),
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ExpectBlockIds(BlockIds(out, blocks), blocks, offset);
}

TEST_F(KernelLaunchTest, MixedScalarWidthsAndPointersArePacked) {
  Stream s;
  DevBuf out(64);
  DevBuf target(sizeof(int32_t));
  const uint8_t a = 0xa5;
  const int16_t b = -12345;
  const uint32_t c = 0xdeadbeef;
  const uint64_t d = 0x0123456789abcdefull;
  const float e = 3.25f;
  int32_t* ptr = static_cast<int32_t*>(target.get());
  const double f = -1.0e-300;
  const int8_t g = -7;
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(a).Add(b).Add(c).Add(d).Add(e).Add(ptr).Add(f).Add(g).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_mixed_args"), 1, s, nullptr, args.data(), args.size(), nullptr,
                                              0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<uint8_t> expect;
  auto put = [&](const void* p, size_t n) {
    expect.insert(expect.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  };
  put(&a, 1);
  put(&b, 2);
  put(&c, 4);
  put(&d, 8);
  put(&e, 4);
  put(&ptr, 8);
  put(&f, 8);
  put(&g, 1);
  EXPECT_EQ(FromDevice<uint8_t>(out, expect.size()), expect);
  EXPECT_EQ(FromDevice<int32_t>(target, 1)[0], 0x5eed);
}

TEST_F(KernelLaunchTest, AllLaunchPathsComputeTheSameVectorAdd) {
  Stream s;
  const uint32_t n = 10007;  // not a multiple of the block count
  std::vector<float> x(n), y(n);
  std::vector<uint8_t> rx = RandomBytes(n, 11), ry = RandomBytes(n, 12);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(rx[i]) * 0.25f - 3.0f;
    y[i] = static_cast<float>(ry[i]) * 1.5f + 0.125f;
  }
  DevBuf dx(n * 4), dy(n * 4), dz(n * 4);
  ToDevice(dx, x);
  ToDevice(dy, y);
  aclrtFuncHandle f = Func("cts_vec_add");
  void* px = dx.get();
  void* py = dy.get();
  void* pz = dz.get();
  std::vector<uint8_t> block = ArgBlock().Add(px).Add(py).Add(pz).Add(n).Bytes();
  auto check = [&](const char* path) {
    ASSERT_ACL_OK(aclrtSynchronizeStream(s)) << path;
    std::vector<float> z = FromDevice<float>(dz, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << path << " element " << i;
    ASSERT_ACL_OK(aclrtMemset(dz.get(), dz.size(), 0, dz.size()));
  };

  // 1. aclrtLaunchKernel: the argument block in device memory.
  DevBuf dargs(block.size());
  ToDevice(dargs, block);
  ASSERT_ACL_OK(aclrtLaunchKernel(f, 13, dargs.get(), block.size(), s));
  check("aclrtLaunchKernel");
  // 2. aclrtLaunchKernelV2 with a configuration.
  aclrtLaunchKernelAttr attr[2];
  attr[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  attr[0].value.engineType = ACL_RT_ENGINE_TYPE_AIV;
  attr[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
  attr[1].value.schemMode = 1;
  aclrtLaunchKernelCfg cfg{attr, 2};
  ASSERT_ACL_OK(aclrtLaunchKernelV2(f, 3, dargs.get(), block.size(), &cfg, s));
  check("aclrtLaunchKernelV2");
  // 3. The argument builder.
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle ph = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &px, sizeof px, &ph));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &py, sizeof py, &ph));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &pz, sizeof pz, &ph));
  uint32_t nn = n;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &nn, sizeof nn, &ph));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(f, 8, s, nullptr, args, nullptr));
  check("aclrtLaunchKernelWithConfig");
  // 4. Host arguments.
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 64, s, nullptr, block.data(), block.size(), nullptr, 0));
  check("aclrtLaunchKernelWithHostArgs");
  // 5. An array of pointers to the arguments, by handle and by the kernel's code address.
  void* array[] = {&px, &py, &pz, &nn};
  ASSERT_ACL_OK(aclrtLaunchKernelWithArgsArray(f, 2, s, nullptr, array));
  check("aclrtLaunchKernelWithArgsArray(handle)");
  void* aic = nullptr;
  void* aiv = nullptr;
  ASSERT_ACL_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
  ASSERT_ACL_OK(aclrtLaunchKernelWithArgsArray(aic, 1, s, nullptr, array));
  check("aclrtLaunchKernelWithArgsArray(symbol)");
  // 6. The default stream (NULL).
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 4, nullptr, nullptr, block.data(), block.size(), nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  check("default stream");
}

TEST_F(KernelLaunchTest, HostArgumentsAreCopiedAtLaunch) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "needs work to stay queued";
  Stream s;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  DevBuf out(3 * 4 * sizeof(uint32_t));
  std::vector<uint8_t> block = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), 4, s, nullptr, block.data(), block.size(), nullptr,
                                              0));
  std::fill(block.begin(), block.end(), 0);  // the caller reuses its buffer before the kernel ran
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ExpectBlockIds(BlockIds(out, 4), 4, 0);
}

TEST_F(KernelLaunchTest, ArgumentSizeMismatchIsAClearError) {
  Stream s;
  aclrtFuncHandle f = Func("cts_vec_add");
  std::vector<uint8_t> too_small(20);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, too_small.data(), too_small.size(), nullptr, 0));
  const std::string msg = TakeErrorMessage();
  EXPECT_NE(msg.find("cts_vec_add("), std::string::npos) << msg;
  EXPECT_NE(msg.find("32 bytes"), std::string::npos) << msg;
  DevBuf dargs(32);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernel(f, 1, dargs.get(), 24, s));
  // aclrtLaunchKernel reads its block from device memory: a host block is refused.
  std::vector<uint8_t> host(32);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernel(f, 1, host.data(), host.size(), s));
}

TEST_F(KernelLaunchTest, BadLaunchSettingsAreRefused) {
  Stream s;
  aclrtFuncHandle f = Func("cts_empty");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 0, s, nullptr, nullptr, 0, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 65536, s, nullptr, nullptr, 0, nullptr, 0));
  aclrtLaunchKernelAttr attr;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  attr.id = static_cast<aclrtLaunchKernelAttrId>(77);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 1, s, &cfg, nullptr, 0, nullptr, 0));
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP;
  attr.value.isDataDump = 1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtLaunchKernelWithHostArgs(f, 1, s, &cfg, nullptr, 0, nullptr, 0));
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
  attr.value.dynUBufSize = 1u << 30;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 1, s, &cfg, nullptr, 0, nullptr, 0));
  aclrtLaunchKernelCfg broken{nullptr, 2};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 1, s, &broken, nullptr, 0, nullptr, 0));
  // Nothing was queued by the refused launches.
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

TEST_F(KernelLaunchTest, KernelsOfOneStreamRunInOrder) {
  Stream s;
  DevBuf word(sizeof(uint32_t)), seen(sizeof(uint32_t));
  ASSERT_ACL_OK(aclrtMemset(word.get(), 4, 0, 4));
  for (uint32_t round = 1; round <= 5; ++round) {
    std::vector<uint8_t> store = ArgBlock().Add(word.get()).Add(round).Add(uint64_t{200000}).Bytes();
    std::vector<uint8_t> load = ArgBlock().Add(word.get()).Add(seen.get()).Bytes();
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_store_after"), 1, s, nullptr, store.data(), store.size(),
                                                nullptr, 0));
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_load"), 1, s, nullptr, load.data(), load.size(), nullptr, 0));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    EXPECT_EQ(FromDevice<uint32_t>(seen, 1)[0], round) << "the second kernel started before the first finished";
  }
}

TEST_F(KernelLaunchTest, KernelsOfDifferentStreamsRunConcurrently) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "a synchronous backend runs each launch to completion at submission";
  int64_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  if (cores < 2) GTEST_SKIP() << "needs two AI cores, the device has " << cores;
  Stream a, b;
  DevBuf flags(2 * sizeof(uint32_t)), result(2 * sizeof(uint32_t));
  ASSERT_ACL_OK(aclrtMemset(flags.get(), 8, 0, 8));
  ASSERT_ACL_OK(aclrtMemset(result.get(), 8, 0, 8));
  const uint64_t max_ns = 10ull * 1000 * 1000 * 1000;
  std::vector<uint8_t> args0 = ArgBlock().Add(flags.get()).Add(result.get()).Add(uint32_t{0}).Add(max_ns).Bytes();
  std::vector<uint8_t> args1 = ArgBlock().Add(flags.get()).Add(result.get()).Add(uint32_t{1}).Add(max_ns).Bytes();
  aclrtFuncHandle f = Func("cts_rendezvous");
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 1, a, nullptr, args0.data(), args0.size(), nullptr, 0));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 1, b, nullptr, args1.data(), args1.size(), nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(a));
  ASSERT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ(FromDevice<uint32_t>(result, 2), (std::vector<uint32_t>{1, 1})) << "each kernel saw the other one running";
}

TEST_F(KernelLaunchTest, ConcurrentLaunchesFromManyThreads) {
  constexpr int kThreads = 4;
  constexpr int kLaunches = 50;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetDevice(0) != ACL_SUCCESS) {
        failures++;
        return;
      }
      aclrtStream s = nullptr;
      if (aclrtCreateStream(&s) != ACL_SUCCESS) {
        failures++;
        return;
      }
      void* out = nullptr;
      aclrtMalloc(&out, 3 * 8 * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
      for (int i = 0; i < kLaunches; ++i) {
        std::vector<uint8_t> block = ArgBlock().Add(out).Add(uint32_t{0}).Bytes();
        if (aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), 8, s, nullptr, block.data(), block.size(), nullptr,
                                          0) != ACL_SUCCESS) {
          failures++;
        }
      }
      if (aclrtSynchronizeStream(s) != ACL_SUCCESS) failures++;
      std::vector<uint32_t> ids(24);
      aclrtMemcpy(ids.data(), 96, out, 96, ACL_MEMCPY_DEVICE_TO_HOST);
      if (ids[3 * 7 + 1] != 8u) failures++;
      aclrtFree(out);
      aclrtDestroyStream(s);
      (void)t;
      aclrtResetDevice(0);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(KernelLaunchTest, ChevronSyntaxAndGeneratedLaunchHeader) {
  Stream s;
  const uint32_t blocks = 6;
  DevBuf out(blocks * sizeof(uint32_t));
  ASSERT_EQ(CtsChevronFill(blocks, s.get(), static_cast<uint32_t*>(out.get()), 1000), ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<uint32_t> got = FromDevice<uint32_t>(out, blocks);
  for (uint32_t i = 0; i < blocks; ++i) EXPECT_EQ(got[i], 1000 + i * 10 + 1);

  // The same kernel through ACLRT_LAUNCH_KERNEL (aclrtlaunch_cts_chevron_fill.h).
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(cts_chevron_fill)(blocks, s.get(), out.get(), 5), ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  got = FromDevice<uint32_t>(out, blocks);
  for (uint32_t i = 0; i < blocks; ++i) EXPECT_EQ(got[i], 5 + i * 10 + 1);

  const uint32_t n = 1000;
  std::vector<float> data(n);
  for (uint32_t i = 0; i < n; ++i) data[i] = static_cast<float>(i) - 500.5f;
  DevBuf dd(n * 4);
  ToDevice(dd, data);
  ASSERT_EQ(CtsChevronScale(4, s.get(), static_cast<float*>(dd.get()), -2.0f, n), ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<float> scaled = FromDevice<float>(dd, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(scaled[i], data[i] * -2.0f);
}

// A struct parameter: by value through <<<>>> (the kernel's own signature), by pointer through
// aclrtlaunch_<k> (CANN's generated launcher), whose struct is copied at the launch.
TEST_F(KernelLaunchTest, StructParameterByValueAndThroughTheLauncherByPointer) {
  Stream s;
  const uint32_t blocks = 5;
  DevBuf out(blocks * sizeof(uint32_t));
  ASSERT_EQ(CtsChevronTiled(blocks, s.get(), static_cast<uint32_t*>(out.get()), CtsChevronTiling{100, 3}),
            ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<uint32_t> got = FromDevice<uint32_t>(out, blocks);
  for (uint32_t i = 0; i < blocks; ++i) EXPECT_EQ(got[i], 100 + i * 3);

  CtsChevronTiling tiling{7, 11};
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(cts_chevron_tiled)(blocks, s.get(), out.get(), &tiling), ACL_SUCCESS);
  tiling.base = 0;  // the launch has its own copy
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  got = FromDevice<uint32_t>(out, blocks);
  for (uint32_t i = 0; i < blocks; ++i) EXPECT_EQ(got[i], 7 + i * 11);

  EXPECT_EQ(aclrtlaunch_cts_chevron_tiled(blocks, s.get(), out.get(), nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelLaunchTest, ChevronLaunchErrorsAreReturned) {
  DevBuf out(4);
  // numBlocks 0 is refused by the runtime; the <<<>>> call returns the error code.
  EXPECT_EQ(CtsChevronFill(0, nullptr, static_cast<uint32_t*>(out.get()), 0), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelLaunchTest, EmptyKernelRoundTrips) {
  Stream s;
  aclrtFuncHandle f = Func("cts_empty");
  for (int i = 0; i < 200; ++i) ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, nullptr, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  DevBuf none(16);
  ASSERT_ACL_OK(aclrtLaunchKernel(f, 3, nullptr, 0, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

}  // namespace
}  // namespace cts
