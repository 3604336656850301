// aclrtc's errors: compile errors with their log, refused options, calls out of order, bad handles and
// null pointers. None of them crashes, and aclGetRecentErrMsg says what was wrong.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rtc_test_util.h"

namespace {

constexpr const char* kGood = R"(
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void nop(GM_ADDR x) { (void)x; }
)";

// Line 4 uses an undeclared name.
constexpr const char* kBroken = R"(
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void broken(GM_ADDR x) {
  undeclared_thing(x);
}
)";

// The npurt-rtc-* directories under /tmp (the compiles' private directories).
// The npurt-rtc-* directories in `dir`.
int RtcTempDirs(const std::string& dir) {
  int count = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) count += std::string(e->d_name).starts_with("npurt-rtc-") ? 1 : 0;
    closedir(d);
  }
  return count;
}

// A private TMPDIR for one test: other test processes (ctest -j) compile in /tmp at the same time.
class PrivateTmpDir {
 public:
  PrivateTmpDir() {
    char tmpl[] = "/tmp/npurt-rtc-test-XXXXXX";
    if (mkdtemp(tmpl) != nullptr) dir_ = tmpl;
    const char* old = std::getenv("TMPDIR");
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    setenv("TMPDIR", dir_.c_str(), 1);
  }
  ~PrivateTmpDir() {
    if (had_old_) setenv("TMPDIR", old_.c_str(), 1); else unsetenv("TMPDIR");
    rmdir(dir_.c_str());
  }
  const std::string& path() const { return dir_; }

 private:
  std::string dir_, old_;
  bool had_old_ = false;
};

class RtcErrors : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { rtc_test::UseSourceTreeCompiler(); }
  void SetUp() override { ASSERT_EQ(aclrtcCreateProg(&prog_, kGood, "good.asc", 0, nullptr, nullptr), ACL_SUCCESS); }
  void TearDown() override {
    if (prog_ != nullptr) {
      EXPECT_EQ(aclrtcDestroyProg(&prog_), ACL_SUCCESS);
    }
  }
  aclrtcProg prog_ = nullptr;
};

TEST_F(RtcErrors, CompileErrorGivesCodeAndLogWithTheLine) {
  const PrivateTmpDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, kBroken, "broken.asc", 0, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), ACL_ERROR_RTC_COMPILATION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("broken.asc"), std::string::npos);
  const std::string log = rtc_test::CompileLog(prog);
  EXPECT_NE(log.find("broken.asc:4"), std::string::npos) << log;
  EXPECT_NE(log.find("undeclared_thing"), std::string::npos) << log;
  EXPECT_EQ(log.find("/npurt-rtc-"), std::string::npos) << "the log names the temporary directory: " << log;
  size_t size = 0;
  EXPECT_EQ(aclrtcGetBinDataSize(prog, &size), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
  EXPECT_EQ(RtcTempDirs(tmp.path()), 0);  // the compile's directory is gone
}

// A compiler that does not finish is stopped after NPURT_RTC_COMPILE_TIMEOUT_S: the compile fails with a message,
// nothing hangs, and its temporary directory is removed.
TEST_F(RtcErrors, ACompilerThatHangsIsStoppedAtTheTimeout) {
  const PrivateTmpDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string hang = tmp.path() + "/hanging-ascc";
  {
    std::FILE* f = std::fopen(hang.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("#!/bin/sh\necho compiling\nexec sleep 30\n", f);
    std::fclose(f);
    ASSERT_EQ(chmod(hang.c_str(), 0755), 0);
  }
  const std::string old = std::getenv("NPURT_ASCC") != nullptr ? std::getenv("NPURT_ASCC") : "";
  setenv("NPURT_ASCC", hang.c_str(), 1);
  setenv("NPURT_RTC_COMPILE_TIMEOUT_S", "1", 1);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(aclrtcCompileProg(prog_, 0, nullptr), ACL_ERROR_RTC_FAILURE);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::seconds(20));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("did not finish"), std::string::npos) << aclGetRecentErrMsg();
  EXPECT_NE(rtc_test::CompileLog(prog_).find("compiling"), std::string::npos);
  unsetenv("NPURT_RTC_COMPILE_TIMEOUT_S");
  setenv("NPURT_ASCC", old.c_str(), 1);
  std::remove(hang.c_str());
  EXPECT_EQ(RtcTempDirs(tmp.path()), 0);
}

TEST_F(RtcErrors, Ascend950IsRefusedWithALog) {
  const char* options[] = {"--npu-arch=dav-3510"};
  EXPECT_EQ(aclrtcCompileProg(prog_, 1, options), ACL_ERROR_RTC_INVALID_OPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dav-2201"), std::string::npos);
  EXPECT_NE(rtc_test::CompileLog(prog_).find("dav-3510"), std::string::npos);
  const char* output[] = {"-o", "x.so"};
  EXPECT_EQ(aclrtcCompileProg(prog_, 2, output), ACL_ERROR_RTC_INVALID_OPTION);
}

TEST_F(RtcErrors, OrderOfCalls) {
  size_t size = 0;
  char byte = 0;
  const char* lowered = nullptr;
  EXPECT_EQ(aclrtcGetBinDataSize(prog_, &size), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtcCompileProg"), std::string::npos);
  EXPECT_EQ(aclrtcGetBinData(prog_, &byte), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcAddNameExpr(prog_, "nop"), ACL_SUCCESS);
  EXPECT_EQ(aclrtcGetLoweredName(prog_, "nop", &lowered), ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  EXPECT_EQ(aclrtcAddNameExpr(prog_, "not a name<"), ACL_ERROR_RTC_NAME_EXPR_NOT_VALID);
  // The log is empty (one NUL) before a compile.
  EXPECT_EQ(aclrtcGetCompileLogSize(prog_, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 1u);
  ASSERT_EQ(aclrtcCompileProg(prog_, 0, nullptr), ACL_SUCCESS) << rtc_test::CompileLog(prog_);
  EXPECT_EQ(aclrtcGetLoweredName(prog_, "nop", &lowered), ACL_SUCCESS);
  EXPECT_STREQ(lowered, "nop");
  EXPECT_EQ(aclrtcGetLoweredName(prog_, "other", &lowered), ACL_ERROR_RTC_NAME_EXPR_NOT_VALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtcAddNameExpr"), std::string::npos);
  EXPECT_EQ(aclrtcAddNameExpr(prog_, "late"), ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION);
  EXPECT_EQ(aclrtcGetBinDataSize(prog_, &size), ACL_SUCCESS);
  EXPECT_GT(size, 0u);
}

TEST_F(RtcErrors, NameExpressionOfNoKernel) {
  EXPECT_EQ(aclrtcAddNameExpr(prog_, "missing<float>"), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog_, 0, nullptr), ACL_ERROR_RTC_NAME_EXPR_NOT_VALID);
  EXPECT_NE(rtc_test::CompileLog(prog_).find("missing<float>"), std::string::npos);
}

TEST_F(RtcErrors, BadHandlesAndNullPointers) {
  size_t size = 0;
  int not_a_program = 0;
  EXPECT_EQ(aclrtcGetBinDataSize(nullptr, &size), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcGetBinDataSize(&not_a_program, &size), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a live aclrtcProg"), std::string::npos);
  EXPECT_EQ(aclrtcCompileProg(&not_a_program, 0, nullptr), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcGetBinDataSize(prog_, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcGetBinData(prog_, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcGetCompileLogSize(prog_, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcGetCompileLog(prog_, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcAddNameExpr(prog_, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcGetLoweredName(prog_, "x", nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  const char* null_option[] = {nullptr};
  EXPECT_EQ(aclrtcCompileProg(prog_, 1, null_option), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCompileProg(prog_, -1, nullptr), ACL_ERROR_RTC_INVALID_INPUT);

  aclrtcProg p = nullptr;
  EXPECT_EQ(aclrtcCreateProg(nullptr, kGood, "x", 0, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCreateProg(&p, nullptr, "x", 0, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCreateProg(&p, kGood, "x", 1, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCreateProg(&p, kGood, "x", -1, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(p, nullptr);

  // Destroy twice: the second sees a dead handle (through a copy: the first cleared the variable).
  ASSERT_EQ(aclrtcCreateProg(&p, kGood, nullptr, 0, nullptr, nullptr), ACL_SUCCESS);
  aclrtcProg copy = p;
  EXPECT_EQ(aclrtcDestroyProg(&p), ACL_SUCCESS);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(aclrtcDestroyProg(&copy), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcDestroyProg(&p), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcDestroyProg(nullptr), ACL_ERROR_RTC_INVALID_INPUT);
}

TEST_F(RtcErrors, IncludeNameOutsideTheProgramIsRefused) {
  const char* headers[] = {"int x;"};
  const char* names[] = {"../escape.h"};
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, kGood, "inc.asc", 1, headers, names), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

}  // namespace
