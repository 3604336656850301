// The argument builder (aclrtKernelArgs*): placeholders, updates, user memory, handle lifetime and the
// errors a wrong argument list gets.
#include "kernel_test_util.h"

namespace cts {
namespace {

class KernelArgsTest : public KernelTest {
 protected:
  // The tiled half add of the CANN kernel sample with its tiling in placeholders (0_launch_kernel style).
  void RunTiledAdd(bool user_memory) {
    Stream s;
    constexpr uint32_t kBlocks = 8, kTotal = 8 * 2048, kTiles = 8;
    std::vector<aclFloat16> x(kTotal), y(kTotal);
    std::vector<uint8_t> r = RandomBytes(2 * kTotal, 3);
    for (uint32_t i = 0; i < kTotal; ++i) {
      x[i] = aclFloatToFloat16(static_cast<float>(r[i]) / 16.0f - 4.0f);
      y[i] = aclFloatToFloat16(static_cast<float>(r[kTotal + i]) / 32.0f);
    }
    DevBuf dx(kTotal * 2), dy(kTotal * 2), dz(kTotal * 2);
    ToDevice(dx, x);
    ToDevice(dy, y);
    aclrtFuncHandle f = Func("cts_tiled_add");
    aclrtArgsHandle args = nullptr;
    std::vector<uint8_t> handle_mem, arg_mem;
    if (user_memory) {
      size_t handle_size = 0, mem_size = 0;
      ASSERT_ACL_OK(aclrtKernelArgsGetHandleMemSize(f, &handle_size));
      ASSERT_ACL_OK(aclrtKernelArgsGetMemSize(f, 5 * 8 + 2 * 8, &mem_size));
      handle_mem.resize(handle_size);
      arg_mem.resize(mem_size);
      args = handle_mem.data();
      ASSERT_ACL_OK(aclrtKernelArgsInitByUserMem(f, args, arg_mem.data(), arg_mem.size()));
    } else {
      ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
    }
    void* px = dx.get();
    void* py = dy.get();
    void* pz = dz.get();
    aclrtParamHandle p[5];
    ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &px, sizeof px, &p[0]));
    ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &py, sizeof py, &p[1]));
    ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &pz, sizeof pz, &p[2]));
    ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &p[3]));
    ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &p[4]));
    int32_t* total = nullptr;
    int32_t* tiles = nullptr;
    ASSERT_ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, p[3], sizeof(int32_t), reinterpret_cast<void**>(&total)));
    ASSERT_ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, p[4], sizeof(int32_t), reinterpret_cast<void**>(&tiles)));
    *total = kTotal;
    *tiles = kTiles;
    ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
    ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(f, kBlocks, s, nullptr, args, nullptr));
    // The placeholder data was copied at launch: changing it now does not affect the launch.
    *tiles = 0;
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    std::vector<aclFloat16> z = FromDevice<aclFloat16>(dz, kTotal);
    for (uint32_t i = 0; i < kTotal; ++i) {
      // The vector unit rounds each half sum once (to nearest even).
      const float want = static_cast<float>(static_cast<_Float16>(aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i])));
      ASSERT_EQ(aclFloat16ToFloat(z[i]), want) << "element " << i;
    }
  }
};

TEST_F(KernelArgsTest, PlaceholdersCarryHostDataToTheKernel) { RunTiledAdd(false); }

TEST_F(KernelArgsTest, ArgumentListInUserMemory) { RunTiledAdd(true); }

TEST_F(KernelArgsTest, ParaUpdateNeedsFinalizeAgain) {
  Stream s;
  aclrtFuncHandle f = Func("cts_block_ids");
  DevBuf out1(3 * 4 * sizeof(uint32_t)), out2(3 * 4 * sizeof(uint32_t));
  aclrtArgsHandle args = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
  void* p = out1.get();
  uint32_t offset = 0;
  aclrtParamHandle hp = nullptr, ho = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &p, sizeof p, &hp));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &offset, sizeof offset, &ho));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(f, 4, s, nullptr, args, nullptr));
  p = out2.get();
  ASSERT_ACL_OK(aclrtKernelArgsParaUpdate(args, hp, &p, sizeof p));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithConfig(f, 4, s, nullptr, args, nullptr));
  EXPECT_NE(TakeErrorMessage().find("aclrtKernelArgsFinalize"), std::string::npos);
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(f, 4, s, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(FromDevice<uint32_t>(out1, 12)[3 * 3], 3u);
  EXPECT_EQ(FromDevice<uint32_t>(out2, 12)[3 * 3], 3u);
  // An update of the wrong size is refused.
  uint16_t small = 1;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsParaUpdate(args, ho, &small, sizeof small));
}

TEST_F(KernelArgsTest, WholeArgumentBlockAsOneAppend) {
  Stream s;
  aclrtFuncHandle f = Func("cts_block_ids");
  DevBuf out(3 * 2 * sizeof(uint32_t));
  struct {
    void* out;
    uint32_t offset;
  } block = {out.get(), 0};
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle h = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &block, sizeof(void*) + sizeof(uint32_t), &h));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(f, 2, s, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(FromDevice<uint32_t>(out, 6)[3 + 1], 2u);
}

TEST_F(KernelArgsTest, WrongArgumentListsAreClearErrors) {
  aclrtFuncHandle f = Func("cts_vec_add");  // (float* x, float* y, float* z, uint32_t n)
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle h = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
  uint32_t n = 4;
  // Parameter 1 is a pointer: a 4-byte value does not fit it.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsAppend(args, &n, sizeof n, &h));
  EXPECT_NE(TakeErrorMessage().find("parameter 1 of cts_vec_add("), std::string::npos);
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &p, sizeof p, &h));
  // Not every parameter appended yet.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsFinalize(args));
  EXPECT_NE(TakeErrorMessage().find("1 appended"), std::string::npos);
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &p, sizeof p, &h));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &p, sizeof p, &h));
  // The scalar n cannot be a placeholder.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsAppendPlaceHolder(args, &h));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &h));
  // One parameter too many.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsAppend(args, &n, sizeof n, &h));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtKernelArgsAppend(args, &n, sizeof n, &h));
  // A value parameter has no placeholder buffer.
  void* buf = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsGetPlaceHolderBuffer(args, h, 4, &buf));
  // A list built for one kernel cannot launch another.
  Stream s;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithConfig(Func("cts_empty"), 1, s, nullptr, args, nullptr));
  // Parameter handles of another list are rejected.
  aclrtArgsHandle other = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &other));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsParaUpdate(other, h, &n, sizeof n));
}

TEST_F(KernelArgsTest, AppendAfterPlaceholderBufferIsRefused) {
  aclrtFuncHandle f = Func("cts_tiled_add");
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle h[5];
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
  for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &p, sizeof p, &h[i]));
  ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &h[3]));
  void* buf = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, h[3], 4, &buf));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtKernelArgsAppendPlaceHolder(args, &h[4]));
  // A placeholder without a buffer cannot be finalized.
  aclrtArgsHandle args2 = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args2));
  for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(aclrtKernelArgsAppend(args2, &p, sizeof p, &h[i]));
  ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args2, &h[3]));
  ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args2, &h[4]));
  ASSERT_ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args2, h[3], 4, &buf));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsFinalize(args2));
}

TEST_F(KernelArgsTest, HandlesOfAThreadAreRecycled) {
  aclrtFuncHandle f = Func("cts_empty");
  aclrtArgsHandle first = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &first));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(first));
  // 63 more lists keep the first one alive; the 64th recycles it.
  aclrtArgsHandle h = nullptr;
  for (int i = 0; i < 63; ++i) ASSERT_ACL_OK(aclrtKernelArgsInit(f, &h));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(first));
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &h));
  EXPECT_BAD_HANDLE(aclrtKernelArgsFinalize(first));
  // Many inits in a loop stay bounded and working.
  for (int i = 0; i < 1000; ++i) ASSERT_ACL_OK(aclrtKernelArgsInit(f, &h));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(h));
  Stream s;
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(f, 1, s, nullptr, h, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

TEST_F(KernelArgsTest, HostArgsWithPlaceholderInfo) {
  Stream s;
  aclrtFuncHandle f = Func("cts_tiled_add");
  constexpr uint32_t kTotal = 8 * 256;
  DevBuf dx(kTotal * 2), dy(kTotal * 2), dz(kTotal * 2);
  std::vector<aclFloat16> x(kTotal), y(kTotal);
  for (uint32_t i = 0; i < kTotal; ++i) {
    x[i] = aclFloatToFloat16(static_cast<float>(i % 97) * 0.5f);
    y[i] = aclFloatToFloat16(static_cast<float>(i % 13) - 6.0f);
  }
  ToDevice(dx, x);
  ToDevice(dy, y);
  // Five pointers, then the two placeholder values.
  struct {
    void* x;
    void* y;
    void* z;
    void* total;
    void* tiles;
    int32_t total_value;
    int32_t tiles_value;
  } host = {dx.get(), dy.get(), dz.get(), nullptr, nullptr, kTotal, 2};
  aclrtPlaceHolderInfo ph[2] = {{24, 40}, {32, 44}};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 8, s, nullptr, &host, sizeof host, ph, 2));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<aclFloat16> z = FromDevice<aclFloat16>(dz, kTotal);
  for (uint32_t i = 0; i < kTotal; ++i) {
    ASSERT_EQ(aclFloat16ToFloat(z[i]), aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i])) << i;
  }
  // A placeholder must name a pointer parameter and point past the parameters.
  aclrtPlaceHolderInfo bad_addr[1] = {{4, 40}};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 8, s, nullptr, &host, sizeof host, bad_addr, 1));
  aclrtPlaceHolderInfo bad_data[1] = {{24, 8}};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchKernelWithHostArgs(f, 8, s, nullptr, &host, sizeof host, bad_data, 1));
}

}  // namespace
}  // namespace cts
