// One "machine" of two ranks in one process (threads create the communicators of devices 0 and 1 from a
// rank table, then one thread drives both: HCCL calls are asynchronous), for the two-machine benchmark of
// bench/hccl/gloo_bench.cc and its peer process. Header-only: both programs include it.
#pragma once

#include <acl/acl.h>
#include <hccl/hccl.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

namespace npurt_bench {

class TwoRankMachine {
 public:
  // Ranks first_rank and first_rank + 1 of `table`, on devices 0 and 1; `bytes` of fp32 each.
  TwoRankMachine(const std::string& table, uint32_t first_rank, size_t bytes) : bytes_(bytes) {
    std::thread ranks[2];
    for (int d = 0; d < 2; ++d) {
      ranks[d] = std::thread([&, d] {
        if (aclrtSetDevice(d) != ACL_SUCCESS || aclrtGetCurrentContext(&ctx_[d]) != ACL_SUCCESS ||
            HcclCommInitClusterInfo(table.c_str(), first_rank + d, &comm_[d]) != HCCL_SUCCESS ||
            aclrtCreateStream(&stream_[d]) != ACL_SUCCESS || aclrtMalloc(&buf_[d], bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
            aclrtMemset(buf_[d], bytes, 0, bytes) != ACL_SUCCESS) {
          std::fprintf(stderr, "rank %u: %s\n", first_rank + d, aclGetRecentErrMsg());
          std::abort();
        }
      });
    }
    for (auto& r : ranks) r.join();
  }
  ~TwoRankMachine() {
    for (int d = 0; d < 2; ++d) {
      aclrtSetCurrentContext(ctx_[d]);
      HcclCommDestroy(comm_[d]);
      aclrtFree(buf_[d]);
      aclrtDestroyStream(stream_[d]);
    }
  }
  // One allreduce of both ranks, in place; returns when both are done.
  void AllReduce() {
    for (int d = 0; d < 2; ++d) {
      aclrtSetCurrentContext(ctx_[d]);
      if (HcclAllReduce(buf_[d], buf_[d], bytes_ / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm_[d], stream_[d]) != HCCL_SUCCESS) {
        std::abort();
      }
    }
    for (int d = 0; d < 2; ++d) {
      if (aclrtSynchronizeStream(stream_[d]) != ACL_SUCCESS) {
        std::fprintf(stderr, "%s\n", aclGetRecentErrMsg());
        std::abort();
      }
    }
  }

 private:
  size_t bytes_;
  aclrtContext ctx_[2] = {};
  HcclComm comm_[2] = {};
  aclrtStream stream_[2] = {};
  void* buf_[2] = {};
};

// A rank table of two servers (node_0: ranks 0-1, node_1: ranks 2-3, devices 0 and 1 on each) on loopback,
// rank 0's listener on `port`.
inline void WriteTwoByTwoTable(const std::string& path, int port) {
  std::ofstream(path) << R"({"status": "completed", "version": "1.0", "server_count": "2", "server_list": [
    {"server_id": "node_0", "host_ip": "127.0.0.1", "device": [
      {"device_id": "0", "device_ip": "127.0.0.1", "host_port": ")" << port << R"(", "rank_id": "0"},
      {"device_id": "1", "device_ip": "127.0.0.1", "rank_id": "1"}]},
    {"server_id": "node_1", "host_ip": "127.0.0.1", "device": [
      {"device_id": "0", "device_ip": "127.0.0.1", "rank_id": "2"},
      {"device_id": "1", "device_ip": "127.0.0.1", "rank_id": "3"}]}]})";
}

}  // namespace npurt_bench
