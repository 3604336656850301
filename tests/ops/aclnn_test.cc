// The aclnn two-phase API end to end: tensors/scalars/arrays, GetWorkspaceSize + run for the operator
// set, repeatable executors with rebound addresses, and the errors for bad objects.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"
#include "acl_test_env.h"

namespace npurt_test {
namespace {

// A device tensor plus its aclTensor view.
struct NnTensor {
  DevTensor dev;
  aclTensor* t = nullptr;
  explicit NnTensor(const HostTensor& h) : dev(h) {
    std::vector<int64_t> strides(h.dims.size(), 1);
    for (size_t k = h.dims.size(); k-- > 1;) strides[k - 1] = strides[k] * h.dims[k];
    t = aclCreateTensor(h.dims.data(), h.dims.size(), h.dtype, strides.data(), 0, ACL_FORMAT_ND, h.dims.data(),
                        h.dims.size(), dev.dev);
  }
  ~NnTensor() { aclDestroyTensor(t); }
};

// ws/ex are read through pointers after `prep` (phase one) has filled them.
template <typename Run>
void Execute(aclrtStream stream, aclnnStatus prep, const uint64_t& ws, aclOpExecutor* const& ex, Run run) {
  ASSERT_EQ(prep, 0) << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(run(nullptr, ws, ex, stream), 0) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

TEST_F(OpApiTest, AclnnAddMulWithAlphaAndScalars) {
  NnTensor a(Random(ACL_FLOAT, {4, 8}, rng_)), b(Random(ACL_FLOAT, {8}, rng_)), out(HostTensor(ACL_FLOAT, {4, 8}));
  float alpha_v = 3.0f;
  aclScalar* alpha = aclCreateScalar(&alpha_v, ACL_FLOAT);
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  Execute(stream_, aclnnAddGetWorkspaceSize(a.t, b.t, alpha, out.t, &ws, &ex), ws, ex, aclnnAdd);
  std::vector<double> want(32);
  for (size_t i = 0; i < 32; ++i) want[i] = a.dev.host.at(i) + 3.0 * b.dev.host.at(i % 8);
  ExpectClose(out.dev.Read(), want, TolFor(ACL_FLOAT), "aclnnAdd");
  // The executor was consumed by its run.
  EXPECT_NE(aclnnAdd(nullptr, 0, ex, stream_), 0);

  double two = 2.0;
  aclScalar* s = aclCreateScalar(&two, ACL_DOUBLE);
  Execute(stream_, aclnnMulsGetWorkspaceSize(a.t, s, out.t, &ws, &ex), ws, ex, aclnnMuls);
  for (size_t i = 0; i < 32; ++i) want[i] = a.dev.host.at(i) * 2.0;
  ExpectClose(out.dev.Read(), want, TolFor(ACL_FLOAT), "aclnnMuls");
  Execute(stream_, aclnnInplaceAddGetWorkspaceSize(out.t, a.t, alpha, &ws, &ex), ws, ex, aclnnInplaceAdd);
  for (size_t i = 0; i < 32; ++i) want[i] = a.dev.host.at(i) * 5.0;
  ExpectClose(out.dev.Read(), want, TolFor(ACL_FLOAT), "aclnnInplaceAdd");
  aclDestroyScalar(alpha);
  aclDestroyScalar(s);
}

TEST_F(OpApiTest, AclnnMatmulSoftmaxGeluCastPermuteMeanLayerNormConv) {
  NnTensor a(Random(ACL_FLOAT, {2, 5, 7}, rng_, -1, 1)), b(Random(ACL_FLOAT, {2, 7, 3}, rng_, -1, 1));
  NnTensor mm(HostTensor(ACL_FLOAT, {2, 5, 3}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  Execute(stream_, aclnnMatmulGetWorkspaceSize(a.t, b.t, mm.t, 0, &ws, &ex), ws, ex, aclnnMatmul);
  std::vector<double> want(30, 0.0);
  for (int bt = 0; bt < 2; ++bt)
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 7; ++k) want[bt * 15 + i * 3 + j] += a.dev.host.at(bt * 35 + i * 7 + k) * b.dev.host.at(bt * 21 + k * 3 + j);
  ExpectClose(mm.dev.Read(), want, TolFor(ACL_FLOAT, 20), "aclnnMatmul");

  NnTensor sm(HostTensor(ACL_FLOAT, {2, 5, 7}));
  Execute(stream_, aclnnSoftmaxGetWorkspaceSize(a.t, -1, sm.t, &ws, &ex), ws, ex, aclnnSoftmax);
  HostTensor smv = sm.dev.Read();
  for (int r = 0; r < 10; ++r) {
    double s = 0;
    for (int k = 0; k < 7; ++k) s += smv.at(r * 7 + k);
    EXPECT_NEAR(s, 1.0, 1e-5);
  }
  NnTensor ge(HostTensor(ACL_FLOAT, {2, 5, 7}));
  Execute(stream_, aclnnGeluV2GetWorkspaceSize(a.t, 0, ge.t, &ws, &ex), ws, ex, aclnnGeluV2);
  std::vector<double> gw(70);
  for (size_t i = 0; i < 70; ++i) {
    const double x = a.dev.host.at(i);
    gw[i] = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  }
  ExpectClose(ge.dev.Read(), gw, TolFor(ACL_FLOAT, 2), "aclnnGeluV2");

  NnTensor half(HostTensor(ACL_FLOAT16, {2, 5, 7}));
  Execute(stream_, aclnnCastGetWorkspaceSize(a.t, ACL_FLOAT16, half.t, &ws, &ex), ws, ex, aclnnCast);
  ExpectClose(half.dev.Read(), a.dev.host.values(), TolFor(ACL_FLOAT16), "aclnnCast");

  const int64_t perm_v[] = {2, 0, 1};
  aclIntArray* perm = aclCreateIntArray(perm_v, 3);
  NnTensor pt(HostTensor(ACL_FLOAT, {7, 2, 5}));
  Execute(stream_, aclnnPermuteGetWorkspaceSize(a.t, perm, pt.t, &ws, &ex), ws, ex, aclnnPermute);
  HostTensor pv = pt.dev.Read();
  EXPECT_EQ(pv.at((3 * 2 + 1) * 5 + 4), a.dev.host.at((1 * 5 + 4) * 7 + 3));

  const int64_t dim_v[] = {1};
  aclIntArray* dims = aclCreateIntArray(dim_v, 1);
  NnTensor mean(HostTensor(ACL_FLOAT, {2, 7}));
  Execute(stream_, aclnnMeanGetWorkspaceSize(a.t, dims, false, ACL_FLOAT, mean.t, &ws, &ex), ws, ex, aclnnMean);
  std::vector<double> mw(14, 0.0);
  for (int bt = 0; bt < 2; ++bt)
    for (int i = 0; i < 5; ++i)
      for (int k = 0; k < 7; ++k) mw[bt * 7 + k] += a.dev.host.at(bt * 35 + i * 7 + k) / 5;
  ExpectClose(mean.dev.Read(), mw, TolFor(ACL_FLOAT, 2), "aclnnMean");

  const int64_t ns_v[] = {7};
  aclIntArray* ns = aclCreateIntArray(ns_v, 1);
  NnTensor ln(HostTensor(ACL_FLOAT, {2, 5, 7})), lmean(HostTensor(ACL_FLOAT, {2, 5, 1})), lrstd(HostTensor(ACL_FLOAT, {2, 5, 1}));
  Execute(stream_, aclnnLayerNormGetWorkspaceSize(a.t, ns, nullptr, nullptr, 1e-5, ln.t, lmean.t, lrstd.t, &ws, &ex),
          ws, ex, aclnnLayerNorm);
  HostTensor lr = lrstd.dev.Read(), lv = ln.dev.Read();
  for (int r = 0; r < 10; ++r) {
    double m = 0, v = 0;
    for (int k = 0; k < 7; ++k) m += a.dev.host.at(r * 7 + k) / 7;
    for (int k = 0; k < 7; ++k) v += std::pow(a.dev.host.at(r * 7 + k) - m, 2) / 7;
    EXPECT_NEAR(lr.at(r), 1 / std::sqrt(v + 1e-5), 1e-3 / std::sqrt(v + 1e-5));
    EXPECT_NEAR(lv.at(r * 7), (a.dev.host.at(r * 7) - m) / std::sqrt(v + 1e-5), 1e-4);
  }

  NnTensor x(Random(ACL_FLOAT, {1, 2, 6, 6}, rng_)), w(Random(ACL_FLOAT, {4, 2, 3, 3}, rng_)), y(HostTensor(ACL_FLOAT, {1, 4, 6, 6}));
  const int64_t one[] = {1, 1};
  aclIntArray* st = aclCreateIntArray(one, 2);
  aclIntArray* pad = aclCreateIntArray(one, 2);
  aclIntArray* dil = aclCreateIntArray(one, 2);
  aclIntArray* opad = aclCreateIntArray(one, 2);
  Execute(stream_, aclnnConvolutionGetWorkspaceSize(x.t, w.t, nullptr, st, pad, dil, false, opad, 1, y.t, 0, &ws, &ex),
          ws, ex, aclnnConvolution);
  HostTensor yv = y.dev.Read();
  double ref = 0;  // output (0, 2, 3, 3)
  for (int c = 0; c < 2; ++c)
    for (int ky = 0; ky < 3; ++ky)
      for (int kx = 0; kx < 3; ++kx) ref += x.dev.host.at((c * 6 + 2 + ky) * 6 + 2 + kx) * w.dev.host.at(((2 * 2 + c) * 3 + ky) * 3 + kx);
  EXPECT_NEAR(yv.at((2 * 6 + 3) * 6 + 3), ref, 1e-4);
  for (aclIntArray* arr : {perm, dims, ns, st, pad, dil, opad}) EXPECT_EQ(aclDestroyIntArray(arr), 0);
}

TEST_F(OpApiTest, AclnnRepeatableExecutorWithReboundAddresses) {
  NnTensor a(Random(ACL_FLOAT, {64}, rng_)), out(HostTensor(ACL_FLOAT, {64}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnReluGetWorkspaceSize(a.t, out.t, &ws, &ex), 0);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  ASSERT_EQ(aclnnRelu(nullptr, 0, ex, stream_), 0);
  DevTensor other(Random(ACL_FLOAT, {64}, rng_));
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, a.t, other.dev), 0);
  DevTensor out2(HostTensor(ACL_FLOAT, {64}));
  ASSERT_EQ(aclSetOutputTensorAddr(ex, 0, out.t, out2.dev), 0);
  ASSERT_EQ(aclnnRelu(nullptr, 0, ex, stream_), 0);
  ASSERT_EQ(aclDestroyAclOpExecutor(ex), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  HostTensor r1 = out.dev.Read(), r2 = out2.Read();
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_EQ(r1.at(i), std::max(0.0, a.dev.host.at(i)));
    EXPECT_EQ(r2.at(i), std::max(0.0, other.host.at(i)));
  }
  EXPECT_NE(aclnnRelu(nullptr, 0, ex, stream_), 0) << "destroyed executor";
}

TEST_F(OpApiTest, AclnnObjectsAndErrors) {
  const int64_t dims[] = {2, 3}, strides[] = {1, 2};
  int64_t* got = nullptr;
  uint64_t n = 0;
  DevTensor mem(HostTensor(ACL_FLOAT, {6}));
  aclTensor* t = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, mem.dev);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(aclGetViewStrides(t, &got, &n), 0);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(got[1], 2);
  delete[] got;
  aclDataType dt;
  ASSERT_EQ(aclGetDataType(t, &dt), 0);
  EXPECT_EQ(dt, ACL_FLOAT);
  // A transposed (non-contiguous) view is refused with a message.
  NnTensor out(HostTensor(ACL_FLOAT, {2, 3}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnReluGetWorkspaceSize(t, out.t, &ws, &ex), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("contiguous"), std::string::npos);
  NnTensor wrong(HostTensor(ACL_FLOAT, {3, 3}));
  NnTensor a(Random(ACL_FLOAT, {2, 3}, rng_));
  EXPECT_EQ(aclnnReluGetWorkspaceSize(a.t, wrong.t, &ws, &ex), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_EQ(aclDestroyTensor(t), 0);
  EXPECT_NE(aclDestroyTensor(t), 0) << "double destroy";
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr), nullptr);
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  const bool bools[] = {true, false};
  aclBoolArray* ba = aclCreateBoolArray(bools, 2);
  ASSERT_EQ(aclGetBoolArraySize(ba, &n), 0);
  EXPECT_EQ(n, 2u);
  EXPECT_NE(aclDestroyIntArray(reinterpret_cast<aclIntArray*>(ba)), 0) << "wrong array kind";
  EXPECT_EQ(aclDestroyBoolArray(ba), 0);
  const aclTensor* list_items[] = {a.t, out.t};
  aclTensorList* list = aclCreateTensorList(list_items, 2);
  ASSERT_EQ(aclGetTensorListSize(list, &n), 0);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(aclDestroyTensorList(list), 0);
}

}  // namespace
}  // namespace npurt_test
