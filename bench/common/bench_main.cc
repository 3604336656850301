// main() of every npurt benchmark executable: Google Benchmark's, plus aclFinalize at the end so that
// the runtime's threads are stopped before static destruction.
#include <mutex>

#include "bench_util.h"

namespace npurt_bench {
namespace {
std::once_flag g_init_once;
bool g_initialized = false;
}  // namespace

void UseDevice0() {
  std::call_once(g_init_once, [] {
    BENCH_CHECK(aclInit(nullptr));
    g_initialized = true;
  });
  thread_local bool set = false;
  if (!set) {
    BENCH_CHECK(aclrtSetDevice(0));
    set = true;
  }
}

}  // namespace npurt_bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (npurt_bench::g_initialized) {
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
  }
  return 0;
}
