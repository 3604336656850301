// Process log (docs/logging.md): level and destination variables, per-module levels, the CANN line
// format, rotation, synchronous saving, aclAppLog, API errors logged with the reason
// aclGetRecentErrMsg returns. Each case runs a fresh child process (the log reads its environment once).
#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cts {
namespace {

std::vector<std::string> PlogFiles(const std::string& dir, long long pid) {
  std::vector<std::string> out;
  const std::string prefix = "plog-" + std::to_string(pid) + "_";
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (std::string(e->d_name).rfind(prefix, 0) == 0) out.push_back(dir + "/" + e->d_name);
    }
    closedir(d);
  }
  return out;
}

std::string ReadAll(const std::vector<std::string>& files) {
  std::string all;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    all += s.str();
  }
  return all;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The child: an API error, an application log line, and some ordinary work (allocation, stream, tasks).
CTS_CHILD(log_scenario) {
  ChildReport("bad_set", aclrtSetDevice(9999));
  const char* msg = aclGetRecentErrMsg();
  ChildReportText("recent", msg ? msg : "");
  ACL_APP_LOG(ACL_INFO, "application says %d", 42);
  ChildReport("set", aclrtSetDevice(0));
  const int rounds = std::getenv("LOG_TEST_ROUNDS") ? std::atoi(std::getenv("LOG_TEST_ROUNDS")) : 1;
  for (int i = 0; i < rounds; ++i) {
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    void* p = nullptr;
    aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemsetAsync(p, 4096, 1, 4096, s);
    aclrtSynchronizeStream(s);
    aclrtFree(p);
    aclrtDestroyStream(s);
  }
  ChildReport("reset", aclrtResetDevice(0));
  ChildReport("pid", getpid());
  if (std::getenv("LOG_TEST_QUICK_EXIT") != nullptr) {
    std::fflush(stdout);
    _exit(0);  // no atexit flush: only synchronously saved lines survive
  }
  return 0;
}

class LogTest : public CtsNoDeviceTest {};

TEST_F(LogTest, ErrorsGoToThePlogFileWithTheRecentMessage) {
  const std::string dir = MakeTempDir("log_default");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir}, {"ASCEND_GLOBAL_LOG_LEVEL", "3"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  auto files = PlogFiles(dir + "/debug/plog", r.Int("pid"));
  ASSERT_EQ(1u, files.size()) << "one plog file per process under <ASCEND_PROCESS_LOG_PATH>/debug/plog";
  const std::string log = ReadAll(files);
  EXPECT_NE(std::string::npos, log.find("[ERROR] ASCENDCL(" + std::to_string(r.Int("pid")) + ","));
  EXPECT_NE(std::string::npos, log.find("aclrtSetDevice")) << log;
  // The logged reason is the one aclGetRecentErrMsg returned.
  const std::string recent = r.Text("recent");
  const std::string reason = recent.substr(recent.rfind(": ") + 2);
  EXPECT_FALSE(reason.empty());
  EXPECT_NE(std::string::npos, log.find(reason)) << "reason '" << reason << "' in\n" << log;
  EXPECT_EQ(std::string::npos, log.find("[DEBUG]")) << "level 3 hides debug lines";
  EXPECT_EQ(std::string::npos, log.find("[INFO]"));
  EXPECT_EQ(std::string::npos, r.output.find("[ERROR]")) << "nothing on stdout/stderr by default";
}

TEST_F(LogTest, LineFormat) {
  const std::string dir = MakeTempDir("log_format");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  const std::string log = ReadAll(PlogFiles(dir + "/debug/plog", r.Int("pid")));
  std::istringstream lines(log);
  std::string line;
  ASSERT_TRUE(static_cast<bool>(std::getline(lines, line)));
  // [ERROR] ASCENDCL(pid,process):yyyy-mm-dd-hh:mm:ss.mmm.uuu [file.cc:line]tid message
  int pid = 0, y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0, us = 0;
  char proc[64] = {0};
  ASSERT_EQ(10, std::sscanf(line.c_str(), "[ERROR] ASCENDCL(%d,%63[^)]):%d-%d-%d-%d:%d:%d.%d.%d", &pid, proc, &y, &mo,
                            &d, &h, &mi, &s, &ms, &us))
      << line;
  EXPECT_EQ(r.Int("pid"), pid);
  EXPECT_GE(y, 2024);
  EXPECT_NE(std::string::npos, line.find(".cc:")) << "source location: " << line;
}

TEST_F(LogTest, DebugLevelShowsAllocationsStreamsAndTasks) {
  const std::string dir = MakeTempDir("log_debug");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir}, {"ASCEND_GLOBAL_LOG_LEVEL", "0"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  const std::string log = ReadAll(PlogFiles(dir + "/debug/plog", r.Int("pid")));
  EXPECT_NE(std::string::npos, log.find("device malloc 4096 bytes")) << log;
  EXPECT_NE(std::string::npos, log.find("created stream"));
  EXPECT_NE(std::string::npos, log.find("submit task"));
  EXPECT_NE(std::string::npos, log.find("[INFO] APP(")) << "aclAppLog at level 1";
  EXPECT_NE(std::string::npos, log.find("application says 42"));
}

TEST_F(LogTest, ModuleLevelOverridesTheGlobalLevel) {
  const std::string dir = MakeTempDir("log_module");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir},
                                            {"ASCEND_GLOBAL_LOG_LEVEL", "3"},
                                            {"ASCEND_MODULE_LOG_LEVEL", "RUNTIME=0:ASCENDCL=4"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  const std::string log = ReadAll(PlogFiles(dir + "/debug/plog", r.Int("pid")));
  EXPECT_NE(std::string::npos, log.find("[DEBUG] RUNTIME(")) << "RUNTIME at debug";
  EXPECT_EQ(std::string::npos, log.find("ASCENDCL(")) << "ASCENDCL off (4), even its errors";
  EXPECT_EQ(std::string::npos, log.find("[INFO] APP(")) << "APP stays at the global level";
}

TEST_F(LogTest, PrintToStdoutWritesNoFile) {
  for (const char* var : {"ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT"}) {
    const std::string dir = MakeTempDir("log_stdout");
    ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir}, {var, "1"}});
    ASSERT_EQ(0, r.exit_code) << r.output;
    EXPECT_NE(std::string::npos, r.output.find("[ERROR] ASCENDCL(")) << var << ": " << r.output;
    EXPECT_TRUE(PlogFiles(dir + "/debug/plog", r.Int("pid")).empty()) << var;
    if (std::string(var) == "ASCEND_SLOG_PRINT_TO_STDOUT") {
      EXPECT_NE(std::string::npos, r.output.find("deprecated")) << "the old spelling warns";
    }
  }
}

TEST_F(LogTest, WorkPathWhenNoProcessLogPath) {
  const std::string dir = MakeTempDir("log_work");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_WORK_PATH", dir}, {"ASCEND_PROCESS_LOG_PATH", ""}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(1u, PlogFiles(dir + "/log/debug/plog", r.Int("pid")).size()) << "<ASCEND_WORK_PATH>/log/debug/plog";
}

TEST_F(LogTest, RotationKeepsHostLogFileNumFiles) {
  const std::string dir = MakeTempDir("log_rotate");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir},
                                            {"ASCEND_GLOBAL_LOG_LEVEL", "0"},
                                            {"NPURT_LOG_FILE_SIZE", "4096"},
                                            {"ASCEND_HOST_LOG_FILE_NUM", "3"},
                                            {"LOG_TEST_ROUNDS", "60"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  auto files = PlogFiles(dir + "/debug/plog", r.Int("pid"));
  EXPECT_EQ(3u, files.size()) << "older files are deleted";
  for (const auto& f : files) {
    struct stat st;
    ASSERT_EQ(0, stat(f.c_str(), &st));
    EXPECT_LE(st.st_size, 4096 + 512) << f << ": a file rotates before it passes the size";
    EXPECT_GT(st.st_size, 0);
  }
  const std::string kept = ReadAll(files);
  EXPECT_NE(std::string::npos, kept.find("device free")) << "the newest lines are kept";
  EXPECT_EQ(std::string::npos, kept.find("aclrtSetDevice")) << "the first line went with the oldest file";
}

TEST_F(LogTest, SyncSaveWritesBeforeTheCallReturns) {
  const std::string dir = MakeTempDir("log_sync");
  ChildResult r = RunChild("log_scenario", {{"ASCEND_PROCESS_LOG_PATH", dir},
                                            {"ASCEND_LOG_SYNC_SAVE", "1"},
                                            {"LOG_TEST_QUICK_EXIT", "1"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  const std::string log = ReadAll(PlogFiles(dir + "/debug/plog", r.Int("pid")));
  EXPECT_EQ(1u, Count(log, "[ERROR] ASCENDCL(")) << "the error line survives _exit: " << log;
}

}  // namespace
}  // namespace cts
