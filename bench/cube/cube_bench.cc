// The cube side of Ascend C on the sim (issue 18).
//
// ascendc_matmul_1024_gflops  C (float) = A x B (half), 1024^3, all ND, written with the Matmul high-level API
//                             (lib/matmul_intf.h) and launched on the usedCoreNum blocks that the host SDK's
//                             MultiCoreMatmulTiling gives for the device's AI cores; launch + synchronize per call.
// onednn_matmul_1024_gflops   the same product on oneDNN, called directly: f16 x f16 -> f32 where this oneDNN
//                             implements it on this CPU; else (oneDNN 2.6 has no f16 matmul on x86) f32 x f32
//                             -> f32 of the same values (half converts to float exactly, so the products are the
//                             same); the counter onednn_f16 says which (1: f16).
// onednn_matmul_bf16_1024_gflops  oneDNN's bf16 x bf16 -> f32 matmul of the same shape, for reference (AMX;
//                             bf16 operands carry 8 significant bits to half's 11).
// collect.py: ascendc_matmul_over_onednn = ascendc_matmul_1024_gflops / onednn_matmul_1024_gflops, and
// ascendc_matmul_over_onednn_bf16 against the bf16 one (no target).
// The Matmul runs the cube's half product on AMX where the CPU and the process allow it (npurt_kernel/cube_amx.h;
// NPURT_SIM_CUBE_AMX=0 runs the AVX-512 path).
#include <cstring>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <vector>

#include "common/bench_util.h"
#include "cube_bench_kernels.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace npurt_bench {
namespace {

constexpr int kDim = 1024;
constexpr double kFlops = 2.0 * kDim * kDim * kDim;

std::vector<_Float16> RandomHalves(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<_Float16> v(n);
  for (auto& x : v) x = static_cast<_Float16>(dist(rng));
  return v;
}

void* ToDevice(const void* host, size_t bytes) {
  void* d = nullptr;
  BENCH_CHECK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  if (host != nullptr) BENCH_CHECK(aclrtMemcpy(d, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return d;
}

// One warm-up call, then one sample per call; the product's flops for collect.py's GFLOP/s.
template <typename Call>
void TimeCalls(benchmark::State& state, Call call) {
  call();
  {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      call();
      sampler.Add(NowNs() - t0);
    }
  }
  state.counters["flops_per_op"] = kFlops;
}

void BM_ascendc_matmul(benchmark::State& state) {
  UseDevice0();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  int64_t cores = 1;
  BENCH_CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  matmul_tiling::MultiCoreMatmulTiling api;
  api.SetDim(static_cast<int32_t>(cores));
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(kDim, kDim, kDim);
  api.SetOrgShape(kDim, kDim, kDim);
  api.SetBias(false);
  api.SetBufferSpace(-1, -1, -1);
  AscendC::tiling::TCubeTiling tiling;
  if (api.GetTiling(tiling) != 0) {
    state.SkipWithError("MultiCoreMatmulTiling::GetTiling failed");
    return;
  }
  const auto a = RandomHalves(size_t{kDim} * kDim, 1), b = RandomHalves(size_t{kDim} * kDim, 2);
  void* da = ToDevice(a.data(), a.size() * 2);
  void* db = ToDevice(b.data(), b.size() * 2);
  void* dc = ToDevice(nullptr, size_t{kDim} * kDim * 4);
  void* ws = ToDevice(nullptr, 16u << 20);
  void* dt = ToDevice(&tiling, sizeof tiling);
  const auto blocks = static_cast<uint32_t>(tiling.usedCoreNum);
  TimeCalls(state, [&] {
    BENCH_CHECK(BenchCubeMatmul(blocks, stream, da, db, dc, ws, dt));
    BENCH_CHECK(aclrtSynchronizeStream(stream));
  });
  state.counters["blocks"] = blocks;
  for (void* p : {da, db, dc, ws, dt}) BENCH_CHECK(aclrtFree(p));
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(BM_ascendc_matmul)->Name("ascendc_matmul_1024_gflops")->UseManualTime()->MinTime(2.0);

void BM_onednn_matmul(benchmark::State& state) {
  using dnnl::memory;
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  const auto a16 = RandomHalves(size_t{kDim} * kDim, 1), b16 = RandomHalves(size_t{kDim} * kDim, 2);
  auto out_md = memory::desc({kDim, kDim}, memory::data_type::f32, memory::format_tag::ab);
  auto f16_md = memory::desc({kDim, kDim}, memory::data_type::f16, memory::format_tag::ab);
  bool f16 = true;
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(f16_md, f16_md, out_md), eng);
  } catch (const dnnl::error&) {
    f16 = false;  // no f16 matmul in this oneDNN on this CPU: the same values as f32
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(out_md, out_md, out_md), eng);
  }
  dnnl::matmul mm(pd);
  std::vector<float> a(a16.begin(), a16.end()), b(b16.begin(), b16.end()), c(size_t{kDim} * kDim);
  const memory::desc& in_md = f16 ? f16_md : out_md;
  memory ma(in_md, eng, f16 ? const_cast<_Float16*>(a16.data()) : static_cast<void*>(a.data()));
  memory mb(in_md, eng, f16 ? const_cast<_Float16*>(b16.data()) : static_cast<void*>(b.data()));
  memory mc(out_md, eng, c.data());
  TimeCalls(state, [&] {
    mm.execute(strm, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    strm.wait();
  });
  state.counters["onednn_f16"] = f16 ? 1 : 0;
}
BENCHMARK(BM_onednn_matmul)->Name("onednn_matmul_1024_gflops")->UseManualTime()->MinTime(2.0);

// For reference: oneDNN's bf16 x bf16 -> f32 matmul of the same shape (AMX on CPUs that have it): a lower
// precision than the half product above, so not its baseline.
void BM_onednn_matmul_bf16(benchmark::State& state) {
  using dnnl::memory;
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  auto in_md = memory::desc({kDim, kDim}, memory::data_type::bf16, memory::format_tag::ab);
  auto out_md = memory::desc({kDim, kDim}, memory::data_type::f32, memory::format_tag::ab);
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(in_md, in_md, out_md), eng);
  } catch (const dnnl::error&) {
    state.SkipWithError("no bf16 matmul in this oneDNN on this CPU");
    return;
  }
  dnnl::matmul mm(pd);
  const auto a16 = RandomHalves(size_t{kDim} * kDim, 1), b16 = RandomHalves(size_t{kDim} * kDim, 2);
  std::vector<uint16_t> a(a16.size()), b(b16.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const float fa = a16[i], fb = b16[i];
    uint32_t ua, ub;
    std::memcpy(&ua, &fa, 4);
    std::memcpy(&ub, &fb, 4);
    a[i] = static_cast<uint16_t>(ua >> 16);
    b[i] = static_cast<uint16_t>(ub >> 16);
  }
  std::vector<float> c(size_t{kDim} * kDim);
  memory ma(in_md, eng, a.data()), mb(in_md, eng, b.data()), mc(out_md, eng, c.data());
  TimeCalls(state, [&] {
    mm.execute(strm, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    strm.wait();
  });
}
BENCHMARK(BM_onednn_matmul_bf16)->Name("onednn_matmul_bf16_1024_gflops")->UseManualTime()->MinTime(2.0);

}  // namespace
}  // namespace npurt_bench
