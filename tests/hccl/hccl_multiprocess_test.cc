// Ranks in separate processes on this machine (tests/hccl/hccl_child.cc, one process per rank, or several
// ranks per process), meeting through the root's listener on loopback and joined by shared device memory
// (the default between processes of one machine) or by Gloo (NPURT_HCCL_TRANSPORT=gloo, and ranks of
// different servers of a rank table): every operation's results against a host reference, and a peer that
// dies mid-job gives the survivor a stream error within the timeout instead of a hang.
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

// Runs `n` rank processes of `scenario`; each exit status, or 999 for one killed after `limit_s` (a hang).
std::vector<int> RunRanks(const std::string& scenario, uint32_t n, int limit_s, const std::string& table = "") {
  char dir[] = "/tmp/npurt_hccl_mp_XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  const std::string root_file = table.empty() ? std::string(dir) + "/root_info" : table;
  std::vector<pid_t> pids;
  for (uint32_t r = 0; r < n; ++r) {
    std::vector<std::string> args = {NPURT_HCCL_CHILD, scenario, std::to_string(r), std::to_string(n), root_file};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    EXPECT_EQ(posix_spawn(&pid, NPURT_HCCL_CHILD, nullptr, nullptr, argv.data(), environ), 0);
    pids.push_back(pid);
  }
  std::vector<int> statuses(n, -1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limit_s);
  for (uint32_t done = 0; done < n;) {
    for (uint32_t r = 0; r < n; ++r) {
      int status = 0;
      if (statuses[r] == -1 && waitpid(pids[r], &status, WNOHANG) == pids[r]) {
        statuses[r] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        ++done;
      }
    }
    if (done < n && std::chrono::steady_clock::now() > deadline) {
      for (uint32_t r = 0; r < n; ++r) {
        if (statuses[r] != -1) continue;
        kill(pids[r], SIGKILL);
        waitpid(pids[r], nullptr, 0);
        statuses[r] = 999;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (table.empty()) unlink(root_file.c_str());
  rmdir(dir);
  return statuses;
}

// Sets NPURT_HCCL_TRANSPORT for the rank processes started while it lives.
class Transport {
 public:
  explicit Transport(const char* value) { setenv("NPURT_HCCL_TRANSPORT", value, 1); }
  ~Transport() { unsetenv("NPURT_HCCL_TRANSPORT"); }
};

}  // namespace

TEST(HcclMultiProcess, CollectivesAcrossProcessesThroughGloo) {
  Transport gloo("gloo");
  for (uint32_t n : {2u, 3u}) {
    const std::vector<int> statuses = RunRanks("collectives", n, 90);
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(statuses[r], 0) << n << " processes, rank " << r << " (999 = hung)";
  }
}

TEST(HcclMultiProcess, CollectivesAcrossProcessesThroughSharedMemory) {
  for (uint32_t n : {2u, 3u}) {
    const std::vector<int> statuses = RunRanks("collectives", n, 90);
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(statuses[r], 0) << n << " processes, rank " << r << " (999 = hung)";
  }
}

TEST(HcclMultiProcess, EveryOperationAcrossProcessesThroughSharedMemory) {
  for (uint32_t n : {1u, 2u, 3u, 4u, 8u}) {
    const std::vector<int> statuses = RunRanks("every_op", n, 150);
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(statuses[r], 0) << n << " processes, rank " << r << " (999 = hung)";
  }
}

TEST(HcclMultiProcess, EveryOperationAcrossProcessesThroughGloo) {
  Transport gloo("gloo");
  const std::vector<int> statuses = RunRanks("every_op", 2, 150);
  for (uint32_t r = 0; r < 2; ++r) EXPECT_EQ(statuses[r], 0) << "rank " << r << " (999 = hung)";
}

TEST(HcclMultiProcess, RanksThatShareSomeProcessesAndNotOthers) {
  // 2 processes x 2 ranks, and 4 processes x 2 ranks (8 ranks): peers in the same process are reached
  // directly, the others through views of their device memory.
  for (uint32_t processes : {2u, 4u}) {
    const std::vector<int> statuses = RunRanks("shared_2", processes, 150);
    for (uint32_t p = 0; p < processes; ++p) EXPECT_EQ(statuses[p], 0) << processes << " processes, process " << p << " (999 = hung)";
  }
}

TEST(HcclMultiProcess, StressTwoCommunicatorsOnTwoStreamsPerProcess) {
  for (uint32_t n : {2u, 3u}) {
    const std::vector<int> statuses = RunRanks("stress", n, 150);
    for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(statuses[r], 0) << n << " processes, rank " << r << " (999 = hung)";
  }
}

TEST(HcclMultiProcess, APeerThatDiesGivesAStreamErrorNotAHang) {
  for (const char* transport : {"auto", "gloo"}) {
    Transport chosen(transport);
    const std::vector<int> statuses = RunRanks("peer_dies", 2, 60);
    EXPECT_EQ(statuses[0], 0) << transport << ": the survivor (999 = hung)";
    EXPECT_EQ(statuses[1], 0) << transport;
  }
}

TEST(HcclMultiProcess, APeerKilledMidCollectiveGivesAStreamErrorNotAHang) {
  for (const char* transport : {"auto", "gloo"}) {
    Transport chosen(transport);
    const std::vector<int> statuses = RunRanks("peer_killed", 2, 60);
    EXPECT_EQ(statuses[0], 0) << transport << ": the survivor (999 = hung)";
    EXPECT_EQ(statuses[1], 128 + SIGKILL) << transport << ": the killed rank";
  }
}

TEST(HcclMultiProcess, TwoMachinesOnLoopbackFromARankTable) {
  char path[] = "/tmp/npurt_ranktable_mp_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  const int port = 20000 + getpid() % 20000;  // rank 0's listener
  std::ofstream(path) << R"({"status": "completed", "version": "1.0", "server_count": "2", "server_list": [
    {"server_id": "node_0", "host_ip": "127.0.0.1", "device": [{"device_id": "0", "device_ip": "127.0.0.1", "host_port": ")"
                      << port << R"(", "rank_id": "0"}]},
    {"server_id": "node_1", "host_ip": "127.0.0.1", "device": [{"device_id": "0", "device_ip": "127.0.0.1", "rank_id": "1"}]}]})";
  const std::vector<int> statuses = RunRanks("ranktable", 2, 60, path);
  unlink(path);
  EXPECT_EQ(statuses[0], 0) << "(999 = hung)";
  EXPECT_EQ(statuses[1], 0) << "(999 = hung)";
}

// Two "machines" of two ranks each (servers node_0 and node_1 of a rank table, both on loopback): AllReduce
// and Broadcast run in stages (within each machine, then between the machines, then within again), the rest
// over Gloo.
// With one rank per process the machines' ranks share device memory; with one process per machine they are
// threads of it.
TEST(HcclMultiProcess, TwoMachinesOfTwoRanksRunAllReduceAndBroadcastHierarchically) {
  char path[] = "/tmp/npurt_ranktable_2x2_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  const int port = 20000 + (getpid() + 7) % 20000;
  std::ofstream(path) << R"({"status": "completed", "version": "1.0", "server_count": "2", "server_list": [
    {"server_id": "node_0", "host_ip": "127.0.0.1", "device": [
      {"device_id": "0", "device_ip": "127.0.0.1", "host_port": ")" << port << R"(", "rank_id": "0"},
      {"device_id": "1", "device_ip": "127.0.0.1", "rank_id": "1"}]},
    {"server_id": "node_1", "host_ip": "127.0.0.1", "device": [
      {"device_id": "0", "device_ip": "127.0.0.1", "rank_id": "2"},
      {"device_id": "1", "device_ip": "127.0.0.1", "rank_id": "3"}]}]})";
  for (uint32_t per_process : {1u, 2u}) {
    const uint32_t processes = 4 / per_process;
    const std::vector<int> statuses = RunRanks("two_by_two_" + std::to_string(per_process), processes, 120, path);
    for (uint32_t p = 0; p < processes; ++p) {
      EXPECT_EQ(statuses[p], 0) << per_process << " rank(s) per process, process " << p << " (999 = hung)";
    }
  }
  unlink(path);
}
