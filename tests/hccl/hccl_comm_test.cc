// Communicator creation (root info from threads, rank tables, HcclCommInitAll), the queries, bad input,
// and faults: mismatched arguments and a rank that never arrives fail the stream within the timeout.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>

#include "hccl_test_util.h"

using namespace npurt_hccl_test;

namespace {

// The listener of HcclGetRootInfo takes any free port in tests (two test processes may run at once).
struct AutoPorts {
  AutoPorts() { setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1); }
} g_auto_ports;

}  // namespace

TEST(HcclComm, RootInfoFromThreadsLikeTheSample) {
  const uint32_t n = 4;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  HcclRootInfo root;
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS) << aclGetRecentErrMsg();
  std::vector<std::thread> threads;
  std::vector<std::vector<float>> results(n);
  for (uint32_t r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      HcclComm comm = nullptr;
      ASSERT_EQ(HcclCommInitRootInfo(n, &root, r, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
      uint32_t size = 0, rank = 99;
      EXPECT_EQ(HcclGetRankSize(comm, &size), HCCL_SUCCESS);
      EXPECT_EQ(HcclGetRankId(comm, &rank), HCCL_SUCCESS);
      EXPECT_EQ(size, n);
      EXPECT_EQ(rank, r);
      char name[COMM_NAME_MAX_LENGTH] = {};
      EXPECT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
      EXPECT_NE(std::string(name).find("127.0.0.1%lo_"), std::string::npos) << name;
      HcclComm found = nullptr;
      EXPECT_EQ(HcclCommGetHandleWithName(name, &found), HCCL_SUCCESS);
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      std::vector<float> host(n);
      for (uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i * (r + 1));
      std::vector<uint8_t> bytes(reinterpret_cast<uint8_t*>(host.data()), reinterpret_cast<uint8_t*>(host.data() + n));
      DeviceBuffer send(n * 4, &bytes), recv(n * 4);
      ASSERT_EQ(HcclAllReduce(send.ptr, recv.ptr, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
      auto out = recv.Read();
      results[r].assign(reinterpret_cast<float*>(out.data()), reinterpret_cast<float*>(out.data()) + n);
      HcclResult async = HCCL_E_INTERNAL;
      EXPECT_EQ(HcclGetCommAsyncError(comm, &async), HCCL_SUCCESS);
      EXPECT_EQ(async, HCCL_SUCCESS);
      EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    });
  }
  for (auto& t : threads) t.join();
  const float ranks_sum = n * (n + 1) / 2.0f;
  for (uint32_t r = 0; r < n; ++r) {
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(results[r][i], i * ranks_sum) << "rank " << r << " element " << i;
  }
}

TEST(HcclComm, RankTableFromThreads) {
  char path[] = "/tmp/npurt_ranktable_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  const int port = 40000 + getpid() % 20000;
  std::ofstream(path) << R"({"status": "completed", "version": "1.0", "server_count": "1",
    "server_list": [{"server_id": "node_0", "host_ip": "127.0.0.1", "device": [
      {"device_id": "0", "device_ip": "", "host_port": ")" << port << R"(", "rank_id": "0"},
      {"device_id": "1", "device_ip": "", "rank_id": "1"}]}]})";
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      HcclComm comm = nullptr;
      ASSERT_EQ(HcclCommInitClusterInfo(path, r, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      std::vector<uint8_t> v(64, static_cast<uint8_t>(r + 1));
      DeviceBuffer buf(64, &v);
      ASSERT_EQ(HcclBroadcast(buf.ptr, 64, HCCL_DATA_TYPE_UINT8, 1, comm, stream), HCCL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
      EXPECT_EQ(buf.Read(), std::vector<uint8_t>(64, 2));
      EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    });
  }
  for (auto& t : threads) t.join();
  // The device of the table must be the thread's.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitClusterInfo(path, 0, &comm), HCCL_E_PARA);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("device 0"), std::string::npos);
  std::ofstream(path) << R"({"status": "initializing", "version": "1.0", "server_list": []})";
  EXPECT_EQ(HcclCommInitClusterInfo(path, 0, &comm), HCCL_E_PARA);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("completed"), std::string::npos);
  std::ofstream(path) << "{not json";
  EXPECT_EQ(HcclCommInitClusterInfo(path, 0, &comm), HCCL_E_PARA);
  unlink(path);
  EXPECT_EQ(HcclCommInitClusterInfo("/nonexistent/table.json", 0, &comm), HCCL_E_OPEN_FILE_FAILURE);
}

TEST(HcclComm, BadInputGetsTheDocumentedCodes) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  // A count of 0 succeeds before any pointer is looked at.
  EXPECT_EQ(HcclAllReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, nullptr, nullptr), HCCL_SUCCESS);
  int32_t devices[2] = {0, 1};
  HcclComm comms[2] = {};
  ASSERT_EQ(HcclCommInitAll(2, devices, comms), HCCL_SUCCESS);
  DeviceBuffer buf(64);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, nullptr, stream), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(nullptr, buf.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], stream), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, static_cast<HcclDataType>(77), HCCL_REDUCE_SUM, comms[0], stream),
            HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_PROD, comms[0], stream), HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, HCCL_DATA_TYPE_FP8E4M3, HCCL_REDUCE_SUM, comms[0], stream), HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(9), comms[0], stream),
            HCCL_E_NOT_SUPPORT);
  // An overrun of the allocation, host memory, a root out of range, a stream of another device.
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 17, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], stream), HCCL_E_PARA);
  std::vector<float> host(4);
  EXPECT_EQ(HcclAllReduce(host.data(), buf.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], stream), HCCL_E_PARA);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("host memory"), std::string::npos);
  EXPECT_EQ(HcclBroadcast(buf.ptr, 4, HCCL_DATA_TYPE_FP32, 2, comms[0], stream), HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[1], stream), HCCL_E_PARA);
  EXPECT_EQ(HcclSend(buf.ptr, 4, HCCL_DATA_TYPE_FP32, 0, comms[0], stream), HCCL_E_PARA);  // to itself
  HcclSendRecvItem dup[2] = {{HCCL_SEND, buf.ptr, 4, HCCL_DATA_TYPE_FP32, 1}, {HCCL_SEND, buf.ptr, 4, HCCL_DATA_TYPE_FP32, 1}};
  EXPECT_EQ(HcclBatchSendRecv(dup, 2, comms[0], stream), HCCL_E_PARA);
  EXPECT_EQ(HcclBatchSendRecv(dup, 0, comms[0], stream), HCCL_E_PARA);
  // Foreign and destroyed handles.
  int not_a_comm = 0;
  uint32_t size = 0;
  EXPECT_EQ(HcclGetRankSize(&not_a_comm, &size), HCCL_E_PARA);
  EXPECT_EQ(HcclGetRankSize(comms[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclCommDestroy(comms[0]), HCCL_SUCCESS);
  EXPECT_EQ(HcclCommDestroy(comms[0]), HCCL_E_PARA);  // double destroy
  EXPECT_EQ(HcclGetRankSize(comms[0], &size), HCCL_E_PARA);
  EXPECT_EQ(HcclCommDestroy(comms[1]), HCCL_SUCCESS);
  // Creation.
  HcclComm comm = nullptr;
  HcclRootInfo zeros{};
  EXPECT_EQ(HcclCommInitRootInfo(2, &zeros, 0, &comm), HCCL_E_PARA);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("HcclGetRootInfo"), std::string::npos);
  EXPECT_EQ(HcclCommInitRootInfo(0, &zeros, 0, &comm), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitRootInfo(2, &zeros, 2, &comm), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitRootInfo(2, nullptr, 0, &comm), HCCL_E_PTR);
  int32_t twice[2] = {1, 1};
  EXPECT_EQ(HcclCommInitAll(2, twice, comms), HCCL_E_PARA);
  int32_t missing[1] = {63};
  EXPECT_EQ(HcclCommInitAll(1, missing, comms), HCCL_E_PARA);
  HcclCommConfig config;
  std::memset(&config, 0, sizeof(config));
  HcclRootInfo root;
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_E_PARA);  // not HcclCommConfigInit-ed
  EXPECT_STREQ(HcclGetErrorString(HCCL_E_TIMEOUT), "timeout");
  EXPECT_STREQ(HcclGetErrorString(static_cast<HcclResult>(-5)), "unknow error");
  EXPECT_GE(HcclGetCommConfigCapability(), static_cast<uint32_t>(HCCL_COMM_CONFIG_EXEC_TIMEOUT) + 1);
  EXPECT_EQ(HcclCommSuspend(nullptr), HCCL_E_PTR);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(HcclComm, OneRankCommunicatorCopiesLocally) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  HcclRootInfo root;
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclCommConfig config;
  HcclCommConfigInit(&config);
  std::snprintf(config.hcclCommName, sizeof(config.hcclCommName), "solo_%d", getpid());
  HcclComm comm = nullptr;
  ASSERT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
  char name[COMM_NAME_MAX_LENGTH];
  ASSERT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
  EXPECT_EQ(std::string(name), std::string(config.hcclCommName));
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::mt19937 rng(3);
  auto data = RandomElements(HCCL_DATA_TYPE_FP16, 50, rng);
  DeviceBuffer a(100, &data), b(100);
  ASSERT_EQ(HcclAllReduce(a.ptr, b.ptr, 50, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
  EXPECT_EQ(HcclSend(a.ptr, 50, HCCL_DATA_TYPE_FP16, 0, comm, stream), HCCL_SUCCESS);  // a no-op on one rank
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(b.Read(), data);
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(HcclFaults, MismatchedCountsFailEveryRankWithTheRanksNamed) {
  const uint32_t n = 3;
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    DeviceBuffer buf(256);
    const uint64_t count = r == 2 ? 8 : 16;
    ASSERT_EQ(HcclAllReduce(buf.ptr, buf.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("rank 2 has 8"), std::string::npos) << msg;
    HcclResult async = HCCL_SUCCESS;
    EXPECT_EQ(HcclGetCommAsyncError(comm, &async), HCCL_SUCCESS);
    EXPECT_EQ(async, HCCL_E_PARA);
    // The stream stays failed until its error is taken; a new stream works on the same communicator.
    aclrtStream fresh = nullptr;
    ASSERT_EQ(aclrtCreateStream(&fresh), ACL_SUCCESS);
    ASSERT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, fresh), HCCL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(fresh), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtDestroyStream(fresh), ACL_SUCCESS);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  });
}

TEST(HcclFaults, AMissingRankTimesOutAndBreaksTheCommunicator) {
  setenv("HCCL_EXEC_TIMEOUT", "1", 1);
  const uint32_t n = 2;
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    if (r == 1) return;  // rank 1 never takes part
    DeviceBuffer buf(64);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
    // Destroying while the operation is in flight is refused. (The synchronous sim runs every task inside
    // its submission: the operation has failed by the time the call returns.)
    const char* mode = std::getenv("NPURT_SIM_MODE");
    if (mode == nullptr || std::string(mode) != "sync") {
      EXPECT_EQ(HcclCommDestroy(comm), HCCL_E_AGAIN);
    }
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_FFTS_PLUS_TIMEOUT);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("rank(s) 1 did not take part"), std::string::npos) << msg;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    HcclResult async = HCCL_SUCCESS;
    EXPECT_EQ(HcclGetCommAsyncError(comm, &async), HCCL_SUCCESS);
    EXPECT_EQ(async, HCCL_E_TIMEOUT);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  });
  unsetenv("HCCL_EXEC_TIMEOUT");
}

TEST(HcclComm, SubCommunicatorsSplitOffWithoutARendezvous) {
  const uint32_t n = 4;
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    // Even ranks and odd ranks each form a sub-communicator (id 7); rank r is rank r / 2 inside it.
    uint32_t members[2] = {r % 2, r % 2 + 2};
    HcclComm sub = nullptr;
    ASSERT_EQ(HcclCreateSubCommConfig(&comm, 2, members, 7 + r % 2, r / 2, nullptr, &sub), HCCL_SUCCESS)
        << aclGetRecentErrMsg();
    uint32_t size = 0, rank = 9;
    EXPECT_EQ(HcclGetRankSize(sub, &size), HCCL_SUCCESS);
    EXPECT_EQ(HcclGetRankId(sub, &rank), HCCL_SUCCESS);
    EXPECT_EQ(size, 2u);
    EXPECT_EQ(rank, r / 2);
    std::vector<uint8_t> mine(64);
    for (size_t i = 0; i < 16; ++i) reinterpret_cast<int32_t*>(mine.data())[i] = static_cast<int32_t>(10 * r + i);
    DeviceBuffer buf(64, &mine);
    ASSERT_EQ(HcclAllReduce(buf.ptr, buf.ptr, 16, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, sub, stream), HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    auto out = buf.Read();
    for (size_t i = 0; i < 16; ++i) {
      // members r%2 and r%2+2: 10*(r%2) + i + 10*(r%2+2) + i
      EXPECT_EQ(reinterpret_cast<int32_t*>(out.data())[i], static_cast<int32_t>(20 * (r % 2) + 20 + 2 * i));
    }
    // The caller must be rankIds[subCommRankId], and the ids must be ranks of the parent.
    HcclComm bad = nullptr;
    uint32_t wrong[2] = {(r + 1) % n, (r + 2) % n};
    EXPECT_EQ(HcclCreateSubCommConfig(&comm, 2, wrong, 99, 0, nullptr, &bad), HCCL_E_PARA);
    uint32_t outside[1] = {n};
    EXPECT_EQ(HcclCreateSubCommConfig(&comm, 1, outside, 98, 0, nullptr, &bad), HCCL_E_PARA);
    EXPECT_EQ(HcclCommDestroy(sub), HCCL_SUCCESS);
  });
}
