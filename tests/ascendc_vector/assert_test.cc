// ASSERT / assert in a kernel: a passing one lets the kernel run on, a failing one fails the launch
// (not the process) with a message naming the file, the line and the condition; the stream runs its
// next kernels. Also compiles the global PIPE_* / EVENT_ID* names (vec_misc_kernels.cpp).
#include "aclrtlaunch_vec_assert.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AssertTest : public VecTest {
 protected:
  // Runs vec_assert on data[0] = v; returns the synchronize's result and data[0] after it.
  aclError Run(uint32_t v, uint32_t limit, uint32_t* after) {
    DevMem d(32);
    CopyIn(d, &v, sizeof v);
    EXPECT_EQ(aclrtlaunch_vec_assert(1, stream_, d.get(), limit), ACL_SUCCESS);
    const aclError rc = aclrtSynchronizeStream(stream_);
    message_ = RecentError();
    CopyOut(after, d, sizeof *after);
    return rc;
  }
  std::string message_;
};

TEST_F(AssertTest, PassingAssertionsLetTheKernelRun) {
  uint32_t after = 0;
  ASSERT_EQ(Run(3, 10, &after), ACL_SUCCESS) << message_;
  EXPECT_EQ(after, 4u);
}

TEST_F(AssertTest, FailedAssertFailsTheKernelNamingFileLineAndCondition) {
  uint32_t after = 0;
  EXPECT_NE(Run(20, 10, &after), ACL_SUCCESS);
  EXPECT_EQ(after, 20u);  // the kernel stopped at the assertion
  EXPECT_NE(message_.find("vec_misc_kernels.cpp:19: : Assertion `v < limit' failed."), std::string::npos) << message_;
  // The stream goes on with its next kernel.
  ASSERT_EQ(Run(5, 10, &after), ACL_SUCCESS) << message_;
  EXPECT_EQ(after, 6u);
}

TEST_F(AssertTest, LowercaseAssertFailsTheKernelToo) {
  uint32_t after = 0;
  EXPECT_NE(Run(12345, 99999, &after), ACL_SUCCESS);
  EXPECT_NE(message_.find("vec_misc_kernels.cpp:20: : Assertion `v != 12345' failed."), std::string::npos) << message_;
}

TEST_F(AssertTest, AssertWithMessageFormatsIt) {
  uint32_t after = 0;
  EXPECT_NE(Run(777, 1000, &after), ACL_SUCCESS);
  const std::string expected = "vec_misc_kernels.cpp:21: : Assertion `(v != 777)' failed. v is 777, limit 1000";
  EXPECT_NE(message_.find(expected), std::string::npos) << message_;
}

}  // namespace
}  // namespace vectest
