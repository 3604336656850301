// Operator data dump (docs/dump.md): the cost of one small operator (launch + run, stream synchronized
// every batch) with no dump configured, and with the operator dump on (dump_mode all: its two inputs and
// its output written as .npy files by the executing thread). The "off" figure is the price every program
// pays for the dump feature: one relaxed atomic load per launch.
#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr int kBatch = 64;
constexpr int64_t kElems = 1024;

int RemoveEntry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

void RunAdds(benchmark::State& state) {
  aclrtStream s = nullptr;
  BENCH_CHECK(aclrtCreateStream(&s));
  const int64_t dims[] = {kElems};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* mem = nullptr;
  BENCH_CHECK(aclrtMalloc(&mem, kElems * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> host(kElems, 0.5f);
  BENCH_CHECK(aclrtMemcpy(mem, kElems * sizeof(float), host.data(), kElems * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  aclDataBuffer* buf = aclCreateDataBuffer(mem, kElems * sizeof(float));
  const aclTensorDesc* d[] = {desc, desc};
  const aclTensorDesc* od[] = {desc};
  aclopHandle* h = nullptr;
  BENCH_CHECK(aclopCreateHandle("Add", 2, d, 1, od, nullptr, &h));
  const aclDataBuffer* in[] = {buf, buf};
  aclDataBuffer* out[] = {buf};
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(aclopExecWithHandle(h, 2, in, 1, out, s));
    BENCH_CHECK(aclrtSynchronizeStream(s));
    sampler.Add(NowNs() - t0, kBatch);
  }
  aclopDestroyHandle(h);
  aclDestroyDataBuffer(buf);
  aclDestroyTensorDesc(desc);
  BENCH_CHECK(aclrtFree(mem));
  BENCH_CHECK(aclrtDestroyStream(s));
}

void BM_op_dump_off_us(benchmark::State& state) {
  UseDevice0();
  RunAdds(state);
}
BENCHMARK(BM_op_dump_off_us)->Name("op_dump_off_us")->UseManualTime()->MinTime(1.0);

void BM_op_dump_on_us(benchmark::State& state) {
  UseDevice0();
  char dir[] = "/tmp/npurt_bench_dump_XXXXXX";
  if (mkdtemp(dir) == nullptr) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  const std::string cfg = std::string(dir) + "/dump.json";
  if (std::FILE* f = std::fopen(cfg.c_str(), "w")) {
    std::fprintf(f, "{\"dump\": {\"dump_path\": \"%s/out\", \"dump_op_switch\": \"on\", \"dump_mode\": \"all\"}}", dir);
    std::fclose(f);
  }
  BENCH_CHECK(aclmdlInitDump());
  BENCH_CHECK(aclmdlSetDump(cfg.c_str()));
  RunAdds(state);
  BENCH_CHECK(aclmdlFinalizeDump());
  nftw(dir, &RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
}
BENCHMARK(BM_op_dump_on_us)->Name("op_dump_on_us")->UseManualTime()->MinTime(1.0);

}  // namespace
}  // namespace npurt_bench
