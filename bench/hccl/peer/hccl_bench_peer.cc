// The second process of bench_hccl's two-process benchmarks (bench/hccl/gloo_bench.cc): rank 1 of a
// 2-rank allreduce of `bytes` bytes of fp32, `iters` times, either through npurt's HCCL (over the transport
// NPURT_HCCL_TRANSPORT, inherited from the benchmark, chooses) or through Gloo's own allreduce, on the same kind of buffers (device memory of the simulated NPU).
//
//   bench_hccl_peer hccl <root-info file> <bytes> <iters>
//   bench_hccl_peer gloo <file-store dir> <bytes> <iters>
//   bench_hccl_peer machine <rank table> <bytes> <iters>   (ranks 2 and 3 of two_rank_machine.h's table)
#include <acl/acl.h>
#include <hccl/hccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>

#include "two_rank_machine.h"

namespace {

int Hccl(const char* root_file, size_t bytes, int iters) {
  HcclRootInfo root{};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    std::ifstream in(root_file, std::ios::binary);
    if (in && in.read(reinterpret_cast<char*>(&root), sizeof(root))) break;
    if (std::chrono::steady_clock::now() > deadline) return 3;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  HcclComm comm = nullptr;
  if (HcclCommInitRootInfo(2, &root, 1, &comm) != HCCL_SUCCESS) return 4;
  aclrtStream stream = nullptr;
  void* buf = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS || aclrtMalloc(&buf, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 5;
  aclrtMemset(buf, bytes, 0, bytes);
  for (int i = 0; i < iters; ++i) {
    if (HcclAllReduce(buf, buf, bytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) != HCCL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      return 6;
    }
  }
  HcclCommDestroy(comm);
  return 0;
}

int Gloo(const char* dir, size_t bytes, int iters) {
  void* buf = nullptr;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS || aclrtMalloc(&buf, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 5;
  aclrtMemset(buf, bytes, 0, bytes);
  try {
    gloo::transport::tcp::attr attr;
    attr.hostname = "127.0.0.1";
    auto device = gloo::transport::tcp::CreateDevice(attr);
    gloo::rendezvous::FileStore store(dir);
    auto context = std::make_shared<gloo::rendezvous::Context>(1, 2);
    context->connectFullMesh(store, device);
    for (int i = 0; i < iters; ++i) {
      gloo::AllreduceOptions opts(context);
      opts.setOutput(static_cast<float*>(buf), bytes / 4);
      opts.setReduceFunction(static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
      gloo::allreduce(opts);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gloo peer: %s\n", e.what());
    return 7;
  }
  return 0;
}

int Machine(const char* table, size_t bytes, int iters) {
  npurt_bench::TwoRankMachine machine(table, 2, bytes);
  for (int i = 0; i < iters; ++i) machine.AllReduce();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  const std::string mode = argv[1];
  const size_t bytes = std::strtoull(argv[3], nullptr, 10);
  const int iters = std::atoi(argv[4]);
  setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  const int rc = mode == "hccl" ? Hccl(argv[2], bytes, iters) : mode == "machine" ? Machine(argv[2], bytes, iters)
                                                                                   : Gloo(argv[2], bytes, iters);
  std::fflush(stderr);
  _exit(rc);
}
