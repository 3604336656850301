// Operator benchmarks (issue 6). Each npurt path runs beside its like-for-like oneDNN baseline in the
// same process, so the ratios in results.json come from one run:
//   gemm_1024_gflops          aclblasGemmEx fp32 1024^3 on a stream (submit + synchronize per call)
//   onednn_gemm_1024_gflops   the same GEMM as one oneDNN matmul primitive called directly
//   gemm_fp16_512_gflops      aclblasGemmEx fp16 in and out, fp32 compute, 512^3: the host backend runs it
//                             as fp32 with conversions around it, which this size makes visible
//   conv_resnet_gflops        aclopExecuteV2 Conv2D 3x3 64->64 56x56 N=1 NCHW (submit + synchronize)
//   onednn_conv_resnet_gflops the same convolution on oneDNN directly: "any"-layout primitive with the
//                             NCHW reorders in and out, as any caller holding NCHW tensors needs
//   op_dispatch_us            host cost of aclopExecWithHandle of a 1-element Add (batches of 256 calls)
//   op_cache_hit_us           host cost of aclopExecuteV2 of a 1-element Add whose key is cached
// GFLOP/s keys carry flops_per_op; collect.py divides it by the median time per operation.
#include <oneapi/dnnl/dnnl.hpp>

#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr int kN = 1024;

void* DeviceFilled(size_t bytes, float v) {
  void* d = nullptr;
  BENCH_CHECK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> h(bytes / 4, v);
  BENCH_CHECK(aclrtMemcpy(d, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return d;
}

// aclblasGemmEx n^3 with A, B and C of `dtype` and fp32 compute on a stream, submit + synchronize per call.
void RunGemmEx(benchmark::State& state, int n, aclDataType dtype) {
  UseDevice0();
  aclrtStream s = nullptr;
  BENCH_CHECK(aclrtCreateStream(&s));
  const size_t bytes = static_cast<size_t>(aclDataTypeSize(dtype)) * n * n;
  // Float patterns: as fp16 each half of 0.5f (0x3f000000) is finite too (0 and 1.75).
  void* a = DeviceFilled(bytes, 0.5f);
  void* b = DeviceFilled(bytes, 0.25f);
  void* c = DeviceFilled(bytes, 0.0f);
  const float alpha = 1.0f, beta = 0.0f;
  auto call = [&] {
    BENCH_CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, n, n, n, &alpha, a, -1, dtype, b, -1, dtype, &beta,
                              c, -1, dtype, ACL_COMPUTE_HIGH_PRECISION, s));
    BENCH_CHECK(aclrtSynchronizeStream(s));
  };
  call();  // compile + warm up
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    call();
    sampler.Add(NowNs() - t0);
  }
  state.counters["flops_per_op"] = 2.0 * n * n * n;
  aclrtFree(a), aclrtFree(b), aclrtFree(c);
  BENCH_CHECK(aclrtDestroyStream(s));
}

void BM_gemm_1024_gflops(benchmark::State& state) { RunGemmEx(state, kN, ACL_FLOAT); }
BENCHMARK(BM_gemm_1024_gflops)->Name("gemm_1024_gflops")->UseManualTime()->MinTime(2.0);

void BM_gemm_fp16_512_gflops(benchmark::State& state) { RunGemmEx(state, 512, ACL_FLOAT16); }
BENCHMARK(BM_gemm_fp16_512_gflops)->Name("gemm_fp16_512_gflops")->UseManualTime()->MinTime(2.0);

void BM_onednn_gemm_1024_gflops(benchmark::State& state) {
  using dnnl::memory;
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  auto md = memory::desc({kN, kN}, memory::data_type::f32, memory::format_tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(md, md, md), eng);
  dnnl::matmul mm(pd);
  std::vector<float> a(kN * kN, 0.5f), b(kN * kN, 0.25f), c(kN * kN);
  memory ma(md, eng, a.data()), mb(md, eng, b.data()), mc(md, eng, c.data());
  auto call = [&] {
    mm.execute(strm, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    strm.wait();
  };
  call();
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    call();
    sampler.Add(NowNs() - t0);
  }
  state.counters["flops_per_op"] = 2.0 * kN * kN * kN;
}
BENCHMARK(BM_onednn_gemm_1024_gflops)->Name("onednn_gemm_1024_gflops")->UseManualTime()->MinTime(2.0);

constexpr int64_t kC = 64, kH = 56, kW = 56, kK = 3;
const double kConvFlops = 2.0 * kC * kC * kK * kK * kH * kW;

void BM_conv_resnet_gflops(benchmark::State& state) {
  UseDevice0();
  aclrtStream s = nullptr;
  BENCH_CHECK(aclrtCreateStream(&s));
  const int64_t xd[] = {1, kC, kH, kW}, wd[] = {kC, kC, kK, kK};
  aclTensorDesc* xdesc = aclCreateTensorDesc(ACL_FLOAT, 4, xd, ACL_FORMAT_NCHW);
  aclTensorDesc* wdesc = aclCreateTensorDesc(ACL_FLOAT, 4, wd, ACL_FORMAT_NCHW);
  aclTensorDesc* ydesc = aclCreateTensorDesc(ACL_FLOAT, 4, xd, ACL_FORMAT_NCHW);
  const size_t xb = sizeof(float) * kC * kH * kW, wb = sizeof(float) * kC * kC * kK * kK;
  void* x = DeviceFilled(xb, 0.5f);
  void* w = DeviceFilled(wb, 0.1f);
  void* y = DeviceFilled(xb, 0.0f);
  aclDataBuffer* xbuf = aclCreateDataBuffer(x, xb);
  aclDataBuffer* wbuf = aclCreateDataBuffer(w, wb);
  aclDataBuffer* ybuf = aclCreateDataBuffer(y, xb);
  aclopAttr* attr = aclopCreateAttr();
  const int64_t strides[] = {1, 1, 1, 1}, pads[] = {1, 1, 1, 1};
  BENCH_CHECK(aclopSetAttrListInt(attr, "strides", 4, strides));
  BENCH_CHECK(aclopSetAttrListInt(attr, "pads", 4, pads));
  BENCH_CHECK(aclopSetAttrString(attr, "data_format", "NCHW"));
  aclTensorDesc* in_desc[] = {xdesc, wdesc};
  aclDataBuffer* in_buf[] = {xbuf, wbuf};
  aclTensorDesc* out_desc[] = {ydesc};
  aclDataBuffer* out_buf[] = {ybuf};
  auto call = [&] {
    BENCH_CHECK(aclopExecuteV2("Conv2D", 2, in_desc, in_buf, 1, out_desc, out_buf, attr, s));
    BENCH_CHECK(aclrtSynchronizeStream(s));
  };
  call();
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    call();
    sampler.Add(NowNs() - t0);
  }
  state.counters["flops_per_op"] = kConvFlops;
  aclopDestroyAttr(attr);
  for (auto* d : {xdesc, wdesc, ydesc}) aclDestroyTensorDesc(d);
  for (auto* b : {xbuf, wbuf, ybuf}) aclDestroyDataBuffer(b);
  aclrtFree(x), aclrtFree(w), aclrtFree(y);
  BENCH_CHECK(aclrtDestroyStream(s));
}
BENCHMARK(BM_conv_resnet_gflops)->Name("conv_resnet_gflops")->UseManualTime()->MinTime(2.0);

void BM_onednn_conv_resnet_gflops(benchmark::State& state) {
  using dnnl::memory;
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  const memory::dims xd = {1, kC, kH, kW}, wd = {kC, kC, kK, kK};
  auto ux = memory::desc(xd, memory::data_type::f32, memory::format_tag::nchw);
  auto uw = memory::desc(wd, memory::data_type::f32, memory::format_tag::oihw);
  auto ax = memory::desc(xd, memory::data_type::f32, memory::format_tag::any);
  auto aw = memory::desc(wd, memory::data_type::f32, memory::format_tag::any);
  dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, ax, aw,
                                      ax, {1, 1}, {0, 0}, {1, 1}, {1, 1}),
      eng);
  dnnl::convolution_forward conv(pd);
  std::vector<float> x(kC * kH * kW, 0.5f), w(kC * kC * kK * kK, 0.1f), y(kC * kH * kW);
  memory mx(ux, eng, x.data()), mw(uw, eng, w.data()), my(ux, eng, y.data());
  memory ix = pd.src_desc() != ux ? memory(pd.src_desc(), eng) : mx;
  memory iw = pd.weights_desc() != uw ? memory(pd.weights_desc(), eng) : mw;
  memory iy = pd.dst_desc() != ux ? memory(pd.dst_desc(), eng) : my;
  auto call = [&] {
    if (ix != mx) dnnl::reorder(mx, ix).execute(strm, mx, ix);
    if (iw != mw) dnnl::reorder(mw, iw).execute(strm, mw, iw);
    conv.execute(strm, {{DNNL_ARG_SRC, ix}, {DNNL_ARG_WEIGHTS, iw}, {DNNL_ARG_DST, iy}});
    if (iy != my) dnnl::reorder(iy, my).execute(strm, iy, my);
    strm.wait();
  };
  call();
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    call();
    sampler.Add(NowNs() - t0);
  }
  state.counters["flops_per_op"] = kConvFlops;
}
BENCHMARK(BM_onednn_conv_resnet_gflops)->Name("onednn_conv_resnet_gflops")->UseManualTime()->MinTime(2.0);

// A 1-element Add on device memory, for the host-side dispatch costs.
struct TinyAdd {
  aclTensorDesc* desc;
  void* mem;
  aclDataBuffer* buf;
  TinyAdd() {
    const int64_t d[] = {1};
    desc = aclCreateTensorDesc(ACL_FLOAT, 1, d, ACL_FORMAT_ND);
    mem = DeviceFilled(64, 1.0f);
    buf = aclCreateDataBuffer(mem, 4);
  }
  ~TinyAdd() {
    aclDestroyTensorDesc(desc);
    aclDestroyDataBuffer(buf);
    aclrtFree(mem);
  }
};

constexpr int kBatch = 256;

void BM_op_dispatch_us(benchmark::State& state) {
  UseDevice0();
  aclrtStream s = nullptr;
  BENCH_CHECK(aclrtCreateStream(&s));
  TinyAdd t;
  const aclTensorDesc* d[] = {t.desc, t.desc};
  const aclTensorDesc* od[] = {t.desc};
  aclopHandle* h = nullptr;
  BENCH_CHECK(aclopCreateHandle("Add", 2, d, 1, od, nullptr, &h));
  const aclDataBuffer* in[] = {t.buf, t.buf};
  aclDataBuffer* out[] = {t.buf};
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(aclopExecWithHandle(h, 2, in, 1, out, s));
    sampler.Add(NowNs() - t0, kBatch);
    BENCH_CHECK(aclrtSynchronizeStream(s));  // outside the timed region: host cost only
  }
  aclopDestroyHandle(h);
  BENCH_CHECK(aclrtDestroyStream(s));
}
BENCHMARK(BM_op_dispatch_us)->Name("op_dispatch_us")->UseManualTime()->MinTime(1.0);

void BM_op_cache_hit_us(benchmark::State& state) {
  UseDevice0();
  aclrtStream s = nullptr;
  BENCH_CHECK(aclrtCreateStream(&s));
  TinyAdd t;
  aclTensorDesc* d[] = {t.desc, t.desc};
  aclTensorDesc* od[] = {t.desc};
  aclDataBuffer* in[] = {t.buf, t.buf};
  aclDataBuffer* out[] = {t.buf};
  BENCH_CHECK(aclopExecuteV2("Add", 2, d, in, 1, od, out, nullptr, s));  // compiles the key once
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    for (int i = 0; i < kBatch; ++i) BENCH_CHECK(aclopExecuteV2("Add", 2, d, in, 1, od, out, nullptr, s));
    sampler.Add(NowNs() - t0, kBatch);
    BENCH_CHECK(aclrtSynchronizeStream(s));
  }
  BENCH_CHECK(aclrtDestroyStream(s));
}
BENCHMARK(BM_op_cache_hit_us)->Name("op_cache_hit_us")->UseManualTime()->MinTime(1.0);

}  // namespace
}  // namespace npurt_bench
