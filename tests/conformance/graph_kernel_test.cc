// Kernel launches inside model running instances: captured launches replay with their arguments,
// kernel task parameters (arguments, block count) change at aclmdlRIUpdate, launch attributes read back.
#include "kernel_test_util.h"

namespace cts {
namespace {

using GraphKernelTest = KernelTest;

std::vector<uint32_t> ReadIds(const DevBuf& out, uint32_t blocks) {
  std::vector<uint32_t> ids(3 * blocks);
  EXPECT_ACL_OK(out.Download(ids.data(), ids.size() * sizeof(uint32_t)));
  return ids;
}

TEST_F(GraphKernelTest, CapturedLaunchReplaysAndItsParametersUpdate) {
  Stream s;
  constexpr uint32_t kMax = 16;
  DevBuf out(3 * kMax * sizeof(uint32_t)), other(3 * kMax * sizeof(uint32_t));
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
  aclrtLaunchKernelAttr attr;
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET;
  attr.value.blockDimOffset = 0;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), 4, s, &cfg, args.data(), args.size(), nullptr, 0));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  ASSERT_ACL_OK(aclrtMemset(out.get(), out.size(), 0xff, out.size()));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(ReadIds(out, 1)[0], 0xffffffffu) << "the launch ran at capture time";
  for (int round = 0; round < 2; ++round) {
    ASSERT_ACL_OK(aclrtMemset(out.get(), out.size(), 0xff, out.size()));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    auto ids = ReadIds(out, 4);
    for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(ids[3 * b + 1], 4u) << b;
  }
  aclmdlRITask task = nullptr;
  uint32_t n = 1;
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(s, &task, &n));
  ASSERT_EQ(n, 1u);
  aclmdlRITaskType type;
  ASSERT_ACL_OK(aclmdlRITaskGetType(task, &type));
  EXPECT_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
  aclrtLaunchKernelAttrValue value;
  ASSERT_ACL_OK(aclmdlRIKernelTaskGetAttribute(task, ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, &value));
  EXPECT_EQ(value.blockDimOffset, 0u);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclmdlRIKernelTaskGetAttribute(task, static_cast<aclrtLaunchKernelAttrId>(77), &value));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclmdlRIKernelTaskGetAttribute(task, ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, nullptr));
  aclmdlRITaskParams p;
  ASSERT_ACL_OK(aclmdlRITaskGetParams(task, &p));
  EXPECT_EQ(p.kernelTaskParams.funcHandle, Func("cts_block_ids"));
  EXPECT_EQ(p.kernelTaskParams.numBlocks, 4u);
  ASSERT_EQ(p.kernelTaskParams.argsSize, args.size());
  EXPECT_EQ(std::memcmp(p.kernelTaskParams.args, args.data(), args.size()), 0);
  // Point the launch at another buffer with more blocks.
  std::vector<uint8_t> new_args = ArgBlock().Add(other.get()).Add(uint32_t{0}).Bytes();
  p.kernelTaskParams.args = new_args.data();
  p.kernelTaskParams.numBlocks = 9;
  ASSERT_ACL_OK(aclmdlRITaskSetParams(task, &p));
  p.kernelTaskParams.args = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(task, &p));
  ASSERT_ACL_OK(aclmdlRITaskGetParams(task, &p));
  EXPECT_EQ(p.kernelTaskParams.numBlocks, 4u) << "not applied before aclmdlRIUpdate";
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphKernelTest, KernelParametersApplyAtUpdate) {
  Stream s;
  constexpr uint32_t kMax = 16;
  DevBuf out(3 * kMax * sizeof(uint32_t)), other(3 * kMax * sizeof(uint32_t));
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), 4, s, nullptr, args.data(), args.size(), nullptr, 0));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  aclmdlRITask task = nullptr;
  uint32_t n = 1;
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(s, &task, &n));
  aclmdlRITaskParams p;
  ASSERT_ACL_OK(aclmdlRITaskGetParams(task, &p));
  std::vector<uint8_t> new_args = ArgBlock().Add(other.get()).Add(uint32_t{0}).Bytes();
  p.kernelTaskParams.args = new_args.data();
  p.kernelTaskParams.argsSize = new_args.size();
  p.kernelTaskParams.numBlocks = 9;
  ASSERT_ACL_OK(aclmdlRITaskSetParams(task, &p));
  new_args.assign(new_args.size(), 0);  // the arguments are copied by aclmdlRITaskSetParams
  ASSERT_ACL_OK(aclmdlRIUpdate(ri));
  ASSERT_ACL_OK(aclrtMemset(out.get(), out.size(), 0xff, out.size()));
  ASSERT_ACL_OK(aclrtMemset(other.get(), other.size(), 0xff, other.size()));
  ASSERT_ACL_OK(aclmdlRIExecute(ri, 10000));
  auto ids = ReadIds(other, 9);
  for (uint32_t b = 0; b < 9; ++b) {
    EXPECT_EQ(ids[3 * b], b);
    EXPECT_EQ(ids[3 * b + 1], 9u);
  }
  EXPECT_EQ(ReadIds(out, 1)[0], 0xffffffffu) << "the old arguments were used";
  ASSERT_ACL_OK(aclmdlRITaskGetParams(task, &p));
  EXPECT_EQ(p.kernelTaskParams.numBlocks, 9u);
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

}  // namespace
}  // namespace cts
