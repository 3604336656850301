// The rank processes of tests/hccl/hccl_multiprocess_test.cc: a clean process per rank (the test's own
// process has the runtime initialised, and a fork of it would inherit it half alive).
//
//   npurt_hccl_child <scenario> <rank> <nranks> <root-info file>
//
// Rank 0 makes the root info and writes it to the file (renamed into place); the others wait for it (the
// ranktable scenario reads a rank table the test wrote instead). The shared_N scenarios run N ranks per
// process (threads): <rank> is then the process's number and <nranks> the number of processes. The exit
// status is 0 when every check of the scenario held. The transport is the default one (shared device
// memory between processes of this machine) unless the test sets NPURT_HCCL_TRANSPORT=gloo.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "hccl_child_scenarios.h"
#include "hccl_test_util.h"

using namespace npurt_hccl_test;

namespace {

// `count` root infos (one per communicator).
bool ShareRootInfo(uint32_t rank, const std::string& path, HcclRootInfo* root, size_t count = 1) {
  if (rank == 0) {
    for (size_t i = 0; i < count; ++i) {
      if (HcclGetRootInfo(&root[i]) != HCCL_SUCCESS) return false;
    }
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char*>(root), static_cast<std::streamsize>(count * sizeof(*root)));
    return std::rename(tmp.c_str(), path.c_str()) == 0;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(path, std::ios::binary);
    if (in && in.read(reinterpret_cast<char*>(root), static_cast<std::streamsize>(count * sizeof(*root)))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

int Collectives(uint32_t rank, uint32_t n, const HcclRootInfo& root) {
  HcclComm comm = nullptr;
  CHILD_CHECK(HcclCommInitRootInfo(n, &root, rank, &comm) == HCCL_SUCCESS);
  aclrtStream stream = nullptr;
  CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  const size_t count = 1000;
  std::vector<std::vector<uint8_t>> in;
  for (uint32_t r = 0; r < n; ++r) {
    std::mt19937 rng(42 + r);  // every process can compute every rank's data
    in.push_back(RandomElements(HCCL_DATA_TYPE_FP16, count, rng));
  }
  DeviceBuffer send(count * 2, &in[rank]), recv(count * 2), gathered(count * 2 * n);
  CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(HcclAllGather(send.ptr, gathered.ptr, count, HCCL_DATA_TYPE_FP16, comm, stream) == HCCL_SUCCESS);
  DeviceBuffer bcast(count * 2, &in[rank]);
  CHILD_CHECK(HcclBroadcast(bcast.ptr, count, HCCL_DATA_TYPE_FP16, n - 1, comm, stream) == HCCL_SUCCESS);
  DeviceBuffer ring(count * 2);
  HcclSendRecvItem items[2] = {{HCCL_SEND, send.ptr, count, HCCL_DATA_TYPE_FP16, (rank + 1) % n},
                               {HCCL_RECV, ring.ptr, count, HCCL_DATA_TYPE_FP16, (rank + n - 1) % n}};
  CHILD_CHECK(HcclBatchSendRecv(items, 2, comm, stream) == HCCL_SUCCESS);
  DeviceBuffer rs(count * 2);
  std::vector<uint8_t> big;
  for (uint32_t j = 0; j < n; ++j) big.insert(big.end(), in[(rank + j) % n].begin(), in[(rank + j) % n].end());
  DeviceBuffer rs_in(big.size(), &big);
  CHILD_CHECK(HcclReduceScatter(rs_in.ptr, rs.ptr, count, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_MAX, comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, in));
  std::vector<uint8_t> all;
  for (auto& v : in) all.insert(all.end(), v.begin(), v.end());
  CHILD_CHECK(gathered.Read() == all);
  CHILD_CHECK(bcast.Read() == in[n - 1]);
  CHILD_CHECK(ring.Read() == in[(rank + n - 1) % n]);
  // Block `rank` of rank j's big buffer is in[(j + rank) % n]: the max over j is the max over all ranks' data.
  CHILD_CHECK(rs.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP16, HCCL_REDUCE_MAX, in));
  // A count that disagrees fails both sides with HCCL_E_PARA.
  CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, rank == 0 ? 10 : 20, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm, stream) ==
              HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
  HcclResult async = HCCL_SUCCESS;
  CHILD_CHECK(HcclGetCommAsyncError(comm, &async) == HCCL_SUCCESS && async == HCCL_E_PARA);
  // The communicator still works: an agreeing AllReduce on a fresh stream. It also keeps every rank until all
  // have seen the disagreement (a rank that left first would turn a slower peer's verdict into "peer exited").
  aclrtStream fresh = nullptr;
  CHILD_CHECK(aclrtCreateStream(&fresh) == ACL_SUCCESS);
  CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm, fresh) ==
              HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(fresh) == ACL_SUCCESS);
  CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, in));
  CHILD_CHECK(aclrtDestroyStream(fresh) == ACL_SUCCESS);
  CHILD_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
  return 0;
}

int PeerDies(uint32_t rank, uint32_t n, const HcclRootInfo& root) {
  HcclComm comm = nullptr;
  CHILD_CHECK(HcclCommInitRootInfo(n, &root, rank, &comm) == HCCL_SUCCESS);
  aclrtStream stream = nullptr;
  CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  DeviceBuffer buf(4096);
  CHILD_CHECK(HcclAllReduce(buf.ptr, buf.ptr, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  if (rank == 1) _exit(0);  // dies without a word
  CHILD_CHECK(HcclAllReduce(buf.ptr, buf.ptr, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
  HcclResult async = HCCL_SUCCESS;
  CHILD_CHECK(HcclGetCommAsyncError(comm, &async) == HCCL_SUCCESS && async != HCCL_SUCCESS);
  return 0;
}

// A peer killed while collectives run: rank 1 SIGKILLs itself 30 ms into a stream of large allreduces;
// rank 0's stream fails within the timeout, and the communicator reports it.
int PeerKilled(uint32_t rank, uint32_t n, const HcclRootInfo& root) {
  HcclComm comm = nullptr;
  CHILD_CHECK(HcclCommInitRootInfo(n, &root, rank, &comm) == HCCL_SUCCESS);
  aclrtStream stream = nullptr;
  CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  const size_t count = 8u << 20;
  DeviceBuffer buf(count * 4);
  CHILD_CHECK(HcclBarrier(comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  if (rank == 1) {
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      kill(getpid(), SIGKILL);
    }).detach();
  }
  for (int i = 0; i < 200; ++i) {
    CHILD_CHECK(HcclAllReduce(buf.ptr, buf.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm, stream) == HCCL_SUCCESS);
  }
  CHILD_CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
  // Read once (reading consumes it). Shared memory names the dead rank; over Gloo the message depends on
  // where in the ring the connection broke (a survivor may see the failure through rank 0's own socket).
  const char* raw = aclGetRecentErrMsg();
  const std::string message = raw == nullptr ? "" : raw;
  const char* transport = std::getenv("NPURT_HCCL_TRANSPORT");
  const bool gloo = transport != nullptr && std::string(transport) == "gloo";
  if (message.find("HcclAllReduce") == std::string::npos || (!gloo && message.find("rank 1") == std::string::npos)) {
    std::fprintf(stderr, "rank %u: the stream's message does not say what failed: %s\n", rank, message.c_str());
    return 10;
  }
  HcclResult async = HCCL_SUCCESS;
  CHILD_CHECK(HcclGetCommAsyncError(comm, &async) == HCCL_SUCCESS && async != HCCL_SUCCESS);
  return 0;
}

// Two "machines" on loopback from a rank table: the communicator comes from HcclCommInitClusterInfo (the
// file is the 4th argument, written by the test), every rank on its process's device 0.
int RankTable(uint32_t rank, uint32_t n, const char* table) {
  HcclComm comm = nullptr;
  CHILD_CHECK(HcclCommInitClusterInfo(table, rank, &comm) == HCCL_SUCCESS);
  uint32_t size = 0;
  CHILD_CHECK(HcclGetRankSize(comm, &size) == HCCL_SUCCESS && size == n);
  aclrtStream stream = nullptr;
  CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  std::vector<std::vector<uint8_t>> in;
  for (uint32_t r = 0; r < n; ++r) {
    std::mt19937 rng(7 + r);
    in.push_back(RandomElements(HCCL_DATA_TYPE_BFP16, 4096, rng));
  }
  DeviceBuffer buf(in[rank].size(), &in[rank]);
  CHILD_CHECK(HcclAllReduce(buf.ptr, buf.ptr, 4096, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHILD_CHECK(buf.Read() == ReferenceReduce(HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_SUM, in));
  CHILD_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s collectives|every_op|stress|shared_<per process>|peer_dies|peer_killed|ranktable|two_by_two_<per process> <rank> <nranks> "
                 "<root-info file | rank table>\n", argv[0]);
    return 2;
  }
  const std::string scenario = argv[1];
  const uint32_t rank = static_cast<uint32_t>(std::atoi(argv[2]));
  const uint32_t n = static_cast<uint32_t>(std::atoi(argv[3]));
  setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1);
  if (scenario == "peer_dies" || scenario == "peer_killed") setenv("HCCL_EXEC_TIMEOUT", "5", 1);
  CHILD_CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHILD_CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  int rc = 2;
  if (scenario == "ranktable") {
    rc = RankTable(rank, n, argv[4]);
  } else if (scenario.rfind("two_by_two_", 0) == 0) {
    rc = TwoByTwo(rank, static_cast<uint32_t>(std::atoi(scenario.c_str() + 11)), argv[4]);
  } else {
    HcclRootInfo roots[2]{};
    const HcclRootInfo& root = roots[0];
    CHILD_CHECK(ShareRootInfo(rank, argv[4], roots, scenario == "stress" ? 2 : 1));
    if (scenario == "collectives") {
      rc = Collectives(rank, n, root);
    } else if (scenario == "stress") {
      rc = Stress(rank, n, roots);
    } else if (scenario == "every_op") {
      rc = EveryOperation(rank, n, root);
    } else if (scenario.rfind("shared_", 0) == 0) {
      rc = RanksSharingProcesses(rank, n, static_cast<uint32_t>(std::atoi(scenario.c_str() + 7)), root);
    } else if (scenario == "peer_dies") {
      rc = PeerDies(rank, n, root);
    } else if (scenario == "peer_killed") {
      rc = PeerKilled(rank, n, root);
    }
  }
  std::fflush(stderr);
  _exit(rc);  // no static destruction: a peer may still be tearing its connections down
}
