// CBLAS end to end: GemmEx (fp32, fp16, mixed fp16 -> fp32), Hgemm, S8gemm, the GEMV family, handles
// executed with aclopExecWithHandle, and the unsupported layouts/leading dimensions.
#include <gtest/gtest.h>

#include "acl/ops/acl_cblas.h"
#include "acl_test_env.h"

namespace npurt_test {
namespace {

std::vector<double> Gemm(const HostTensor& a, const HostTensor& b, const HostTensor& c, int m, int n, int k, bool ta,
                         bool tb, double alpha, double beta) {
  std::vector<double> out(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += a.at(ta ? p * m + i : i * k + p) * b.at(tb ? j * k + p : p * n + j);
      out[i * n + j] = alpha * s + beta * c.at(i * n + j);
    }
  return out;
}

HostTensor Scalar(aclDataType dt, double v) {
  HostTensor t(dt, {1});
  t.set(0, v);
  return t;
}

TEST_F(OpApiTest, GemmExFp32WithDeviceAlphaBetaAndTransposes) {
  const int m = 33, n = 20, k = 47;
  for (int t = 0; t < 4; ++t) {
    const bool ta = t & 1, tb = t & 2;
    DevTensor a(Random(ACL_FLOAT, ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, rng_, -1, 1));
    DevTensor b(Random(ACL_FLOAT, tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, rng_, -1, 1));
    DevTensor c(Random(ACL_FLOAT, {m, n}, rng_));
    DevTensor alpha(Scalar(ACL_FLOAT, 0.75)), beta(Scalar(ACL_FLOAT, 2.0));
    ASSERT_EQ(aclblasGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                            alpha.dev, a.dev, -1, ACL_FLOAT, b.dev, -1, ACL_FLOAT, beta.dev, c.dev, -1, ACL_FLOAT,
                            ACL_COMPUTE_HIGH_PRECISION, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectClose(c.Read(), Gemm(a.host, b.host, c.host, m, n, k, ta, tb, 0.75, 2.0), TolFor(ACL_FLOAT, 20), "GemmEx");
  }
}

TEST_F(OpApiTest, HgemmMixedPrecisionAndS8gemm) {
  const int m = 16, n = 16, k = 16;
  DevTensor a(Random(ACL_FLOAT16, {m, k}, rng_, -1, 1)), b(Random(ACL_FLOAT16, {k, n}, rng_, -1, 1));
  DevTensor c(Random(ACL_FLOAT16, {m, n}, rng_));
  const aclFloat16 one = aclFloatToFloat16(1.0f), zero = aclFloatToFloat16(0.0f);
  ASSERT_EQ(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &one, static_cast<aclFloat16*>(a.dev), -1,
                         static_cast<aclFloat16*>(b.dev), -1, &zero, static_cast<aclFloat16*>(c.dev), -1,
                         ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectClose(c.Read(), Gemm(a.host, b.host, c.host, m, n, k, false, false, 1, 0), TolFor(ACL_FLOAT16, 8), "Hgemm");
  // fp16 inputs, fp32 output (alpha/beta of the output type, in host memory).
  DevTensor c32(Random(ACL_FLOAT, {m, n}, rng_));
  const float alpha = 2.0f, beta = 1.0f;
  ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha, a.dev, -1, ACL_FLOAT16, b.dev, -1,
                          ACL_FLOAT16, &beta, c32.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectClose(c32.Read(), Gemm(a.host, b.host, c32.host, m, n, k, false, false, 2, 1), TolFor(ACL_FLOAT, 50),
              "GemmEx f16->f32");
  // int8 -> int32, exact.
  DevTensor ia(Random(ACL_INT8, {m, k}, rng_, -100, 100)), ib(Random(ACL_INT8, {k, n}, rng_, -100, 100));
  DevTensor ic(Random(ACL_INT32, {m, n}, rng_));
  const int32_t ialpha = 3, ibeta = -1;
  ASSERT_EQ(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &ialpha, static_cast<int8_t*>(ia.dev), -1,
                          static_cast<int8_t*>(ib.dev), -1, &ibeta, static_cast<int32_t*>(ic.dev), -1,
                          ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectClose(ic.Read(), Gemm(ia.host, ib.host, ic.host, m, n, k, false, false, 3, -1), {0, 0}, "S8gemm");
}

TEST_F(OpApiTest, GemvFamilyAndHandles) {
  const int m = 24, n = 40;
  DevTensor a(Random(ACL_FLOAT, {n, m}, rng_, -1, 1)), x(Random(ACL_FLOAT, {n}, rng_)), y(Random(ACL_FLOAT, {m}, rng_));
  const float alpha = 1.0f, beta = 0.5f;
  ASSERT_EQ(aclblasGemvEx(ACL_TRANS_T, m, n, &alpha, a.dev, -1, ACL_FLOAT, x.dev, 1, ACL_FLOAT, &beta, y.dev, 1,
                          ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectClose(y.Read(), Gemm(a.host, x.host, y.host, m, 1, n, true, false, 1, 0.5), TolFor(ACL_FLOAT, 20), "GemvEx");

  // A GEMM handle runs through aclopExecWithHandle with inputs (A, B, C, alpha, beta) and output C.
  aclopHandle* h = nullptr;
  ASSERT_EQ(aclblasCreateHandleForGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 8, 8, 8, ACL_FLOAT, ACL_FLOAT,
                                         ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  DevTensor ga(Random(ACL_FLOAT, {8, 8}, rng_)), gb(Random(ACL_FLOAT, {8, 8}, rng_)), gc(Random(ACL_FLOAT, {8, 8}, rng_));
  DevTensor al(Scalar(ACL_FLOAT, 1.0)), be(Scalar(ACL_FLOAT, 1.0));
  const aclDataBuffer* ins[] = {ga.buf, gb.buf, gc.buf, al.buf, be.buf};
  aclDataBuffer* outs[] = {gc.buf};
  ASSERT_EQ(aclopExecWithHandle(h, 5, ins, 1, outs, stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectClose(gc.Read(), Gemm(ga.host, gb.host, gc.host, 8, 8, 8, false, false, 1, 1), TolFor(ACL_FLOAT, 20), "handle");
  aclopDestroyHandle(h);
  for (auto create : {+[](aclopHandle** p) { return aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, 4, 4, 4, ACL_COMPUTE_LOW_PRECISION, p); },
                      +[](aclopHandle** p) { return aclblasCreateHandleForS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, ACL_COMPUTE_HIGH_PRECISION, p); },
                      +[](aclopHandle** p) { return aclblasCreateHandleForGemvEx(ACL_TRANS_N, 4, 4, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION, p); },
                      +[](aclopHandle** p) { return aclblasCreateHandleForHgemv(ACL_TRANS_N, 4, 4, ACL_COMPUTE_HIGH_PRECISION, p); },
                      +[](aclopHandle** p) { return aclblasCreateHandleForS8gemv(ACL_TRANS_T, 4, 4, ACL_COMPUTE_HIGH_PRECISION, p); }}) {
    aclopHandle* hh = nullptr;
    ASSERT_EQ(create(&hh), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclopDestroyHandle(hh);
  }
}

TEST_F(OpApiTest, CblasRejectsUnsupportedLayoutsAndBadArguments) {
  DevTensor a(Random(ACL_FLOAT, {8, 8}, rng_)), c(HostTensor(ACL_FLOAT, {8, 8}));
  const float one = 1.0f;
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 8, 8, 8, &one, a.dev, -1, ACL_FLOAT, a.dev, -1,
                          ACL_FLOAT, &one, c.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 8, 8, 8, &one, a.dev, 16, ACL_FLOAT, a.dev, -1,
                          ACL_FLOAT, &one, c.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 8, 8, 8, &one, a.dev, 4, ACL_FLOAT, a.dev, -1,
                          ACL_FLOAT, &one, c.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 0, 8, 8, &one, a.dev, -1, ACL_FLOAT, a.dev, -1,
                          ACL_FLOAT, &one, c.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM);
  // C larger than its allocation: refused before anything runs.
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 8, 16, 8, &one, a.dev, -1, ACL_FLOAT, a.dev, -1,
                          ACL_FLOAT, &one, c.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 8, 8, 8, nullptr, a.dev, -1, ACL_FLOAT, a.dev, -1,
                          ACL_FLOAT, &one, c.dev, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclblasGemvEx(ACL_TRANS_N, 8, 8, &one, a.dev, -1, ACL_FLOAT, a.dev, 2, ACL_FLOAT, &one, c.dev, 1,
                          ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

}  // namespace
}  // namespace npurt_test
