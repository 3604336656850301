// Graph replay (aclmdlRI*): a captured graph of kNodes tasks — tiny fills and empty kernels,
// alternating, or fills only — replayed, against the same tasks issued one by one on a stream.
//
// graph_replay_per_node_ns      aclmdlRIExecuteAsync + aclrtSynchronizeStream of the mixed graph, divided
//                               by its task count
// stream_issue_per_node_ns      the same tasks issued one by one (aclrtMemsetAsync / aclrtLaunchKernel) on a
//                               stream, then one synchronize, divided by the task count
// graph_replay_fill_per_node_ns / stream_issue_fill_per_node_ns  the same with fills only (what replay
//                               costs when no task has to go to the AI cores)
// collect.py derives graph_over_stream (mixed) and graph_over_stream_fill.
#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr int kNodes = 1000;

struct Setup {
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle empty = nullptr;
  void* buf = nullptr;
};

const Setup& S() {
  static Setup s = [] {
    UseDevice0();
    Setup r;
    BENCH_CHECK(aclrtBinaryLoadFromFile(NPURT_BENCH_KERNELS, nullptr, &r.bin));
    BENCH_CHECK(aclrtBinaryGetFunction(r.bin, "bench_empty", &r.empty));
    BENCH_CHECK(aclrtMalloc(&r.buf, kNodes * 64, ACL_MEM_MALLOC_HUGE_FIRST));
    return r;
  }();
  return s;
}

void Issue(aclrtStream stream, bool kernels) {
  const Setup& s = S();
  for (int i = 0; i < kNodes; ++i) {
    if (kernels && (i & 1) != 0) {
      BENCH_CHECK(aclrtLaunchKernel(s.empty, 1, nullptr, 0, stream));
    } else {
      BENCH_CHECK(aclrtMemsetAsync(static_cast<uint8_t*>(s.buf) + i * 64, 64, i & 0xff, 4, stream));
    }
  }
}

void Replay(benchmark::State& state, bool kernels) {
  UseDevice0();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  aclmdlRI ri = nullptr;
  BENCH_CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  Issue(stream, kernels);
  BENCH_CHECK(aclmdlRICaptureEnd(stream, &ri));
  BENCH_CHECK(aclmdlRIExecuteAsync(ri, stream));  // warm-up
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      BENCH_CHECK(aclmdlRIExecuteAsync(ri, stream));
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0, kNodes);
    }
  }
  BENCH_CHECK(aclmdlRIDestroy(ri));
  BENCH_CHECK(aclrtDestroyStream(stream));
}

void StreamIssue(benchmark::State& state, bool kernels) {
  UseDevice0();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  Issue(stream, kernels);  // warm-up
  BENCH_CHECK(aclrtSynchronizeStream(stream));
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      Issue(stream, kernels);
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0, kNodes);
    }
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
}

void GraphReplay(benchmark::State& state) { Replay(state, true); }
void StreamIssueMixed(benchmark::State& state) { StreamIssue(state, true); }
void GraphReplayFill(benchmark::State& state) { Replay(state, false); }
void StreamIssueFill(benchmark::State& state) { StreamIssue(state, false); }

// Fixed iteration counts: a sample is a whole 1,000-task run, and the machine is shared.
BENCHMARK(GraphReplay)->Name("graph_replay_per_node_ns")->UseManualTime()->Iterations(300);
BENCHMARK(StreamIssueMixed)->Name("stream_issue_per_node_ns")->UseManualTime()->Iterations(300);
BENCHMARK(GraphReplayFill)->Name("graph_replay_fill_per_node_ns")->UseManualTime()->Iterations(300);
BENCHMARK(StreamIssueFill)->Name("stream_issue_fill_per_node_ns")->UseManualTime()->Iterations(300);

}  // namespace
}  // namespace npurt_bench
