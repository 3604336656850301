// Allreduce between two processes of this machine: a 64 MiB fp32 allreduce through HcclAllReduce (rank 0
// here, rank 1 in bench_hccl_peer), over npurt's two transports, against Gloo's own allreduce on the same
// device buffers in the same two processes' places. Each sample is one allreduce (issue to synchronised
// stream for HCCL; the gloo::allreduce call for Gloo); both sides run the same fixed number of iterations.
//
// allreduce_2proc_hccl_ms       npurt over the Gloo transport (NPURT_HCCL_TRANSPORT=gloo): what HCCL adds on
//                               top of the engine (argument checks, the agreement header, the stream task
//                               and the communication engine included)
// allreduce_2proc_ipc_ms        npurt over shared device memory (the default between processes of one
//                               machine: each rank reads the other's buffer in place)
// allreduce_2proc_ipc_small_us  the same with 8 bytes: the latency of a meeting across processes
// allreduce_2proc_gloo_ms       Gloo alone (gloo::allreduce, ring, with the same sum)
// allreduce_2x2_hier_ms         two "machines" (servers of a rank table on loopback) of two ranks each, a
//                               process per machine (the peer: bench_hccl_peer machine): AllReduce in stages
//                               (within the machine, then one Gloo context per chunk between the machines)
// allreduce_2x2_flat_ms         the same over one Gloo context among the four ranks (NPURT_HCCL_TRANSPORT=gloo)
// Ratios (bench/collect.py): allreduce_over_gloo = gloo time / npurt-over-Gloo time (>= 0.9: HCCL costs at
// most ~10%); allreduce_ipc_over_gloo = gloo time / npurt-over-shared-memory time (the speed-up of not
// going through sockets); allreduce_hier_over_flat = flat time / hierarchical time.
#include <hccl/hccl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>

#include "common/bench_util.h"
#include "peer/two_rank_machine.h"

extern char** environ;

namespace npurt_bench {
namespace {

constexpr size_t kBytes = 64u << 20;
constexpr int kIters = 8;        // plus one warm-up
constexpr int kSmallIters = 300;  // plus one warm-up

pid_t SpawnPeer(const std::string& mode, const std::string& where, size_t bytes = kBytes, int iters = kIters + 1) {
  std::vector<std::string> args = {NPURT_HCCL_BENCH_PEER, mode, where, std::to_string(bytes), std::to_string(iters)};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, NPURT_HCCL_BENCH_PEER, nullptr, nullptr, argv.data(), environ) != 0) std::abort();
  return pid;
}

void ReapPeer(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_hccl_peer failed (status %d)\n", status);
    std::abort();
  }
}

std::string TempDir() {
  char dir[] = "/tmp/npurt_bench_hccl_XXXXXX";
  if (mkdtemp(dir) == nullptr) std::abort();
  return dir;
}

// `transport`: NPURT_HCCL_TRANSPORT for both processes; `bytes` per rank, `iters` samples.
void AllReduce2ProcHccl(benchmark::State& state, const char* transport, size_t bytes, int iters) {
  UseDevice0();
  setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1);
  setenv("NPURT_HCCL_TRANSPORT", transport, 1);  // the peer inherits it
  const std::string dir = TempDir(), root_file = dir + "/root";
  HcclRootInfo root;
  if (HcclGetRootInfo(&root) != HCCL_SUCCESS) std::abort();
  {
    std::ofstream(root_file + ".tmp", std::ios::binary).write(reinterpret_cast<const char*>(&root), sizeof(root));
    std::rename((root_file + ".tmp").c_str(), root_file.c_str());
  }
  const pid_t peer = SpawnPeer("hccl", root_file, bytes, iters + 1);
  HcclComm comm = nullptr;
  if (HcclCommInitRootInfo(2, &root, 0, &comm) != HCCL_SUCCESS) std::abort();
  unsetenv("NPURT_HCCL_TRANSPORT");
  aclrtStream stream = nullptr;
  void* buf = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  BENCH_CHECK(aclrtMalloc(&buf, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMemset(buf, bytes, 0, bytes));
  auto once = [&] {
    if (HcclAllReduce(buf, buf, bytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) != HCCL_SUCCESS) std::abort();
    BENCH_CHECK(aclrtSynchronizeStream(stream));
  };
  once();  // warm-up
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      once();
      sampler.Add(NowNs() - t0);
    }
  }
  HcclCommDestroy(comm);
  ReapPeer(peer);
  BENCH_CHECK(aclrtFree(buf));
  BENCH_CHECK(aclrtDestroyStream(stream));
  std::remove(root_file.c_str());
  rmdir(dir.c_str());
}
BENCHMARK_CAPTURE(AllReduce2ProcHccl, gloo, "gloo", kBytes, kIters)
    ->Name("allreduce_2proc_hccl_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(kIters);
BENCHMARK_CAPTURE(AllReduce2ProcHccl, ipc, "auto", kBytes, kIters)
    ->Name("allreduce_2proc_ipc_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(kIters);
BENCHMARK_CAPTURE(AllReduce2ProcHccl, ipc_small, "auto", 8, kSmallIters)
    ->Name("allreduce_2proc_ipc_small_us")->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(kSmallIters);

void AllReduce2ProcGloo(benchmark::State& state) {
  UseDevice0();
  const std::string dir = TempDir();
  const pid_t peer = SpawnPeer("gloo", dir);
  void* buf = nullptr;
  BENCH_CHECK(aclrtMalloc(&buf, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  BENCH_CHECK(aclrtMemset(buf, kBytes, 0, kBytes));
  {
    gloo::transport::tcp::attr attr;
    attr.hostname = "127.0.0.1";
    auto device = gloo::transport::tcp::CreateDevice(attr);
    gloo::rendezvous::FileStore store(dir);
    auto context = std::make_shared<gloo::rendezvous::Context>(0, 2);
    context->connectFullMesh(store, device);
    auto once = [&] {
      gloo::AllreduceOptions opts(context);
      opts.setOutput(static_cast<float*>(buf), kBytes / 4);
      opts.setReduceFunction(static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
      gloo::allreduce(opts);
    };
    once();  // warm-up
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      once();
      sampler.Add(NowNs() - t0);
    }
  }
  ReapPeer(peer);
  BENCH_CHECK(aclrtFree(buf));
  std::system(("rm -rf " + dir).c_str());
}
BENCHMARK(AllReduce2ProcGloo)->Name("allreduce_2proc_gloo_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(kIters);

void AllReduce2x2(benchmark::State& state, const char* transport) {
  setenv("NPURT_HCCL_TRANSPORT", transport, 1);  // the peer inherits it
  const std::string dir = TempDir(), table = dir + "/table.json";
  static int next_port = 0;
  WriteTwoByTwoTable(table, 21000 + (getpid() * 7 + next_port++) % 20000);
  const pid_t peer = SpawnPeer("machine", table, kBytes, kIters + 1);
  {
    TwoRankMachine machine(table, 0, kBytes);
    unsetenv("NPURT_HCCL_TRANSPORT");
    machine.AllReduce();  // warm-up
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      machine.AllReduce();
      sampler.Add(NowNs() - t0);
    }
  }
  ReapPeer(peer);
  std::remove(table.c_str());
  rmdir(dir.c_str());
}
BENCHMARK_CAPTURE(AllReduce2x2, hier, "auto")
    ->Name("allreduce_2x2_hier_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(kIters);
BENCHMARK_CAPTURE(AllReduce2x2, flat, "gloo")
    ->Name("allreduce_2x2_flat_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(kIters);

}  // namespace
}  // namespace npurt_bench
