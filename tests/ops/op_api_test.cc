// The single-operator API end to end on the simulated NPU: aclopExecuteV2, compile + execute, handles,
// casts, shape inference, compile options, and bad input that must fail cleanly with a message.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "acl/acl_op_compiler.h"
#include "acl_test_env.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the deprecated accessors are tested too

namespace npurt_test {
namespace {

::testing::Environment* const kEnv = ::testing::AddGlobalTestEnvironment(new AclEnv);

std::vector<double> AddRef(const HostTensor& a, const HostTensor& b) {
  std::vector<double> v(a.numel());
  for (size_t i = 0; i < v.size(); ++i) v[i] = a.at(i) + b.at(i % b.numel());
  return v;
}

std::string RecentError() {
  const char* m = aclGetRecentErrMsg();
  return m != nullptr ? m : "";
}

TEST_F(OpApiTest, ExecuteV2AddFp32AndFp16WithDynamicOutputShape) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
    DevTensor a(Random(dt, {8, 33}, rng_)), b(Random(dt, {33}, rng_));
    DevTensor out(HostTensor(dt, {8, 33}));
    const int64_t dyn[] = {-1, -1};
    aclTensorDesc* out_desc = aclCreateTensorDesc(dt, 2, dyn, ACL_FORMAT_ND);
    aclTensorDesc* in_desc[] = {a.desc, b.desc};
    aclDataBuffer* in_buf[] = {a.buf, b.buf};
    aclTensorDesc* out_descs[] = {out_desc};
    aclDataBuffer* out_buf[] = {out.buf};
    ASSERT_EQ(aclopExecuteV2("Add", 2, in_desc, in_buf, 1, out_descs, out_buf, nullptr, stream_), ACL_SUCCESS)
        << RecentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    int64_t d0 = 0;
    ASSERT_EQ(aclGetTensorDescDimV2(out_desc, 0, &d0), ACL_SUCCESS);
    EXPECT_EQ(d0, 8) << "aclopExecuteV2 fills dynamic output dims";
    ExpectClose(out.Read(), AddRef(a.host, b.host),
                dt == ACL_INT32 ? Tolerance{0, 0} : TolFor(dt), "Add");
    aclDestroyTensorDesc(out_desc);
  }
}

TEST_F(OpApiTest, CompileThenExecuteAndCompileAndExecuteV2) {
  DevTensor a(Random(ACL_FLOAT, {64}, rng_)), b(Random(ACL_FLOAT, {64}, rng_)), out(HostTensor(ACL_FLOAT, {64}));
  const aclTensorDesc* in_desc[] = {a.desc, b.desc};
  const aclTensorDesc* out_desc[] = {out.desc};
  ASSERT_EQ(aclopCompile("Mul", 2, in_desc, 1, out_desc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS);
  aclTensorDesc* in2[] = {a.desc, b.desc};
  aclTensorDesc* out2[] = {out.desc};
  aclDataBuffer* ib[] = {a.buf, b.buf};
  aclDataBuffer* ob[] = {out.buf};
  ASSERT_EQ(aclopExecuteV2("Mul", 2, in2, ib, 1, out2, ob, nullptr, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<double> want(64);
  for (size_t i = 0; i < 64; ++i) want[i] = a.host.at(i) * b.host.at(i);
  ExpectClose(out.Read(), want, TolFor(ACL_FLOAT), "Mul");

  aclopAttr* attr = aclopCreateAttr();
  ASSERT_EQ(aclopSetAttrFloat(attr, "alpha", -2.0f), ACL_SUCCESS);
  ASSERT_EQ(aclopCompileAndExecuteV2("Sub", 2, in2, ib, 1, out2, ob, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr,
                                     stream_),
            ACL_SUCCESS)
      << RecentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (size_t i = 0; i < 64; ++i) want[i] = a.host.at(i) + 2.0 * b.host.at(i);
  ExpectClose(out.Read(), want, TolFor(ACL_FLOAT), "Sub alpha");
  aclopDestroyAttr(attr);
  EXPECT_EQ(aclopCompile("Mul", 2, in_desc, 1, out_desc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, "x"),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// A dynamic-shape compile (-1 dims with shape ranges), then executions at shapes of the range (one seen twice):
// every result is right (the op compile cache compiles each new shape once, keyed by shape).
TEST_F(OpApiTest, DynamicShapeCompileThenExecutionsOfNewShapes) {
  const int64_t dyn[] = {-1, 16};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 2, dyn, ACL_FORMAT_ND);
  int64_t range[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{2, 64}, {16, 16}};
  ASSERT_EQ(aclSetTensorShapeRange(d, 2, range), ACL_SUCCESS);
  const aclTensorDesc* in_desc[] = {d, d};
  const aclTensorDesc* out_desc[] = {d};
  ASSERT_EQ(aclopCompile("Add", 2, in_desc, 1, out_desc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS)
      << RecentError();
  for (int64_t rows : {5, 33, 5, 64}) {
    DevTensor a(Random(ACL_FLOAT, {rows, 16}, rng_)), b(Random(ACL_FLOAT, {rows, 16}, rng_));
    DevTensor out(HostTensor(ACL_FLOAT, {rows, 16}));
    aclTensorDesc* in2[] = {a.desc, b.desc};
    aclTensorDesc* out2[] = {out.desc};
    aclDataBuffer* ib[] = {a.buf, b.buf};
    aclDataBuffer* ob[] = {out.buf};
    ASSERT_EQ(aclopExecuteV2("Add", 2, in2, ib, 1, out2, ob, nullptr, stream_), ACL_SUCCESS) << RecentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectClose(out.Read(), AddRef(a.host, b.host), TolFor(ACL_FLOAT), "Add");
  }
  // What cannot compile at any shape is refused at compile time, with the representative shape named.
  const int64_t other[] = {-1, 8};
  aclTensorDesc* e = aclCreateTensorDesc(ACL_FLOAT, 2, other, ACL_FORMAT_ND);
  const aclTensorDesc* bad_in[] = {d, e};
  EXPECT_NE(aclopCompile("Add", 2, bad_in, 1, out_desc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS);
  EXPECT_NE(RecentError().find("lower bound"), std::string::npos) << RecentError();
  // Unknown rank (-2): only the operator type can be checked.
  const int64_t unknown[] = {-2};
  aclTensorDesc* u = aclCreateTensorDesc(ACL_FLOAT, 1, unknown, ACL_FORMAT_ND);
  const aclTensorDesc* u_in[] = {u, u};
  const aclTensorDesc* u_out[] = {u};
  EXPECT_EQ(aclopCompile("Add", 2, u_in, 1, u_out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << RecentError();
  EXPECT_EQ(aclopCompile("NoSuchOp", 2, u_in, 1, u_out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_NOT_FOUND);
  for (aclTensorDesc* t : {d, e, u}) aclDestroyTensorDesc(t);
}

TEST_F(OpApiTest, HandlesRunRepeatedlyAndRejectMismatchedBuffers) {
  DevTensor x(Random(ACL_FLOAT, {4, 16}, rng_)), w(Random(ACL_FLOAT, {16, 8}, rng_)), y(HostTensor(ACL_FLOAT, {4, 8}));
  const aclTensorDesc* in_desc[] = {x.desc, w.desc};
  const aclTensorDesc* out_desc[] = {y.desc};
  aclopHandle* h = nullptr;
  ASSERT_EQ(aclopCreateHandle("MatMul", 2, in_desc, 1, out_desc, nullptr, &h), ACL_SUCCESS) << RecentError();
  const aclDataBuffer* ib[] = {x.buf, w.buf};
  aclDataBuffer* ob[] = {y.buf};
  for (int i = 0; i < 10; ++i) ASSERT_EQ(aclopExecWithHandle(h, 2, ib, 1, ob, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<double> want(32, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 16; ++k) want[i * 8 + j] += x.host.at(i * 16 + k) * w.host.at(k * 8 + j);
  ExpectClose(y.Read(), want, TolFor(ACL_FLOAT, 20), "MatMul handle");
  EXPECT_EQ(aclopExecWithHandle(h, 1, ib, 1, ob, stream_), ACL_ERROR_INVALID_PARAM);
  aclopDestroyHandle(h);
  EXPECT_EQ(aclopExecWithHandle(h, 2, ib, 1, ob, stream_), ACL_ERROR_INVALID_PARAM) << "stale handle";
  EXPECT_NE(RecentError().find("not a live operator handle"), std::string::npos);
}

// CANN's placeholder for an unused optional input: a descriptor of ACL_DT_UNDEFINED with a null data buffer
// (the classic acl_compile_and_execute_conv2d sample passes one for Conv2D's bias). Every entry point takes it.
TEST_F(OpApiTest, OmittedOptionalInputPlaceholderIsAcceptedEverywhere) {
  std::uniform_int_distribution<int64_t> dim(3, 17);
  const int64_t m = dim(rng_), k = dim(rng_), n = dim(rng_);
  DevTensor x(Random(ACL_FLOAT, {m, k}, rng_)), w(Random(ACL_FLOAT, {k, n}, rng_));
  std::vector<double> want(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t q = 0; q < k; ++q) want[i * n + j] += x.host.at(i * k + q) * w.host.at(q * n + j);
  aclTensorDesc* none = aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED);
  aclDataBuffer* none_buf = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(none, nullptr);
  ASSERT_NE(none_buf, nullptr);
  const aclTensorDesc* in_desc[] = {x.desc, w.desc, none};
  const aclDataBuffer* ib[] = {x.buf, w.buf, none_buf};
  {
    DevTensor y(HostTensor(ACL_FLOAT, {m, n}));
    const aclTensorDesc* out_desc[] = {y.desc};
    aclDataBuffer* ob[] = {y.buf};
    ASSERT_EQ(aclopExecuteV2("MatMul", 3, const_cast<aclTensorDesc**>(in_desc), const_cast<aclDataBuffer**>(ib), 1,
                             const_cast<aclTensorDesc**>(out_desc), ob, nullptr, stream_),
              ACL_SUCCESS)
        << RecentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectClose(y.Read(), want, TolFor(ACL_FLOAT, 20), "aclopExecuteV2 with an omitted bias");
  }
  {
    DevTensor y(HostTensor(ACL_FLOAT, {m, n}));
    const aclTensorDesc* out_desc[] = {y.desc};
    aclDataBuffer* ob[] = {y.buf};
    ASSERT_EQ(aclopCompile("MatMul", 3, in_desc, 1, out_desc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
              ACL_SUCCESS)
        << RecentError();
    ASSERT_EQ(aclopCompileAndExecute("MatMul", 3, in_desc, ib, 1, out_desc, ob, nullptr, ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, nullptr, stream_),
              ACL_SUCCESS)
        << RecentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectClose(y.Read(), want, TolFor(ACL_FLOAT, 20), "aclopCompileAndExecute with an omitted bias");
  }
  {
    DevTensor y(HostTensor(ACL_FLOAT, {m, n}));
    const aclTensorDesc* out_desc[] = {y.desc};
    aclDataBuffer* ob[] = {y.buf};
    aclopHandle* h = nullptr;
    ASSERT_EQ(aclopCreateHandle("MatMul", 3, in_desc, 1, out_desc, nullptr, &h), ACL_SUCCESS) << RecentError();
    ASSERT_EQ(aclopExecWithHandle(h, 3, ib, 1, ob, stream_), ACL_SUCCESS) << RecentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectClose(y.Read(), want, TolFor(ACL_FLOAT, 20), "a handle with an omitted bias");
    const aclDataBuffer* real[] = {x.buf, w.buf, x.buf};
    EXPECT_EQ(aclopExecWithHandle(h, 3, real, 1, ob, stream_), ACL_ERROR_INVALID_PARAM)
        << "a real buffer where the handle was compiled without the input";
    aclopDestroyHandle(h);
  }
  // A placeholder before an input that is given cannot be dropped: refused, with a message.
  DevTensor y(HostTensor(ACL_FLOAT, {m, n}));
  const aclTensorDesc* middle[] = {x.desc, none, w.desc};
  const aclTensorDesc* out_desc[] = {y.desc};
  EXPECT_EQ(aclopCompile("MatMul", 3, middle, 1, out_desc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(RecentError().find("omitted optional input"), std::string::npos) << RecentError();
  aclDestroyDataBuffer(none_buf);
  aclDestroyTensorDesc(none);
}

TEST_F(OpApiTest, CastAndCastHandle) {
  DevTensor src(Random(ACL_FLOAT, {100}, rng_, -1000, 1000)), dst(HostTensor(ACL_FLOAT16, {100}));
  ASSERT_EQ(aclopCast(src.desc, src.buf, dst.desc, dst.buf, 0, stream_), ACL_SUCCESS) << RecentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectClose(dst.Read(), src.host.values(), TolFor(ACL_FLOAT16), "Cast f32->f16");
  DevTensor back(HostTensor(ACL_INT32, {100}));
  aclopHandle* h = nullptr;
  ASSERT_EQ(aclopCreateHandleForCast(dst.desc, back.desc, 1, &h), ACL_SUCCESS);
  const aclDataBuffer* ib[] = {dst.buf};
  aclDataBuffer* ob[] = {back.buf};
  ASSERT_EQ(aclopExecWithHandle(h, 1, ib, 1, ob, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  HostTensor half = dst.Read();
  std::vector<double> want(100);
  for (size_t i = 0; i < 100; ++i) want[i] = std::trunc(half.at(i));
  ExpectClose(back.Read(), want, {0, 0}, "Cast f16->i32");
  aclopDestroyHandle(h);
}

TEST_F(OpApiTest, InferShapeAndTensorDescAccessors) {
  const int64_t da[] = {2, 1, 5}, db[] = {3, 1}, dyn[] = {-2};
  aclTensorDesc* a = aclCreateTensorDesc(ACL_FLOAT, 3, da, ACL_FORMAT_ND);
  aclTensorDesc* b = aclCreateTensorDesc(ACL_FLOAT, 2, db, ACL_FORMAT_ND);
  aclTensorDesc* o = aclCreateTensorDesc(ACL_FLOAT, 1, dyn, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescNumDims(o), static_cast<size_t>(ACL_UNKNOWN_RANK));
  aclTensorDesc* in[] = {a, b};
  aclTensorDesc* out[] = {o};
  ASSERT_EQ(aclopInferShape("Add", 2, in, nullptr, 1, out, nullptr), ACL_SUCCESS) << RecentError();
  ASSERT_EQ(aclGetTensorDescNumDims(o), 3u);
  EXPECT_EQ(aclGetTensorDescDim(o, 1), 3);
  EXPECT_EQ(aclGetTensorDescElementCount(o), 30u);
  EXPECT_EQ(aclGetTensorDescSize(o), 120u);
  EXPECT_EQ(aclGetTensorDescDim(o, 7), -1);
  aclSetTensorDescName(a, "lhs");
  EXPECT_STREQ(aclGetTensorDescName(a), "lhs");
  aclTensorDesc* t = nullptr;
  const int64_t nchw[] = {1, 3, 8, 9};
  aclTensorDesc* img = aclCreateTensorDesc(ACL_FLOAT16, 4, nchw, ACL_FORMAT_NCHW);
  ASSERT_EQ(aclTransTensorDescFormat(img, ACL_FORMAT_NHWC, &t), ACL_SUCCESS);
  EXPECT_EQ(aclGetTensorDescDim(t, 3), 3);
  EXPECT_EQ(aclGetTensorDescFormat(t), ACL_FORMAT_NHWC);
  int64_t range[2];
  int64_t ranges[][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 4}, {3, 3}, {8, 16}, {9, 9}};
  ASSERT_EQ(aclSetTensorShapeRange(img, 4, ranges), ACL_SUCCESS);
  ASSERT_EQ(aclGetTensorDescDimRange(img, 2, 2, range), ACL_SUCCESS);
  EXPECT_EQ(range[1], 16);
  float c = 1.5f;
  ASSERT_EQ(aclSetTensorConst(a, &c, sizeof(c)), ACL_SUCCESS);
  EXPECT_EQ(*static_cast<float*>(aclGetTensorDescAddress(a)), 1.5f);
  EXPECT_EQ(aclGetTensorDescByIndex(a, 0), a);
  for (aclTensorDesc* d : {a, b, o, t, img}) aclDestroyTensorDesc(d);
  // Stale and foreign descriptors are rejected, not dereferenced.
  EXPECT_EQ(aclGetTensorDescType(a), ACL_DT_UNDEFINED);
  int local = 0;
  EXPECT_EQ(aclGetTensorDescSize(reinterpret_cast<aclTensorDesc*>(&local)), 0u);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
}

TEST_F(OpApiTest, BadInputFailsCleanlyAndNeverWritesPastTheOutput) {
  DevTensor a(Random(ACL_FLOAT, {16}, rng_)), b(Random(ACL_FLOAT, {16}, rng_));
  // The output buffer claims 15 floats of a 16-float tensor; a guard pattern follows it.
  HostTensor guard(ACL_FLOAT, {32});
  for (size_t i = 0; i < 32; ++i) guard.set(i, 777.0);
  DevTensor out(guard);
  aclDataBuffer* small = aclCreateDataBuffer(out.dev, 15 * sizeof(float));
  const int64_t d16[] = {16};
  aclTensorDesc* od = aclCreateTensorDesc(ACL_FLOAT, 1, d16, ACL_FORMAT_ND);
  aclTensorDesc* in[] = {a.desc, b.desc};
  aclDataBuffer* ib[] = {a.buf, b.buf};
  aclTensorDesc* outd[] = {od};
  aclDataBuffer* ob[] = {small};
  EXPECT_EQ(aclopExecuteV2("Add", 2, in, ib, 1, outd, ob, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(RecentError().find("holds 60 bytes"), std::string::npos);
  // Null buffers, host memory, a foreign descriptor, unknown ops, bad attribute types.
  aclDataBuffer* nulls[] = {a.buf, nullptr};
  EXPECT_EQ(aclopExecuteV2("Add", 2, in, nulls, 1, outd, ob, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  std::vector<float> host(16);
  aclDataBuffer* hb = aclCreateDataBuffer(host.data(), 64);
  aclDataBuffer* hosts[] = {a.buf, hb};
  aclDataBuffer* good_out[] = {out.buf};
  EXPECT_EQ(aclopExecuteV2("Add", 2, in, hosts, 1, outd, good_out, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  const std::string host_error = RecentError();
  EXPECT_NE(host_error.find("device memory"), std::string::npos) << host_error;
  EXPECT_NE(host_error.find("input 1 "), std::string::npos) << "names the tensor: " << host_error;
  int junk = 0;
  aclTensorDesc* bad_in[] = {a.desc, reinterpret_cast<aclTensorDesc*>(&junk)};
  EXPECT_EQ(aclopExecuteV2("Add", 2, bad_in, ib, 1, outd, good_out, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopExecuteV2("Frobnicate", 2, in, ib, 1, outd, good_out, nullptr, stream_), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(RecentError().find("Frobnicate"), std::string::npos);
  aclopAttr* attr = aclopCreateAttr();
  ASSERT_EQ(aclopSetAttrString(attr, "alpha", "two"), ACL_SUCCESS);
  EXPECT_EQ(aclopExecuteV2("Add", 2, in, ib, 1, outd, good_out, attr, stream_), ACL_ERROR_OP_ATTR_NOT_MATCH);
  aclopDestroyAttr(attr);
  EXPECT_EQ(aclopSetAttrInt(attr, "x", 1), ACL_ERROR_INVALID_PARAM) << "destroyed attr";
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  HostTensor after = out.Read();
  for (size_t i = 0; i < 32; ++i) ASSERT_EQ(after.at(i), 777.0) << "nothing was written at " << i;
  aclDestroyDataBuffer(small);
  aclDestroyDataBuffer(hb);
  aclDestroyTensorDesc(od);
}

TEST_F(OpApiTest, DeviceSideFailureIsReportedBySynchronize) {
  DevTensor x(Random(ACL_FLOAT, {4, 3}, rng_)), out(HostTensor(ACL_FLOAT, {2, 3}));
  HostTensor idx(ACL_INT32, {2});
  idx.set(0, 1);
  idx.set(1, 9);  // out of range: detected when the operator runs
  DevTensor id(idx);
  aclTensorDesc* in[] = {x.desc, id.desc};
  aclDataBuffer* ib[] = {x.buf, id.buf};
  aclTensorDesc* od[] = {out.desc};
  aclDataBuffer* ob[] = {out.buf};
  ASSERT_EQ(aclopExecuteV2("Gather", 2, in, ib, 1, od, ob, nullptr, stream_), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(OpApiTest, CompileOptionsAndUnsupportedFeatures) {
  ASSERT_EQ(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"), ACL_SUCCESS);
  const size_t n = aclGetCompileoptSize(ACL_PRECISION_MODE);
  EXPECT_EQ(n, strlen("allow_fp32_to_fp16") + 1);
  std::vector<char> v(n);
  ASSERT_EQ(aclGetCompileopt(ACL_PRECISION_MODE, v.data(), n), ACL_SUCCESS);
  EXPECT_STREQ(v.data(), "allow_fp32_to_fp16");
  EXPECT_EQ(aclGetCompileopt(ACL_PRECISION_MODE, v.data(), 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclSetCompileopt(ACL_OP_COMPILER_CACHE_MODE, "sometimes"), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclSetCompileopt(ACL_OP_COMPILER_CACHE_MODE, "enable"), ACL_SUCCESS);
  EXPECT_EQ(aclSetCompileopt(static_cast<aclCompileOpt>(99), "x"), ACL_ERROR_INVALID_PARAM);
  // Single-operator models are tested in tests/models/op_model_load_test.cc; here only the refusals.
  EXPECT_EQ(aclopSetModelDir("no_such_op_models_dir"), ACL_ERROR_READ_MODEL_FAILURE);
  const char model[] = "model";
  EXPECT_EQ(aclopLoad(model, sizeof(model)), ACL_ERROR_PARSE_MODEL);
  EXPECT_EQ(aclopRegisterCompileFunc("MyOp", nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(RecentError().find("kernel engine"), std::string::npos);
  EXPECT_EQ(aclopCreateKernel("MyOp", "k", "k", nullptr, 0, ACL_ENGINE_AICORE, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace npurt_test
